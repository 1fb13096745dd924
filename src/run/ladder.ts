import { join, resolve } from 'node:path';
import { existsSync } from '../util/node.js';
import type { GateExit, GateIo } from '../gates/gate.js';
import type { GateTracker } from '../gates/gate-records.js';
import type { GateLog } from '../gates/gate-log.js';
import { outputMsg, runMsg } from './messages.js';
import { testMsg } from '../evidence/messages.js';
import { type LadderInput, MAX_FAILED_PER_ROW, toRow } from './rows.js';
import { shown } from '../util/escape.js';
import type { ReportDeps, TierJudgement } from '../verdict/tier-report.js';
import type { RunnerName } from '../types.js';
import type { GateResult } from '../gates/result.js';
import type { LedgerRow, Verdict } from '../ledger/row.js';
import type { Plan } from '../route/route.js';
import type { ResolvedTier } from '../config/resolved.js';
import { type OutputContext, ambiguityNotes, classify, recordsRead } from '../verdict/verdict.js';
import { failuresInOutput } from '../verdict/output-failures.js';
import { loadRecords } from '../runners/index.js';
import { SCRIPT_SUMMARIES } from '../runners/identities.js';
import { keepFor, outputLines } from '../verdict/runner-output.js';
import { scriptKeep } from '../verdict/script-output.js';
import { PNPM_WORKSPACE_KEEP, pnpmPrefixed } from '../runners/pnpm-workspaces.js';
import { NPM_WORKSPACE_KEEP } from '../runners/workspaces.js';
import type { Detection, WorkspaceRun } from '../runners/detect.js';
import { goPackageDirs } from '../runners/go-packages.js';
import { runnerCaught } from '../config/runner-names.js';
import { writeErr } from '../util/stderr.js';
import { CHANGED_ENV, changedEnv } from '../route/changed.js';
import { type Fault, errorFault, packageJsonIn } from '../verdict/fault.js';

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
  /**
   * config `output: 'summary'`: each tier's output goes, whole, to the log this opens (gates/gate-log.ts), and
   * nothing of it is shown as it comes; the result names the log, and the reporter shows one screen of it.
   */
  openLog?: (tier: ResolvedTier) => GateLog;
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
   * Shows a gate's output (escaped: `safeGateOutput`) when `write` is absent. Absent too: the gates
   * write straight to stderr, and only their exit codes are read.
   */
  echo?: (chunk: Buffer) => void;
  /** Tell gates whose output is read through `echo` to keep their colours (FORCE_COLOR=1): our stderr is a terminal. */
  colour?: () => boolean;
  /** Which runner a tier runs, read where it runs; default: from the command and package.json there. */
  detect?: (tier: ResolvedTier, cwd: string) => Detection | Promise<Detection>;
  /** A file's text at the base the change starts from (`null`: no such file there; `undefined`: not known): did the tier's script exist before? */
  atBase?: (path: string) => string | null | undefined;
  /** Of these paths (from the root), those the judged commit does not hold: a failed test's file that only the checkout has. */
  notInCommit?: (paths: readonly string[]) => string[];
}

/** Where one tier runs and with which environment. */
export interface Place {
  cwd: string;
  isolation: 'worktree' | 'none';
  env: NodeJS.ProcessEnv;
}

export type { LadderInput } from './rows.js';

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
    // The gate runs its `{changed}` placeholders expanded (route.ts); the tier as configured keys its history.
    const tier = planned.command === undefined ? planned.tier : { ...planned.tier, run: planned.command };
    deps.log(`gate-ladder: ${tier.name} running (${tier.lintStaged ? 'lint-staged, no timeout' : `timeout ${tier.timeout} s`})`);
    let where: Place = { cwd: input.cwd, isolation: input.isolation, env: deps.env };
    let placeError: string | undefined;
    try {
      if (deps.place) where = deps.place(tier);
    } catch (err) {
      placeError = err instanceof Error ? err.message : String(err);
    }
    // config `output: 'failures'`: the tier's output (both attempts, when retried) is shown only when it does not pass.
    const held = deps.hold ? new Held() : undefined;
    const heldTo = deps.write ?? deps.echo;
    // config `output: 'summary'`: the tier's whole output (both attempts, when retried) in a log under the git dir.
    const log = !held && !deps.write ? deps.openLog?.(tier) : undefined;
    const first = await attempt(input, deps, tier, where, placeError, held, log);
    // An interrupted gate reached no verdict, through no fault of the patch or the harness: no row.
    if (first.exit.interrupted) {
      held?.show(heldTo);
      log?.close();
      if (log?.path !== undefined) deps.log(outputMsg.soFar(tier.name, log.path));
      deps.log(`gate-ladder: ${tier.name} interrupted after ${first.exit.seconds.toFixed(1)} s; no row written for it`);
      break;
    }
    let second: Attempt | undefined;
    // `retries: 1`: tests failed; once more on the same code. Seeded runs are never retried: their failures are the point.
    if (first.judged.verdict === 'caught' && (tier.retries ?? 0) > 0 && input.hook !== 'seed') {
      for (const note of first.judged.notes) deps.log(note);
      deps.log(testMsg.retrying(tier.name));
      second = await attempt(input, deps, tier, where, placeError, held, log);
      if (second.exit.interrupted) {
        held?.show(heldTo);
        log?.close();
        if (log?.path !== undefined) deps.log(outputMsg.soFar(tier.name, log.path));
        deps.log(
          `gate-ladder: ${tier.name} interrupted after ${(first.seconds + second.exit.seconds).toFixed(1)} s; no row written for it`,
        );
        break;
      }
    }
    // A retry that could not give a verdict leaves the first attempt's catch standing.
    const last = second !== undefined && second.judged.verdict !== 'error' ? second : first;
    const seconds = first.seconds + (second?.seconds ?? 0);
    // The first attempt's failed tests: its report's, else those its output named.
    const firstFailed = first.judged.failed ?? first.judged.failures?.map((f) => f.id) ?? [];
    const retried: GateResult['retried'] = second && {
      verdict: first.judged.verdict,
      ...(firstFailed.length > 0 && { failed: firstFailed.slice(0, MAX_FAILED_PER_ROW) }),
      seconds: first.seconds,
    };
    const retryNote =
      second !== undefined && last === first ? testMsg.retryNoVerdict(tier.name, second.judged.reason ?? 'no verdict') : undefined;
    const { exit, judged, detection } = last;
    const { verdict } = judged;
    const fault =
      verdict === 'error' && !tier.lintStaged ? faultOf(last, input.plan.files, tier, deps, input.hook === 'replay') : undefined;
    // Replaying history: a command that cannot run at this commit (its script or runner came later) says nothing of the patch;
    // a script the patch removed does.
    const notApplicable = input.hook === 'replay' && verdict === 'error' && last.inapplicable && fault?.cause !== 'patch';
    // The files a reason quotes as the runner printed them, absolute (rustfmt's, eslint's), are the repository's: from its root.
    const own = judged.reason?.split(`${where.cwd}/`).join('');
    const said = notApplicable ? `not applicable at this commit: ${own ?? 'the command cannot run here'}` : own;
    const reason =
      retried && verdict === 'pass' ? [testMsg.passedOnRetry(first.judged.failed ?? []), said].filter(Boolean).join('; ') : said;
    if (verdict !== 'pass') held?.show(heldTo);
    log?.close();
    const result: GateResult = {
      tier: tier.name,
      verdict,
      exitCode: exit.exitCode,
      signal: exit.signal,
      seconds,
      timedOut: exit.timedOut,
      // Isolated in a worktree slot: the files the output names are the repository's, where a person or an agent opens them.
      tail: where.cwd === (input.repo ?? input.cwd) ? exit.tail : exit.tail.split(`${where.cwd}/`).join(`${input.repo ?? input.cwd}/`),
      ...(log && { outputLines: log.lines() }),
      ...(log?.cut() !== undefined && { logCut: log.cut() }),
      ...(log?.path !== undefined && { log: log.path }),
      ...(reason !== undefined && { reason }),
      ...(judged.tests && { tests: judged.tests }),
      ...(judged.failed && { failed: judged.failed }),
      ...(judged.failures && { failures: judged.failures }),
      ...(judged.failuresTotal !== undefined && { failuresTotal: judged.failuresTotal }),
      ...(judged.frozen && { frozen: judged.frozen }),
      ...(judged.notes.length > 0 && { notes: judged.notes }),
      ...(detection && {
        runner: { ...((detection.runner ?? judged.runner) && { runner: detection.runner ?? judged.runner }), why: detection.why },
      }),
      ...(notApplicable && { inapplicable: true }),
      ...(fault && !notApplicable && causeFields(fault)),
      ...(judged.dup && { dup: judged.dup }),
      ...(retried && { retried }),
    };
    results.push(result);
    const row = toRow({ ...input, isolation: where.isolation }, result, skipped, deps.now());
    rows.push(row);
    deps.appendRows([row]);
    if (deps.reports) await recordTests(deps.reports, planned.tier, row, where.cwd, second ? [first, second] : [first]);
    deps.log(`gate-ladder: ${tier.name} ${verdict} in ${seconds.toFixed(1)} s${reason ? ` (${shown(reason)})` : ''}`);
    for (const note of judged.notes) deps.log(note);
    if (retryNote) deps.log(retryNote);
    const untracked = verdict === 'caught' && where.isolation === 'none' ? untrackedFailures(judged.failures, deps) : [];
    if (untracked.length > 0) deps.log(runMsg.failedOutsideCommit(tier.name, untracked));
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
    const last = this.chunks[this.chunks.length - 1]!;
    const text = Buffer.concat([
      ...(this.cut ? [Buffer.from('gate-ladder: (earlier output cut)\n')] : []),
      ...this.chunks,
      ...(last[last.length - 1] === 0x0a ? [] : [Buffer.from('\n')]),
    ]);
    (write ?? writeErr)(text);
    this.chunks = [];
    this.size = 0;
  }
}

/** One run of a tier's gate and the reading of its report. */
interface Attempt {
  exit: GateExit;
  judged: TierJudgement;
  /** The gate's wall time plus reading and judging its report. */
  seconds: number;
  /** Which runner the command runs, read where it ran (absent for lint-staged and a gate that could not be prepared). */
  detection?: Detection;
  /** The command cannot run at this commit (its script, package.json or command is missing). */
  inapplicable: boolean;
}

async function attempt(
  input: LadderInput,
  deps: LadderDeps,
  tier: ResolvedTier,
  where: Place,
  placeError: string | undefined,
  held: Held | undefined,
  log?: GateLog,
): Promise<Attempt> {
  let exit: GateExit;
  let report: string | undefined;
  let since = 0;
  let detection: Detection | undefined;
  let kept = false;
  let midLine = false;
  try {
    if (placeError !== undefined) throw new Error(placeError);
    if (!tier.lintStaged) detection = await (deps.detect ?? detectHere)(tier, where.cwd);
    // Every gate's output passes through us: it is read (a runner's summary, a package manager's or
    // the shell's own failure) and shown with its control characters escaped (colours kept), or held
    // until the verdict (config `output: 'failures'`). Straight to the terminal only with neither.
    const echo = deps.echo;
    const shownTo =
      deps.write ??
      (echo &&
        ((chunk: Buffer) => {
          if (chunk.length > 0) midLine = chunk[chunk.length - 1] !== 0x0a;
          echo(chunk);
        }));
    const write = held ? (chunk: Buffer) => held.push(chunk) : log ? (chunk: Buffer) => log.write(chunk) : shownTo;
    kept = write !== undefined;
    // Output read only through a log and a summary: no colours asked for (the summary shows none).
    const colour = !deps.write && !log && kept && deps.colour ? deps.colour() : false;
    const env: NodeJS.ProcessEnv = {
      ...where.env,
      ...(colour && { FORCE_COLOR: '1' }),
      ...changedFor(input.plan, tier),
      ...tier.env,
      GATE_LADDER: '0',
    };
    if (env[CHANGED_ENV] === undefined) delete env[CHANGED_ENV];
    const named = detection?.runner ?? tier.runner;
    // The records its reading needs whatever the gate does: its runner's (and its keeper), a workspaces run's every one.
    await loadRecords(recordsRead(named, detection && { detection }, 0));
    const keep = detection?.workspaces ? keepForWorkspaces(detection.workspaces, tier.runner) : named ? keepFor(named) : undefined;
    // No runner named: the summary lines any runner's reading needs, for a script that runs one itself, once it prints (a type check's diagnostics decide without them).
    const keepLater =
      detection?.workspaces || named || detection?.typeCheck !== undefined
        ? undefined
        : () => loadRecords(SCRIPT_SUMMARIES).then(scriptKeep);
    const io: GateIo = {
      ...(write && { write }),
      ...(keep && { keep }),
      ...(keepLater && { keepLater }),
      ...(deps.interrupt && { interrupt: deps.interrupt }),
      ...(deps.tracker && { tracker: deps.tracker }),
    };
    report = tier.report !== undefined && deps.reports ? resolve(where.cwd, tier.cwd, tier.report.path) : undefined;
    since = report !== undefined ? deps.reports!.prepare(report) : 0;
    exit = await deps.runGate(tier, where.cwd, env, io);
    // Our next line starts on a line of its own, whatever the gate's last line.
    if (midLine) echo?.(Buffer.from('\n'));
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    report = undefined;
    exit = {
      exitCode: null,
      signal: null,
      timedOut: false,
      interrupted: false,
      seconds: 0,
      tail: '',
      spawnError: `could not prepare the gate: ${text.split('\n')[0]}`,
    };
  }
  const found = { ...(detection && { detection }) };
  if (exit.interrupted) return { exit, judged: { verdict: 'error', notes: [] }, seconds: exit.seconds, inapplicable: false, ...found };
  const runner = detection?.runner ?? tier.runner;
  const output =
    kept && detection
      ? {
          detection,
          allowNoTests: tier.allowNoTests === true,
          reportDecides: report !== undefined,
          ...(tier.caughtByRunner && { caughtByRunner: true }),
          ...(detection.envTool !== undefined && { runnerOf: await commandRunner() }),
        }
      : undefined;
  // A tier that lists no `caught` takes the runner's codes, the detected runner's too (cargo's 101, nextest's 100, jasmine's 3, mocha's 1 to 255).
  const caught = tier.caughtByRunner && runner ? (runnerCaught(runner) ?? tier.caught) : tier.caught;
  await loadRecords(recordsRead(runner, output, exit.exitCode));
  const classified = classify(exit, caught, tier.timeout, { ...(runner && { runner }), ...(output && { output }) });
  const inapplicable = classified.inapplicable === true;
  const fromOutput = (j: TierJudgement) => withOutputFailures(j, { tier, root: where.cwd, exit, caught, output, runner });
  if (report === undefined) {
    const judged = await fromOutput({ ...classified, notes: classified.proven ? [] : ambiguityNotes(tier, classified.verdict, runner) });
    return { exit, judged, seconds: exit.seconds, inapplicable, ...found };
  }
  // Reading a large report takes time too: it is part of what the tier costs.
  const t0 = performance.now();
  // JUnit reading, per-test records and freezes are loaded only for a tier that names a report.
  const { judgeTier } = await import('../verdict/tier-report.js');
  const at = { path: report, since, exit, base: classified, applyFreezes: input.hook !== 'seed', ...ranWith(runner, detection) };
  const judged = await judgeTier({ tier, cwd: where.cwd, ...at }, deps.reports!);
  return { exit, judged: await fromOutput(judged), seconds: exit.seconds + (performance.now() - t0) / 1000, inapplicable, ...found };
}

/** The runner a report's ids are read for, and the folder it ran in when its command moved there (`cd backend && go test`). */
const ranWith = (runner: RunnerName | undefined, detection: Detection | undefined) => ({
  ...(runner && { runner }),
  ...(detection?.runDir !== undefined && { runDir: detection.runDir }),
});

/**
 * A catch's failed tests, as the runner's output names them (verdict/output-failures.ts; a JUnit report's, when it
 * has them, stand instead), with what reading them needs where the gate ran: the records, go.mod, cargo's files.
 */
async function withOutputFailures(
  j: TierJudgement,
  at: {
    tier: ResolvedTier;
    root: string;
    exit: GateExit;
    caught: readonly number[];
    output: OutputContext | undefined;
    runner: RunnerName | undefined;
  },
): Promise<TierJudgement> {
  const { output, root, exit } = at;
  if (j.verdict !== 'caught' || (j.failures?.length ?? 0) > 0 || !output) return j;
  // Under tox or nox, the runner of the command it said failed reads them.
  const reader = at.runner ?? j.runner;
  // The records that reading needs: the reader's, else those of every runner a script may run (a type check's tier loaded none).
  if (!output.detection.workspaces) await loadRecords(reader ? [reader] : SCRIPT_SUMMARIES);
  const { failures, total } = failuresInOutput({
    tier: at.tier,
    root,
    tail: exit.tail,
    exitCode: exit.exitCode,
    caught: at.caught,
    output,
    ...(reader && { runner: reader }),
    packageDirs: (base) => goPackageDirs(root, base),
    exists: (file) => existsSync(join(root, file)),
  });
  return failures.length > 0 ? { ...j, failures, ...(total > failures.length && { failuresTotal: total }) } : j;
}

/** Each attempt's per-test outcomes (a tier with a report), for flaky-test evidence: the history code loaded only then. */
async function recordTests(
  reports: ReportDeps,
  tier: ResolvedTier,
  row: LedgerRow,
  cwd: string,
  attempts: readonly Attempt[],
): Promise<void> {
  if (!attempts.some((a) => a.judged.tests)) return;
  const { commandKey, testRecord } = await import('../evidence/history.js');
  const cmd = commandKey(tier);
  for (const [i, a] of attempts.entries()) {
    if (a.judged.tests)
      await reports.record(
        testRecord(row, a.judged.tests, { cmd, ...(a.judged.dup && { dup: a.judged.dup }), ...(i > 0 && { attempt: i + 1 }) }),
        cwd,
      );
  }
}

/** The files of a catch's failed tests that the judged commit does not hold (the gates ran in the checkout, which has them). */
function untrackedFailures(failures: TierJudgement['failures'], deps: LadderDeps): string[] {
  const files = [...new Set((failures ?? []).flatMap((f) => (f.file !== undefined ? [f.file] : [])))];
  return files.length > 0 && deps.notInCommit ? deps.notInCommit(files) : [];
}

/** A fault as the result's cause fields. */
function causeFields(
  fault: Fault,
): Pick<GateResult, 'cause' | 'causeFile' | 'causeLine' | 'causeScript' | 'causeCommand' | 'causeStopped'> {
  return {
    cause: fault.cause,
    ...(fault.file !== undefined && { causeFile: fault.file }),
    ...(fault.line !== undefined && { causeLine: fault.line }),
    ...(fault.script !== undefined && { causeScript: fault.script }),
    ...(fault.command !== undefined && { causeCommand: fault.command }),
    ...(fault.stopped && { causeStopped: true }),
  };
}

/** Whose fault a tier's `error` is: a file of the change that cannot load, or its script the change removed (fault.ts). */
function faultOf(a: Attempt, changed: readonly string[], tier: ResolvedTier, deps: LadderDeps, replaying: boolean): Fault {
  const { exit, judged, detection } = a;
  const exited = exit.exitCode !== null && !exit.timedOut && exit.signal === null && exit.spawnError === undefined && !exit.interrupted;
  const missingScript = a.inapplicable ? detection?.missingScript : undefined;
  // A command not found that a script names: the patch's when package.json named it only since the base. Not
  // when replaying history, where a command a commit's scripts came to name may just not be installed today.
  const notFound =
    judged.notFound !== undefined && typeof tier.run === 'string' && !replaying
      ? { command: judged.notFound, tierRun: tier.run }
      : undefined;
  return errorFault({
    ...(judged.reason !== undefined && { reason: judged.reason }),
    output: exit.tail,
    changed,
    cwd: tier.cwd,
    // Each workspace's folder, cargo's `--manifest-path` folder, the folder a `cd` moved the runner to: their runners name files from there.
    dirs: [
      ...(detection?.workspaces?.members ?? []).map((m) => m.dir),
      ...(detection?.manifestDir !== undefined ? [detection.manifestDir] : []),
      ...(detection?.runDir !== undefined ? [detection.runDir] : []),
    ].map((dir) => (tier.cwd === '.' || tier.cwd === '' ? dir : `${tier.cwd}/${dir}`)),
    exited,
    ...(judged.runWide && { runWide: true }),
    ...(judged.stopped !== undefined && { stopped: judged.stopped }),
    ...(deps.atBase && { textAtBase: deps.atBase }),
    ...(missingScript !== undefined && { missingScript }),
    ...(notFound !== undefined && { notFound }),
    ...((missingScript !== undefined || notFound !== undefined) && { packageJsonAtBase: deps.atBase?.(packageJsonIn(tier.cwd)) }),
  });
}

/** How a command a tox or nox run says failed names its runner, by its words alone (no package.json read): loaded for such a run only. */
async function commandRunner(): Promise<(command: string) => RunnerName | undefined> {
  const { detectRunner } = await import('../runners/detect.js');
  return (command) => detectRunner(command, undefined, () => null).runner;
}

/** The default detection: made where the gate runs, its code loaded on the first gate that needs it. */
async function detectHere(tier: ResolvedTier, cwd: string): Promise<Detection> {
  const { detectTier } = await import('../runners/detect-io.js');
  return detectTier(tier, cwd);
}

/** GATE_LADDER_CHANGED for a command tier: the changed paths still there, one a line, relative to its cwd; unset when too long to pass. */
function changedFor(plan: Plan, tier: ResolvedTier): NodeJS.ProcessEnv {
  if (tier.lintStaged || plan.present === undefined) return {};
  return { [CHANGED_ENV]: changedEnv(plan.present(), tier.cwd) };
}

/**
 * The lines a workspaces run's reading needs wherever they fall: npm's banners and error blocks (pnpm's,
 * and its prefixed lines' starts and ends), and each workspace's runner's (after pnpm's prefix).
 */
function keepForWorkspaces(run: WorkspaceRun, configured: RunnerName | undefined): (line: string) => boolean {
  const tests = [...new Set(run.members.map((m) => configured ?? m.detection?.runner))]
    .map((r) => keepFor(r))
    .filter((k) => k !== undefined);
  const own = keepFor(undefined, run.manager === 'pnpm' ? PNPM_WORKSPACE_KEEP : NPM_WORKSPACE_KEEP)!;
  if (run.manager !== 'pnpm') return (line) => own(line) || tests.some((k) => k(line));
  return (line) => {
    const p = pnpmPrefixed(outputLines(line)[0]!, run.event);
    if (p === undefined) return own(line) || tests.some((k) => k(line));
    // Each runner's keeper sees the line as its package printed it: every keeper is fed, in order.
    const kept = tests.map((k) => k(p.text));
    return p.start || p.text === 'Done' || p.text === 'Failed' || kept.some(Boolean);
  };
}
