/**
 * `gate-ladder seed`: sensitivity evidence. A known-bad change runs through every tier in a slot of the
 * worktree pool; the tests that fail with it and pass on its parent (the same command, the same slot
 * folder when free) have caught a seeded bug. `--stryker` imports a mutation report instead.
 * Seeded rows carry `hook: "seed"` and `source: "seed"` and never count as catches.
 */
import { trapInterrupt } from '../run/interrupt.js';
import { readFileSync, statSync } from '../util/node.js';
import { basename, resolve } from 'node:path';
import { runGate } from '../gates/gate.js';
import { gateColourWanted } from '../util/colour.js';
import { MAX_FILES_PER_ROW } from '../config/defaults.js';
import { EMPTY_TREE, GitError, diffList, git, resolveCommit, treeOf } from '../git/git.js';
import { knownTests, type TestRecord } from '../evidence/history.js';
import { recordTests } from '../evidence/history-store.js';
import { newRunId } from '../util/hash.js';
import { runLadder } from '../run/ladder.js';
import { appendRows } from '../ledger/ledger.js';
import { poolMsg } from '../slots/messages.js';
import { reportMsg } from '../report/messages.js';
import { testMsg } from '../evidence/messages.js';
import { strykerEvidence } from '../evidence/stryker.js';
import { reportDeps } from '../verdict/tier-report-io.js';
import { gateTracker, gatesDir } from '../gates/gate-records.js';
import type { GateResult } from '../gates/result.js';
import type { Plan } from '../route/route.js';
import type { ResolvedConfig } from '../config/resolved.js';
import { type Slot, acquireSlot } from '../slots/worktree-pool.js';
import { pathIntoLinks } from '../slots/dependency-links.js';
import { patchPaths } from '../git/patch-paths.js';
import { type CommandContext, err, loadContext } from './context.js';
import { EXIT } from '../config/defaults.js';
import { history } from './flaky.js';
import { safeGateOutput } from '../gates/gate-output.js';

export interface SeedOptions {
  cwd: string;
  /** A commit that introduces the bug, or a patch file applied to HEAD. */
  target?: string;
  /** A Stryker mutation-testing report (JSON) to import instead. */
  stryker?: string;
}

/** Every tier configured for the seed hook runs: no routing, and (with runAll) no short-circuit. */
function seedPlan(config: ResolvedConfig, files: string[]): Plan {
  return {
    files: files.slice(0, MAX_FILES_PER_ROW),
    fileCount: files.length,
    hits: [],
    tiers: config.tiers.map((tier) =>
      tier.hooks.includes('seed') ? { tier, run: true } : { tier, run: false, skip: 'hook' as const, reason: 'not configured for seed' },
    ),
  };
}

interface Seeded {
  wt: Slot;
  patch: string;
  base: string;
  what: string;
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The seeded tree in a slot of the worktree pool, committed there (detached) so its rows name a real
 * commit. A patch file is applied before dependency folders are linked, and refused when it writes
 * where one would be: it never reaches the checkout's real `node_modules` or `.venv`.
 */
function prepare(ctx: CommandContext, cwd: string, target: string): Seeded | string {
  const file = resolve(cwd, target);
  if (isFile(file)) {
    const head = resolveCommit(ctx.root, 'HEAD');
    if (head === null) return testMsg.seedBadTarget(target);
    const wt = acquireSlot(ctx.root, ctx.commonDir, head, { link: false, log: err });
    const links = wt.linkPaths();
    const into = pathIntoLinks(patchPaths(wt.dir, file) ?? [], links);
    if (into !== undefined) {
      wt.release();
      return testMsg.seedPatchFailed(target, poolMsg.intoLinks(into, links.find((l) => into === l || into.startsWith(`${l}/`))!));
    }
    const applied = git(wt.dir, ['apply', '--index', '--whitespace=nowarn', file]);
    const committed = applied.ok
      ? git(wt.dir, [
          '-c',
          'core.hooksPath=/dev/null',
          '-c',
          'user.name=gate-ladder',
          '-c',
          'user.email=gate-ladder@localhost',
          '-c',
          'commit.gpgSign=false',
          'commit',
          '--quiet',
          '--no-verify',
          '--allow-empty',
          '-m',
          `gate-ladder seed: ${basename(file)}`,
        ])
      : applied;
    const patch = committed.ok ? resolveCommit(wt.dir, 'HEAD') : null;
    if (patch === null) {
      wt.release();
      return testMsg.seedPatchFailed(target, (committed.stderr.trim() || `exit ${committed.code}`).split('\n')[0]!);
    }
    wt.link();
    return { wt, patch, base: head, what: `${basename(file)} on ${head.slice(0, 12)}` };
  }
  const commit = resolveCommit(ctx.root, target);
  if (commit === null) return testMsg.seedBadTarget(target);
  const base = resolveCommit(ctx.root, `${commit}^`) ?? EMPTY_TREE;
  return {
    wt: acquireSlot(ctx.root, ctx.commonDir, commit, { log: err }),
    patch: commit,
    base,
    what: `${target} (${commit.slice(0, 12)})`,
  };
}

/** What one ladder run over the seed plan found, per tier. */
interface SeedRun {
  /** Tier → its trusted per-test outcomes (only tiers whose report could be read). */
  outcomes: Map<string, TestRecord>;
  /** Tier → tests that failed, for tiers whose verdict was `caught`. */
  failed: Map<string, string[]>;
  results: GateResult[];
}

async function ladderOn(
  ctx: CommandContext,
  plan: Plan,
  where: string,
  patch: string,
  base: string | null,
  interrupt: Interrupt,
  note?: string,
): Promise<SeedRun> {
  const outcomes = new Map<string, TestRecord>();
  // Seeded runs are not history: their outcomes are held here, and only credited tests are recorded (as evidence).
  const reports = { ...reportDeps(ctx.ledger), record: (rec: TestRecord) => void outcomes.set(rec.tier, rec) };
  const outcome = await runLadder(
    {
      plan,
      runId: newRunId(),
      hook: 'seed',
      patch,
      base,
      cwd: where,
      isolation: 'worktree',
      runAll: true,
      source: 'seed',
      ...(note && { note }),
    },
    {
      runGate,
      appendRows: (rows) => appendRows(ctx.ledger, rows),
      now: () => new Date(),
      log: err,
      env: process.env,
      interrupt: interrupt.promise,
      reports,
      echo: (chunk) => process.stderr.write(safeGateOutput(chunk)),
      colour: () => gateColourWanted(process.env),
      tracker: gateTracker(gatesDir(ctx.commonDir), ctx.root),
    },
  );
  const failed = new Map<string, string[]>();
  for (const r of outcome.results) if (r.verdict === 'caught' && r.failed && r.failed.length > 0) failed.set(r.tier, r.failed);
  return { outcomes, failed, results: outcome.results };
}

type Interrupt = ReturnType<typeof trapInterrupt>;

export async function seedCommand(opts: SeedOptions): Promise<number> {
  const ctx = await loadContext(opts.cwd, opts.stryker === undefined);
  if (typeof ctx === 'number') return ctx;
  if (opts.stryker !== undefined) return importStryker(ctx, resolve(opts.cwd, opts.stryker));
  if (opts.target === undefined || ctx.config === undefined) {
    err(testMsg.seedNeedsTarget());
    return EXIT.error;
  }
  const config = ctx.config;
  if (!config.tiers.some((t) => t.hooks.includes('seed'))) {
    err(testMsg.seedNoTiers());
    return EXIT.error;
  }
  // A second Ctrl-C exits at once; worktree-pool.ts still gives the slot back on exit.
  const interrupt = trapInterrupt(() => process.exit(EXIT.interrupted));
  let seeded: Seeded | string | undefined;
  try {
    try {
      seeded = prepare(ctx, opts.cwd, opts.target);
    } catch (e) {
      if (!(e instanceof GitError)) throw e;
      seeded = e.message;
    }
    if (typeof seeded === 'string') {
      err(seeded);
      return EXIT.error;
    }
    if (interrupt.fired) return EXIT.interrupted;
    const { wt, patch, base } = seeded;
    err(testMsg.seedStart(seeded.what, wt.dir));
    const plan = seedPlan(config, diffList(ctx.root, base, patch).paths());
    const withBug = await ladderOn(ctx, plan, wt.dir, patch, base === EMPTY_TREE ? null : base, interrupt);
    if (interrupt.fired) return EXIT.interrupted;
    for (const t of plan.tiers) if (t.run && t.tier.report === undefined) err(testMsg.seedNoReport(t.tier.name));
    if (withBug.failed.size === 0) {
      // A tier without a report names no test, but its catch is still a catch: the report counts it per tier.
      const caughtTiers = withBug.results.filter((r) => r.verdict === 'caught').map((r) => r.tier);
      if (caughtTiers.length > 0) {
        err(reportMsg.seedCaughtByTiers(caughtTiers));
        return EXIT.pass;
      }
      err(testMsg.seedEscaped());
      return EXIT.caught;
    }
    if (base === EMPTY_TREE) {
      err(testMsg.seedNoParent());
      return EXIT.caught;
    }
    // Evidence means "passes without the bug, fails with it": the failing tiers again, on the parent. The
    // slot is given back and taken again at the parent: the pool makes it exactly that commit (nothing
    // the seeded run wrote is left), usually in the same folder.
    wt.release();
    let onParent: Slot;
    try {
      onParent = acquireSlot(ctx.root, ctx.commonDir, base, { log: err });
    } catch (e) {
      err(testMsg.seedParentFailed(base, (e instanceof Error ? e.message : String(e)).split('\n')[0]!));
      return EXIT.error;
    }
    seeded = { ...seeded, wt: onParent };
    err(testMsg.seedParentStart(base, [...withBug.failed.keys()]));
    const parentPlan: Plan = { ...plan, tiers: plan.tiers.map((t) => (withBug.failed.has(t.tier.name) ? t : { ...t, run: false })) };
    const without = await ladderOn(ctx, parentPlan, onParent.dir, base, null, interrupt, testMsg.seedParentNote(patch));
    if (interrupt.fired) return EXIT.interrupted;
    const credited = credit(ctx, withBug.failed, without.outcomes, without.results, patch, base);
    if (credited === 0) {
      err(testMsg.seedNoCredit());
      return EXIT.caught;
    }
    return EXIT.pass;
  } finally {
    if (seeded !== undefined && typeof seeded !== 'string') seeded.wt.release();
    if (interrupt.fired) err(testMsg.seedCleanedUp());
    interrupt.dispose();
  }
}

/**
 * Each test that failed with the bug and passes on its parent is evidence that it catches such a bug:
 * recorded once per change (a test already credited for it, one that fails without the bug too, or
 * one the parent does not have is said, not credited). The count of tests that earned credit.
 */
function credit(
  ctx: CommandContext,
  failedWith: ReadonlyMap<string, string[]>,
  outcomes: Awaited<ReturnType<typeof ladderOn>>['outcomes'],
  results: Awaited<ReturnType<typeof ladderOn>>['results'],
  patch: string,
  base: string,
): number {
  const change = `${treeOf(ctx.root, base) ?? base}..${treeOf(ctx.root, patch) ?? patch}`;
  const known = history(ctx);
  let credited = 0;
  for (const [tier, failedWithBug] of failedWith) {
    const on = outcomes.get(tier);
    if (on === undefined) {
      const r = results.find((x) => x.tier === tier);
      err(testMsg.seedParentNoVerdict(tier, r?.reason ?? r?.verdict ?? 'did not run'));
      continue;
    }
    const passed = new Set(on.pass);
    const failed = new Set(on.fail);
    const ok = failedWithBug.filter((id) => passed.has(id));
    const both = failedWithBug.filter((id) => failed.has(id));
    const absent = failedWithBug.filter((id) => !passed.has(id) && !failed.has(id));
    const already = ok.filter((id) => known.evidence.get(id)?.has(`seed:${change}`) === true);
    const fresh = ok.filter((id) => !already.includes(id));
    if (fresh.length > 0) {
      const rec: TestRecord = {
        ts: new Date().toISOString(),
        run: newRunId(),
        tier,
        hook: 'seed',
        patch,
        source: 'seed',
        change,
        parent: base,
        pass: [],
        fail: fresh,
        skip: [],
      };
      recordTests(ctx.tests, rec);
      err(testMsg.seedCaughtBy(fresh));
    }
    if (already.length > 0) err(testMsg.seedAlready(already));
    if (both.length > 0) err(testMsg.seedFailsWithout(both, base));
    if (absent.length > 0) err(testMsg.seedNotOnParent(absent, base));
    credited += ok.length;
  }
  return credited;
}

async function importStryker(ctx: CommandContext, file: string): Promise<number> {
  let report: unknown;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    err(testMsg.strykerUnreadable(file, (e as Error).message));
    return EXIT.error;
  }
  const known = history(ctx);
  const parsed = strykerEvidence(report, [...new Set(knownTests(known).map((k) => k.id))]);
  if (!parsed.ok) {
    err(testMsg.strykerUnreadable(file, parsed.why));
    return EXIT.error;
  }
  const { evidence } = parsed;
  const ids = [...evidence.kills.keys()].sort();
  // A mutant already credited to a test (the same report imported again) adds nothing.
  const keys: Record<string, string[]> = {};
  for (const id of ids) {
    const had = known.evidence.get(id);
    const fresh = evidence.mutants.get(id)!.filter((k) => had?.has(`stryker:${k}`) !== true);
    if (fresh.length > 0) keys[id] = fresh;
  }
  const credited = Object.keys(keys);
  if (credited.length > 0) {
    const record: TestRecord = {
      ts: new Date().toISOString(),
      run: newRunId(),
      tier: 'stryker',
      hook: 'seed',
      patch: resolveCommit(ctx.root, 'HEAD') ?? '',
      source: 'stryker',
      pass: [],
      fail: credited,
      skip: [],
      kills: Object.fromEntries(credited.map((id) => [id, keys[id]!.length])),
      keys,
      report: basename(file),
    };
    recordTests(ctx.tests, record);
  }
  if (credited.length < ids.length) err(testMsg.strykerAlready(ids.length - credited.length));
  err(testMsg.strykerSummary(evidence.killed, ids, evidence.ignored));
  if (evidence.unmatched.length > 0) err(testMsg.strykerUnmatched(evidence.unmatched.length, evidence.unmatched[0]!));
  return ids.length > 0 ? EXIT.pass : EXIT.caught;
}
