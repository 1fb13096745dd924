import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { availableParallelism, mkdirSync } from '../util/node.js';
import { lockOwner, release, tryLock } from '../util/pid-lock.js';
import { EXIT } from '../config/defaults.js';
import { runGate } from '../gates/gate.js';
import { trapInterrupt } from '../run/interrupt.js';
import { isolateTier, probeNetworkIsolation } from '../replay/isolate.js';
import type { LadderDeps } from '../run/ladder.js';
import { LedgerError, appendRows, readRows } from '../ledger/ledger.js';
import { configMsg } from '../config/messages.js';
import { msg } from '../run/messages.js';
import { replayMsg } from '../replay/messages.js';
import { gateTracker, gatesDir, stopLeftovers } from '../gates/gate-records.js';
import { runPool } from '../replay/pool.js';
import { type ReplayPatch, resolveInputs } from '../replay/inputs.js';
import { configHash, isReplayRow, replayKey } from '../replay/key.js';
import { type PatchOutcome, replayPatch } from '../replay/patch.js';
import { Progress, formatSeconds } from '../replay/progress.js';
import { figureLines, replayFigures } from '../replay/summary.js';
import { report } from '../report/figures.js';
import { renderReport } from '../report/render.js';
import { scopeMatcher } from '../route/route.js';
import type { ReportDeps } from '../verdict/tier-report.js';
import { reportDeps } from '../verdict/tier-report-io.js';
import type { LedgerRow } from '../ledger/row.js';
import type { ResolvedConfig } from '../config/resolved.js';
import { type CommandContext, loadContext } from './context.js';
import { parseShard } from '../replay/shard.js';
import { shardPatches } from '../replay/shard-select.js';
import { teamMsg } from '../ledger/messages.js';

export interface ReplayOptions {
  cwd: string;
  /** Revision ranges, single commits, folders of patches, patch files; in replay order. */
  inputs: string[];
  /** Where patch files apply (default HEAD). */
  onto?: string;
  /** Patches in parallel (default: the number of cores). */
  jobs?: number;
  calibrate?: boolean;
  /** Replay patches the ledger already has under this config. */
  force?: boolean;
  isolate?: 'network';
  /** Walk ranges by first parent: a merge is one patch against its first parent. */
  firstParent?: boolean;
  /** `i/n`: replay only this CI job's share of the corpus (docs/ci.md). */
  shard?: string;
}

const err = (line: string) => process.stderr.write(`${line}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The corpus path: inputs → patches → skip those already replayed under this config → each patch in a
 * throwaway worktree through the same route and ladder as a push (hook `replay`), N at a time → rows
 * → a summary of the corpus. Exit 0 when replayed (catches and errors are data), 2 on config, input,
 * isolation or git trouble, 130 when interrupted.
 */
export async function replayCommand(opts: ReplayOptions): Promise<number> {
  if (opts.jobs !== undefined && !(Number.isInteger(opts.jobs) && opts.jobs > 0)) {
    err(replayMsg.badJobs(String(opts.jobs)));
    return EXIT.error;
  }
  if (process.env.GATE_LADDER === '0') {
    err(msg.bypassed());
    return EXIT.pass;
  }
  const ctx = await loadContext(opts.cwd, true, replayMsg.needConfig);
  if (typeof ctx === 'number') return ctx;
  const { root, ledger } = ctx;
  const config = ctx.config!;
  err(configMsg.replayToday(ctx.configFile!));
  stopLeftovers(ctx.commonDir, err);
  const gate = replayGate(opts);
  if (typeof gate === 'number') return gate;
  const calibrate = opts.calibrate === true;
  const hash = configHash(config, { calibrate, ...(opts.isolate && { isolate: opts.isolate }) });
  const patches = await corpus(opts, root, ledger, hash);
  if (typeof patches === 'number') return patches;

  const keyOf = (p: ReplayPatch) => replayKey(p.id, p.base, hash);
  const earlier = await rowsByKey(ledger, hash, new Set(patches.map(keyOf)));
  const todo = opts.force ? patches : patches.filter((p) => !earlier.has(keyOf(p)));
  const running = new Set(todo);
  const kept = patches.filter((p) => !running.has(p));
  if (kept.length > 0) err(replayMsg.resumed(kept.length));
  // The same patches replayed twice at once (the same command run twice) would each be judged, and counted, twice:
  // one replay of a set of patches at a time. Replays of other patches share the ledger as before.
  const lock = `${ledger}.replay-${createHash('sha256').update(todo.map(keyOf).sort().join('\n')).digest('hex').slice(0, 16)}.lock`;
  if (todo.length > 0 && takeLock(lock) === 'held') {
    err(replayMsg.busy(lockOwner(lock) ?? 0));
    return EXIT.error;
  }

  const started = performance.now();
  let ran: Awaited<ReturnType<typeof replayAll>> | { outcomes: never[]; interrupted: false };
  try {
    ran = todo.length > 0 ? await replayAll(todo, opts, ctx, gate, hash) : { outcomes: [], interrupted: false };
  } finally {
    release(lock);
  }
  if (ran.interrupted) {
    err(replayMsg.interrupted());
    return EXIT.interrupted;
  }
  if (ran.failure) {
    err(replayMsg.failed(ran.failure.err, ran.failure.err instanceof LedgerError));
    return EXIT.error;
  }
  const rows = [...kept.flatMap((p) => earlier.get(keyOf(p)) ?? []), ...ran.outcomes.flatMap((o) => o.rows)];
  const notNow = ran.outcomes.filter((o) => o.status === 'not-applied').length;
  out(replayMsg.summary(patches.length, ran.outcomes.length, kept.length, notNow, formatSeconds((performance.now() - started) / 1000)));
  printFigures(rows, config, calibrate);
  out(msg.ledgerAt(ledger));
  return EXIT.pass;
}

/** The lock taken (its folder made), `'held'` by a live process, or `'none'` where no file can be made there (the ledger's own write says why). */
function takeLock(lock: string): 'taken' | 'held' | 'none' {
  try {
    mkdirSync(dirname(lock), { recursive: true });
    return tryLock(lock) ? 'taken' : 'held';
  } catch {
    return 'none';
  }
}

/** How each gate starts: as on a push, or with `--isolate network` inside a namespace without a network (exit 2 when none can be made). */
function replayGate(opts: ReplayOptions): LadderDeps['runGate'] | number {
  if (opts.isolate !== 'network') return runGate;
  const probe = probeNetworkIsolation();
  if (!probe.ok) {
    err(replayMsg.noIsolation(probe.reason));
    return EXIT.error;
  }
  return (tier, cwd, env, io) => runGate(isolateTier(tier, probe.prefix), cwd, env, io);
}

/** The patches the inputs name, in replay order, this CI job's share only with `--shard`; exit 2 when an input cannot be read. */
async function corpus(opts: ReplayOptions, root: string, ledger: string, hash: string): Promise<ReplayPatch[] | number> {
  if (opts.inputs.length === 0) {
    err(replayMsg.badInputs(['no input named: give at least one']));
    return EXIT.error;
  }
  const inputs = resolveInputs(root, opts.cwd, opts.inputs, {
    ...(opts.onto !== undefined && { onto: opts.onto }),
    firstParent: opts.firstParent === true,
  });
  if (inputs.problems.length > 0) {
    err(replayMsg.badInputs(inputs.problems));
    return EXIT.error;
  }
  if (inputs.merges.length > 0) err(replayMsg.merges(inputs.merges.length));
  if (opts.shard === undefined) return inputs.patches;
  const shard = parseShard(opts.shard);
  if (typeof shard === 'string') {
    err(teamMsg.badShard(shard));
    return EXIT.error;
  }
  const mine = await shardPatches(inputs.patches, shard, ledger, hash);
  err(teamMsg.shard(shard.index, shard.count, mine.patches.length, inputs.patches.length, mine.balanced));
  return mine.patches;
}

/** The patches replayed, `--jobs` at a time, each through the ladder in a slot; Ctrl-C stops the pool (a second one exits at once). */
async function replayAll(
  todo: readonly ReplayPatch[],
  opts: ReplayOptions,
  context: CommandContext,
  gate: LadderDeps['runGate'],
  hash: string,
): Promise<{ outcomes: PatchOutcome[]; failure?: { err: unknown }; interrupted: boolean }> {
  const { root, commonDir, ledger } = context;
  const config = context.config!;
  const jobs = Math.max(1, opts.jobs ?? availableParallelism());
  err(replayMsg.start(todo.length, Math.min(jobs, todo.length), hash, opts.isolate === 'network'));
  const outcomes: PatchOutcome[] = [];
  const progress = new Progress(todo.length, process.stderr);
  // A second Ctrl-C exits at once; the worktrees' exit hook still removes them.
  const interrupt = trapInterrupt(() => process.exit(EXIT.interrupted));
  const ctx = {
    root,
    commonDir,
    config,
    match: scopeMatcher(config.scope),
    configHash: hash,
    calibrate: opts.calibrate === true,
    ...(opts.isolate && { isolate: opts.isolate }),
    interrupted: () => interrupt.fired,
    deps: {
      runGate: gate,
      appendRows: (rows: LedgerRow[]) => appendRows(ledger, rows),
      now: () => new Date(),
      log: () => {},
      // Parallel gates' output would interleave; each result keeps its tail, errors print their reason.
      write: () => {},
      env: process.env,
      interrupt: interrupt.promise,
      reports: todaysFreezes(reportDeps(ledger), root),
      tracker: gateTracker(gatesDir(commonDir), root),
    },
  };
  try {
    await runPool(
      todo,
      jobs,
      async (patch) => {
        const outcome = await replayPatch(patch, ctx);
        outcomes.push(outcome);
        progress.finished(outcome);
      },
      () => interrupt.fired,
    );
    return { outcomes, interrupted: interrupt.fired };
  } catch (e) {
    return { outcomes, failure: { err: e }, interrupted: interrupt.fired };
  } finally {
    progress.stop();
    interrupt.dispose();
  }
}

/** The corpus's figures and the report over its rows, on stdout. */
function printFigures(rows: readonly LedgerRow[], config: ResolvedConfig, calibrate: boolean): void {
  const tiers = config.tiers.map((t) => t.name);
  for (const line of figureLines(replayFigures(rows, tiers), calibrate)) out(line);
  out('');
  out(renderReport(report(rows, { tiers, minAttempts: config.report.minAttempts }), 'table'));
}

/**
 * JUnit reports and per-test history as on a push, but the freezes are today's, from the repository
 * root, like the ladder: a patch cannot forgive its own failures by adding a freeze.
 */
function todaysFreezes(deps: ReportDeps, root: string): ReportDeps {
  return { ...deps, freezes: () => deps.freezes(root) };
}

/** The replay rows already in the ledger under this config, for the patches asked for, by resume key. */
async function rowsByKey(ledger: string, hash: string, wanted: ReadonlySet<string>): Promise<Map<string, LedgerRow[]>> {
  const found = new Map<string, LedgerRow[]>();
  for await (const row of readRows(ledger)) {
    if (!isReplayRow(row, hash)) continue;
    const key = replayKey(row.patch, row.base, hash);
    if (!wanted.has(key)) continue;
    const list = found.get(key) ?? [];
    list.push(row);
    found.set(key, list);
  }
  return found;
}
