import { resolve } from 'node:path';
import { MAX_FILES_PER_ROW } from '../config/defaults.js';
import type { GateExit, GateIo } from './gate.js';
import { testRecord } from '../evidence/history.js';
import { isoTime } from '../util/iso-time.js';
import { type ReportDeps, type TierJudgement, ambiguityNotes, judgeTier } from './tier-report.js';
import type { GateResult, HookName, LedgerRow, Plan, ResolvedTier, Verdict } from '../types.js';
import { classify } from './verdict.js';
import { writeErr } from '../util/stderr.js';

/** Everything a ladder run needs from the outside world, passed in so tests can hand in fakes. */
export interface LadderDeps {
  runGate: (tier: ResolvedTier, cwd: string, env: NodeJS.ProcessEnv, io: GateIo) => Promise<GateExit>;
  appendRows: (rows: LedgerRow[]) => void;
  now: () => Date;
  /** Progress and verdict lines for the user. */
  log: (line: string) => void;
  /** Receives the gates' own output (a tail is kept). Absent: gates write straight to stderr (see GateIo). */
  write?: (chunk: Buffer) => void;
  /** config `output: 'failures'`: each tier's output is held, and shown (through `write`, else stderr) only when it does not pass. */
  hold?: boolean;
  env: NodeJS.ProcessEnv;
  interrupt?: Promise<void>;
  /** JUnit reports, per-test history and freezes. Without it, `junit` paths are not read. */
  reports?: ReportDeps;
  /** Where a tier runs (a temporary worktree, say); default `input.cwd` with `env`. May throw: an `error` row. */
  place?: (tier: ResolvedTier) => Place;
}

/** Where one tier runs and with which environment. */
export interface Place {
  cwd: string;
  isolation: 'worktree' | 'none';
  env: NodeJS.ProcessEnv;
}

export interface LadderInput {
  plan: Plan;
  runId: string;
  hook: HookName;
  patch: string;
  base: string | null;
  ref?: string;
  /** Where the gates run: the repo root or a temporary worktree. */
  cwd: string;
  isolation: 'worktree' | 'none';
  /** Run every planned tier regardless of earlier verdicts; rows are flagged and never count in yield. */
  calibration?: boolean;
  /** Run every planned tier whatever the verdicts, without flagging the rows (seeded bugs). */
  runAll?: boolean;
  source?: string;
  /** Note recorded in every row's `reason` (e.g. how the base was chosen). */
  note?: string;
}

export interface LadderOutcome {
  verdict: Verdict;
  results: GateResult[];
  rows: LedgerRow[];
  /** The tier that stopped the ladder, if any. */
  stoppedBy?: GateResult;
}

/** Runs the planned tiers in cost order; the first `caught` or `error` stops the ladder. */
export async function runLadder(input: LadderInput, deps: LadderDeps): Promise<LadderOutcome> {
  const { plan } = input;
  const skipped = plan.tiers.filter((t) => t.skip === 'scope').map((t) => t.tier.name);
  const results: GateResult[] = [];
  const rows: LedgerRow[] = [];
  let stoppedBy: GateResult | undefined;
  for (const planned of plan.tiers) {
    if (!planned.run) continue;
    const { tier } = planned;
    deps.log(`gate-ladder: ${tier.name} running (timeout ${tier.timeout} s)`);
    let where: Place = { cwd: input.cwd, isolation: input.isolation, env: deps.env };
    let exit: GateExit;
    let report: string | undefined;
    let since = 0;
    const held = deps.hold ? new Held() : undefined;
    try {
      if (deps.place) where = deps.place(tier);
      const env = { ...where.env, ...tier.env, GATE_LADDER: '0' };
      const write = held ? (chunk: Buffer) => held.push(chunk) : deps.write;
      const io: GateIo = { ...(write && { write }), ...(deps.interrupt && { interrupt: deps.interrupt }) };
      report = tier.junit !== undefined && deps.reports ? resolve(where.cwd, tier.cwd, tier.junit) : undefined;
      since = report !== undefined ? deps.reports!.prepare(report) : 0;
      exit = await deps.runGate(tier, where.cwd, env, io);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      report = undefined;
      exit = { exitCode: null, signal: null, timedOut: false, interrupted: false, seconds: 0, tail: '', spawnError: `could not prepare the gate: ${text.split('\n')[0]}` };
    }
    // An interrupted gate reached no verdict, through no fault of the patch or the harness: no row.
    if (exit.interrupted) {
      held?.show(deps.write);
      deps.log(`gate-ladder: ${tier.name} interrupted after ${exit.seconds.toFixed(1)} s; no row written for it`);
      break;
    }
    const classified = classify(exit, tier.caught, tier.timeout, tier.runner);
    const judged: TierJudgement =
      report !== undefined
        ? await judgeTier(
            { tier, cwd: where.cwd, path: report, since, exit, base: classified, applyFreezes: input.hook !== 'seed' },
            deps.reports!,
          )
        : { ...classified, notes: ambiguityNotes(tier, classified.verdict) };
    const { verdict, reason } = judged;
    if (verdict !== 'pass') held?.show(deps.write);
    const result: GateResult = {
      tier: tier.name,
      verdict,
      exitCode: exit.exitCode,
      signal: exit.signal,
      seconds: exit.seconds,
      timedOut: exit.timedOut,
      tail: exit.tail,
      ...(reason !== undefined && { reason }),
      ...(judged.tests && { tests: judged.tests }),
      ...(judged.failed && { failed: judged.failed }),
      ...(judged.frozen && { frozen: judged.frozen }),
      ...(judged.notes.length > 0 && { notes: judged.notes }),
    };
    results.push(result);
    const row = toRow({ ...input, isolation: where.isolation }, result, skipped, deps.now());
    rows.push(row);
    deps.appendRows([row]);
    if (result.tests && deps.reports) deps.reports.record(testRecord(row, result.tests));
    deps.log(`gate-ladder: ${tier.name} ${verdict} in ${exit.seconds.toFixed(1)} s${reason ? ` (${reason})` : ''}`);
    for (const note of judged.notes) deps.log(note);
    if (verdict !== 'pass' && stoppedBy === undefined) stoppedBy = result;
    if (stoppedBy !== undefined && !input.calibration && !input.runAll) break;
  }
  return { verdict: stoppedBy?.verdict ?? 'pass', results, rows, ...(stoppedBy && { stoppedBy }) };
}

/** The most held output kept per tier: its end, where a failure's story usually is. */
const MAX_HELD_BYTES = 4 * 1024 * 1024;

/** One tier's output held back (config `output: 'failures'`). */
class Held {
  private chunks: Buffer[] = [];
  private size = 0;
  private cut = false;
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > MAX_HELD_BYTES && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
      this.cut = true;
    }
  }
  show(write: ((chunk: Buffer) => void) | undefined): void {
    if (this.size === 0) return;
    const text = Buffer.concat([...(this.cut ? [Buffer.from('gate-ladder: (earlier output cut)\n')] : []), ...this.chunks]);
    (write ?? writeErr)(text);
    this.chunks = [];
    this.size = 0;
  }
}

const MAX_FAILED_PER_ROW = 100;

/** One ledger row for a tier the patch reached. Pure. */
export function toRow(input: LadderInput, result: GateResult, skipped: string[], now: Date): LedgerRow {
  const files = input.plan.files;
  const reason = [result.reason, input.note].filter(Boolean).join('; ');
  const byEnv = input.plan.tiers.filter((t) => t.skip === 'env').map((t) => t.tier.name);
  return {
    ts: isoTime(now.getTime()),
    run: input.runId,
    hook: input.hook,
    patch: input.patch,
    base: input.base,
    ...(input.ref !== undefined && { ref: input.ref }),
    tier: result.tier,
    verdict: result.verdict,
    seconds: result.seconds,
    exit: result.exitCode,
    ...(reason && { reason }),
    files: files.length > MAX_FILES_PER_ROW ? files.slice(0, MAX_FILES_PER_ROW) : [...files],
    files_count: input.plan.fileCount,
    routed: skipped.length > 0,
    ...(skipped.length > 0 && { skipped }),
    ...(byEnv.length > 0 && { skipped_by_env: byEnv }),
    ...(input.source !== undefined && { source: input.source }),
    isolation: input.isolation,
    ...(input.calibration && { calibration: true }),
    ...(result.frozen && result.frozen.length > 0 && { frozen: result.frozen }),
    // Per-test outcomes go to tests.jsonl (joined on run + tier), keeping the ledger small.
    ...(result.failed && result.failed.length > 0 && { failed: result.failed.slice(0, MAX_FAILED_PER_ROW) }),
  };
}
