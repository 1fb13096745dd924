import { join } from 'node:path';
import { cacheDir, readJson, writeJsonAtomic } from './cache-files.js';
import { treeOf, workTreeState } from './git.js';
import { hash } from './hash.js';
import { type LadderInput, type LadderOutcome, toRow } from './ladder.js';
import type { GateResult, LedgerRow, Plan, ResolvedTier } from './types.js';

/**
 * The tree cache: a tree that already passed every planned tier, under the same config and the same
 * commands, passes again without running them (a retried push, the same commit pushed to a second
 * remote, a rebase that yields an identical tree).
 *
 * Key: a hash (src/hash.ts) of the pushed tree, the resolved config's hash, and the plan: each tier that runs, with
 * its command, env, timeout, cwd, caught codes, runner and report path. One file per key under
 * `<git common dir>/gate-ladder/cache/tree-<key>.json`, written by rename, so concurrent writers
 * never leave a torn entry. Only a run in which every planned tier passed is recorded, and only when
 * the gates saw exactly that tree (a temporary worktree, or a clean work tree at the pushed commit):
 * a caught or an error is never cached.
 */

const FORMAT = 1;
const KEEP = 2000;

export interface TreeEntry {
  format: number;
  /** The ladder run whose passes this entry vouches for. */
  run: string;
  tree: string;
  patch: string;
  tiers: string[];
  ts: string;
}

/** What decides a tier's verdict, besides the tree. Pure. */
export function tierFingerprint(t: ResolvedTier): unknown[] {
  return [t.name, t.run, t.env, t.timeout, t.cwd, t.caught, t.runner ?? null, t.junit ?? null];
}

/** The key of a plan on a tree under a config. Pure. */
export function treeKey(tree: string, configHash: string, plan: Plan): string {
  const planned = plan.tiers.filter((t) => t.run).map((t) => tierFingerprint(t.tier));
  return hash(JSON.stringify([FORMAT, tree, configHash, planned]));
}

const entryPath = (commonDir: string, key: string) => join(cacheDir(commonDir), `tree-${key}.json`);

export function lookupTreeCache(commonDir: string, key: string): TreeEntry | undefined {
  const entry = readJson<TreeEntry>(entryPath(commonDir, key));
  return entry?.format === FORMAT && typeof entry.run === 'string' ? entry : undefined;
}

export interface TreeCacheStep {
  commonDir: string;
  root: string;
  key: string;
  tree: string;
  /** The entry this run reuses, when the cache was read and had one. */
  hit?: TreeEntry;
}

/**
 * The cache step of one target, before its gates: `undefined` when caching is off (config `cache:
 * false`, `--no-cache`) or the tree is unknown. `read: false` (calibration) still records a pass.
 */
export function treeCacheStep(o: {
  enabled: boolean;
  read: boolean;
  commonDir: string;
  root: string;
  head: string;
  configHash: string;
  plan: Plan;
}): TreeCacheStep | undefined {
  if (!o.enabled || !o.plan.tiers.some((t) => t.run)) return undefined;
  const tree = treeOf(o.root, o.head);
  if (tree === null) return undefined;
  const key = treeKey(tree, o.configHash, o.plan);
  const hit = o.read ? lookupTreeCache(o.commonDir, key) : undefined;
  return { commonDir: o.commonDir, root: o.root, key, tree, ...(hit && { hit }) };
}

/** One row per planned tier for a hit: `pass`, `cached: true`, and the run it reuses. Pure. */
export function cachedRows(input: LadderInput, hit: TreeEntry, now: Date): { results: GateResult[]; rows: LedgerRow[] } {
  const skipped = input.plan.tiers.filter((t) => t.skip === 'scope').map((t) => t.tier.name);
  const results: GateResult[] = [];
  const rows: LedgerRow[] = [];
  for (const planned of input.plan.tiers) {
    if (!planned.run) continue;
    const result: GateResult = { tier: planned.tier.name, verdict: 'pass', exitCode: null, signal: null, seconds: 0, timedOut: false, tail: '' };
    results.push(result);
    const { isolation: _ran, ...row } = toRow(input, result, skipped, now);
    rows.push({ ...row, cached: true, cache_run: hit.run });
  }
  return { results, rows };
}

/**
 * After the gates: records the run when every planned tier passed on exactly the pushed tree.
 * Returns whether it did. The clean-work-tree check costs one `git status`, paid on a pass only.
 */
export function recordTreeCache(step: TreeCacheStep, plan: Plan, patch: string, outcome: LadderOutcome, interrupted: boolean): boolean {
  const planned = plan.tiers.filter((t) => t.run).map((t) => t.tier.name);
  const passed = outcome.results.filter((r) => r.verdict === 'pass').map((r) => r.tier);
  const run = outcome.rows[0]?.run;
  if (interrupted || outcome.verdict !== 'pass' || run === undefined || planned.some((t) => !passed.includes(t))) return false;
  if (outcome.rows.some((r) => r.isolation !== 'worktree')) {
    const state = workTreeState(step.root);
    if (state === null || !state.clean || state.head !== patch) return false;
  }
  const entry: TreeEntry = { format: FORMAT, run, tree: step.tree, patch, tiers: planned, ts: new Date().toISOString() };
  writeJsonAtomic(entryPath(step.commonDir, step.key), entry, { prefix: 'tree-', keep: KEEP });
  return true;
}
