/**
 * `gate-ladder seed`: sensitivity evidence. A known-bad change runs through every tier in a throwaway
 * worktree; the tests that fail have caught a seeded bug. `--stryker` imports a mutation report instead.
 * Seeded rows carry `hook: "seed"` and `source: "seed"` and never count as catches.
 */
import { randomBytes } from 'node:crypto';
import { trapInterrupt } from '../util/interrupt.js';
import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { runGate } from '../ladder/gate.js';
import { gateColourWanted } from '../util/colour.js';
import { MAX_FILES_PER_ROW } from '../config/defaults.js';
import { EMPTY_TREE, GitError, diffList, git, resolveCommit } from '../git/git.js';
import { foldHistory, readTestRecords } from '../evidence/history.js';
import { runLadder } from '../ladder/ladder.js';
import { appendLines, appendRows } from '../ledger/ledger.js';
import { reportMsg, testMsg } from '../util/messages.js';
import { strykerEvidence } from '../evidence/stryker.js';
import { reportDeps } from '../ladder/tier-report-io.js';
import { gateTracker, gatesDir } from '../ladder/gate-records.js';
import type { Plan, ResolvedConfig, TestRecord } from '../types.js';
import { type Slot, acquireSlot } from '../git/worktree-pool.js';
import { pathIntoLinks } from '../git/dependency-links.js';
import { patchPaths } from '../git/patch-paths.js';
import { poolMsg } from '../util/messages.js';
import { type CommandContext, err, loadContext } from './context.js';
import { EXIT } from './run.js';

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
      ? git(wt.dir, ['-c', 'core.hooksPath=/dev/null', '-c', 'user.name=gate-ladder', '-c', 'user.email=gate-ladder@localhost', '-c', 'commit.gpgSign=false',
          'commit', '--quiet', '--no-verify', '--allow-empty', '-m', `gate-ladder seed: ${basename(file)}`])
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
  return { wt: acquireSlot(ctx.root, ctx.commonDir, commit, { log: err }), patch: commit, base, what: `${target} (${commit.slice(0, 12)})` };
}

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
    const outcome = await runLadder(
      { plan, runId: randomBytes(6).toString('hex'), hook: 'seed', patch, base, cwd: wt.dir, isolation: 'worktree', runAll: true, source: 'seed' },
      {
        runGate,
        appendRows: (rows) => appendRows(ctx.ledger, rows),
        now: () => new Date(),
        log: err,
        env: process.env,
        interrupt: interrupt.promise,
        reports: reportDeps(ctx.ledger),
        echo: (chunk) => process.stderr.write(chunk),
        colour: () => gateColourWanted(process.env),
        tracker: gateTracker(gatesDir(ctx.commonDir)),
      },
    );
    if (interrupt.fired) return EXIT.interrupted;
    for (const t of plan.tiers) if (t.run && t.tier.report === undefined) err(testMsg.seedNoReport(t.tier.name));
    const caughtTiers = outcome.results.filter((r) => r.verdict === 'caught');
    const caughtBy = [...new Set(caughtTiers.flatMap((r) => r.failed ?? []))];
    if (caughtBy.length > 0) {
      err(testMsg.seedCaughtBy(caughtBy));
      return EXIT.pass;
    }
    // A tier without a JUnit report names no test, but its catch is still a catch: the report counts it per tier.
    if (caughtTiers.length > 0) {
      err(reportMsg.seedCaughtByTiers(caughtTiers.map((r) => r.tier)));
      return EXIT.pass;
    }
    err(testMsg.seedEscaped());
    return EXIT.caught;
  } finally {
    if (seeded !== undefined && typeof seeded !== 'string') seeded.wt.release();
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
  const known = foldHistory(await readTestRecords(ctx.tests));
  const parsed = strykerEvidence(report, [...known.values()].filter((h) => h.outcomes.length > 0).map((h) => h.id));
  if (!parsed.ok) {
    err(testMsg.strykerUnreadable(file, parsed.why));
    return EXIT.error;
  }
  const { evidence } = parsed;
  const ids = [...evidence.kills.keys()].sort();
  if (ids.length > 0) {
    const record: TestRecord = {
      ts: new Date().toISOString(),
      run: randomBytes(6).toString('hex'),
      tier: 'stryker',
      hook: 'seed',
      patch: resolveCommit(ctx.root, 'HEAD') ?? '',
      source: 'stryker',
      pass: [],
      fail: ids,
      skip: [],
      kills: Object.fromEntries(evidence.kills),
      report: basename(file),
    };
    appendLines(ctx.tests, [record]);
  }
  err(testMsg.strykerSummary(evidence.killed, ids, evidence.ignored));
  if (evidence.unmatched.length > 0) err(testMsg.strykerUnmatched(evidence.unmatched.length, evidence.unmatched[0]!));
  return ids.length > 0 ? EXIT.pass : EXIT.caught;
}
