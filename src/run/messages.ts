/** What a run says (a push, a commit, a manual run, a CI job's run): its plan, verdicts, skips and caches. Each sentence says the next step. */
import type { HookName } from '../types.js';
import type { GateResult, RunnerInfo } from '../gates/result.js';
import type { Plan, PlanOrder } from '../route/route.js';
import type { TierPrediction } from '../ledger/predict.js';
import { shown, shownLines, shownOutputLine, stripAnsi } from '../util/escape.js';
import { shellQuoted } from '../util/shell-words.js';
import {
  BYPASS,
  type Voice,
  isCommit,
  isManual,
  blocked,
  bypass,
  again,
  change,
  type Exec,
  npx,
  clipped,
  TOO_LONG_SAID,
  LINT_STAGED_SAID,
  missingPackage,
} from '../util/messages.js';
import { lintStagedNext } from '../lint-staged/messages.js';

/** An error the patch did not cause: not a verdict on it; install what is missing, or fix the tier or what it needs. */
const errorNext = (r: GateResult, configFile: string, hook?: Voice): string[] => {
  const missing = r.reason === undefined ? undefined : missingPackage(r.reason);
  return [
    '  This is not a verdict on the patch: the check itself did not complete.',
    missing === undefined
      ? harnessNext(r, configFile, hook)
      : missing.python
        ? `  A Python module it needs, ${shown(missing.name)}, is not there: run it in the project's environment (activate its virtualenv, or install its requirements), then ${again(hook)} again.`
        : `  A package it needs, ${shown(missing.name)}, is not installed here: install the project's dependencies (\`npm ci\`, or your package manager's install), then ${again(hook)} again.`,
  ];
};

/** After the fix: what the user does next, in the voice of the hook (`stage it, and commit again`). */
const thenAgain = (hook?: Voice) =>
  isCommit(hook) ? 'stage it, and commit again' : isManual(hook) ? 'then run it again' : 'commit, and push again';

/** A test binary the code under test ended mid-run (go's log.Fatal, Rust's abort): the patch's, likely; how to find where is in the reason. */
const stoppedNext = (r: GateResult, hook?: Voice): string[] => [
  r.causeFile !== undefined
    ? `  The ${change(hook)} changed ${shown(r.causeFile)}, and the code under test ended the test process before its tests reported (it exited or aborted, as said above): likely the patch, not the harness.`
    : `  The code under test ended the test process before its tests reported (it exited or aborted, as said above), and the ${change(hook)} changed that code: likely the patch, not the harness.`,
  `  Find where it stops (the command above shows it), fix it, ${thenAgain(hook)}.`,
];

const harnessNext = (r: GateResult, configFile: string, hook?: Voice): string => {
  const lintStaged = r.reason === undefined ? undefined : lintStagedNext(r.reason);
  if (lintStaged !== undefined) return `  ${lintStaged}, then ${again(hook)} again.`;
  return r.reason?.startsWith(LINT_STAGED_SAID)
    ? `  Put the repository in order as lint-staged says above (\`git status\`; a backup it kept is in \`git stash list\`), then ${again(hook)} again.`
    : r.reason?.startsWith(TOO_LONG_SAID)
      ? `  Its \`{changed}\` paths make it that long: narrow the tier's GLOB in ${shown(configFile)} (\`{changed:src/**}\`), or leave the tier out this once: ${skipOnce(r.tier, hook)}.`
      : `  Fix the tier in ${shown(configFile)} or what it needs (or, if the patch makes the check hang or crash, the patch), then ${again(hook)} again.`;
};

/** GATE_LADDER_SKIP for one tier, as the hook's user types it. */
const skipOnce = (tier: string, hook?: Voice): string => {
  const env = `GATE_LADDER_SKIP=${shown(tier)}`;
  return isCommit(hook) ? `\`${env} git commit\`` : hook === 'pre-push' ? `\`${env} git push\`` : `${env} in the environment`;
};

/** A ref as people write it: `origin/main`, `main`, not refs/remotes/origin/main. */
const shortRef = (ref: string) => ref.replace(/^refs\/(?:remotes|heads)\//, '');

export const msg = {
  bypassed: () => 'gate-ladder: GATE_LADDER=0, skipping every gate.',
  notRepo: (cwd: string, refused?: string) =>
    refused === undefined
      ? `gate-ladder: ${shown(cwd)} is not inside a git work tree. Run it from a repository.`
      : `gate-ladder: git refuses the repository at ${shown(refused)}: another user owns it (git's safe.directory check), so nothing was checked. If you trust it: \`git config --global --add safe.directory ${shown(shellQuoted(refused))}\`, then run it again.`,
  noConfig: (exec: Exec = npx) =>
    `gate-ladder: no config found (gate-ladder.config.ts, .gate-ladderrc, or a "gate-ladder" key in package.json); nothing was checked. Create one with \`${exec('gate-ladder install')}\`.`,
  invalidConfig: (problems: readonly string[], hook?: HookName, exec: Exec = npx) =>
    [
      `gate-ladder: the config has ${problems.length} problem${problems.length === 1 ? '' : 's'}; no gate ran:`,
      ...problems.map((p) => `  - ${shownLines(p)}`),
      `Fix ${problems.length === 1 ? 'it' : 'them'} and try again (\`${exec('gate-ladder run --dry-run')}\` checks the config; \`${exec('gate-ladder help config')}\` lists the fields).${bypass(hook) ? ` ${bypass(hook)}` : ''}`,
    ].join('\n'),
  badStdin: (lines: readonly string[]) =>
    `gate-ladder: push blocked: ${lines.length} line(s) of pre-push input are not "<local ref> <sha> <remote ref> <sha>" (first: ${shown(JSON.stringify(clipped(lines[0] ?? '')))}), so gate-ladder cannot tell what is pushed. Is the hook called by git? ${BYPASS}`,
  nothingToTest: (ref: string, why: string) => `gate-ladder: ${shown(ref)}: ${shown(why)}.`,
  rangeError: (ref: string, reason: string, hook?: Voice) =>
    `gate-ladder: ${blocked(hook)}cannot tell what ${shown(ref)} changes: ${shown(reason)}. This says nothing about the patch.${bypass(hook) ? ` ${bypass(hook)}` : ''}`,
  isolated: (head: string, why: string, lintStaged = false) =>
    lintStaged
      ? `gate-ladder: command tiers run in a temporary worktree at ${head.slice(0, 12)} (${shown(why)}); lint-staged tiers run in your working tree (lint-staged hides unstaged changes, may fix and stage files, and restores the rest).`
      : `gate-ladder: gates run in a temporary worktree at ${head.slice(0, 12)} (${shown(why)}); your working tree is not touched.`,
  /** `base` undefined: nothing to compare with (a first push of this history, a root commit): every file counts. */
  target: (ref: string, head: string, base: string | undefined, files: number, named?: { rev: string; mergeBase: boolean }) =>
    `gate-ladder: ${shown(ref)} at ${head.slice(0, 12)}: ${files} changed path${files === 1 ? '' : 's'} ${base === undefined ? '(nothing earlier to compare with: every file of the commit)' : `since ${base.slice(0, 12)}${named === undefined || named.rev === base ? '' : named.mergeBase ? ` (where it meets ${shown(shortRef(named.rev))})` : ` (${shown(shortRef(named.rev))})`}`}`,
  sameAs: (refs: readonly string[]) =>
    `gate-ladder: ${refs.map(shown).join(', ')} point${refs.length === 1 ? 's' : ''} at the same commit: tested once.`,
  routed: (tier: string, reason: string) => `gate-ladder: t0-scope skips ${shown(tier)}: ${shown(reason)}`,
  /** A tier whose `{changed}` list is empty for this change: nothing for it to check (its rows say `skipped_no_changed`). */
  noChanged: (tier: string, reason: string) =>
    `gate-ladder: ${shown(tier)} skipped: ${shown(reason)}, so nothing of this push is for it to check (if it should run, widen the glob of its \`{changed:...}\` in the config).`,
  /** A tier whose `paths` no path of this change matches (its rows say `skipped_no_changed`). */
  noPaths: (tier: string, reason: string) =>
    `gate-ladder: ${shown(tier)} skipped: ${shown(reason)}, so nothing of this push is for it to check (if it should run, widen its \`paths\` in the config).`,
  noTiers: () => 'gate-ladder: no tier runs for this change; allowed.',
  passed: (ref: string, tiers: number, seconds: number) =>
    `gate-ladder: ${shown(ref)}: ${tiers} tier${tiers === 1 ? '' : 's'} passed in ${seconds.toFixed(1)} s.`,
  // A blocked push or commit ends with a short block of its own (run.ts colours it): what stopped it, whose fault, the next step.
  caught: (ref: string, r: GateResult, hook?: Voice) =>
    [
      `gate-ladder: ${blocked(hook)}${shown(r.tier)} caught a problem in ${shown(ref)} (exit ${r.exitCode}: ${r.runner?.runner ? 'a test failed' : 'the check failed'}).`,
      `  The patch is wrong: fix it, ${thenAgain(hook)}.`,
      ...(bypass(hook) ? [`  ${bypass(hook)}`] : []),
    ].join('\n'),
  error: (ref: string, r: GateResult, configFile: string, hook?: Voice) =>
    [
      `gate-ladder: ${blocked(hook)}${shown(r.tier)} could not give a verdict on ${shown(ref)}: ${shown(r.reason ?? 'harness error')}.`,
      ...(r.cause === 'patch' && r.causeStopped
        ? stoppedNext(r, hook)
        : r.cause === 'patch' && r.causeFile !== undefined
          ? [
              r.causeScript !== undefined
                ? `  The ${change(hook)} changed ${shown(r.causeFile)}, which no longer has the "${shown(r.causeScript)}" script the tier runs: the patch broke the harness.`
                : r.causeCommand !== undefined
                  ? `  The ${change(hook)} changed ${shown(r.causeFile)}, whose scripts now run \`${shown(r.causeCommand)}\`, a command not found here: the patch broke the harness (a typo, or a tool to install).`
                  : `  The ${change(hook)} changed ${shown(r.causeFile)}, which cannot load${r.causeLine === undefined ? '' : ` (line ${r.causeLine})`}: the patch broke the harness.`,
              `  Fix ${shown(r.causeFile)}, ${thenAgain(hook)}.`,
            ]
          : errorNext(r, configFile, hook)),
      ...(bypass(hook) ? [`  ${bypass(hook)}`] : []),
    ].join('\n'),
  interrupted: () => 'gate-ladder: interrupted; the gates were stopped and the rows so far are in the ledger.',
  needBase: () => 'gate-ladder: no base to compare with. Pass `--base <rev>` (e.g. `--base origin/main`), or set `base` in the config.',
  badRev: (rev: string) => `gate-ladder: ${shown(rev)} is not a commit in this repository. Check the revision and try again.`,
  noCommits: () =>
    'gate-ladder: this repository has no commits yet, so there is no change to judge. Make a first commit, then run it again (or `--base <rev> --head <rev>` to judge a range).',
  ledgerAt: (path: string) => `gate-ladder: ledger: ${shown(path)}`,
  calibrating: (rate: number) =>
    `gate-ladder: calibration run (config calibrate: ${rate}): every planned tier runs whatever the verdicts; its rows are flagged and never count in yield. Set calibrate to 0 to stop.`,
  cachedPass: (ref: string, tiers: readonly string[], tree: string, runs: readonly string[], hook?: HookName) =>
    `gate-ladder: ${shown(ref)}: tree ${tree.slice(0, 12)} already passed ${tiers.map(shown).join(', ')} under this config (run ${[...new Set(runs)].join(', ')}); no gate ran. ${noCacheHint(hook)} runs them anyway.`,
  uncommittedNotJudged: (paths: number) =>
    `gate-ladder: --dry-run judged commits only; ${paths === 1 ? '1 path has' : `${paths} paths have`} uncommitted changes (\`git status\` lists ${paths === 1 ? 'it' : 'them'}), which ${paths === 1 ? 'is' : 'are'} not in it: commit them, then run it again to see them judged.`,
  wouldReuse: (runs: readonly string[]) =>
    `  cached: this tree already passed every planned tier (run ${[...new Set(runs)].join(', ')}); no gate would run (--no-cache to force)`,
};

/** How to skip the tree cache: a flag on the command line, the variable through a hook (`git push` passes no flags on). */
const noCacheHint = (hook?: HookName) =>
  hook === 'pre-push'
    ? '`GATE_LADDER_NO_CACHE=1 git push`'
    : hook === 'pre-commit'
      ? '`GATE_LADDER_NO_CACHE=1 git commit`'
      : '`gate-ladder run --no-cache`';

/** The run's switches for one push (environment variables, since `git push` passes no flags to the hook) and its empty diffs. */
export const runMsg = {
  failedOutsideCommit: (tier: string, files: readonly string[]) =>
    `gate-ladder: ${shown(tier)}: ${files.length === 1 ? 'a failed test is' : 'failed tests are'} in ${files.map(shown).join(', ')}, which the commit judged does not hold: ${files.length === 1 ? 'a file' : 'files'} only your checkout has (untracked), where the gates ran. Commit ${files.length === 1 ? 'it' : 'them'} with the fix, or move ${files.length === 1 ? 'it' : 'them'} away, and run again.`,
  envSkipped: (tiers: readonly string[]) =>
    `gate-ladder: GATE_LADDER_SKIP: not running ${tiers.map(shown).join(', ')} for this run (their rows say \`skipped_by_env\`).`,
  envSkipUnknown: (names: readonly string[], known: readonly string[]) =>
    `gate-ladder: GATE_LADDER_SKIP names ${names.map((n) => shown(JSON.stringify(n))).join(', ')}, which ${names.length === 1 ? 'is' : 'are'} not a tier of this config (tiers: ${known.map(shown).join(', ')}); ignored.`,
  noCache: () => 'gate-ladder: GATE_LADDER_NO_CACHE: every planned gate runs; the tree cache is neither read nor written.',
  envOutputUnknown: (value: string, modes: readonly string[]) =>
    `gate-ladder: GATE_LADDER_OUTPUT is ${shown(JSON.stringify(value))}, which is not one of ${modes.join(', ')}; ignored (the config's \`output\` applies).`,
  emptyDiff: (ref: string) =>
    `gate-ladder: ${shown(ref)}: the change is empty (no path differs from its base), so there is nothing to judge; no tier ran. Set \`runOnEmpty: true\` in the config to run the tiers anyway.`,
};

/** config `output: 'summary'`: the lines around a blocked tier's one screen of output. */
export const outputMsg = {
  /** A tier interrupted under `output: 'summary'`: what it printed until then is in its log. */
  soFar: (tier: string, log: string) => `gate-ladder: the output of ${shown(tier)} until it was stopped: ${shown(log)}`,
  /**
   * A blocked tier's failed tests, one a line (at most 10): where, which, and the first line of what it said; then
   * how many more failed: of `total` (the runner's count, when more failed than the list holds), not of the list.
   */
  failedTests: (
    failures: readonly { id: string; title?: string; file?: string; line?: number; message: string }[],
    total = failures.length,
  ) => [
    ...failures
      .slice(0, 10)
      .map(
        (f) =>
          `  failed: ${f.file !== undefined ? `${shown(f.file)}${f.line !== undefined ? `:${f.line}` : ''} ${shown(f.title ?? f.id)}` : shown(f.id)}: ${shownOutputLine(clipped(stripAnsi(f.message).split('\n')[0] ?? ''))}`,
      ),
    ...moreFailed(Math.min(failures.length, 10), failures.length, Math.max(total, failures.length)),
  ],
  /** After the chosen lines: how much was left out, and where the whole output is. */
  leftOut: (tier: string, shownLines: number, total: number, log: string | undefined, cut?: number) =>
    log !== undefined && cut !== undefined
      ? `gate-ladder: the output of ${shown(tier)} (${total} line${total === 1 ? '' : 's'}) is longer than a log keeps: its first ${Math.round(cut / (1 << 20))} MiB are in ${shown(log)}; run the tier's command to see the rest, or set GATE_LADDER_OUTPUT=all.`
      : log === undefined
        ? `gate-ladder: ${total - shownLines} of the ${total} output lines of ${shown(tier)} left out; the whole output could not be kept in a log (the git dir is not writable): run the tier's command to see it, or set GATE_LADDER_OUTPUT=all.`
        : total > shownLines
          ? `gate-ladder: ${total - shownLines} of the ${total} output lines of ${shown(tier)} left out; all of them: ${shown(log)} (or GATE_LADDER_OUTPUT=all to see them as they come).`
          : `gate-ladder: the whole output of ${shown(tier)} (${total} line${total === 1 ? '' : 's'}) is also in ${shown(log)}.`,
};

/** The line after a blocked tier's first failed tests: how many more failed, and where the rest are named. */
function moreFailed(shownCount: number, listed: number, total: number): string[] {
  const more = total - shownCount;
  if (more <= 0) return [];
  if (listed >= total) return [`  ... and ${more} more failed tests (\`run --json\` lists them)`];
  return [
    `  ... and ${more} more failed tests, ${total} in all (\`run --json\` lists the first ${listed}; the tier's output names the rest: its log, or run the tier's command)`,
  ];
}

/** The plan as lines of text, for `--dry-run`; `runners`: which profile reads each running tier, and why. */
export function planLines(plan: Plan, runners?: ReadonlyMap<string, RunnerInfo>): string[] {
  const lines = [`  changed paths: ${plan.fileCount}`];
  for (const hit of plan.hits.slice(0, 10)) lines.push(`  test-adjacent: ${shown(hit.path)} (matches ${shown(hit.marker)})`);
  if (plan.hits.length > 10) lines.push(`  test-adjacent: … and ${plan.hits.length - 10} more`);
  for (const t of plan.tiers) {
    lines.push(`  ${t.run ? 'run ' : 'skip'} ${shown(t.tier.name)}${t.reason ? `: ${shown(t.reason)}` : ''}`);
    if (t.run && t.command !== undefined)
      lines.push(`       command: ${shown(typeof t.command === 'string' ? t.command : JSON.stringify(t.command))}`);
    const r = runners?.get(t.tier.name);
    if (r) lines.push(`       runner: ${r.runner ?? 'none'} (${r.why})`);
  }
  return lines;
}

/** Config `order: 'predicted'` and `select`: the order chosen, each tier's prediction, what selection skipped (ledger/predict.ts). */
export const orderMsg = {
  /** The order's headline: which, and why; when the history is too thin, how to thicken it. */
  head: (order: PlanOrder) =>
    `gate-ladder: order ${order.order}: ${order.why}${order.order === 'fixed' && order.predictions === undefined && order.why.includes('calibration run') ? ' (each `gate-ladder run --calibrate` or `gate-ladder replay --calibrate` adds calibration runs)' : ''}`,
  /** One running tier: its place, its predicted catch, its expected seconds and what the prediction rests on. */
  tier: (position: number, tier: string, x: TierPrediction | undefined) => {
    if (x === undefined) return `gate-ladder:   ${position}. ${shown(tier)}`;
    const e = x.evidence;
    const named = (what: string, l: { trials: number; keys: string[] }) =>
      l.keys.length === 0 ? [] : [`${what} ${l.keys.map(shown).join(', ')} (${l.trials} trials)`];
    const from = [...named('paths', e.paths), ...named('folders', e.folders), ...named('kinds', e.kinds)];
    return `gate-ladder:   ${position}. ${shown(tier)}: catch ${fmtProbability(x.p)}, ${x.seconds === null ? 'no passing run yet' : `${x.seconds >= 10 ? x.seconds.toFixed(0) : Number(x.seconds.toPrecision(2))} s expected`}; from ${e.rows} trials of this tier${from.length > 0 ? `, ${from.join('; ')}` : ', none on these paths'}`;
  },
  /** `select` skipped tiers: which, the summed residual risk, and where every tier still runs. */
  selected: (skipped: readonly string[], residual: number, risk: number) =>
    skipped.length === 0
      ? `gate-ladder: select (risk ${risk}): every tier's predicted catch is at or above it; none skipped`
      : `gate-ladder: select (risk ${risk}) skips ${skipped.map(shown).join(', ')}: residual risk ${fmtProbability(residual)} (their predicted catches summed); \`gate-ladder ci\` and calibration runs run every tier (remove \`select\` from the config to run them on every push)`,
  selectOff: (why: string) => `gate-ladder: select skips nothing on this run: ${why}`,
};

/** A probability, 4 significant digits at most. */
const fmtProbability = (p: number) => String(Number(p.toPrecision(4)));

/** The order lines of a plan: the headline, one line per running tier, then what selection did. */
export function orderLines(plan: Plan): string[] {
  const o = plan.order;
  if (o === undefined) return [];
  const preds = new Map((o.predictions ?? []).map((x) => [x.tier, x]));
  const lines = [orderMsg.head(o)];
  for (const [i, t] of plan.tiers.filter((t) => t.run).entries()) lines.push(orderMsg.tier(i + 1, t.tier.name, preds.get(t.tier.name)));
  if (o.selected) lines.push(orderMsg.selected(o.selected.skipped, o.selected.residual, o.selected.risk));
  if (o.selectOff !== undefined) lines.push(orderMsg.selectOff(o.selectOff));
  return lines;
}
