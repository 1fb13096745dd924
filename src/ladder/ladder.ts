import { resolve } from 'node:path';
import { MAX_FILES_PER_ROW } from '../config/defaults.js';
import type { GateExit, GateIo, GateTracker } from './gate.js';
import { testRecord } from '../evidence/history.js';
import { isoTime } from '../util/iso-time.js';
import { shown } from '../util/escape.js';
import { type ReportDeps, type TierJudgement, ambiguityNotes, judgeTier } from './tier-report.js';
import type { GateResult, HookName, LedgerRow, Plan, ResolvedTier, Verdict } from '../types.js';
import { classify } from './verdict.js';
import { type Detection, needsOutput } from './detect.js';
import { detectTier } from './detect-io.js';
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
  /** Told of every gate's process group, so a run killed outright can be cleaned up after (gate-records.ts). */
  tracker?: GateTracker;
  /** Where a tier runs (a temporary worktree, say); default `input.cwd` with `env`. May throw: an `error` row. */
  place?: (tier: ResolvedTier) => Place;
  /**
   * After a tier's row: a new patch id when the tier changed what is judged (a lint-staged tier that
   * re-staged files); the later tiers' rows carry it.
   */
  afterTier?: (tier: ResolvedTier) => string | undefined;
  /**
   * Shows a gate's output when it must also be read (a runner or a package manager was detected) and
   * `write` is absent; the output of other gates goes straight to stderr.
   */
  echo?: (chunk: Buffer) => void;
  /** Tell gates whose output is read through `echo` to keep their colours (FORCE_COLOR=1): our stderr is a terminal. */
  colour?: () => boolean;
  /** Which runner a tier runs, read where it runs; default: from the command and package.json there. */
  detect?: (tier: ResolvedTier, cwd: string) => Detection;
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
export async function runLadder(first: LadderInput, deps: LadderDeps): Promise<LadderOutcome> {
  let input = first;
  const { plan } = input;
  const skipped = plan.tiers.filter((t) => t.skip === 'scope').map((t) => t.tier.name);
  const results: GateResult[] = [];
  const rows: LedgerRow[] = [];
  let stoppedBy: GateResult | undefined;
  for (const planned of plan.tiers) {
    if (!planned.run) continue;
    const { tier } = planned;
    deps.log(`gate-ladder: ${tier.name} running (${tier.lintStaged ? 'lint-staged, no timeout' : `timeout ${tier.timeout} s`})`);
    let where: Place = { cwd: input.cwd, isolation: input.isolation, env: deps.env };
    let exit: GateExit;
    let report: string | undefined;
    let since = 0;
    let detection: Detection | undefined;
    let kept = false;
    const held = deps.hold ? new Held() : undefined;
    const heldTo = deps.write ?? deps.echo;
    try {
      if (deps.place) where = deps.place(tier);
      if (!tier.lintStaged) detection = (deps.detect ?? detectTier)(tier, where.cwd);
      // The output is read when a runner or a package manager is involved (then it is kept as well as
      // shown), or when config `output: 'failures'` holds it until the verdict.
      const shownTo = deps.write ?? (detection && needsOutput(detection) ? deps.echo : undefined);
      const write = held ? (chunk: Buffer) => held.push(chunk) : shownTo;
      kept = write !== undefined;
      const colour = !deps.write && kept && deps.colour ? deps.colour() : false;
      const env = { ...where.env, ...(colour && { FORCE_COLOR: '1' }), ...tier.env, GATE_LADDER: '0' };
      const io: GateIo = { ...(write && { write }), ...(deps.interrupt && { interrupt: deps.interrupt }), ...(deps.tracker && { tracker: deps.tracker }) };
      report = tier.report !== undefined && deps.reports ? resolve(where.cwd, tier.cwd, tier.report.path) : undefined;
      since = report !== undefined ? deps.reports!.prepare(report) : 0;
      exit = await deps.runGate(tier, where.cwd, env, io);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      report = undefined;
      exit = { exitCode: null, signal: null, timedOut: false, interrupted: false, seconds: 0, tail: '', spawnError: `could not prepare the gate: ${text.split('\n')[0]}` };
    }
    // An interrupted gate reached no verdict, through no fault of the patch or the harness: no row.
    if (exit.interrupted) {
      held?.show(heldTo);
      deps.log(`gate-ladder: ${tier.name} interrupted after ${exit.seconds.toFixed(1)} s; no row written for it`);
      break;
    }
    const runner = detection?.runner ?? tier.runner;
    const output = kept && detection ? { detection, allowNoTests: tier.allowNoTests === true, reportDecides: report !== undefined } : undefined;
    const classified = classify(exit, tier.caught, tier.timeout, { ...(runner && { runner }), ...(output && { output }) });
    const judged: TierJudgement =
      report !== undefined
        ? await judgeTier(
            { tier, cwd: where.cwd, path: report, since, exit, base: classified, applyFreezes: input.hook !== 'seed', ...(runner && { runner }) },
            deps.reports!,
          )
        : { ...classified, notes: classified.proven ? [] : ambiguityNotes(tier, classified.verdict, runner) };
    const { verdict } = judged;
    // Replaying history: a command that cannot run at this commit (its script or runner came later) says nothing of the patch.
    const notApplicable = input.hook === 'replay' && verdict === 'error' && classified.inapplicable === true;
    const reason = notApplicable ? `not applicable at this commit: ${judged.reason ?? 'the command cannot run here'}` : judged.reason;
    if (verdict !== 'pass') held?.show(heldTo);
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
      ...(detection && { runner: { ...(detection.runner && { runner: detection.runner }), why: detection.why } }),
      ...(notApplicable && { inapplicable: true }),
    };
    results.push(result);
    const row = toRow({ ...input, isolation: where.isolation }, result, skipped, deps.now());
    rows.push(row);
    deps.appendRows([row]);
    if (result.tests && deps.reports) deps.reports.record(testRecord(row, result.tests));
    deps.log(`gate-ladder: ${tier.name} ${verdict} in ${exit.seconds.toFixed(1)} s${reason ? ` (${shown(reason)})` : ''}`);
    for (const note of judged.notes) deps.log(note);
    const patch = deps.afterTier?.(tier);
    if (patch !== undefined && patch !== input.patch) input = { ...input, patch };
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
    ...(result.runner?.runner && { runner: result.runner.runner }),
    ...(result.inapplicable && { applicable: false }),
  };
}
