import { shown } from '../util/escape.js';
import { list, tests, q } from '../util/messages.js';
import type { ReportFormat } from '../types.js';

/** The day before a `YYYY-MM-DD` (UTC days). */
const dayBefore = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) - 86_400_000).toISOString().slice(0, 10);
};

const JUNIT = 'JUnit report';

/** What a tier's report is called, by its format: each message about it names the report it is about. */
export const REPORT_NAMES: Readonly<Record<ReportFormat, string>> = {
  junit: JUNIT,
  'go-json': '`go test -json` report',
  'jest-json': 'jest JSON report',
  'vitest-json': 'vitest JSON report',
};

/** How a gate writes a report of a format other than JUnit (a JUnit report's: each runner's record, `junitHint`). */
export const REPORT_WRITERS: Readonly<Record<Exclude<ReportFormat, 'junit'>, string>> = {
  'go-json': '`go test -json ./... > PATH`',
  'jest-json': '`jest --json --outputFile=PATH`',
  'vitest-json': '`vitest run --reporter=json --outputFile=PATH`',
};

/** JUnit reports, per-test history, the freeze predicate, seeded bugs and freezes. */
export const testMsg = {
  reportMissing: (where: string, name = JUNIT) => `no ${name} at ${shown(where)}`,
  reportStale: (where: string, written: string, name = JUNIT) =>
    `the ${name} at ${shown(where)} is from an earlier run (written ${written}), not this one`,
  reportUnreadable: (where: string, why: string, name = JUNIT) => `the ${name} at ${shown(where)} is unreadable: ${shown(why)}`,
  /** How to make the gate write the report (`how`), and the tier's field to drop instead (`junit`, or `report` for another format). */
  reportHint: (how: string, field: 'junit' | 'report' = 'junit') =>
    `; make the gate write it (e.g. ${how}) or drop \`${field}\` from the tier`,
  reportNotRecorded: (what: string) => `${what}; per-test outcomes not recorded`,
  reportCannotTell: (code: number, what: string, hint: string) =>
    `exit ${code} and ${what}: cannot tell a failed test from a broken harness${hint}`,
  reportEmpty: (where: string, name = JUNIT) => `the ${name} at ${shown(where)} lists no test cases: this gate ran no tests`,
  reportEmptyNoTests: (where: string) =>
    `no tests ran: the report at ${where} lists no test cases; if that is expected, set \`allowNoTests: true\` on the tier`,
  reportBroken: (code: number, where: string, files: readonly string[]) =>
    `exit ${code}: the report at ${where} lists ${files.length === 1 ? 'a test file' : `${files.length} test files`} that could not run (${list(files, 3)}) and no failed test: the harness failed, not a test`,
  reportEmptyButFailed: (code: number, where: string, name = JUNIT) =>
    `exit ${code} but the ${name} at ${shown(where)} lists no test cases: the harness failed before any test ran`,
  reportDisagrees: (where: string, failed: readonly string[], name = JUNIT) =>
    `exit 0 but the ${name} at ${shown(where)} lists ${tests(failed.length)} as failed (${list(failed, 3)}): the runner and its report disagree`,
  reportAllPassed: (code: number, where: string, name = JUNIT) =>
    `exit ${code} but every test in the ${name} at ${shown(where)} passed: the harness failed outside the tests (a crash after the run, a coverage threshold, an open handle?)`,
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
    failed.length > 0
      ? `passed on retry: ${list(failed, 10)} failed, then passed on the same code (flaky; recorded, see \`gate-ladder flaky\`)`
      : "passed on retry: failed, then passed on the same code (flaky; this row says so, but with no test report no test's flips are recorded for `gate-ladder flaky`: give the tier a JUnit `report`)",
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
