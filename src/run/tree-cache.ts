import { join } from 'node:path';
import { cacheDir, readJson, writeJsonAtomic } from '../util/cache-files.js';
import { workTreeState } from '../git/git.js';
import { type GitFacts, treeIn } from '../git/facts.js';
import { isoTime } from '../util/iso-time.js';
import { hash } from '../util/hash.js';
import { today } from '../util/iso-time.js';
import type { LadderInput, LadderOutcome } from './ladder.js';
import { toRow } from './rows.js';
import type { GateResult } from '../gates/result.js';
import type { LedgerRow } from '../ledger/row.js';
import type { Plan } from '../route/route.js';
import type { ResolvedTier } from '../config/resolved.js';

/**
 * The tree cache: a tree that already passed every planned tier, under the same config and the same
 * commands, passes again without running them (a retried push, the same commit pushed to a second
 * remote, a rebase that yields an identical tree).
 *
 * One file per (tree, config) pair, `<git common dir>/gate-ladder/cache/tree-<hash>.json`, lists the
 * tiers that passed on that tree, each with a fingerprint of what decides its verdict (command, env,
 * timeout, cwd, caught codes, runner, report path) and the run that passed it. A plan hits when every
 * tier it runs is listed with the same fingerprint, so a push whose range routes past a tier (a second
 * remote, say) still reuses the passes it needs. Only a run in which every planned tier passed is
 * recorded, and only when its gates saw exactly that tree (a temporary worktree, or a clean work tree
 * at the pushed commit): a caught or an error is never cached. Entries are replaced by rename, so
 * concurrent writers never leave a torn file; the worst a race does is drop a tier, a later miss.
 */

const FORMAT = 1;
const KEEP = 2000;

export interface TreeEntry {
  format: number;
  tree: string;
  config: string;
  /**
   * Tier name → what passed it. `day` is set when the pass relied on frozen tests (their failures
   * forgiven): it holds only on that day, as a freeze active today may expire tomorrow.
   */
  tiers: Record<string, { fp: string; run: string; patch: string; ts: string; day?: string }>;
}

/** What decides a tier's verdict, besides the tree, as a hash. Pure. */
export function tierFingerprint(t: ResolvedTier): string {
  const parts: unknown[] = [t.name, t.run, t.env, t.timeout, t.cwd, t.caught, t.runner ?? null, t.junit ?? null];
  // Newer fields join only when set, so fingerprints of tiers without them stay as they were.
  if (t.report && t.junit === undefined) parts.push(t.report);
  if (t.allowNoTests) parts.push('allowNoTests');
  // A retry can turn a failure into a pass: part of what decides the verdict.
  if (t.retries) parts.push({ retries: t.retries });
  return hash(JSON.stringify(parts));
}

/** The entry's name for a tree under a config. Pure. */
export function treeKey(tree: string, configHash: string): string {
  return hash(JSON.stringify([FORMAT, tree, configHash]));
}

const entryPath = (commonDir: string, key: string) => join(cacheDir(commonDir), `tree-${key}.json`);

function readEntry(commonDir: string, key: string, tree: string, config: string): TreeEntry | undefined {
  const e = readJson<TreeEntry>(entryPath(commonDir, key));
  return e?.format === FORMAT && e.tree === tree && e.config === config && e.tiers !== null && typeof e.tiers === 'object' ? e : undefined;
}

/** Tier name → the run that passed it, when every planned tier passed on this tree; else undefined. Pure. */
export function coverage(entry: TreeEntry | undefined, plan: Plan, today?: () => string): Record<string, string> | undefined {
  if (entry === undefined) return undefined;
  const runs: Record<string, string> = {};
  for (const t of plan.tiers) {
    if (!t.run) continue;
    const passed = entry.tiers[t.tier.name];
    if (passed?.fp !== tierFingerprint(t.tier) || t.tier.cache === false) return undefined;
    if (passed.day !== undefined && passed.day !== today?.()) return undefined;
    runs[t.tier.name] = passed.run;
  }
  return Object.keys(runs).length > 0 ? runs : undefined;
}

export interface TreeCacheStep {
  /** The run's git facts: where the repository is, and the pushed commit's tree when already known. */
  facts: GitFacts;
  key: string;
  tree: string;
  config: string;
  /** Tier name → the run it reuses, when the cache was read and covers the plan. */
  hit?: Record<string, string>;
}

/**
 * The cache step of one target, before its gates: `undefined` when caching is off (config `cache:
 * false`, `--no-cache`) or the tree is unknown. `read: false` (calibration) still records a pass.
 * The head's tree comes from the run's git facts (git is asked only when they do not hold it).
 */
export function treeCacheStep(o: {
  enabled: boolean;
  read: boolean;
  facts: GitFacts;
  head: string;
  configHash: string;
  plan: Plan;
}): TreeCacheStep | undefined {
  if (!o.enabled || !o.plan.tiers.some((t) => t.run)) return undefined;
  const tree = treeIn(o.facts, o.head);
  if (tree === null) return undefined;
  const key = treeKey(tree, o.configHash);
  const hit = o.read ? coverage(readEntry(o.facts.repo.commonDir, key, tree, o.configHash), o.plan, today) : undefined;
  return { facts: o.facts, key, tree, config: o.configHash, ...(hit && { hit }) };
}

/** One row per planned tier for a hit: `pass`, `cached: true`, and the run it reuses. Pure. */
export function cachedRows(input: LadderInput, hit: Record<string, string>, now: Date): { results: GateResult[]; rows: LedgerRow[] } {
  const skipped = input.plan.tiers.filter((t) => t.skip === 'scope').map((t) => t.tier.name);
  const results: GateResult[] = [];
  const rows: LedgerRow[] = [];
  for (const planned of input.plan.tiers) {
    if (!planned.run) continue;
    const result: GateResult = {
      tier: planned.tier.name,
      verdict: 'pass',
      exitCode: null,
      signal: null,
      seconds: 0,
      timedOut: false,
      tail: '',
    };
    results.push(result);
    const { isolation: _none, ...row } = toRow(input, result, skipped, now);
    rows.push({ ...row, cached: true, cache_run: hit[planned.tier.name] ?? '' });
  }
  return { results, rows };
}

/**
 * After the gates: records the run when every planned tier passed on exactly the pushed tree, adding
 * its tiers to what the entry already lists. Returns whether it did. After a pass that ran in the work
 * tree, that tree must still be clean at the pushed commit: one `git status` says so.
 */
export function recordTreeCache(step: TreeCacheStep, plan: Plan, patch: string, outcome: LadderOutcome, interrupted: boolean): boolean {
  const planned = plan.tiers.filter((t) => t.run);
  const passed = new Set(outcome.results.filter((r) => r.verdict === 'pass').map((r) => r.tier));
  const run = outcome.rows[0]?.run;
  if (interrupted || outcome.verdict !== 'pass' || run === undefined || planned.some((t) => !passed.has(t.tier.name))) return false;
  const { repo } = step.facts;
  if (outcome.rows.some((r) => r.isolation !== 'worktree')) {
    const state = workTreeState(repo.root);
    if (state === null || !state.clean || state.head !== patch) return false;
  }
  const entry: TreeEntry = readEntry(repo.commonDir, step.key, step.tree, step.config) ?? {
    format: FORMAT,
    tree: step.tree,
    config: step.config,
    tiers: {},
  };
  const ts = isoTime(Date.now());
  const forgave = new Set(outcome.results.filter((r) => r.frozen && r.frozen.length > 0).map((r) => r.tier));
  for (const t of planned) {
    if (t.tier.cache === false) continue;
    entry.tiers[t.tier.name] = { fp: tierFingerprint(t.tier), run, patch, ts, ...(forgave.has(t.tier.name) && { day: today() }) };
  }
  writeJsonAtomic(entryPath(repo.commonDir, step.key), entry, { prefix: 'tree-', keep: KEEP });
  return true;
}
