/** A tier's report (JUnit, or another format it names) after its gate: the verdict it supports, the outcomes to record, the freezes it meets. */
import { isAbsolute, posix, relative } from 'node:path';
import { forgive, type Freeze } from '../evidence/freeze.js';
import type { GateExit } from '../gates/gate.js';
import { testMsg } from '../evidence/messages.js';
import type { ReportFormat } from '../types.js';
import type { ResolvedTier } from '../config/resolved.js';
import type { TestFailure, TestOutcome, IdContext, ReportRead } from '../evidence/junit.js';
import type { TestRecord } from '../evidence/history.js';
import { type Classified, judgeReport } from './verdict.js';

/** The outside world of reports, passed in so tests can hand in fakes (see tier-report-io.ts for the real one). */
export interface ReportDeps {
  /** Removes a report left by an earlier run; returns the time the gate starts, for the staleness check. */
  prepare: (path: string) => number;
  read: (path: string, since: number, ctx: IdContext, format?: ReportFormat) => Promise<ReportRead>;
  /** Appends one tier's outcomes to the per-test history; `cwd` is where the gate ran (for the tree of `rec.patch`). */
  record: (rec: TestRecord, cwd: string) => void | Promise<void>;
  /** The freezes committed at `cwd`; `problem` when the file cannot be used. */
  freezes: (cwd: string) => { freezes: Freeze[]; problem?: string };
  /** Today as `YYYY-MM-DD`, for freeze expiry. */
  today: () => string;
}

export interface TierJudgement extends Classified {
  /** Outcomes to record: only from a report that is this run's and agrees with the exit code. */
  tests?: TestOutcome[];
  failed?: string[];
  frozen?: string[];
  /** Ids several test cases of the report shared. */
  dup?: string[];
  /** The failed tests that made it `caught`, with file, line and message (frozen ones left out). */
  failures?: TestFailure[];
  /** More tests failed than `failures` holds (read from the output: the list is bounded, the runner's summary counts them all): how many. */
  failuresTotal?: number;
  notes: string[];
}

export interface TierReportInput {
  tier: ResolvedTier;
  /** Where the gates ran: the repo root or a temporary worktree. */
  cwd: string;
  /** Absolute path of the report. */
  path: string;
  since: number;
  exit: GateExit;
  base: Classified;
  /** False for seeded runs: their failures are evidence, never forgiven by a freeze. */
  applyFreezes: boolean;
  /** The runner profile that applies (the config's or detected), for test ids. */
  runner?: ResolvedTier['runner'];
  /** The folder the runner ran in, relative to the tier's cwd, when its command moved there (`cd backend && go test -json ./...`). */
  runDir?: string;
}

/** Reads the report and decides the tier: caught, error, or a pass because only frozen tests failed. */
export async function judgeTier(input: TierReportInput, deps: ReportDeps): Promise<TierJudgement> {
  const { tier, cwd } = input;
  // A harness error by exit code, timeout or signal stays one; its report (if any) is not history.
  if (input.base.verdict === 'error') return { ...input.base, notes: [] };
  const rel = relative(cwd, input.path);
  const where = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : input.path;
  const runner = input.runner ?? tier.runner;
  const format = tier.report?.format ?? 'junit';
  // The files a report names are from where its runner ran.
  const base = input.runDir === undefined ? tier.cwd : posix.join(tier.cwd, input.runDir);
  const report = await deps.read(input.path, input.since, { ...(runner && { runner }), base, root: cwd }, format);
  const j = judgeReport(input.base, input.exit.exitCode, report, where, runner, tier.allowNoTests === true, format);
  const out: TierJudgement = {
    verdict: j.verdict,
    ...(j.reason !== undefined && { reason: j.reason }),
    ...(j.failed.length > 0 && { failed: j.failed }),
    ...(j.trusted && report.kind === 'ok' && report.cases.length > 0 && { tests: report.cases }),
    ...(report.kind === 'ok' && report.dup !== undefined && report.dup.length > 0 && { dup: report.dup }),
    notes: [],
  };
  if (j.verdict !== 'caught') return out;
  const failures = report.kind === 'ok' ? report.failures : undefined;
  if (!input.applyFreezes) {
    out.notes.push(testMsg.failedTests(tier.name, j.failed));
    if (failures) out.failures = failures;
    return out;
  }
  const { freezes, problem } = deps.freezes(cwd);
  if (problem !== undefined) out.notes.push(problem);
  const f = forgive(j.failed, freezes, deps.today(), { tier: tier.name, ...(out.dup && { dup: out.dup }) });
  if (f.frozen.length > 0) out.frozen = f.frozen;
  if (f.unfrozen.length === 0 && f.expired.length === 0 && f.ambiguous.length === 0) {
    out.verdict = 'pass';
    out.reason = testMsg.frozenReason(f.frozen);
    out.notes.push(testMsg.frozenForgiven(tier.name, f.frozen));
    return out;
  }
  out.notes.push(testMsg.failedTests(tier.name, j.failed));
  const forgiven = new Set(f.frozen);
  const counted = failures?.filter((x) => !forgiven.has(x.id));
  if (counted && counted.length > 0) out.failures = counted;
  for (const e of f.expired) out.notes.push(testMsg.freezeExpired(tier.name, e.test, e.expires));
  for (const id of f.ambiguous) out.notes.push(testMsg.frozenButAmbiguous(tier.name, id));
  if (f.frozen.length > 0) out.notes.push(testMsg.frozenAlsoFailed(tier.name, f.frozen));
  return out;
}
