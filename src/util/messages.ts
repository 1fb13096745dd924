/** Every sentence gate-ladder says to its users, in one place. Each says the next step. */
import type { GateResult, HookName, OrderFigures, PairOverlap, Plan, Report, ScopeFigures, TierFigures } from '../types.js';

const BYPASS = 'To push anyway: `git push --no-verify`, or `GATE_LADDER=0 git push`.';
const BYPASS_COMMIT = 'To commit anyway: `git commit --no-verify`, or `GATE_LADDER=0 git commit`.';

const isCommit = (hook?: HookName) => hook === 'pre-commit';
const blocked = (hook?: HookName) => (isCommit(hook) ? 'commit blocked' : 'push blocked');
const bypass = (hook?: HookName) => (isCommit(hook) ? BYPASS_COMMIT : BYPASS);

export const msg = {
  bypassed: () => 'gate-ladder: GATE_LADDER=0, skipping every gate.',
  notRepo: (cwd: string) => `gate-ladder: ${cwd} is not inside a git work tree. Run it from a repository.`,
  noConfig: () =>
    'gate-ladder: no config found (gate-ladder.config.ts, .gate-ladderrc, or a "gate-ladder" key in package.json); nothing was checked. Create one with `npx gate-ladder install`.',
  invalidConfig: (problems: readonly string[]) =>
    [
      `gate-ladder: the config has ${problems.length} problem${problems.length === 1 ? '' : 's'}; no gate ran:`,
      ...problems.map((p) => `  - ${p}`),
      `Fix ${problems.length === 1 ? 'it' : 'them'} and try again (\`npx gate-ladder run --dry-run\` checks the config). ${BYPASS}`,
    ].join('\n'),
  badStdin: (lines: readonly string[]) =>
    `gate-ladder: push blocked: ${lines.length} line(s) of pre-push input are not "<local ref> <sha> <remote ref> <sha>" (first: ${JSON.stringify(lines[0])}), so gate-ladder cannot tell what is pushed. Is the hook called by git? ${BYPASS}`,
  nothingToTest: (ref: string, why: string) => `gate-ladder: ${ref}: ${why}.`,
  rangeError: (ref: string, reason: string, hook?: HookName) =>
    `gate-ladder: ${blocked(hook)}: cannot tell what ${ref} changes: ${reason}. This says nothing about the patch. ${bypass(hook)}`,
  isolated: (head: string, why: string) =>
    `gate-ladder: gates run in a temporary worktree at ${head.slice(0, 12)} (${why}); your working tree is not touched.`,
  target: (ref: string, head: string, base: string, files: number) =>
    `gate-ladder: ${ref} at ${head.slice(0, 12)}: ${files} changed path${files === 1 ? '' : 's'} since ${base.slice(0, 12)}`,
  sameAs: (refs: readonly string[]) => `gate-ladder: ${refs.join(', ')} point${refs.length === 1 ? 's' : ''} at the same commit: tested once.`,
  routed: (tier: string, reason: string) => `gate-ladder: t0-scope skips ${tier}: ${reason}`,
  noTiers: () => 'gate-ladder: no tier runs for this change; allowed.',
  passed: (ref: string, tiers: number, seconds: number) =>
    `gate-ladder: ${ref}: ${tiers} tier${tiers === 1 ? '' : 's'} passed in ${seconds.toFixed(1)} s.`,
  caught: (ref: string, r: GateResult, hook?: HookName) =>
    `gate-ladder: ${blocked(hook)}: ${r.tier} caught a problem in ${ref} (exit ${r.exitCode}: a test failed). The patch is wrong: fix it, ${isCommit(hook) ? 'stage it, and commit again' : 'commit, and push again'}. ${bypass(hook)}`,
  error: (ref: string, r: GateResult, configFile: string, hook?: HookName) =>
    `gate-ladder: ${blocked(hook)}: ${r.tier} could not give a verdict on ${ref}: ${r.reason ?? 'harness error'}. This is not a verdict on the patch: the check itself did not complete. Fix the tier in ${configFile} or what it needs (or, if the patch makes the check hang or crash, the patch), then ${isCommit(hook) ? 'commit' : 'push'} again. ${bypass(hook)}`,
  interrupted: () => 'gate-ladder: interrupted; the gates were stopped and the rows so far are in the ledger.',
  needBase: () =>
    'gate-ladder: no base to compare with. Pass `--base <rev>` (e.g. `--base origin/main`), or set `base` in the config.',
  badRev: (rev: string) => `gate-ladder: ${rev} is not a commit in this repository. Check the revision and try again.`,
  ledgerAt: (path: string) => `gate-ladder: ledger: ${path}`,
  calibrating: (rate: number) =>
    `gate-ladder: calibration run (config calibrate: ${rate}): every planned tier runs whatever the verdicts; its rows are flagged and never count in yield. Set calibrate to 0 to stop.`,
  cachedPass: (ref: string, tiers: readonly string[], tree: string, runs: readonly string[]) =>
    `gate-ladder: ${ref}: tree ${tree.slice(0, 12)} already passed ${tiers.join(', ')} under this config (run ${[...new Set(runs)].join(', ')}); no gate ran. \`gate-ladder run --no-cache\` runs them anyway.`,
  wouldReuse: (runs: readonly string[]) =>
    `  cached: this tree already passed every planned tier (run ${[...new Set(runs)].join(', ')}); no gate would run (--no-cache to force)`,
};

/** The plan as lines of text, for `--dry-run`. */
export function planLines(plan: Plan): string[] {
  const lines = [`  changed paths: ${plan.fileCount}`];
  for (const hit of plan.hits.slice(0, 10)) lines.push(`  test-adjacent: ${hit.path} (matches ${hit.marker})`);
  if (plan.hits.length > 10) lines.push(`  test-adjacent: … and ${plan.hits.length - 10} more`);
  for (const t of plan.tiers) lines.push(`  ${t.run ? 'run ' : 'skip'} ${t.tier.name}${t.reason ? `: ${t.reason}` : ''}`);
  return lines;
}

/** Test ids come from reports: control characters in them are shown escaped, never sent to the terminal. */
const esc = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
const list = (ids: readonly string[], max = 5) =>
  ids.slice(0, max).map(esc).join(', ') + (ids.length > max ? ` and ${ids.length - max} more` : '');
const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
const q = (s: string) => `"${esc(s).replace(/(["\\$`])/g, '\\$1')}"`;
/** The day before a `YYYY-MM-DD` (UTC days). */
const dayBefore = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) - 86_400_000).toISOString().slice(0, 10);
};

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
    `gate-ladder: ${tier}: ${esc(test)} failed and its freeze expired: frozen through ${dayBefore(expires)} UTC, it counts again from ${expires} UTC, so the failure counts. ` +
    `Renew it if it is still eligible: \`gate-ladder freeze ${q(test)} --expires <YYYY-MM-DD> --reentry "<condition>"\`; ` +
    `or remove it: \`gate-ladder unfreeze ${q(test)}\` and fix or delete the test. Commit .gate-ladder/freezes.json either way.`,
  frozenButAmbiguous: (tier: string, id: string) =>
    `gate-ladder: ${tier}: ${esc(id)} is frozen, but in this report that id names more than one test (the report names no file), so its failure counts: a freeze names one test. ` +
    'Make the ids unique (node: a `describe` named after each file, or a node whose JUnit reporter writes `file`; jest-junit: `addFileAttribute`).',
  retrying: (tier: string) => `gate-ladder: ${tier}: tests failed; running it once more on the same code (retries: 1).`,
  retryNoVerdict: (tier: string, why: string) => `gate-ladder: ${tier}: the retry gave no verdict (${why}); the first attempt's failures stand.`,
  passedOnRetry: (failed: readonly string[]) =>
    `passed on retry: ${failed.length ? `${list(failed, 10)} failed, then passed` : 'failed, then passed'} on the same code (flaky; recorded, see \`gate-ladder flaky\`)`,
  freezesUnreadable: (file: string, why: string) => `gate-ladder: ${file} is not a valid freezes file (${why}); no freeze applies. Fix it or remove it.`,

  // The seed's freeze predicate, word for word.
  insufficientHistory: () => 'insufficient history; keep observing',
  notFlaky: (rate: string) => `not actually flaky (${rate})`,
  noEvidence: () => 'no sensitivity evidence; rewrite or delete',
  eligible: (rate: string) => `freeze with expiry, flip_rate=${rate}`,
  // Around the predicate.
  noRepeats: () => '(no run repeated on the same code yet: flips count only between runs of one tree; `retries: 1` on the tier adds such runs)',
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
    `  ${esc(f.test)}${f.tier ? ` [${f.tier}]` : ''}: ${active ? `frozen through ${dayBefore(f.expires)} UTC, counts again from ${f.expires} UTC` : `EXPIRED: counts again since ${f.expires} UTC (renew or \`gate-ladder unfreeze\`)`}; re-entry: ${esc(f.reentry)}; by ${esc(f.by)}`,
  noFreezes: (file: string) => `no freezes (${file}).`,

  flakyEmpty: (path: string) =>
    `gate-ladder: no per-test history yet (${path}). Give a tier \`runner\` and \`junit\` so its runs record each test's outcome.`,
  flakyOrphans: (n: number, example: string) =>
    `gate-ladder: ${n} test${n === 1 ? '' : 's'} with sensitivity evidence but no run history (e.g. ${example}): check that the ids match.`,
  skippedLines: (n: number, path: string) => `gate-ladder: skipped ${n} unreadable line${n === 1 ? '' : 's'} of ${path}.`,

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
  freezePast: (value: string, today: string) => `--expires ${value} is not after today (${today} UTC)`,
  freezeTooFar: (value: string, max: number, latest: string) =>
    `--expires ${value} is more than ${max} days ahead; the latest allowed is ${latest} (freeze.maxExpiryDays in the config)`,
  freezeNeedsReentry: () => 'a freeze needs --reentry "<condition>": what must be true for the test to count again',
  freezeProblems: (problems: readonly string[]) => [`gate-ladder: cannot freeze:`, ...problems.map((p) => `  - ${p}`)].join('\n'),
  frozen: (id: string, tier: string | undefined, expires: string, file: string, renewed: boolean) =>
    `gate-ladder: ${renewed ? 'renewed the freeze of' : 'froze'} ${q(id)}${tier ? ` in ${tier}` : ''}: frozen through ${dayBefore(expires)} UTC; its failures count again from ${expires} UTC. Commit ${file} so every clone and CI honour it.`,
  notFrozen: (id: string) => `gate-ladder: ${q(id)} is not frozen (see .gate-ladder/freezes.json).`,
  unfrozen: (id: string, file: string) => `gate-ladder: unfroze ${q(id)}; its failures count again. Commit ${file}.`,

  seedNeedsTarget: () => 'gate-ladder: name a seeded bug: `gate-ladder seed <commit | patch file>`, or `gate-ladder seed --stryker <report.json>`.',
  seedBadTarget: (target: string) => `gate-ladder: ${q(target)} is neither a patch file nor a commit in this repository.`,
  seedPatchFailed: (file: string, why: string) => `gate-ladder: could not apply ${file} to HEAD in a throwaway worktree: ${why}`,
  seedNoTiers: () => 'gate-ladder: no tier is configured for the seed hook (`hooks` of each tier); nothing to run.',
  seedStart: (what: string, dir: string) => `gate-ladder: seeding ${what} in a throwaway worktree (${dir}); every tier runs.`,
  seedNoReport: (tier: string) => `gate-ladder: ${tier} has no \`junit\` report, so it cannot say which tests caught the seeded bug.`,
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
    `gate-ladder: running ${tiers.join(', ')} again on the parent ${parent.slice(0, 12)} (the same worktree and command, without the bug): only tests that pass there are credited.`,
  seedParentNote: (seeded: string) => `seed: the parent of ${seeded.slice(0, 12)}, without the bug`,
  seedParentFailed: (parent: string, why: string) => `gate-ladder: could not check out the parent ${parent.slice(0, 12)} in the throwaway worktree: ${why}; no evidence recorded.`,
  seedParentNoVerdict: (tier: string, why: string) =>
    `gate-ladder: ${tier} gave no per-test outcomes on the parent (${why}), so its failing tests cannot be credited. Fix what stops it there and seed again.`,
  seedEscaped: () => 'gate-ladder: no test failed on the seeded bug: it escaped every tier, so no evidence was recorded.',
  seedCleanedUp: () => 'gate-ladder: interrupted; the throwaway worktree was removed.',
  strykerUnreadable: (file: string, why: string) => `gate-ladder: ${file} is not a Stryker mutation-testing report: ${why}`,
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
