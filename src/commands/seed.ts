/**
 * `gate-ladder seed`: sensitivity evidence. A known-bad change runs through every tier in a throwaway
 * worktree; the tests that fail have caught a seeded bug. `--stryker` imports a mutation report instead.
 * Seeded rows carry `hook: "seed"` and `source: "seed"` and never count as catches.
 */
import { trapInterrupt } from '../util/interrupt.js';
import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { runGate } from '../ladder/gate.js';
import { MAX_FILES_PER_ROW } from '../config/defaults.js';
import { EMPTY_TREE, GitError, diffList, git, resolveCommit, treeOf } from '../git/git.js';
import { knownTests } from '../evidence/history.js';
import { recordTests } from '../evidence/history-store.js';
import { newRunId } from '../util/hash.js';
import { runLadder } from '../ladder/ladder.js';
import { appendRows } from '../ledger/ledger.js';
import { testMsg } from '../util/messages.js';
import { strykerEvidence } from '../evidence/stryker.js';
import { reportDeps } from '../ladder/tier-report-io.js';
import type { GateResult, Plan, ResolvedConfig, TestRecord } from '../types.js';
import { type TempWorktree, addWorktree } from '../git/worktree.js';
import { type CommandContext, err, loadContext } from './context.js';
import { EXIT } from './run.js';
import { history } from './flaky.js';

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
  wt: TempWorktree;
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

/** The seeded tree in a throwaway worktree, committed there (detached) so its rows name a real commit. */
function prepare(ctx: CommandContext, cwd: string, target: string): Seeded | string {
  const file = resolve(cwd, target);
  if (isFile(file)) {
    const head = resolveCommit(ctx.root, 'HEAD');
    if (head === null) return testMsg.seedBadTarget(target);
    const wt = addWorktree(ctx.root, head, 'gate-ladder-seed-');
    const applied = git(wt.dir, ['apply', '--index', '--whitespace=nowarn', file]);
    const committed = applied.ok
      ? git(wt.dir, ['-c', 'user.name=gate-ladder', '-c', 'user.email=gate-ladder@localhost', '-c', 'commit.gpgSign=false',
          'commit', '--quiet', '--no-verify', '--allow-empty', '-m', `gate-ladder seed: ${basename(file)}`])
      : applied;
    const patch = committed.ok ? resolveCommit(wt.dir, 'HEAD') : null;
    if (patch === null) {
      wt.remove();
      return testMsg.seedPatchFailed(target, (committed.stderr.trim() || `exit ${committed.code}`).split('\n')[0]!);
    }
    return { wt, patch, base: head, what: `${basename(file)} on ${head.slice(0, 12)}` };
  }
  const commit = resolveCommit(ctx.root, target);
  if (commit === null) return testMsg.seedBadTarget(target);
  const base = resolveCommit(ctx.root, `${commit}^`) ?? EMPTY_TREE;
  return { wt: addWorktree(ctx.root, commit, 'gate-ladder-seed-'), patch: commit, base, what: `${target} (${commit.slice(0, 12)})` };
}

/** What one ladder run over the seed plan found, per tier. */
interface SeedRun {
  /** Tier → its trusted per-test outcomes (only tiers whose report could be read). */
  outcomes: Map<string, TestRecord>;
  /** Tier → tests that failed, for tiers whose verdict was `caught`. */
  failed: Map<string, string[]>;
  results: GateResult[];
}

async function ladderOn(ctx: CommandContext, plan: Plan, where: string, patch: string, base: string | null, interrupt: Interrupt, note?: string): Promise<SeedRun> {
  const outcomes = new Map<string, TestRecord>();
  // Seeded runs are not history: their outcomes are held here, and only credited tests are recorded (as evidence).
  const reports = { ...reportDeps(ctx.ledger), record: (rec: TestRecord) => void outcomes.set(rec.tier, rec) };
  const outcome = await runLadder(
    { plan, runId: newRunId(), hook: 'seed', patch, base, cwd: where, isolation: 'worktree', runAll: true, source: 'seed', ...(note && { note }) },
    { runGate, appendRows: (rows) => appendRows(ctx.ledger, rows), now: () => new Date(), log: err, env: process.env, interrupt: interrupt.promise, reports },
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
  // A second Ctrl-C exits at once; worktree.ts still removes the worktree on exit.
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
    for (const t of plan.tiers) if (t.run && t.tier.junit === undefined) err(testMsg.seedNoReport(t.tier.name));
    if (withBug.failed.size === 0) {
      err(testMsg.seedEscaped());
      return EXIT.caught;
    }
    if (base === EMPTY_TREE) {
      err(testMsg.seedNoParent());
      return EXIT.caught;
    }
    // Evidence means "passes without the bug, fails with it": the failing tiers again, on the parent, in the same worktree.
    const parent = git(wt.dir, ['checkout', '--quiet', '--detach', '--force', base]);
    if (!parent.ok) {
      err(testMsg.seedParentFailed(base, (parent.stderr.trim() || `exit ${parent.code}`).split('\n')[0]!));
      return EXIT.error;
    }
    err(testMsg.seedParentStart(base, [...withBug.failed.keys()]));
    const parentPlan: Plan = { ...plan, tiers: plan.tiers.map((t) => (withBug.failed.has(t.tier.name) ? t : { ...t, run: false })) };
    const without = await ladderOn(ctx, parentPlan, wt.dir, base, null, interrupt, testMsg.seedParentNote(patch));
    if (interrupt.fired) return EXIT.interrupted;
    const change = `${treeOf(ctx.root, base) ?? base}..${treeOf(ctx.root, patch) ?? patch}`;
    const known = history(ctx);
    let credited = 0;
    for (const [tier, failedWithBug] of withBug.failed) {
      const on = without.outcomes.get(tier);
      if (on === undefined) {
        const r = without.results.find((x) => x.tier === tier);
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
        const rec: TestRecord = { ts: new Date().toISOString(), run: newRunId(), tier, hook: 'seed', patch, source: 'seed', change, parent: base, pass: [], fail: fresh, skip: [] };
        recordTests(ctx.tests, rec);
        err(testMsg.seedCaughtBy(fresh));
      }
      if (already.length > 0) err(testMsg.seedAlready(already));
      if (both.length > 0) err(testMsg.seedFailsWithout(both, base));
      if (absent.length > 0) err(testMsg.seedNotOnParent(absent, base));
      credited += ok.length;
    }
    if (credited === 0) {
      err(testMsg.seedNoCredit());
      return EXIT.caught;
    }
    return EXIT.pass;
  } finally {
    if (seeded !== undefined && typeof seeded !== 'string') seeded.wt.remove();
    if (interrupt.fired) err(testMsg.seedCleanedUp());
    interrupt.dispose();
  }
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
