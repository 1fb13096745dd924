/** Every sentence gate-ladder says to its users, in one place. Each says the next step. */
import type {
  ErrorCause,
  GateResult,
  HookName,
  OrderFigures,
  PairOverlap,
  Plan,
  PlanOrder,
  RateFigures,
  Report,
  RunnerInfo,
  ScopeFigures,
  SeedFigures,
  TierFigures,
  Verdict,
  TierPrediction,
} from '../types.js';
import { shown, shownLines } from './escape.js';

const BYPASS = 'To push anyway: `git push --no-verify`, or `GATE_LADDER=0 git push`.';
const BYPASS_COMMIT = 'To commit anyway: `git commit --no-verify`, or `GATE_LADDER=0 git commit`.';

/** Who hears a verdict: a hook (or a manual run), or a CI job (`gate-ladder ci`), which blocks no push and has no bypass. */
export type Voice = HookName | 'ci';

const isCommit = (hook?: Voice) => hook === 'pre-commit';
/** A manual run blocks nothing: it answers, and its exit code says how. */
const isManual = (hook?: Voice) => hook === 'manual';
const blocked = (hook?: Voice) =>
  hook === 'ci' ? 'check failed: ' : isCommit(hook) ? 'commit blocked: ' : isManual(hook) ? '' : 'push blocked: ';
const bypass = (hook?: Voice) => (hook === 'ci' || isManual(hook) ? '' : isCommit(hook) ? BYPASS_COMMIT : BYPASS);
const again = (hook?: Voice) => (isCommit(hook) ? 'commit' : isManual(hook) ? 'run it' : 'push');
/** What brought the change being judged: a push, a commit, a replayed patch, or a manual run's range. */
const change = (hook?: Voice) =>
  isCommit(hook) ? 'commit' : isManual(hook) || hook === 'ci' ? 'range' : hook === 'replay' || hook === 'judge' ? 'patch' : 'push';
/** An error the patch did not cause: not a verdict on it; fix the tier or what it needs. */
const errorNext = (r: GateResult, configFile: string, hook?: Voice): string[] => [
  '  This is not a verdict on the patch: the check itself did not complete.',
  r.reason?.startsWith(LINT_STAGED_SAID)
    ? `  Put the repository in order as lint-staged says above (\`git status\`; a backup it kept is in \`git stash list\`), then ${again(hook)} again.`
    : r.reason?.startsWith(TOO_LONG_SAID)
      ? `  Its \`{changed}\` paths make it that long: narrow the tier's GLOB in ${shown(configFile)} (\`{changed:src/**}\`), or leave the tier out this once: ${skipOnce(r.tier, hook)}.`
      : `  Fix the tier in ${shown(configFile)} or what it needs (or, if the patch makes the check hang or crash, the patch), then ${again(hook)} again.`,
];
/** GATE_LADDER_SKIP for one tier, as the hook's user types it. */
const skipOnce = (tier: string, hook?: Voice): string => {
  const env = `GATE_LADDER_SKIP=${shown(tier)}`;
  return isCommit(hook) ? `\`${env} git commit\`` : hook === 'pre-push' ? `\`${env} git push\`` : `${env} in the environment`;
};
/** How the project runs gate-ladder's bin (`npx gate-ladder`, `pnpm exec gate-ladder`, ...). */
type Exec = (command: string) => string;
const npx: Exec = (command) => `npx ${command}`;

/** A line of outside input quoted in a message: at most 200 characters (a 5 MB line would be printed whole), saying how long it was. Pure. */
function clipped(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}… (${line.length} characters)` : line;
}

/** A ref as people write it: `origin/main`, `main`, not refs/remotes/origin/main. */
const shortRef = (ref: string) => ref.replace(/^refs\/(?:remotes|heads)\//, '');

export const msg = {
  bypassed: () => 'gate-ladder: GATE_LADDER=0, skipping every gate.',
  notRepo: (cwd: string, refused?: string) =>
    refused === undefined
      ? `gate-ladder: ${shown(cwd)} is not inside a git work tree. Run it from a repository.`
      : `gate-ladder: git refuses the repository at ${shown(refused)}: another user owns it (git's safe.directory check), so nothing was checked. If you trust it: \`git config --global --add safe.directory '${shown(refused.split("'").join("'\\''"))}'\`, then run it again.`,
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
  noTiers: () => 'gate-ladder: no tier runs for this change; allowed.',
  passed: (ref: string, tiers: number, seconds: number) =>
    `gate-ladder: ${shown(ref)}: ${tiers} tier${tiers === 1 ? '' : 's'} passed in ${seconds.toFixed(1)} s.`,
  // A blocked push or commit ends with a short block of its own (run.ts colours it): what stopped it, whose fault, the next step.
  caught: (ref: string, r: GateResult, hook?: Voice) =>
    [
      `gate-ladder: ${blocked(hook)}${shown(r.tier)} caught a problem in ${shown(ref)} (exit ${r.exitCode}: ${r.runner?.runner ? 'a test failed' : 'the check failed'}).`,
      `  The patch is wrong: fix it, ${isCommit(hook) ? 'stage it, and commit again' : isManual(hook) ? 'then run it again' : 'commit, and push again'}.`,
      ...(bypass(hook) ? [`  ${bypass(hook)}`] : []),
    ].join('\n'),
  error: (ref: string, r: GateResult, configFile: string, hook?: Voice) =>
    [
      `gate-ladder: ${blocked(hook)}${shown(r.tier)} could not give a verdict on ${shown(ref)}: ${shown(r.reason ?? 'harness error')}.`,
      ...(r.cause === 'patch' && r.causeFile !== undefined
        ? [
            r.causeScript !== undefined
              ? `  The ${change(hook)} changed ${shown(r.causeFile)}, which no longer has the "${shown(r.causeScript)}" script the tier runs: the patch broke the harness.`
              : `  The ${change(hook)} changed ${shown(r.causeFile)}, which cannot load: the patch broke the harness.`,
            `  Fix ${shown(r.causeFile)}${isCommit(hook) ? ', stage it, and commit again' : isManual(hook) ? ', then run it again' : ', commit, and push again'}.`,
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

/** How the reason of a gate whose command the kernel refused as too long (E2BIG) begins (gates/gate.ts). */
export const TOO_LONG_SAID = 'its command is too long to start';
/** Why a gate could not start when its command and arguments were too long for the kernel (E2BIG). */
export const tooLongToStart = (bytes: number) =>
  `${TOO_LONG_SAID}: ${Math.ceil(bytes / 1024)} KiB of arguments, over Linux's 128 KiB for one argument (a /bin/sh command is one) or about 2 MiB in all`;

/** How an error reason quoting lint-staged's own words begins (lint-staged/tier.ts). */
export const LINT_STAGED_SAID = 'lint-staged stopped: it said';

/** The run's switches for one push (environment variables, since `git push` passes no flags to the hook) and its empty diffs. */
export const runMsg = {
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
  /** After the chosen lines: how much was left out, and where the whole output is. */
  leftOut: (tier: string, shownLines: number, total: number, log: string | undefined) =>
    log === undefined
      ? `gate-ladder: ${total - shownLines} of the ${total} output lines of ${shown(tier)} left out; the whole output could not be kept in a log (the git dir is not writable): run the tier's command to see it, or set GATE_LADDER_OUTPUT=all.`
      : total > shownLines
        ? `gate-ladder: ${total - shownLines} of the ${total} output lines of ${shown(tier)} left out; all of them: ${shown(log)} (or GATE_LADDER_OUTPUT=all to see them as they come).`
        : `gate-ladder: the whole output of ${shown(tier)} (${total} line${total === 1 ? '' : 's'}) is also in ${shown(log)}.`,
};

/** What `gate-ladder install` and `uninstall` say. */
/** A file or folder gate-ladder keeps under the git dir (src/install/leftovers.ts). */
interface Leftover {
  name: string;
  path: string;
  bytes: number;
  what: string;
  data: boolean;
}
/** A size in B, KB or MB. */
const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const leftoverLine = (i: Leftover) => `  - ${shown(i.name)} (${size(i.bytes)}): ${i.what}`;

export const installMsg = {
  wroteConfig: (dryRun: string) => `gate-ladder: wrote gate-ladder.config.ts; check its tiers, then \`${dryRun}\``,
  /** A command the starter config runs is not on PATH here: its tiers would end in `error` on every push. */
  cannotRunHere: (missing: string, tiers: readonly string[]) =>
    `gate-ladder: note: ${tiers.map(shown).join(', ')} in gate-ladder.config.ts ${tiers.length === 1 ? 'runs' : 'run'} \`${shown(missing)}\`, which is not on PATH here: install it (for a package manager named by package.json's "packageManager", \`corepack enable\`), or edit ${tiers.length === 1 ? 'that tier' : 'those tiers'}; until then ${tiers.length === 1 ? 'it ends' : 'they end'} in \`error\` and block the push.`,
  formattedConfig: () => 'gate-ladder: formatted gate-ladder.config.ts with your prettier, in your style.',
  biomePasses: () => 'gate-ladder: ran your biome (`biome check --write`) on gate-ladder.config.ts: it passes, in your style.',
  biomeFlags: (first: string, check: string) =>
    `gate-ladder: your biome still reports gate-ladder.config.ts after \`biome check --write\` (${shown(first)}), so a lint tier that runs biome would block your first push; run \`${check}\` and fix what it says (or have biome ignore the file).`,
  linterPasses: (linter: string, changed: boolean) =>
    changed
      ? `gate-ladder: ran your ${linter} with --fix on gate-ladder.config.ts: it now passes, in your style.`
      : `gate-ladder: gate-ladder.config.ts passes your ${linter} as written.`,
  linterFlags: (linter: string, count: number, first: string, run: string) =>
    `gate-ladder: your ${linter} still flags gate-ladder.config.ts after --fix (${count === 1 ? '1 error' : `${count} errors`}; ${shown(first)}), so your lint tier would block your first push; ${
      /project service|parserOptions\.project|not included in/i.test(first)
        ? 'add the file to your tsconfig.json "include" (or to typescript-eslint\'s allowDefaultProject)'
        : `add the file to your ${linter} ignores, or fix what it names`
    }, then check with \`${run}\`.`,
  linterFailed: (linter: string, why: string, run: string) =>
    `gate-ladder: your ${linter} could not check gate-ladder.config.ts (${shown(why)}); run \`${run}\` to see whether it flags the file before your first push.`,
  notFormatted: (why: string) =>
    `gate-ladder: your prettier could not format gate-ladder.config.ts (${shown(why)}); format it as your project does, or your format check may flag it.`,
  addedPrepare: (install: string, file = 'package.json', script = 'husky') =>
    `gate-ladder: ${shown(file)}: added "prepare": ${shown(JSON.stringify(script))} so a fresh clone gets the hooks on \`${install}\``,
  composedPrepare: (before: string, after: string, install: string, file = 'package.json') =>
    `gate-ladder: ${shown(file)}: "prepare" was ${shown(JSON.stringify(before))}; it is now ${shown(JSON.stringify(after))}, so a fresh clone gets the hooks on \`${install}\` and your prepare still runs.`,
  replacedLintStaged: (hook: string, line: string) =>
    `gate-ladder: .husky/${hook}: replaced \`${shown(line)}\` with gate-ladder's line: the config's lintStaged tier runs lint-staged now (it would run twice otherwise); uninstall puts the line back.`,
  lintStagedTwice: (line: string, tierRunsIt: boolean) =>
    tierRunsIt
      ? `gate-ladder: .husky/pre-commit still runs \`${shown(line)}\` (kept: it has arguments), and the config's lintStaged tier runs lint-staged too, so it runs twice per commit. Move the arguments into the tier's \`lintStaged\` options and remove that line.`
      : `gate-ladder: .husky/pre-commit runs \`${shown(line)}\` on its own, before gate-ladder. To have lint-staged judged as a tier (a verdict and a row in the ledger), add \`{ name: 'lint-staged', lintStaged: true }\` to the config's tiers and remove that line.`,
  noPreCommitTier: () =>
    "gate-ladder: no tier runs on pre-commit, so the pre-commit hook allows every commit. Give a quick tier `hooks: ['pre-commit', 'pre-push']`, or add `{ name: 'lint-staged', lintStaged: true }`.",
  installed: (uninstall: string) => `gate-ladder: installed. \`${uninstall}\` undoes it.`,
  husky8: () =>
    "gate-ladder: this project runs husky 8 (core.hooksPath .husky, hooks that source .husky/_/husky.sh): install works within it. core.hooksPath and .husky/_ stay as they are; a hook gate-ladder creates starts with husky 8's two lines, and uninstall leaves husky 8 as it finds it.",
  huskyNotOnPath: (add: string, install: string) =>
    `gate-ladder: note: node_modules/.bin has no husky (husky is gate-ladder's dependency, not the project's), so "prepare" would fail on \`${install}\`. Add it as your own: \`${add}\`.`,
  /** What uninstall leaves under the git dir, each with its size, and how to remove it. */
  leftBehind: (dir: string, items: readonly Leftover[], purge: string) =>
    [
      `gate-ladder: left under ${shown(dir)} (${size(items.reduce((n, i) => n + i.bytes, 0))} in all): \`${purge}\` removes ${items.length === 1 ? 'it' : 'them'}${items.some((i) => i.data) ? ' (the ledger is your data: that is the only way it goes)' : ''}.`,
      ...items.map(leftoverLine),
    ].join('\n'),
  purged: (dir: string, removed: readonly Leftover[], failed: readonly { item: Leftover; why: string }[]) =>
    [
      `gate-ladder: --purge removed from ${shown(dir)}:`,
      ...removed.map(leftoverLine),
      ...failed.map((f) => `  - ${shown(f.item.name)}: could not be removed (${shown(f.why)}); remove ${shown(f.item.path)} yourself`),
      ...(removed.some((i) => i.name === 'ledger.jsonl')
        ? [
            "The ledger is gone with them: its verdicts were your data, and `uninstall --purge` is the only command that removes it (a report reads nothing now; the team's copy, if you ran `gate-ladder sync`, stays on the remote).",
          ]
        : []),
    ].join('\n'),
  syncRefsLeft: (n: number, purge: string) =>
    `gate-ladder: left ${plural(n, 'ref')} under refs/gate-ladder/ (the ledgers \`gate-ladder sync\` fetched and shares); \`${purge}\` deletes them here (the remote keeps its copies).`,
  syncRefsPurged: (n: number, done: boolean) =>
    done
      ? `gate-ladder: --purge deleted ${plural(n, 'ref')} under refs/gate-ladder/ (sync's ledgers; the remote keeps its copies).`
      : `gate-ladder: --purge could not delete the refs under refs/gate-ladder/: \`git for-each-ref refs/gate-ladder/\` lists them; delete each with \`git update-ref -d REF\`.`,
  nothingToPurge: (dir: string) => `gate-ladder: --purge: nothing of gate-ladder's is left under ${shown(dir)}.`,
  gitignoreAsk: (rel: string, line: string) =>
    `gate-ladder: git does not ignore ${shown(rel)}, where gate-ladder is installed; \`git add -A\` would commit it. Add \`${line}\` to .gitignore?`,
  gitignoreStep: (rel: string, line: string, rerun: string) =>
    `gate-ladder: note: git does not ignore ${shown(rel)}, where gate-ladder is installed, so \`git add -A\` would commit it: add the line \`${line}\` to .gitignore (or run \`${rerun}\`, which adds it).`,
  gitignoreAdded: (rel: string, line: string) =>
    `gate-ladder: added \`${line}\` to .gitignore, so git ignores ${shown(rel)} (uninstall keeps the line).`,
  gitignoreLineInEffect: (line: string) =>
    `gate-ladder: note: .gitignore has \`${line}\`, yet git does not ignore node_modules: a later line (\`!node_modules\`) or a nested .gitignore undoes it; \`git check-ignore -v node_modules\` shows which.`,
  /** Uninstall leaves husky set up: the project's own hooks in .husky/ would stop running without it. */
  huskyKept: (hooks: readonly string[], pkgName: string, addHusky: string | undefined) =>
    `core.hooksPath (.husky/_) and "prepare" in ${shown(pkgName)} kept: husky still runs your own ${hooks.map((h) => `.husky/${shown(h)}`).join(', ')}${
      addHusky === undefined
        ? ''
        : `; husky came with gate-ladder, so add it to your own dependencies before removing gate-ladder: \`${addHusky}\``
    }`,
  gitignoreKept: (line: string) =>
    `.gitignore: kept the line \`${line}\` install added (node_modules is still here; take the line out once you remove it)`,
  uninstalled: (done: readonly string[], kept: readonly string[]) =>
    ['gate-ladder: uninstalled:', ...done.map((d) => `  - ${shown(d)}`), ...kept.map((k) => `  - ${shown(k)}`)].join('\n'),
  foreignHooksPath: (current: string, line: string, exec: Exec = npx) =>
    [
      `gate-ladder: not installed: git's core.hooksPath is already "${shown(current)}", another hook manager's folder; husky would replace it and the hooks in that folder would stop running. Nothing was changed.`,
      `Either add gate-ladder to that folder's pre-push hook (${shown(current)}/pre-push), as the line:`,
      `  ${line}`,
      `or run \`${exec('gate-ladder install --force')}\` to point core.hooksPath at husky's .husky/_ (\`${exec('gate-ladder uninstall')}\` sets it back to "${shown(current)}").`,
    ].join('\n'),
  /** Hooks in git's own folder that stop running once core.hooksPath points at husky's (the pre-commit framework, simple-git-hooks, a hand-made hook). */
  gitHooksIgnored: (dir: string, names: readonly string[]) =>
    [
      `gate-ladder: git now takes hooks from .husky/_ (core.hooksPath), so ${names.length === 1 ? 'this hook' : 'these hooks'} in ${shown(dir)} no longer ${names.length === 1 ? 'runs' : 'run'}: ${names.map(shown).join(', ')}.`,
      `  To keep ${names.length === 1 ? 'it' : 'each'}, add its line to the husky hook of the same name, e.g. in .husky/${shown(names[0]!)}: "${shown(dir)}/${shown(names[0]!)}" "$@"`,
      '  (uninstall sets core.hooksPath back, and they run again.)',
    ].join('\n'),
};

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

/** Test ids come from reports: control characters in them are shown escaped, never sent to the terminal. */
const list = (ids: readonly string[], max = 5) =>
  ids.slice(0, max).map(shown).join(', ') + (ids.length > max ? ` and ${ids.length - max} more` : '');
const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
const q = (s: string) => `"${shown(s).replace(/(["\\$`])/g, '\\$1')}"`;
/** The day before a `YYYY-MM-DD` (UTC days). */
const dayBefore = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) - 86_400_000).toISOString().slice(0, 10);
};

/** JUnit reports, per-test history, the freeze predicate, seeded bugs and freezes. */
export const testMsg = {
  reportMissing: (where: string) => `no JUnit report at ${shown(where)}`,
  reportStale: (where: string, written: string) =>
    `the JUnit report at ${shown(where)} is from an earlier run (written ${written}), not this one`,
  reportUnreadable: (where: string, why: string) => `the JUnit report at ${shown(where)} is unreadable: ${shown(why)}`,
  reportHint: (how: string) => `; make the gate write it (e.g. ${how}) or drop \`junit\` from the tier`,
  reportNotRecorded: (what: string) => `${what}; per-test outcomes not recorded`,
  reportCannotTell: (code: number, what: string, hint: string) =>
    `exit ${code} and ${what}: cannot tell a failed test from a broken harness${hint}`,
  reportEmpty: (where: string) => `the JUnit report at ${shown(where)} lists no test cases: this gate ran no tests`,
  reportEmptyNoTests: (where: string) =>
    `no tests ran: the report at ${where} lists no test cases; if that is expected, set \`allowNoTests: true\` on the tier`,
  reportBroken: (code: number, where: string, files: readonly string[]) =>
    `exit ${code}: the report at ${where} lists ${files.length === 1 ? 'a test file' : `${files.length} test files`} that could not run (${list(files, 3)}) and no failed test: the harness failed, not a test`,
  reportEmptyButFailed: (code: number, where: string) =>
    `exit ${code} but the JUnit report at ${shown(where)} lists no test cases: the harness failed before any test ran`,
  reportDisagrees: (where: string, failed: readonly string[]) =>
    `exit 0 but the JUnit report at ${shown(where)} lists ${tests(failed.length)} as failed (${list(failed, 3)}): the runner and its report disagree`,
  reportAllPassed: (code: number, where: string) =>
    `exit ${code} but every test in the JUnit report at ${shown(where)} passed: the harness failed outside the tests (a crash after the run, a coverage threshold, an open handle?)`,
  ambiguous: (tier: string, why: string) =>
    `gate-ladder: ${shown(tier)}: note: ${shown(why)}; set \`junit\` on this tier so gate-ladder can tell them apart.`,
  failedTests: (tier: string, ids: readonly string[]) => `gate-ladder: ${shown(tier)}: ${tests(ids.length)} failed: ${list(ids, 10)}`,
  frozenForgiven: (tier: string, ids: readonly string[]) =>
    `gate-ladder: ${shown(tier)}: only frozen tests failed, so the tier passes: ${list(ids, 10)} (see .gate-ladder/freezes.json)`,
  frozenReason: (ids: readonly string[]) => `only frozen tests failed: ${list(ids, 10)}`,
  frozenAlsoFailed: (tier: string, ids: readonly string[]) =>
    `gate-ladder: ${shown(tier)}: frozen tests that also failed (forgiven): ${list(ids, 10)}`,
  freezeExpired: (tier: string, test: string, expires: string) =>
    `gate-ladder: ${shown(tier)}: ${shown(test)} failed and its freeze expired: frozen through ${dayBefore(expires)} UTC, it counts again from ${expires} UTC, so the failure counts. ` +
    `Renew it if it is still eligible: \`gate-ladder freeze ${q(test)} --expires <YYYY-MM-DD> --reentry "<condition>"\`; ` +
    `or remove it: \`gate-ladder unfreeze ${q(test)}\` and fix or delete the test. Commit .gate-ladder/freezes.json either way.`,
  frozenButAmbiguous: (tier: string, id: string) =>
    `gate-ladder: ${shown(tier)}: ${shown(id)} is frozen, but in this report that id names more than one test (the report names no file), so its failure counts: a freeze names one test. ` +
    'Make the ids unique (node: a `describe` named after each file, or a node whose JUnit reporter writes `file`; jest-junit: `addFileAttribute`).',
  retrying: (tier: string) => `gate-ladder: ${shown(tier)}: tests failed; running it once more on the same code (retries: 1).`,
  retryNoVerdict: (tier: string, why: string) =>
    `gate-ladder: ${shown(tier)}: the retry gave no verdict (${shown(why)}); the first attempt's failures stand.`,
  passedOnRetry: (failed: readonly string[]) =>
    `passed on retry: ${failed.length ? `${list(failed, 10)} failed, then passed` : 'failed, then passed'} on the same code (flaky; recorded, see \`gate-ladder flaky\`)`,
  freezesUnreadable: (file: string, why: string) =>
    `gate-ladder: ${shown(file)} is not a valid freezes file (${shown(why)}); no freeze applies. Fix it or remove it.`,

  // The seed's freeze predicate, word for word.
  insufficientHistory: () => 'insufficient history; keep observing',
  notFlaky: (rate: string) => `not actually flaky (${rate})`,
  noEvidence: () => 'no sensitivity evidence; rewrite or delete',
  eligible: (rate: string) => `freeze with expiry, flip_rate=${rate}`,
  // Around the predicate.
  noRepeats: () =>
    '(no run repeated on the same code yet: flips count only between runs of one tree; `retries: 1` on the tier adds such runs)',
  broken: (runs: number) => `broken, not flaky: failed all ${runs} runs; fix it or delete it`,
  ambiguousId: () => 'ambiguous id: several tests in one report share it (the report names no file); make the ids unique before freezing',
  flakySeedHint: (n: number) =>
    `gate-ladder: ${tests(n)} ${n === 1 ? 'has' : 'have'} no sensitivity evidence: seed a bug ${n === 1 ? 'it' : 'they'} should catch with \`gate-ladder seed <commit | patch file>\` (credited only if ${n === 1 ? 'it passes' : 'they pass'} without the bug), or import mutants with \`gate-ladder seed --stryker <report.json>\`.`,
  flakyNoRepeats: () =>
    'gate-ladder: no test has run twice on the same code yet, so no flip rate is known: give flaky tiers `retries: 1` (a failing gate runs once more on the same code), or run a tree again.',
  legacySeeds: (n: number) =>
    `gate-ladder: ignored ${n} seed record${n === 1 ? '' : 's'} written before seeds were checked against their parent (they credited tests that also fail without the bug); run \`gate-ladder seed\` again for those changes.`,
  freezesHeading: (file: string) => `freezes (${file}):`,
  freezeLine: (f: { test: string; tier?: string; expires: string; reentry: string; by: string }, active: boolean) =>
    `  ${shown(f.test)}${f.tier ? ` [${shown(f.tier)}]` : ''}: ${active ? `frozen through ${dayBefore(f.expires)} UTC, counts again from ${f.expires} UTC` : `EXPIRED: counts again since ${f.expires} UTC (renew or \`gate-ladder unfreeze\`)`}; re-entry: ${shown(f.reentry)}; by ${shown(f.by)}`,
  noFreezes: (file: string) => `no freezes (${file}).`,

  flakyEmpty: (path: string) =>
    `gate-ladder: no per-test history yet (${shown(path)}). Give a tier \`runner\` and \`junit\` so its runs record each test's outcome.`,
  flakyOrphans: (n: number, example: string) =>
    `gate-ladder: ${n} test${n === 1 ? '' : 's'} with sensitivity evidence but no run history (e.g. ${shown(example)}): check that the ids match.`,
  skippedLines: (n: number, path: string) => `gate-ladder: skipped ${n} unreadable line${n === 1 ? '' : 's'} of ${shown(path)}.`,

  noSuchTest: (id: string, near: readonly string[]) =>
    `gate-ladder: no run history for ${q(id)}.${near.length ? ` The closest known ids: ${near.map(q).join(', ')}.` : ''} See \`gate-ladder flaky\` for the ids.`,
  ambiguousTest: (id: string, candidates: readonly { tier: string; id: string }[]) =>
    [
      `gate-ladder: ${q(id)} names more than one test; a freeze names one. Candidates:`,
      ...candidates.slice(0, 20).map((c) => `  gate-ladder freeze ${q(c.id)} --tier ${c.tier} ...`),
      ...(candidates.length > 20 ? [`  ... and ${candidates.length - 20} more (see \`gate-ladder flaky\`)`] : []),
    ].join('\n'),
  freezeRefused: (id: string, reason: string) => `gate-ladder: not freezing ${q(id)}: ${reason}.`,
  freezeNeedsExpiry: () => 'a freeze needs --expires <YYYY-MM-DD>: a freeze with no expiry is a deletion you did not make',
  freezeBadDate: (value: string) => `--expires ${q(value)} is not a date; write it as YYYY-MM-DD`,
  freezePast: (value: string, today: string) => `--expires ${shown(value)} is not after today (${today} UTC)`,
  freezeTooFar: (value: string, max: number, latest: string) =>
    `--expires ${shown(value)} is more than ${max} days ahead; the latest allowed is ${latest} (freeze.maxExpiryDays in the config)`,
  freezeNeedsReentry: () => 'a freeze needs --reentry "<condition>": what must be true for the test to count again',
  freezeProblems: (problems: readonly string[]) => [`gate-ladder: cannot freeze:`, ...problems.map((p) => `  - ${shown(p)}`)].join('\n'),
  frozen: (id: string, tier: string | undefined, expires: string, file: string, renewed: boolean) =>
    `gate-ladder: ${renewed ? 'renewed the freeze of' : 'froze'} ${q(id)}${tier ? ` in ${shown(tier)}` : ''}: frozen through ${dayBefore(expires)} UTC; its failures count again from ${expires} UTC. Commit ${shown(file)} so every clone and CI honour it.`,
  notFrozen: (id: string) => `gate-ladder: ${q(id)} is not frozen (see .gate-ladder/freezes.json).`,
  unfrozen: (id: string, file: string) => `gate-ladder: unfroze ${q(id)}; its failures count again. Commit ${shown(file)}.`,

  seedNeedsTarget: () =>
    'gate-ladder: name a seeded bug: `gate-ladder seed <commit | patch file>`, or `gate-ladder seed --stryker <report.json>`.',
  seedBadTarget: (target: string) => `gate-ladder: ${q(target)} is neither a patch file nor a commit in this repository.`,
  seedPatchFailed: (file: string, why: string) =>
    `gate-ladder: could not apply ${shown(file)} to HEAD in a throwaway worktree: ${shown(why)}`,
  seedNoTiers: () => 'gate-ladder: no tier is configured for the seed hook (`hooks` of each tier); nothing to run.',
  seedStart: (what: string, dir: string) =>
    `gate-ladder: seeding ${shown(what)} in a worktree of the pool (${shown(dir)}); every tier runs.`,
  seedNoReport: (tier: string) =>
    `gate-ladder: ${shown(tier)} has no \`junit\` report, so it cannot say which tests caught the seeded bug.`,
  seedCaughtBy: (ids: readonly string[]) =>
    `gate-ladder: sensitivity evidence recorded for ${tests(ids.length)} (${ids.length === 1 ? 'it passes' : 'they pass'} without the seeded change and ${ids.length === 1 ? 'fails' : 'fail'} with it): ${list(ids, 20)}`,
  seedAlready: (ids: readonly string[]) =>
    `gate-ladder: ${tests(ids.length)} already had evidence from this same change (seeded before); nothing new recorded for ${ids.length === 1 ? 'it' : 'them'}: ${list(ids, 20)}`,
  seedFailsWithout: (ids: readonly string[], parent: string) =>
    `gate-ladder: no evidence for ${tests(ids.length)} that also ${ids.length === 1 ? 'fails' : 'fail'} without the seeded change (on its parent ${parent.slice(0, 12)}): failing there proves nothing about the bug: ${list(ids, 20)}`,
  seedNotOnParent: (ids: readonly string[], parent: string) =>
    `gate-ladder: no evidence for ${tests(ids.length)} that did not pass on the parent ${parent.slice(0, 12)} (absent or skipped there): ${list(ids, 20)}`,
  seedNoCredit: () =>
    'gate-ladder: no test passed without the seeded change and failed with it, so no evidence was recorded. Seed a change that breaks behaviour a passing test checks.',
  seedNoParent: () =>
    'gate-ladder: the seeded commit has no parent to run the failing tests on, so nothing can show they pass without the bug; no evidence recorded. Seed a commit that has a parent, or a patch file (applied to HEAD).',
  seedParentStart: (parent: string, tiers: readonly string[]) =>
    `gate-ladder: running ${tiers.map(shown).join(', ')} again on the parent ${parent.slice(0, 12)} (the same worktree and command, without the bug): only tests that pass there are credited.`,
  seedParentNote: (seeded: string) => `seed: the parent of ${seeded.slice(0, 12)}, without the bug`,
  seedParentFailed: (parent: string, why: string) =>
    `gate-ladder: could not check out the parent ${parent.slice(0, 12)} in the worktree: ${shown(why)}; no evidence recorded.`,
  seedParentNoVerdict: (tier: string, why: string) =>
    `gate-ladder: ${shown(tier)} gave no per-test outcomes on the parent (${shown(why)}), so its failing tests cannot be credited. Fix what stops it there and seed again.`,
  seedEscaped: () => 'gate-ladder: no test failed on the seeded bug: it escaped every tier, so no evidence was recorded.',
  seedCleanedUp: () => 'gate-ladder: interrupted; the gates were stopped and the worktree given back to the pool.',
  strykerUnreadable: (file: string, why: string) => `gate-ladder: ${shown(file)} is not a Stryker mutation-testing report: ${shown(why)}`,
  strykerSummary: (killed: number, ids: readonly string[], ignored: number) =>
    `gate-ladder: ${killed} killed mutant${killed === 1 ? '' : 's'} gave sensitivity evidence to ${tests(ids.length)}${ids.length ? `: ${list(ids, 20)}` : ''}` +
    (ignored ? `; ${ignored} mutant${ignored === 1 ? '' : 's'} with other statuses (Timeout, RuntimeError, Survived, ...) give none` : ''),
  strykerAlready: (n: number) =>
    `gate-ladder: ${tests(n)} already had evidence from every mutant ${n === 1 ? 'it' : 'they'} killed here (the report was imported before): nothing new for ${n === 1 ? 'it' : 'them'}.`,
  strykerUnmatched: (n: number, example: string) =>
    `gate-ladder: ${tests(n)} named by the report have no run history here; recorded under the report's names (e.g. ${q(example)}).`,
};

/** What `gate-ladder replay` says. */
export const replayMsg = {
  noInputs: 'Name what to replay: a revision range (`main~50..main`), a commit, or patch files or a folder of them (`--patches DIR`).',
  needConfig: () =>
    'gate-ladder: replay judges patches by the ladder configured here, and there is no config. Create one with `npx gate-ladder install`, then replay again.',
  badInputs: (problems: readonly string[]) =>
    [
      `gate-ladder: nothing was replayed; ${problems.length === 1 ? 'one input' : `${problems.length} inputs`} could not be read:`,
      ...problems.map((p) => `  - ${shown(p)}`),
      'Name a revision range (`main~50..main`), a folder of .patch/.diff files, or patch files (with `--onto REV`).',
    ].join('\n'),
  noIsolation: (reason: string) =>
    `gate-ladder: --isolate network: cannot run gates without network on this machine (${reason}). Nothing was replayed. Run on Linux with util-linux \`unshare\` and user namespaces enabled (sysctl user.max_user_namespaces > 0), or as root; drop --isolate only for patches you trust.`,
  badJobs: (value: string) =>
    `gate-ladder: --jobs ${shown(value)}: give a whole number of patches to run at once, at least 1 (e.g. \`--jobs 2\`).`,
  merges: (n: number) =>
    `gate-ladder: left out ${n} merge commit${n === 1 ? '' : 's'}: the commits of each merged branch are replayed one by one (\`--first-parent\` replays the mainline instead, a merge as one patch).`,
  resumed: (n: number) =>
    `gate-ladder: ${n} patch${n === 1 ? ' was' : 'es were'} replayed before under this config: skipped (\`--force\` runs ${n === 1 ? 'it' : 'them'} again).`,
  start: (n: number, jobs: number, hash: string, isolate: boolean) =>
    `gate-ladder: replaying ${n} patch${n === 1 ? '' : 'es'}, ${jobs} at a time, config ${hash}${isolate ? ', gates without network' : ''}; each in a worktree of the pool.`,
  interrupted: () =>
    'gate-ladder: replay interrupted: gates stopped, worktrees given back to the pool. Finished patches are in the ledger; the same command replays the rest.',
  /** `ledgerFault`: the ledger could not be written (its error is a whole sentence of ours: quoted without its prefix and full stop). */
  failed: (err: unknown, ledgerFault = false) => {
    const why = shown((err instanceof Error ? err.message : String(err)).replace(/^gate-ladder: /, '').replace(/\.+$/, ''));
    return ledgerFault
      ? `gate-ladder: replay stopped: ${why}. Every worktree was given back to the pool; once the ledger can be written, the same command replays every patch it does not hold.`
      : `gate-ladder: replay stopped: ${why}. Every worktree was given back to the pool; finished patches are in the ledger, and the same command replays the rest.`;
  },
  summary: (patches: number, now: number, before: number, notApplied: number, seconds: string) =>
    `replay: ${patches} patch${patches === 1 ? '' : 'es'} (${now} replayed now, ${before} earlier under this config${notApplied ? `, ${notApplied} did not apply` : ''}) in ${seconds}`,
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const percent = (x: number) => `${Number((x * 100).toPrecision(3))} %`;
/** The ladder as text, t0-scope first (once: a tier may itself be named t0-scope). */
const chain = (tiers: readonly string[]) => (tiers.includes('t0-scope') ? tiers : ['t0-scope', ...tiers]).map(shown).join(' → ');

/** What `gate-ladder report` says: warnings on stderr, advice in the report. */
export const reportMsg = {
  /** The report's section on the order: predicted against fixed on the calibration runs (report/order-eval.ts; fields as `order_evaluation`). */
  orderEvaluation: (e: {
    patches: number;
    catching_patches: number;
    reason?: string;
    fixed?: { median_seconds_to_first_catch: number | null; mean_apfdc: number | null; missed: number };
    predicted?: { median_seconds_to_first_catch: number | null; mean_apfdc: number | null; missed: number };
    ratio?: number | null;
    select?: { risk: number; missed: number; seconds_saved: number; tiers_skipped: number } | null;
    left_out_errors?: number;
  }): string[] => {
    const head = 'Order: predicted against fixed, on the calibration runs in time order (each predicted from the rows before it)';
    if (e.patches === 0) return [head, `  not evaluated: ${e.reason ?? 'no calibration run'}`];
    const secs = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${x} s`);
    const side = (name: string, x: NonNullable<typeof e.fixed>) =>
      `  ${name.padEnd(9)} median to first catch ${secs(x.median_seconds_to_first_catch)}, mean APFDc ${x.mean_apfdc ?? '-'}, catches missed ${x.missed}`;
    const lines = [
      head,
      `  ${plural(e.patches, 'patch', 'patches')} evaluated, ${e.catching_patches} caught${e.left_out_errors ? ` (${plural(e.left_out_errors, 'run')} with an error left out)` : ''}`,
      side('fixed', e.fixed!),
      side('predicted', e.predicted!),
      `  ratio (predicted ÷ fixed median): ${e.ratio ?? '-'}${e.ratio !== null && e.ratio !== undefined && e.ratio < 1 ? " (below 1: the predicted order reaches catches sooner; config `order: 'predicted'` runs it)" : ''}`,
    ];
    if (e.select)
      lines.push(
        `  select (risk ${e.select.risk}): ${plural(e.select.tiers_skipped, 'tier run')} skipped, ${e.select.seconds_saved} s saved, catches missed ${e.select.missed}${e.select.missed > 0 ? ' (lower the risk, or remove `select`)' : ''}`,
      );
    return lines;
  },
  empty: (path: string) =>
    `gate-ladder: the ledger ${shown(path)} has no rows yet. Every push writes rows once the hook is installed (\`npx gate-ladder install\`); \`npx gate-ladder run --base origin/main\` writes some now. Then run \`gate-ladder report\` again.`,
  allFiltered: (rows: number) =>
    `gate-ladder: none of the ledger's ${plural(rows, 'row')} match --since/--hook. Widen or drop the filter and run it again.`,
  skippedLines: (n: number, path: string) =>
    `gate-ladder: skipped ${plural(n, 'line')} of ${shown(path)}: blank, cut off mid-write, not JSON, or missing patch/tier/verdict/seconds (or seconds no run could take: negative, or past 2^31). They are not counted; if the number grows, check what else writes to that file.`,
  badSince: (value: string) =>
    `gate-ladder: --since "${shown(value)}" is not a date. Use a date such as 2025-01-31 or 2025-01-31T12:00:00Z.`,
  noLedger: (cwd: string) =>
    `gate-ladder: ${cwd} is not inside a git repository, so there is no default ledger. Pass \`--ledger PATH\`, or run it from the repository.`,
  unreadable: (path: string, why: string) =>
    `gate-ladder: cannot read the ledger ${path}: ${why}. Check the path and its permissions, or pass another with --ledger.`,
  noSuchLedger: (path: string) =>
    `gate-ladder: --ledger ${path}: no such file. Check the path (without --ledger, the report reads the repository's own ledger).`,
  configIgnored: (file: string, problems: number) =>
    `gate-ladder: ${shown(file)} has ${plural(problems, 'problem')}; reporting tiers in ledger order with default thresholds. \`npx gate-ladder run --dry-run\` lists them.`,
  routedPast: (p: ScopeFigures['past'][number]) =>
    `routed ${plural(p.patches, 'patch', 'patches')} past ${shown(p.tier)}: saved ${p.saved_s ?? 'unknown (the tier has no runs)'} s (median ${p.median_s ?? '-'} s × ${p.patches})`,
  routedTotal: (s: ScopeFigures) => `${plural(s.patches, 'patch', 'patches')} routed; ${s.saved_s} s saved in all`,
  summary: (r: Report, ledger?: string) =>
    `${plural(r.rows, 'row')}${ledger ? ` from ${shown(ledger)}` : ''}; ${plural(r.attempts, 'patch attempt')} counted; ${plural(r.skipped_lines, 'line')} skipped`,
  rate: (r: RateFigures) =>
    r.first === null
      ? 'no dated rows: no monthly rate'
      : `${r.per_month} patch attempts a month (${r.attempts} from ${r.first} to ${r.last}, ${r.months} ${r.months === 1 ? 'month' : 'months'})`,
  excluded: (x: Report['excluded'], countedCalibration = 0) =>
    `not in the tier figures: ${x.calibration} calibration rows past their run's first non-pass (${countedCalibration} before it are counted as the ladder run), ${x.cached} cached, ${x.seed} seed, ${x.not_applied} not applied, ${x.not_applicable} not applicable, ${x.filtered} filtered out`,
  errorCauses: (e: Report['errors']) =>
    `errors: ${e.patch} caused by the patches (a file the patch changed cannot load, or the patch removed the tier's script), ${e.harness} of the harness (the tier, its config or what it needs); the tier figures count both as errors`,
  retired: (names: readonly string[]) =>
    `${names.join(', ')}: not in the config any more; listed apart and left out of the order and the advice`,
  orderMethod: (o: OrderFigures) =>
    o.method === 'calibration'
      ? `exact: ${plural(o.calibration_runs, 'calibration run')} replayed under each order, each stopping at its first non-pass`
      : "estimated: each tier's mean seconds and catch rate, assuming tiers fail independently (no calibration run covers every tier; `gate-ladder run --calibrate` records one)",
  orderLine: (label: string, tiers: readonly string[], seconds: number | null) =>
    `${label}: ${chain(tiers)}: ${seconds ?? '-'} s per patch`,
  trendHeading: (unit: string) => `over time (per ${unit}: runs, caught, yield per second)`,
  seedsLine: (s: SeedFigures) =>
    `${plural(s.runs, 'seeded bug')}: ${s.caught} caught by some tier, ${s.runs - s.caught} escaped every tier`,
  seedTier: (t: SeedFigures['tiers'][number]) =>
    `${t.tier}: caught ${t.caught} of the ${plural(t.runs, 'seeded bug')} it ran on${t.errors ? ` (${plural(t.errors, 'error')})` : ''}`,
  seedCaughtByTiers: (tiers: readonly string[]) =>
    `gate-ladder: the seeded bug was caught by ${tiers.join(', ')}; no test was named (no \`junit\` report), so no per-test evidence was recorded. \`gate-ladder report\` counts the catch per tier; add \`junit\` to a tier to credit its tests.`,
  htmlWritten: (file: string, bytes: number, opening = false) =>
    `gate-ladder: wrote ${shown(file)} (${Math.max(1, Math.round(bytes / 1024))} KB, self-contained: it loads nothing from the network).${opening ? '' : ' Open it in a browser (`gate-ladder report --open` does), or keep it as a CI artifact.'}`,
  htmlUnwritable: (file: string, why: string) =>
    `gate-ladder: cannot write ${shown(file)}: ${shown(why)}. Pass another path: \`gate-ladder report --html PATH\`.`,
  htmlOpened: (file: string, by: string) => `gate-ladder: opened ${shown(file)} with ${shown(by)}.`,
  /** `--open` found no browser: the page is written all the same. */
  noBrowser: (file: string, browser?: string) =>
    `gate-ladder: no browser to open the page: ${browser === undefined ? 'BROWSER is not set and no xdg-open, open or start was found' : `$BROWSER (${shown(browser)}) names no command found here`}. Open ${shown(file)} in a browser yourself, or set BROWSER to one (e.g. \`BROWSER=firefox gate-ladder report --open\`).`,
  openFailed: (file: string, by: string, why: string) =>
    `gate-ladder: ${shown(by)} could not open the page (${shown(why)}). Open ${shown(file)} in a browser yourself, or set BROWSER to one (e.g. \`BROWSER=firefox gate-ladder report --open\`).`,
  noSeeds: () => 'no seeded bugs yet: `gate-ladder seed <commit>` runs a known-bad change through every tier',
  overlapHeading: (runs: number) => `calibration overlap (${plural(runs, 'calibration run')})`,
  pair: (p: PairOverlap) =>
    `${shown(p.earlier)} / ${shown(p.later)}: ${plural(p.patches, 'patch', 'patches')}; both caught ${p.both}, only ${shown(p.earlier)} ${p.only_earlier}, only ${shown(p.later)} ${p.only_later}, neither ${p.neither}`,
  noRoutes: () => 'routed no patch past any tier (a tier with `skipWhenTestAdjacent: true` is what it can route past)',
  noCalibration: () => 'no calibration runs yet: `gate-ladder run --calibrate` records one, config `calibrate: 0.1` samples one run in ten',
  tooFewAttempts: (r: RateFigures, min: number) =>
    `too few attempts: ratios are noise; choose the order by judgment and revisit. ${r.per_month} patch attempts a month (${r.attempts} in ${r.months} ${r.months === 1 ? 'month' : 'months'}), fewer than ${min} a month (config report.minAttempts); every push adds one.`,
  shortFeedback: (tier: string, median: number, limit: number) =>
    `short-feedback suite: the ladder's overhead likely exceeds what ordering saves. The most expensive tier, ${shown(tier)}, has a median of ${median} s, under ${limit} s; consider one gate that runs everything.`,
  errors: (t: TierFigures) =>
    `${shown(t.tier)}: ${plural(t.errors, 'error')} in ${plural(t.runs, 'run')}${(t.patch_errors ?? 0) > 0 ? ` (${t.errors - t.patch_errors!} of the harness, ${t.patch_errors} caused by the patches)` : ''}, error rate ${percent(t.error_rate ?? 0)}, apart from its ${plural(t.caught, 'catch', 'catches')}: errors of the harness are trouble with the tier, not the patch. Read those rows' "reason" in the ledger and fix the tier's command or environment.`,
  decorative: (p: PairOverlap) =>
    `${shown(p.earlier)}: decorative: delete it rather than reorder. In ${plural(p.patches, 'calibration run')}, ${shown(p.later)} caught every patch ${shown(p.earlier)} caught (${p.both}) and ${p.only_later} more; ${shown(p.earlier)} caught none alone.`,
  contractCheck: (p: PairOverlap, limit: number) =>
    `${p.later}: buying a contract check, not bug detection: keep it, but it does not earn its minutes. In ${plural(p.patches, 'calibration run')} it caught ${p.only_later} that ${p.earlier} missed, of ${p.both + p.only_earlier + p.only_later} caught by either (both ${p.both}, only ${p.earlier} ${p.only_earlier}); the limit is ${limit} %.`,
  contractCheckLadder: (t: TierFigures, limit: number) =>
    `${t.tier}: buying a contract check, not bug detection: keep it, but it does not earn its minutes. Reached by ${plural(t.runs, 'patch', 'patches')}, it caught ${t.caught} (${percent(t.caught / t.runs)}); the limit is ${limit} %.`,
  reorder: (o: OrderFigures) =>
    `reorder to ${chain(o.recommended)}: expected ${o.recommended_s} s per patch instead of ${o.current_s} s for ${chain(o.current)} (${ratios(o)}). Reorder \`tiers\` in the config.`,
  keepOrder: (o: OrderFigures) =>
    `keep the order ${chain(o.current)}: expected ${o.current_s} s per patch, and no order of these tiers is cheaper (${ratios(o)}).`,
};

function ratios(o: OrderFigures): string {
  const unpriced = o.unranked.length > 0 ? `; not priced, no runs: ${o.unranked.join(', ')}` : '';
  if (o.method === 'calibration') return `${reportMsg.orderMethod(o)}${unpriced}`;
  const each = o.priced.map((t) => `${t.tier} ${t.mean_s} s ÷ ${t.p} = ${t.ratio ?? 'never catches'}`).join('; ');
  return `mean seconds ÷ catch probability, ascending: ${each}${unpriced}; assumes tiers fail independently (no calibration run covers every tier)`;
}

/** Why lint-staged could not read its config file (it says only that it could not), with the next step. */
export const lintStagedConfigMsg = {
  unreadable: (file: string, cause: string, next: string) => `its configuration ${shown(file)} could not be read: ${shown(cause)}. ${next}`,
  tsUnsupported: (file: string) =>
    `Node ${process.version} cannot load a TypeScript file: rename ${shown(file)} to a .mjs file written in plain JavaScript, or commit with Node 22.18 or later (it loads .ts files)`,
  tsSyntax: (file: string) =>
    `Node loads ${shown(file)} by removing its types only: write it without enums, namespaces or parameter properties, or as a .mjs file in plain JavaScript`,
  fixIt: (file: string) => `Fix ${shown(file)} so that Node can import it (lint-staged imports it and reads its default export)`,
};

/** The pre-commit path's lint-staged backups and restores. */
export const commitMsg = {
  leftoverBackup: (name: string) =>
    `gate-ladder: ${name} is a backup lint-staged left behind (a commit hook that was killed?). If changes are missing from your working tree, \`git stash pop --index ${name}\` brings them back; if not, \`git stash drop ${name}\` removes it.`,
  restoring: () =>
    'gate-ladder: lint-staged is stopping its tasks and restoring your unstaged changes; waiting for it to finish, so nothing is lost.',
  restoreFailed: (name: string) =>
    `gate-ladder: lint-staged did not restore everything: your changes are kept in ${name} (lint-staged automatic backup). \`git stash pop --index ${name}\` brings them back.`,
  leftoverGuard: (name: string, sha: string) =>
    `gate-ladder: ${name} is the backup gate-ladder made before a lint-staged run that was killed. If changes are missing from your working tree or index, \`git reset -q --hard && git stash apply -q --index ${sha}\` puts them back exactly as they were before that commit; if not, \`git stash drop ${name}\` removes it.`,
  guardRestored: () =>
    'gate-ladder: lint-staged stopped before it had put your changes back; gate-ladder restored the working tree and index from its own backup, exactly as they were before the commit.',
  guardLock: (lock: string) =>
    `${shown(lock)} is there from before lint-staged ran: if no git command is running, \`rm -f '${shown(lock)}'\` removes it`,
  guardNotDropped: (sha: string, why: string) =>
    `gate-ladder: your working tree and index are as they were, but gate-ladder's backup stash ${sha.slice(0, 12)} could not be dropped (${shown(why)}); \`git stash list\` shows it as "gate-ladder: before lint-staged": \`git stash drop\` that entry.`,
  guardKept: (sha: string, why: string) =>
    `gate-ladder: your working tree and index could not be put back (${shown(why)}); your changes are kept in the stash "gate-ladder: before lint-staged" (${sha}). \`git reset -q --hard && git stash apply -q --index ${sha}\` restores them exactly; then \`git stash drop\` the entry \`git stash list\` shows for it.`,
  restaged: (before: string, after: string) =>
    `gate-ladder: lint-staged changed the staged files (tree ${before.slice(0, 12)} -> ${after.slice(0, 12)}); the next tiers judge what will be committed.`,
};

const short = (sha: string) => sha.slice(0, 12);

/** Which config judges a push, a commit, a manual run or a replay (config/config-at.ts). */
export const configMsg = {
  /** The tested commit's own config was used; the working tree's differs from it or is missing. */
  workingTreeIgnored: (ref: string, head: string, file: string, working: 'differs' | 'missing', hook?: HookName) =>
    isCommit(hook)
      ? `gate-ladder: the commit is judged under the staged ${file}; the working tree's config ${working === 'missing' ? 'is missing' : 'differs (unstaged changes)'} and is not used. To judge the commit under it, \`git add\` it and commit again.`
      : `gate-ladder: ${ref} is judged under ${file} as committed at ${short(head)}; the working tree's config ${working === 'missing' ? 'is missing (deleted, not committed?)' : 'differs (uncommitted changes?)'} and is not used for this push. To judge pushes under it, commit it.`,
  /** The tested commit has no config at all: the working tree's judges it. */
  noCommittedConfig: (ref: string, head: string, file: string, hook?: HookName) =>
    isCommit(hook)
      ? `gate-ladder: the staged tree has no config: the commit is judged under the working tree's ${file}. Stage it (\`git add ${file}\`) to commit it.`
      : `gate-ladder: ${ref} at ${short(head)} has no committed config: judged under the working tree's ${file}. Commit it so that pushes are judged under the config they carry.`,
  /** `run --base/--head` (and a run without either). */
  todays: (file: string) =>
    `gate-ladder: judged under the working tree's ${file} (today's config; a push is judged under the pushed commit's own, a commit under the staged one).`,
  replayToday: (file: string) =>
    `gate-ladder: every patch is judged under the working tree's ${file} (today's config), whatever config its commit had.`,
  invalidCommitted: (ref: string, head: string, problems: readonly string[], hook?: HookName) =>
    [
      `gate-ladder: ${blocked(hook)}${isCommit(hook) ? '' : `${shown(ref)}: `}the config has ${problems.length} problem${problems.length === 1 ? '' : 's'} (${isCommit(hook) ? 'as staged' : `as committed at ${short(head)}`}); no gate ran${isCommit(hook) ? '' : ' for it'}:`,
      ...problems.map((p) => `  - ${shownLines(p)}`),
      `Fix ${problems.length === 1 ? 'it' : 'them'}, ${isCommit(hook) ? 'stage the fix, and commit again' : isManual(hook) ? 'then run it again' : 'commit the fix, and push again'}.${bypass(hook) ? ` ${bypass(hook)}` : ''}`,
    ].join('\n'),
  unreadable: (treeish: string) =>
    `could not read the config committed at ${short(treeish)} (git cat-file failed); check the repository with \`git fsck\``,
  cannotCopy: (treeish: string, dir: string) =>
    `could not write the config committed at ${short(treeish)} under ${dir} to load it; check that folder's permissions and free space`,
  /** A config this run could not start loading: an earlier one used up the run's one time limit. */
  loadTimeSpent: (limitS: number) =>
    `was not loaded: this run's ${limitS} s for loading configs were used up by a config that did not finish loading (an endless loop, or work that never ends?); no gate ran. Fix that config; GATE_LADDER_CONFIG_TIMEOUT=<seconds> sets the limit`,
};

/** Faults met outside the gates: the ledger, gates left by a run that was killed, a push abandoned (issue 16). */
export const faultMsg = {
  ledgerUnwritable: (path: string, why: string) =>
    `gate-ladder: cannot write the ledger ${shown(path)}: ${shown(why)}. This run's rows are not recorded; the verdicts still decide. Fix the path (config \`ledger\`), its folder or the disk, and later runs record again.`,
  ledgerLockWait: (lock: string, holder: string, staleS: number) =>
    `gate-ladder: waiting for the ledger's lock ${shown(lock)}, held by ${holder}; it is taken over after ${staleS} s. If no gate-ladder is running, remove that file.`,
  ledgerLockTaken: (lock: string, holder: string) =>
    `gate-ladder: took over the ledger's lock ${shown(lock)}: ${holder}, which held it, is no longer running.`,
  leftover: (tier: string, owner: number, since: string, killed: number, pgid?: number) =>
    `gate-ladder: a run that was killed (pid ${owner}) left ${shown(tier)} running since ${shown(since)}${pgid !== undefined ? ` (process group ${pgid})` : ''}; stopped ${killed} process${killed === 1 ? '' : 'es'}.`,
  leftoverUnverified: (tier: string, owner: number, since: string) =>
    `gate-ladder: a run that was killed (pid ${owner}) may have left ${shown(tier)} running since ${shown(since)}; this system has no /proc to find its processes by their GATE_LADDER_GATE variable, so nothing was stopped. Look for them with \`ps\`.`,
  abandoned: (name: string, pid: number) =>
    `gate-ladder: ${shown(name)} (pid ${pid}), which started this run, has exited: the push no longer exists. The gates were stopped, and the gate that was running has no row.`,
};

/** The worktree pool (slots/worktree-pool.ts), `gate-ladder gc`, and patches refused before they are applied. */
export const poolMsg = {
  waiting: (pid: number, pool: string) =>
    `gate-ladder: waiting for process ${pid}, which is adding or removing a worktree of this repository (${pool}); if it is stuck, stop it, or run \`gate-ladder gc\` once it has gone.`,
  note: (note: string) => `gate-ladder: ${note}.`,
  repaired: (dir: string) =>
    `gate-ladder: ${shown(dir)} was left mid-checkout by a run that died; it was set right, and git status agrees, before any gate ran.`,
  remade: (dir: string) =>
    `gate-ladder: ${shown(dir)} could not be set right (left broken by a run that died, or changed by hand); it was made anew before any gate ran.`,
  intoLinks: (path: string, link: string) =>
    `it touches ${path}, inside ${link}, a dependency folder the worktree copies from your checkout's: refused, so a patch never changes the dependencies it is judged with`,
  notCopied: (rel: string, why: string) =>
    `${shown(rel)} could not be copied into the worktree (${shown(why)}), so gates there run without it; free some disk space, or run \`gate-ladder gc\` and push again`,
  legacyPool: (pool: string) =>
    `gate-ladder: worktree slots of an earlier gate-ladder are still in ${shown(pool)} (under .git, a path some tools treat as hidden; slots are now made outside it): \`gate-ladder gc\` removes them.`,
  gcDone: (removed: number, legacy: number, pool: string) =>
    removed === 0 && legacy === 0
      ? `gate-ladder: no worktree slot to remove (the pool ${shown(pool)} is empty or not made yet).`
      : `gate-ladder: removed ${removed} worktree slot${removed === 1 ? '' : 's'} of the pool (${shown(pool)})${legacy > 0 ? ` and ${legacy} throwaway worktree${legacy === 1 ? '' : 's'} of an earlier version` : ''}. The next isolated run makes a slot again.`,
  gcOrphans: (n: number) =>
    `gate-ladder: also removed the worktree pool${n === 1 ? '' : 's'} of ${n} repositor${n === 1 ? 'y' : 'ies'} that no longer exist${n === 1 ? 's' : ''} (deleted or moved).`,
  gcBusy: (slot: string, pid: number) =>
    `gate-ladder: kept ${slot}: process ${pid} is using it. Run \`gate-ladder gc\` again once that run has finished.`,
};

/** Issue 18: merge, replay --shard, sync and ci. */
export const teamMsg = {
  badShard: (problem: string) => `gate-ladder: ${problem}. Nothing was replayed.`,
  shard: (index: number, count: number, mine: number, all: number, balanced: boolean) =>
    `gate-ladder: shard ${index}/${count}: ${mine} of ${all} patch${all === 1 ? '' : 'es'} (${balanced ? 'balanced by the durations the ledger knows' : 'round-robin: the ledger knows no durations for them'}). Merge the shards' ledgers with \`gate-ladder merge\`.`,
  mergeNoFiles: () => 'gate-ladder: merge needs at least one ledger file (e.g. `gate-ladder merge shard-1.jsonl shard-2.jsonl`).',
  mergeMissing: (files: readonly string[]) =>
    `gate-ladder: nothing was merged; no such file: ${files.join(', ')}. Check the paths (a CI artifact is often one folder deeper).`,
  mergeNotFiles: (files: readonly string[]) =>
    `gate-ladder: nothing was merged; not a file: ${files.join(', ')}. Name the ledger files (a folder's: \`gate-ladder merge <folder>/*.jsonl\`).`,
  mergeSource: (file: string, rows: number, added: number, duplicates: number, skipped: number) =>
    `  ${file}: ${plural(rows, 'row')}, ${added} added, ${duplicates} already there${skipped ? `, ${plural(skipped, 'malformed line')} skipped` : ''}`,
  merged: (added: number, into: string) => `gate-ladder: merged ${plural(added, 'new row')} into ${into}. \`gate-ladder report\` reads it.`,
  mergeFailed: (into: string, why: string) =>
    `gate-ladder: cannot write ${into}: ${why}. Check the folder and its permissions, or pass another with --into.`,
  badOrigin: (id: string) =>
    `gate-ladder: "${id}" cannot name a ledger ref: use letters, digits, ".", "_" and "-" (set GATE_LADDER_ORIGIN to such an id).`,
  syncFetchFailed: (remote: string, detail: string) =>
    `gate-ladder: sync: cannot fetch the team's ledgers from ${remote} (${detail}); nothing changed. Check the remote's name and access (\`git fetch ${remote}\`), then sync again.`,
  syncPushRefused: (remote: string, ref: string, detail: string) =>
    `gate-ladder: sync: ${remote} refused ${ref} (${detail}); nothing changed there or here. Ask for push rights to refs/gate-ladder/* (or exempt them from the hosting rule); \`gate-ladder report --local\` meanwhile.`,
  synced: (remote: string, origin: string, pushed: number, recovered: number, teamRows: number, origins: number) =>
    `gate-ladder: synced with ${remote} as ${origin}: pushed ${plural(pushed, 'new row')}${recovered ? `, restored ${plural(recovered, 'row')} from this origin's ref into the ledger` : ''}; ${plural(teamRows, 'row')} from ${plural(origins, 'other origin')} now read by report and flaky (\`--local\` leaves them out).`,
  syncNotRestored: (n: number, ref: string) =>
    `gate-ladder: sync: the remote's ${ref} holds ${plural(n, 'row')} this clone's ledger lacks; they were not added (anyone who can push there can write them). If this clone lost its ledger, \`gate-ladder sync --restore\` adds them and says how many.`,
  syncRestored: (n: number, ref: string, ledger: string, first: string | undefined, last: string | undefined) =>
    `gate-ladder: sync --restore: added ${plural(n, 'row')} from the remote's ${ref} to ${ledger}${first ? ` (run from ${first} to ${last})` : ''}; they count in \`gate-ladder report\` as this clone's.`,
  syncRefused: (origin: string, n: number, reason: string) =>
    `gate-ladder: sync: refused ${plural(n, 'row')} from ${origin} (${reason}); they are not counted. See each origin's figures with \`gate-ladder report --by-origin\`; leave one out with \`--exclude-origin ${origin}\`.`,
  syncRace: (remote: string, ref: string, detail: string) =>
    `gate-ladder: sync: other syncs of the same origin kept moving ${ref} on ${remote} (${detail}); this clone's new rows are not pushed yet, nothing else changed. Run \`gate-ladder sync\` again (and give each clone or CI job its own GATE_LADDER_ORIGIN).`,
  reportRefused: (origin: string, n: number, reason: string) =>
    `gate-ladder: the last sync refused ${plural(n, 'row')} from ${origin} (${reason}); they are not counted. \`--exclude-origin ${origin}\` leaves out the rest of its rows too.`,
  reportExcluded: (origins: readonly string[], rows: number) =>
    `gate-ladder: left out ${plural(rows, 'row')} of ${origins.join(', ')} (--exclude-origin).`,
  syncSkipped: (n: number) =>
    `gate-ladder: sync: skipped ${plural(n, 'malformed row')} from other origins; they are not counted. Whoever wrote them should update gate-ladder.`,
  teamAfter: () =>
    "gate-ladder: the team's test records are counted after this clone's, not in time order (this clone's raw records are too many to read again, or some were removed from tests-archive/): a flip between two clones' runs of the same code may be counted differently.",
  teamRead: (local: number, team: number, origins: number) =>
    `gate-ladder: ${plural(local + team, 'row')} from ${plural(origins + 1, 'origin')} (${local} this clone's, ${team} synced from ${plural(origins, 'other')}); \`--local\` reads this clone's only.`,
};

/** `gate-ladder ci` (issue 18, point 3): the range a CI job judges, and what stops it from judging one. */
export const ciMsg = {
  howFlags: (ci: 'github' | 'gitlab' | 'none') =>
    `--base/--head${ci === 'none' ? '' : ` (the ${ci === 'github' ? 'GitHub' : 'GitLab'} event is not read)`}`,
  howNoCi: () =>
    'not in GitHub Actions or GitLab CI: HEAD against the config `base` (else origin/HEAD, origin/main or origin/master, else the upstream of the branch); pass --base/--head to choose',
  howPullRequest: (event: string, n: number | undefined) =>
    `GitHub ${event} event${n === undefined ? '' : ` #${n}`}: its head against its base`,
  howMergeGroup: () => 'GitHub merge_group event: the queued merge against its base',
  howGithubPush: () => 'GitHub push event: after against before',
  howGitlabMr: (iid: string | undefined) => `GitLab merge request${iid ? ` !${iid}` : ''}: its head against its diff base`,
  howGitlabPush: () => 'GitLab push pipeline: CI_COMMIT_SHA against CI_COMMIT_BEFORE_SHA',
  howNewBranch: (what: string, main: string) => `${what} of a new branch: against its merge-base with origin/${main}`,
  howLastCommit: (what: string, head: string) =>
    `${what} names no range: the last commit (${head === 'HEAD' ? 'HEAD' : head.slice(0, 12)}~1..); pass --base/--head to choose`,
  noEvent: (event: string, where: string) =>
    `this is a ${event} event, but ${where}, so its range is unknown. Pass the range yourself: \`gate-ladder ci --base <sha> --head <sha>\`.`,
  malformed: (event: string, fields: string) =>
    `the ${event} event payload has no ${fields}, so its range is unknown. Pass the range yourself: \`gate-ladder ci --base <sha> --head <sha>\`.`,
  gitlabMrVars: () =>
    'a merge request pipeline without CI_MERGE_REQUEST_DIFF_BASE_SHA and CI_COMMIT_SHA: is the job limited to `rules: - if: $CI_PIPELINE_SOURCE == "merge_request_event"`? Otherwise pass `--base <sha> --head <sha>`.',
  deleted: (ref: string) => `the push deleted ${ref}: no commit to judge`,

  problem: (message: string) => `gate-ladder: ci: ${shown(message)}`,
  nothing: (why: string) => `gate-ladder: ci: ${shown(why)}; nothing checked.`,
  judging: (how: string, base: string | undefined, head: string) =>
    `gate-ladder: ci: ${shown(how)}: judging ${shown(head.length === 40 ? head.slice(0, 12) : head)}${base === undefined ? '' : ` against ${shown(base.length === 40 ? base.slice(0, 12) : base)}`}.`,
  /** A commit of the range is not in the clone: a shallow checkout, or a ref never fetched. */
  missing: (what: 'base' | 'head', rev: string, ci: 'github' | 'gitlab' | 'none', shallow: boolean, isBranch: boolean) =>
    `gate-ladder: ci: cannot judge: the ${what} ${shown(rev)} is not in this clone${shallow ? ' (a shallow clone)' : ''}. ${
      isBranch
        ? `Fetch it first (\`git fetch origin ${shown(rev.replace(/^origin\//, ''))}\`)${ci === 'github' ? ', or give actions/checkout `fetch-depth: 0`, which fetches every branch' : ''}.`
        : shallow
          ? ci === 'github'
            ? 'Give the actions/checkout step `with: fetch-depth: 0` (docs/ci.md), or run `git fetch --unshallow` before gate-ladder.'
            : ci === 'gitlab'
              ? "Set `GIT_DEPTH: 0` in the job's `variables:` (docs/ci.md), or run `git fetch --unshallow` (or `git fetch --deepen=<n>`) before gate-ladder."
              : 'Run `git fetch --unshallow` (or `git fetch --deepen=<n>`) first.'
          : `A force push or a deleted branch can leave it unreachable: fetch it (\`git fetch origin ${shown(rev)}\`) or pass \`--base <rev>\` yourself.`
    } This is not a verdict on the patch.`,
  eventUnreadable: (path: string, why: string) => `${shown(path)} cannot be read (${shown(why)})`,
  noEventPath: () => 'GITHUB_EVENT_PATH is not set',
  reproduce: (base: string, head: string) =>
    `gate-ladder: ci: to see it on your machine: \`npx gate-ladder run --base ${shown(base)} --head ${shown(head)}\``,
  annotationsLeft: (left: number, limit: number) =>
    `gate-ladder: ci: ${plural(left, 'more failed test')} not annotated (GitHub shows ${limit} error annotations a step); the step summary and the log above list them.`,
  /** Annotations (raw text: the annotation writer escapes it). */
  caughtAnnotation: (tier: string, exit: number | null, reason?: string) => ({
    title: `gate-ladder: ${tier} caught a problem`,
    message: `${tier} exited ${exit}: a test failed.${reason ? ` ${reason}` : ''} The job's log has its output.`,
  }),
  errorAnnotation: (tier: string, reason?: string) => ({
    title: `gate-ladder: ${tier} could not give a verdict`,
    message: `${reason ?? 'harness error'}. This is not a verdict on the patch: the check itself did not complete.`,
  }),
  summaryWritten: (file: string) => `gate-ladder: ci: wrote the verdicts and figures to ${shown(file)}.`,
  summaryUnwritable: (file: string, why: string) =>
    `gate-ladder: ci: cannot append the summary to ${shown(file)} (${shown(why)}); the verdicts stand. Check the path (GITHUB_STEP_SUMMARY or --summary).`,
  summaryNotRegular: () => 'it is not a regular file (a FIFO, a socket or a device?), so nothing was written to it',
};

/** What `gate-ladder judge` and the MCP server say: the verdict first, then the next step (issue 38). */
export const judgeMsg = {
  needConfig: () =>
    'gate-ladder: judge runs the ladder configured here, and there is no config at the base nor in the working tree. Create one with `npx gate-ladder install`, commit it, then judge again.',
  invalidConfig: (base: string, problems: readonly string[]) =>
    [
      `gate-ladder: the config at ${short(base)} has ${plural(problems.length, 'problem')}; nothing was judged:`,
      ...problems.map((p) => `  - ${shownLines(p)}`),
      'Fix it, commit the fix, then judge again (`npx gate-ladder run --dry-run` checks the config).',
    ].join('\n'),
  badInputs: (problems: readonly string[]) =>
    [
      `gate-ladder: nothing was judged; ${problems.length === 1 ? 'one input' : `${problems.length} inputs`} could not be read:`,
      ...problems.map((p) => `  - ${shown(p)}`),
      'Name patch files with `--patch FILE` (`-` for standard input), a commit with `--commit REV`, or `--worktree` for the uncommitted change.',
    ].join('\n'),
  noInput: () =>
    'gate-ladder: judge: nothing to judge. Give `--patch FILE` (repeatable; `-` reads standard input), `--commit REV`, or `--worktree`.',
  emptyWorktree: () =>
    'gate-ladder: judge --worktree: the working tree has no change against HEAD that git would commit (ignored files are left out); nothing to judge.',
  noHead: () =>
    'gate-ladder: judge --worktree: the repository has no commit yet to judge the change against. Commit once, then judge again.',
  worktreeFailed: (why: string) =>
    `gate-ladder: judge --worktree: could not take the working tree's change (${shown(why)}); nothing was judged. Check \`git status\`, then judge again.`,
  /** The base's config is not the working tree's: said, since an agent may have edited it. */
  configAt: (base: string, file: string, working: 'differs' | 'missing') =>
    `gate-ladder: judged under ${shown(file)} as committed at ${short(base)}; the working tree's config ${working === 'missing' ? 'is missing' : 'differs'} and is not used (a patch cannot change the ladder that judges it).`,
  noIsolation: (reason: string) =>
    `gate-ladder: --isolate network: cannot run gates without network on this machine (${reason}). Nothing was judged. Run on Linux with util-linux \`unshare\` and user namespaces enabled (sysctl user.max_user_namespaces > 0), or as root; drop --isolate only for patches you trust.`,
  start: (n: number, jobs: number, isolate: boolean) =>
    `gate-ladder: judging ${plural(n, 'patch', 'patches')}${n > 1 ? `, ${jobs} at a time` : ''}${isolate ? ', gates without network' : ''}, each in a worktree of the pool.`,
  interrupted: () =>
    'gate-ladder: judge interrupted: gates stopped, worktrees given back to the pool. Patches judged before are in the ledger; judge the rest again.',
  failed: (err: unknown) =>
    `gate-ladder: judge stopped: ${shown((err instanceof Error ? err.message : String(err)).replace(/^gate-ladder: /, '').replace(/\.+$/, ''))}. Every worktree was given back to the pool; judge again once that is fixed.`,
  /** The next step an agent or a person takes after a verdict. */
  next: (v: { verdict: Verdict; applied: boolean; cause?: ErrorCause; file?: string; base: string; configFile: string }) =>
    v.verdict === 'pass'
      ? 'Every tier that runs for this change passed: propose it.'
      : v.verdict === 'caught'
        ? 'The patch is wrong: fix it (the failed tests say where), then judge it again.'
        : !v.applied
          ? `Make the patch against ${short(v.base)} (\`git diff\` there), or pass \`--base\` the commit it was made on, then judge it again.`
          : v.cause === 'patch'
            ? `The patch broke the harness${v.file ? ` (${shown(v.file)})` : ''}: fix that, then judge it again.`
            : `This is not a verdict on the patch: the check itself did not complete. Fix the tier in ${shown(v.configFile)} or what it needs, then judge again.`,
  /** The first line of the text answer: the verdict, then where and why. */
  verdict: (v: { verdict: Verdict; label: string; tier?: string; reason?: string; seconds: number; tiers: number }) =>
    v.verdict === 'pass'
      ? `pass: ${shown(v.label)}: ${plural(v.tiers, 'tier')} passed in ${v.seconds.toFixed(1)} s`
      : `${v.verdict}: ${shown(v.label)}: ${v.verdict === 'caught' ? 'caught by' : 'at'} ${shown(v.tier ?? '?')}${v.reason ? `: ${shown(clipped(v.reason))}` : ''}`,
  failedTest: (t: { id: string; file?: string; line?: number; message?: string }) =>
    `  failed: ${t.file ? `${shown(t.file)}${t.line ? `:${t.line}` : ''} ` : ''}${shown(t.id)}${t.message ? `: ${shown(clipped(t.message.split('\n')[0] ?? ''))}` : ''}`,
  tiers: (tiers: readonly { tier: string; verdict: Verdict; seconds: number }[], skipped: readonly { tier: string; reason: string }[]) =>
    `  tiers: ${[...tiers.map((t) => `${shown(t.tier)} ${t.verdict} ${t.seconds.toFixed(1)} s`), ...skipped.map((s) => `${shown(s.tier)} skipped (${shown(s.reason)})`)].join('; ') || 'none ran'}`,
  moreTests: (n: number) => `  ... and ${n} more failed (\`--json\` lists them all)`,
  ledger: (file: string, run: string) => `  ledger: ${shown(file)} (run ${run})`,
};

/** What the MCP server (`gate-ladder mcp`) says: on stderr, and in its tools' errors. */
export const mcpMsg = {
  serving: (cwd: string) =>
    `gate-ladder: MCP server on stdin/stdout for ${shown(cwd)}: tools judge_patch, explain_order, report. An agent starts it; close its stdin to stop it.`,
  failed: (code: number | null, stderr: string) =>
    `gate-ladder could not answer (exit ${code ?? 'none'})${stderr.trim() ? `: ${shownLines(stderr.trim().split('\n').slice(-8).join('\n'))}` : ''}. Run the same command in the repository's shell to see why.`,
  badBase: (rev: string) => `base ${shown(rev)}: not a commit in this repository. Give a commit, a branch or a tag.`,
  notApplied: (base: string, why: string) =>
    `the patch does not apply onto ${short(base)}: ${shown(why)}. Make it against that commit (\`git diff\` there), or give the base it was made on.`,
};
