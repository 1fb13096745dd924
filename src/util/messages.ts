/** Every sentence gate-ladder says to its users, in one place. Each says the next step. */
import type { GateResult, HookName, OrderFigures, PairOverlap, Plan, Report, ScopeFigures, TierFigures } from '../types.js';

const BYPASS = 'To push anyway: `git push --no-verify`, or `GATE_LADDER=0 git push`.';
const BYPASS_COMMIT = 'To commit anyway: `git commit --no-verify`, or `GATE_LADDER=0 git commit`.';

const isCommit = (hook?: HookName) => hook === 'pre-commit';
/** A manual (or CI) run blocks nothing: it answers, and its exit code says how. */
const isManual = (hook?: HookName) => hook === 'manual';
const blocked = (hook?: HookName) => (isCommit(hook) ? 'commit blocked: ' : isManual(hook) ? '' : 'push blocked: ');
const bypass = (hook?: HookName) => (isCommit(hook) ? BYPASS_COMMIT : isManual(hook) ? '' : BYPASS);
const again = (hook?: HookName) => (isCommit(hook) ? 'commit' : isManual(hook) ? 'run it' : 'push');
/** How the project runs gate-ladder's bin (`npx gate-ladder`, `pnpm exec gate-ladder`, ...). */
type Exec = (command: string) => string;
const npx: Exec = (command) => `npx ${command}`;

export const msg = {
  bypassed: () => 'gate-ladder: GATE_LADDER=0, skipping every gate.',
  notRepo: (cwd: string) => `gate-ladder: ${cwd} is not inside a git work tree. Run it from a repository.`,
  noConfig: (exec: Exec = npx) =>
    `gate-ladder: no config found (gate-ladder.config.ts, .gate-ladderrc, or a "gate-ladder" key in package.json); nothing was checked. Create one with \`${exec('gate-ladder install')}\`.`,
  invalidConfig: (problems: readonly string[], hook?: HookName, exec: Exec = npx) =>
    [
      `gate-ladder: the config has ${problems.length} problem${problems.length === 1 ? '' : 's'}; no gate ran:`,
      ...problems.map((p) => `  - ${p}`),
      `Fix ${problems.length === 1 ? 'it' : 'them'} and try again (\`${exec('gate-ladder run --dry-run')}\` checks the config; \`${exec('gate-ladder help config')}\` lists the fields).${bypass(hook) ? ` ${bypass(hook)}` : ''}`,
    ].join('\n'),
  badStdin: (lines: readonly string[]) =>
    `gate-ladder: push blocked: ${lines.length} line(s) of pre-push input are not "<local ref> <sha> <remote ref> <sha>" (first: ${JSON.stringify(lines[0])}), so gate-ladder cannot tell what is pushed. Is the hook called by git? ${BYPASS}`,
  nothingToTest: (ref: string, why: string) => `gate-ladder: ${ref}: ${why}.`,
  rangeError: (ref: string, reason: string, hook?: HookName) =>
    `gate-ladder: ${blocked(hook)}cannot tell what ${ref} changes: ${reason}. This says nothing about the patch.${bypass(hook) ? ` ${bypass(hook)}` : ''}`,
  isolated: (head: string, why: string, lintStaged = false) =>
    lintStaged
      ? `gate-ladder: command tiers run in a temporary worktree at ${head.slice(0, 12)} (${why}); lint-staged tiers run in your working tree (lint-staged hides unstaged changes, may fix and stage files, and restores the rest).`
      : `gate-ladder: gates run in a temporary worktree at ${head.slice(0, 12)} (${why}); your working tree is not touched.`,
  target: (ref: string, head: string, base: string, files: number) =>
    `gate-ladder: ${ref} at ${head.slice(0, 12)}: ${files} changed path${files === 1 ? '' : 's'} since ${base.slice(0, 12)}`,
  sameAs: (refs: readonly string[]) => `gate-ladder: ${refs.join(', ')} point${refs.length === 1 ? 's' : ''} at the same commit: tested once.`,
  routed: (tier: string, reason: string) => `gate-ladder: t0-scope skips ${tier}: ${reason}`,
  noTiers: () => 'gate-ladder: no tier runs for this change; allowed.',
  passed: (ref: string, tiers: number, seconds: number) =>
    `gate-ladder: ${ref}: ${tiers} tier${tiers === 1 ? '' : 's'} passed in ${seconds.toFixed(1)} s.`,
  // A blocked push or commit ends with a short block of its own (run.ts colours it): what stopped it, whose fault, the next step.
  caught: (ref: string, r: GateResult, hook?: HookName) =>
    [
      `gate-ladder: ${blocked(hook)}${r.tier} caught a problem in ${ref} (exit ${r.exitCode}: a test failed).`,
      `  The patch is wrong: fix it, ${isCommit(hook) ? 'stage it, and commit again' : isManual(hook) ? 'then run it again' : 'commit, and push again'}.`,
      ...(bypass(hook) ? [`  ${bypass(hook)}`] : []),
    ].join('\n'),
  error: (ref: string, r: GateResult, configFile: string, hook?: HookName) =>
    [
      `gate-ladder: ${blocked(hook)}${r.tier} could not give a verdict on ${ref}: ${r.reason ?? 'harness error'}.`,
      '  This is not a verdict on the patch: the check itself did not complete.',
      r.reason?.startsWith(LINT_STAGED_SAID)
        ? `  Put the repository in order as lint-staged says above (\`git status\`; a backup it kept is in \`git stash list\`), then ${again(hook)} again.`
        : `  Fix the tier in ${configFile} or what it needs (or, if the patch makes the check hang or crash, the patch), then ${again(hook)} again.`,
      ...(bypass(hook) ? [`  ${bypass(hook)}`] : []),
    ].join('\n'),
  interrupted: () => 'gate-ladder: interrupted; the gates were stopped and the rows so far are in the ledger.',
  needBase: () =>
    'gate-ladder: no base to compare with. Pass `--base <rev>` (e.g. `--base origin/main`), or set `base` in the config.',
  badRev: (rev: string) => `gate-ladder: ${rev} is not a commit in this repository. Check the revision and try again.`,
  noCommits: () =>
    'gate-ladder: this repository has no commits yet, so there is no change to judge. Make a first commit, then run it again (or `--base <rev> --head <rev>` to judge a range).',
  ledgerAt: (path: string) => `gate-ladder: ledger: ${path}`,
  calibrating: (rate: number) =>
    `gate-ladder: calibration run (config calibrate: ${rate}): every planned tier runs whatever the verdicts; its rows are flagged and never count in yield. Set calibrate to 0 to stop.`,
  cachedPass: (ref: string, tiers: readonly string[], tree: string, runs: readonly string[], hook?: HookName) =>
    `gate-ladder: ${ref}: tree ${tree.slice(0, 12)} already passed ${tiers.join(', ')} under this config (run ${[...new Set(runs)].join(', ')}); no gate ran. ${noCacheHint(hook)} runs them anyway.`,
  wouldReuse: (runs: readonly string[]) =>
    `  cached: this tree already passed every planned tier (run ${[...new Set(runs)].join(', ')}); no gate would run (--no-cache to force)`,
};

/** How to skip the tree cache: a flag on the command line, the variable through a hook (`git push` passes no flags on). */
const noCacheHint = (hook?: HookName) =>
  hook === 'pre-push' ? '`GATE_LADDER_NO_CACHE=1 git push`' : hook === 'pre-commit' ? '`GATE_LADDER_NO_CACHE=1 git commit`' : '`gate-ladder run --no-cache`';

/** How an error reason quoting lint-staged's own words begins (ladder/lint-staged.ts). */
export const LINT_STAGED_SAID = 'lint-staged stopped: it said';

/** The run's switches for one push (environment variables, since `git push` passes no flags to the hook) and its empty diffs. */
export const runMsg = {
  envSkipped: (tiers: readonly string[]) =>
    `gate-ladder: GATE_LADDER_SKIP: not running ${tiers.join(', ')} for this run (their rows say \`skipped_by_env\`).`,
  envSkipUnknown: (names: readonly string[], known: readonly string[]) =>
    `gate-ladder: GATE_LADDER_SKIP names ${names.map((n) => JSON.stringify(n)).join(', ')}, which ${names.length === 1 ? 'is' : 'are'} not a tier of this config (tiers: ${known.join(', ')}); ignored.`,
  noCache: () => 'gate-ladder: GATE_LADDER_NO_CACHE: every planned gate runs; the tree cache is neither read nor written.',
  emptyDiff: (ref: string) =>
    `gate-ladder: ${ref}: the change is empty (no path differs from its base), so there is nothing to judge; no tier ran. Set \`runOnEmpty: true\` in the config to run the tiers anyway.`,
};

/** What `gate-ladder install` and `uninstall` say. */
export const installMsg = {
  wroteConfig: (dryRun: string) => `gate-ladder: wrote gate-ladder.config.ts; check its tiers, then \`${dryRun}\``,
  addedPrepare: (install: string) => `gate-ladder: package.json: added "prepare": "husky" so a fresh clone gets the hooks on \`${install}\``,
  composedPrepare: (before: string, after: string, install: string) =>
    `gate-ladder: package.json: "prepare" was ${JSON.stringify(before)}; it is now ${JSON.stringify(after)}, so a fresh clone gets the hooks on \`${install}\` and your prepare still runs.`,
  replacedLintStaged: (hook: string, line: string) =>
    `gate-ladder: .husky/${hook}: replaced \`${line}\` with gate-ladder's line: the config's lintStaged tier runs lint-staged now (it would run twice otherwise); uninstall puts the line back.`,
  lintStagedTwice: (line: string, tierRunsIt: boolean) =>
    tierRunsIt
      ? `gate-ladder: .husky/pre-commit still runs \`${line}\` (kept: it has arguments), and the config's lintStaged tier runs lint-staged too, so it runs twice per commit. Move the arguments into the tier's \`lintStaged\` options and remove that line.`
      : `gate-ladder: .husky/pre-commit runs \`${line}\` on its own, before gate-ladder. To have lint-staged judged as a tier (a verdict and a row in the ledger), add \`{ name: 'lint-staged', lintStaged: true }\` to the config's tiers and remove that line.`,
  noPreCommitTier: () =>
    "gate-ladder: no tier runs on pre-commit, so the pre-commit hook allows every commit. Give a quick tier `hooks: ['pre-commit', 'pre-push']`, or add `{ name: 'lint-staged', lintStaged: true }`.",
  installed: (uninstall: string) => `gate-ladder: installed. \`${uninstall}\` undoes it.`,
  huskyNotOnPath: (add: string, install: string) =>
    `gate-ladder: note: node_modules/.bin has no husky (husky is gate-ladder's dependency, not the project's), so "prepare" would fail on \`${install}\`. Add it as your own: \`${add}\`.`,
  uninstalled: (done: readonly string[], kept: readonly string[]) =>
    [
      'gate-ladder: uninstalled:',
      ...done.map((d) => `  - ${d}`),
      ...kept.map((k) => `  - ${k}`),
    ].join('\n'),
};

/** The plan as lines of text, for `--dry-run`. */
export function planLines(plan: Plan): string[] {
  const lines = [`  changed paths: ${plan.fileCount}`];
  for (const hit of plan.hits.slice(0, 10)) lines.push(`  test-adjacent: ${hit.path} (matches ${hit.marker})`);
  if (plan.hits.length > 10) lines.push(`  test-adjacent: … and ${plan.hits.length - 10} more`);
  for (const t of plan.tiers) lines.push(`  ${t.run ? 'run ' : 'skip'} ${t.tier.name}${t.reason ? `: ${t.reason}` : ''}`);
  return lines;
}

const list = (ids: readonly string[], max = 5) =>
  ids.slice(0, max).join(', ') + (ids.length > max ? ` and ${ids.length - max} more` : '');
const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
const q = (s: string) => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;

/** JUnit reports, per-test history, the freeze predicate, seeded bugs and freezes. */
export const testMsg = {
  reportMissing: (where: string) => `no JUnit report at ${where}`,
  reportStale: (where: string, written: string) => `the JUnit report at ${where} is from an earlier run (written ${written}), not this one`,
  reportUnreadable: (where: string, why: string) => `the JUnit report at ${where} is unreadable: ${why}`,
  reportHint: (how: string) => `; make the gate write it (e.g. ${how}) or drop \`junit\` from the tier`,
  reportNotRecorded: (what: string) => `${what}; per-test outcomes not recorded`,
  reportCannotTell: (code: number, what: string, hint: string) =>
    `exit ${code} and ${what}: cannot tell a failed test from a broken harness${hint}`,
  reportEmpty: (where: string) => `the JUnit report at ${where} lists no test cases: this gate ran no tests`,
  reportEmptyButFailed: (code: number, where: string) =>
    `exit ${code} but the JUnit report at ${where} lists no test cases: the harness failed before any test ran`,
  reportDisagrees: (where: string, failed: readonly string[]) =>
    `exit 0 but the JUnit report at ${where} lists ${tests(failed.length)} as failed (${list(failed, 3)}): the runner and its report disagree`,
  reportAllPassed: (code: number, where: string) =>
    `exit ${code} but every test in the JUnit report at ${where} passed: the harness failed outside the tests (a crash after the run, a coverage threshold, an open handle?)`,
  ambiguous: (tier: string, why: string) =>
    `gate-ladder: ${tier}: note: ${why}; set \`junit\` on this tier so gate-ladder can tell them apart.`,
  failedTests: (tier: string, ids: readonly string[]) => `gate-ladder: ${tier}: ${tests(ids.length)} failed: ${list(ids, 10)}`,
  frozenForgiven: (tier: string, ids: readonly string[]) =>
    `gate-ladder: ${tier}: only frozen tests failed, so the tier passes: ${list(ids, 10)} (see .gate-ladder/freezes.json)`,
  frozenReason: (ids: readonly string[]) => `only frozen tests failed: ${list(ids, 10)}`,
  frozenAlsoFailed: (tier: string, ids: readonly string[]) => `gate-ladder: ${tier}: frozen tests that also failed (forgiven): ${list(ids, 10)}`,
  freezeExpired: (tier: string, test: string, expires: string) =>
    `gate-ladder: ${tier}: ${test} failed and its freeze expired on ${expires}, so the failure counts again. ` +
    `Renew it if it is still eligible: \`gate-ladder freeze ${q(test)} --expires <YYYY-MM-DD> --reentry "<condition>"\`; ` +
    `or remove it: \`gate-ladder unfreeze ${q(test)}\` and fix or delete the test. Commit .gate-ladder/freezes.json either way.`,
  freezesUnreadable: (file: string, why: string) => `gate-ladder: ${file} is not a valid freezes file (${why}); no freeze applies. Fix it or remove it.`,

  // The seed's freeze predicate, word for word.
  insufficientHistory: () => 'insufficient history; keep observing',
  notFlaky: (rate: string) => `not actually flaky (${rate})`,
  noEvidence: () => 'no sensitivity evidence; rewrite or delete',
  eligible: (rate: string) => `freeze with expiry, flip_rate=${rate}`,

  flakyEmpty: (path: string) =>
    `gate-ladder: no per-test history yet (${path}). Give a tier \`runner\` and \`junit\` so its runs record each test's outcome.`,
  flakyOrphans: (n: number, example: string) =>
    `gate-ladder: ${n} test${n === 1 ? '' : 's'} with sensitivity evidence but no run history (e.g. ${example}): check that the ids match.`,
  skippedLines: (n: number, path: string) => `gate-ladder: skipped ${n} unreadable line${n === 1 ? '' : 's'} of ${path}.`,

  noSuchTest: (id: string, near: readonly string[]) =>
    `gate-ladder: no run history for ${q(id)}.${near.length ? ` Did you mean: ${near.map(q).join(', ')}?` : ''} See \`gate-ladder flaky\` for the ids.`,
  freezeRefused: (id: string, reason: string) => `gate-ladder: not freezing ${q(id)}: ${reason}.`,
  freezeNeedsExpiry: () => 'a freeze needs --expires <YYYY-MM-DD>: a freeze with no expiry is a deletion you did not make',
  freezeBadDate: (value: string) => `--expires ${q(value)} is not a date; write it as YYYY-MM-DD`,
  freezePast: (value: string, today: string) => `--expires ${value} is not after today (${today})`,
  freezeTooFar: (value: string, max: number, latest: string) =>
    `--expires ${value} is more than ${max} days ahead; the latest allowed is ${latest} (freeze.maxExpiryDays in the config)`,
  freezeNeedsReentry: () => 'a freeze needs --reentry "<condition>": what must be true for the test to count again',
  freezeProblems: (problems: readonly string[]) => [`gate-ladder: cannot freeze:`, ...problems.map((p) => `  - ${p}`)].join('\n'),
  frozen: (id: string, expires: string, file: string, renewed: boolean) =>
    `gate-ladder: ${renewed ? 'renewed the freeze of' : 'froze'} ${q(id)} until ${expires}. Commit ${file} so every clone and CI honour it.`,
  notFrozen: (id: string) => `gate-ladder: ${q(id)} is not frozen (see .gate-ladder/freezes.json).`,
  unfrozen: (id: string, file: string) => `gate-ladder: unfroze ${q(id)}; its failures count again. Commit ${file}.`,

  seedNeedsTarget: () => 'gate-ladder: name a seeded bug: `gate-ladder seed <commit | patch file>`, or `gate-ladder seed --stryker <report.json>`.',
  seedBadTarget: (target: string) => `gate-ladder: ${q(target)} is neither a patch file nor a commit in this repository.`,
  seedPatchFailed: (file: string, why: string) => `gate-ladder: could not apply ${file} to HEAD in a throwaway worktree: ${why}`,
  seedNoTiers: () => 'gate-ladder: no tier is configured for the seed hook (`hooks` of each tier); nothing to run.',
  seedStart: (what: string, dir: string) => `gate-ladder: seeding ${what} in a throwaway worktree (${dir}); every tier runs.`,
  seedNoReport: (tier: string) => `gate-ladder: ${tier} has no \`junit\` report, so it cannot say which tests caught the seeded bug.`,
  seedCaughtBy: (ids: readonly string[]) => `gate-ladder: sensitivity evidence recorded for ${tests(ids.length)}: ${list(ids, 20)}`,
  seedEscaped: () => 'gate-ladder: no test failed on the seeded bug: it escaped every tier, so no evidence was recorded.',
  seedCleanedUp: () => 'gate-ladder: interrupted; the throwaway worktree was removed.',
  strykerUnreadable: (file: string, why: string) => `gate-ladder: ${file} is not a Stryker mutation-testing report: ${why}`,
  strykerSummary: (killed: number, ids: readonly string[], ignored: number) =>
    `gate-ladder: ${killed} killed mutant${killed === 1 ? '' : 's'} gave sensitivity evidence to ${tests(ids.length)}${ids.length ? `: ${list(ids, 20)}` : ''}` +
    (ignored ? `; ${ignored} mutant${ignored === 1 ? '' : 's'} with other statuses (Timeout, RuntimeError, Survived, ...) give none` : ''),
  strykerUnmatched: (n: number, example: string) =>
    `gate-ladder: ${tests(n)} named by the report have no run history here; recorded under the report's names (e.g. ${q(example)}).`,
};

/** What `gate-ladder replay` says. */
export const replayMsg = {
  needConfig: () =>
    'gate-ladder: replay judges patches by the ladder configured here, and there is no config. Create one with `npx gate-ladder install`, then replay again.',
  badInputs: (problems: readonly string[]) =>
    [
      `gate-ladder: nothing was replayed; ${problems.length === 1 ? 'one input' : `${problems.length} inputs`} could not be read:`,
      ...problems.map((p) => `  - ${p}`),
      'Name a revision range (`main~50..main`), a folder of .patch/.diff files, or patch files (with `--onto REV`).',
    ].join('\n'),
  noIsolation: (reason: string) =>
    `gate-ladder: --isolate network: cannot run gates without network on this machine (${reason}). Nothing was replayed. Run on Linux with util-linux \`unshare\` and user namespaces enabled (sysctl user.max_user_namespaces > 0), or as root; drop --isolate only for patches you trust.`,
  badJobs: (value: string) => `gate-ladder: --jobs ${value}: give a whole number of patches to run at once, at least 1 (e.g. \`--jobs 2\`).`,
  merges: (n: number) =>
    `gate-ladder: left out ${n} merge commit${n === 1 ? '' : 's'}: the commits of each merged branch are replayed one by one (\`--first-parent\` replays the mainline instead, a merge as one patch).`,
  resumed: (n: number) =>
    `gate-ladder: ${n} patch${n === 1 ? ' was' : 'es were'} replayed before under this config: skipped (\`--force\` runs ${n === 1 ? 'it' : 'them'} again).`,
  start: (n: number, jobs: number, hash: string, isolate: boolean) =>
    `gate-ladder: replaying ${n} patch${n === 1 ? '' : 'es'}, ${jobs} at a time, config ${hash}${isolate ? ', gates without network' : ''}; each in a throwaway worktree.`,
  interrupted: () =>
    'gate-ladder: replay interrupted: gates stopped, worktrees removed. Finished patches are in the ledger; the same command replays the rest.',
  failed: (err: unknown) =>
    `gate-ladder: replay stopped: ${err instanceof Error ? err.message : String(err)}. Every worktree was removed; finished patches are in the ledger, and the same command replays the rest.`,
  summary: (patches: number, now: number, before: number, notApplied: number, seconds: string) =>
    `replay: ${patches} patch${patches === 1 ? '' : 'es'} (${now} replayed now, ${before} earlier under this config${notApplied ? `, ${notApplied} did not apply` : ''}) in ${seconds}`,
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const percent = (x: number) => `${Number((x * 100).toPrecision(3))} %`;
const chain = (tiers: readonly string[]) => ['t0-scope', ...tiers].join(' → ');

/** What `gate-ladder report` says: warnings on stderr, advice in the report. */
export const reportMsg = {
  empty: (path: string) =>
    `gate-ladder: the ledger ${path} has no rows yet. Every push writes rows once the hook is installed (\`npx gate-ladder install\`); \`npx gate-ladder run --base origin/main\` writes some now. Then run \`gate-ladder report\` again.`,
  allFiltered: (rows: number) =>
    `gate-ladder: none of the ledger's ${plural(rows, 'row')} match --since/--hook. Widen or drop the filter and run it again.`,
  skippedLines: (n: number, path: string) =>
    `gate-ladder: skipped ${plural(n, 'line')} of ${path}: blank, cut off mid-write, not JSON, or missing patch/tier/verdict/seconds. They are not counted; if the number grows, check what else writes to that file.`,
  badSince: (value: string) => `gate-ladder: --since "${value}" is not a date. Use a date such as 2025-01-31 or 2025-01-31T12:00:00Z.`,
  noLedger: (cwd: string) =>
    `gate-ladder: ${cwd} is not inside a git repository, so there is no default ledger. Pass \`--ledger PATH\`, or run it from the repository.`,
  unreadable: (path: string, why: string) => `gate-ladder: cannot read the ledger ${path}: ${why}. Check the path and its permissions, or pass another with --ledger.`,
  noSuchLedger: (path: string) => `gate-ladder: --ledger ${path}: no such file. Check the path (without --ledger, the report reads the repository's own ledger).`,
  configIgnored: (file: string, problems: number) =>
    `gate-ladder: ${file} has ${plural(problems, 'problem')}; reporting tiers in ledger order with default thresholds. \`npx gate-ladder run --dry-run\` lists them.`,
  routedPast: (p: ScopeFigures['past'][number]) =>
    `routed ${plural(p.patches, 'patch', 'patches')} past ${p.tier}: saved ${p.saved_s ?? 'unknown (the tier has no runs)'} s (median ${p.median_s ?? '-'} s × ${p.patches})`,
  routedTotal: (s: ScopeFigures) => `${plural(s.patches, 'patch', 'patches')} routed; ${s.saved_s} s saved in all`,
  summary: (r: Report, ledger?: string) =>
    `${plural(r.rows, 'row')}${ledger ? ` from ${ledger}` : ''}; ${plural(r.attempts, 'patch attempt')} counted; ${plural(r.skipped_lines, 'line')} skipped`,
  excluded: (x: Report['excluded']) =>
    `not in the tier figures: ${x.calibration} calibration, ${x.cached} cached, ${x.seed} seed, ${x.not_applied} not applied, ${x.filtered} filtered out`,
  overlapHeading: (runs: number) => `calibration overlap (${plural(runs, 'calibration run')})`,
  pair: (p: PairOverlap) =>
    `${p.earlier} / ${p.later}: ${plural(p.patches, 'patch', 'patches')}; both caught ${p.both}, only ${p.earlier} ${p.only_earlier}, only ${p.later} ${p.only_later}, neither ${p.neither}`,
  noRoutes: () => 'routed no patch past any tier (a tier with `skipWhenTestAdjacent: true` is what it can route past)',
  noCalibration: () => 'no calibration runs yet: `gate-ladder run --calibrate` records one, config `calibrate: 0.1` samples one run in ten',
  tooFewAttempts: (attempts: number, min: number) =>
    `too few attempts: ratios are noise; choose the order by judgment and revisit. ${plural(attempts, 'patch attempt')} counted, fewer than ${min} (config report.minAttempts); every push adds one.`,
  shortFeedback: (tier: string, median: number, limit: number) =>
    `short-feedback suite: the ladder's overhead likely exceeds what ordering saves. The most expensive tier, ${tier}, has a median of ${median} s, under ${limit} s; consider one gate that runs everything.`,
  errors: (t: TierFigures) =>
    `${t.tier}: ${plural(t.errors, 'error')} in ${plural(t.runs, 'run')}, error rate ${percent(t.error_rate ?? 0)}, apart from its ${plural(t.caught, 'catch', 'catches')}: errors are harness trouble, not the patch. Read those rows' "reason" in the ledger and fix the tier's command or environment.`,
  decorative: (p: PairOverlap) =>
    `${p.earlier}: decorative: delete it rather than reorder. In ${plural(p.patches, 'calibration run')}, ${p.later} caught every patch ${p.earlier} caught (${p.both}) and ${p.only_later} more; ${p.earlier} caught none alone.`,
  contractCheck: (p: PairOverlap, limit: number) =>
    `${p.later}: buying a contract check, not bug detection: keep it, but it does not earn its minutes. In ${plural(p.patches, 'calibration run')} it caught ${p.only_later} that ${p.earlier} missed, of ${p.both + p.only_earlier + p.only_later} caught by either (both ${p.both}, only ${p.earlier} ${p.only_earlier}); the limit is ${limit} %.`,
  reorder: (o: OrderFigures) =>
    `reorder to ${chain(o.recommended)}: expected ${o.recommended_s} s per patch instead of ${o.current_s} s for ${chain(o.current)} (${ratios(o)}). Reorder \`tiers\` in the config.`,
  keepOrder: (o: OrderFigures) =>
    `keep the order ${chain(o.current)}: expected ${o.current_s} s per patch, and no order of these tiers is cheaper (${ratios(o)}).`,
};

function ratios(o: OrderFigures): string {
  const each = o.priced.map((t) => `${t.tier} ${t.mean_s} s ÷ ${t.p} = ${t.ratio ?? 'never catches'}`).join('; ');
  const unpriced = o.unranked.length > 0 ? `; not priced, no runs: ${o.unranked.join(', ')}` : '';
  return `mean seconds ÷ catch probability, ascending: ${each}${unpriced}; assumes tiers fail independently`;
}
