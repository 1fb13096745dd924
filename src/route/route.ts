import { ChangeList, type ChangedPath, type Changes, type ScopeHit } from '../git/change-list.js';
import { MAX_FILES_PER_ROW } from '../config/defaults.js';
import { type ScopeMatcher, type ScopePlan, compileGlob, compileScope } from '../util/glob.js';
import { expandChanged, presentPaths, usesChanged } from './changed.js';
import type { HookName } from '../types.js';
import type { ResolvedTier } from '../config/resolved.js';
import type { TierPrediction } from '../ledger/predict.js';

export interface PlannedTier {
  tier: ResolvedTier;
  run: boolean;
  /** Why it does not run: t0-scope routed past it, the tier is not configured for this hook, GATE_LADDER_SKIP names it, its `{changed}` list is empty, no changed path matches its `paths`, or `select` skipped it. */
  skip?: 'scope' | 'hook' | 'env' | 'changed' | 'paths' | 'select';
  /** The tier's predicted catch chance for this patch (config `order: 'predicted'` or `select`). */
  p?: number;
  /** Human reason when skipped (e.g. `test-adjacent: tests/x.py matches **\/tests/**`). */
  reason?: string;
  /** The tier's `run` with its `{changed}` placeholders expanded for this change (route/changed.ts); absent when it has none. */
  command?: string | string[];
}

export interface Plan {
  /** The touched paths, at most MAX_FILES_PER_ROW of them (as many as a ledger row keeps). */
  files: string[];
  /** How many paths the change touches. */
  fileCount: number;
  hits: ScopeHit[];
  tiers: PlannedTier[];
  /** The changed paths the judged commit still has (no deleted ones), worked out when first asked: `{changed}` and GATE_LADDER_CHANGED. */
  present?: () => readonly string[];
  /** Config `order: 'predicted'` or `select`: the order chosen and why, and what selection skipped (ledger/predict.ts). */
  order?: PlanOrder;
}

/** The order a plan's tiers run in, as the ledger rows and `--json` record it. */
export interface PlanOrder {
  order: 'fixed' | 'predicted';
  why: string;
  /** Why the listed order ran: the config asks for it, a calibration run, or too little history to predict from. */
  because?: 'config' | 'calibration' | 'history';
  /** Each running tier's predicted catch, expected seconds and evidence (absent while the history is too thin). */
  predictions?: TierPrediction[];
  /** Tiers `select` skipped, and their predicted catch chances summed. */
  selected?: { risk: number; skipped: string[]; residual: number };
  /** Why `select` did not act on this run (a CI run, a calibration run, thin history). */
  selectOff?: string;
}

export type Matcher = ScopeMatcher;

/** Compiles scope globs once (from `plan` when a cached config kept one); the returned function names the first marker a path matches. */
export function scopeMatcher(scope: readonly string[], plan?: ScopePlan): Matcher {
  return compileScope(scope, plan);
}

/** Every path a change touches; a rename or copy counts its old path too. */
export function touchedPaths(changes: readonly ChangedPath[]): string[] {
  // Most diffs have no rename: one map, sized once (100,000 paths allocate a lot otherwise).
  if (!changes.some((c) => c.from !== undefined)) return changes.map((c) => c.path);
  const out: string[] = [];
  for (const c of changes) {
    if (c.from !== undefined) out.push(c.from);
    out.push(c.path);
  }
  return out;
}

/** t0-scope: paths to test-adjacent hits. Pure. */
export function scopeHits(paths: readonly string[], match: Matcher): ScopeHit[] {
  const hits: ScopeHit[] = [];
  for (const path of paths) {
    const marker = match(path);
    if (marker !== undefined) hits.push({ path, marker });
  }
  return hits;
}

/**
 * The plan for a change: which tiers run on this hook and why the others do not.
 * A test-adjacent change skips every tier marked `skipWhenTestAdjacent`; t0 itself never blocks.
 */
export function route(changes: Changes, tiers: readonly ResolvedTier[], match: Matcher, hook: HookName): Plan {
  let files: string[];
  let fileCount: number;
  let hits: ScopeHit[];
  if (changes instanceof ChangeList) {
    files = changes.paths(MAX_FILES_PER_ROW);
    fileCount = changes.count;
    hits = changes.hits(match);
  } else {
    const all = touchedPaths(changes);
    files = all.length > MAX_FILES_PER_ROW ? all.slice(0, MAX_FILES_PER_ROW) : all;
    fileCount = all.length;
    hits = scopeHits(all, match);
  }
  const first = hits[0];
  // The paths the judged commit still has: listed from the change only when a tier or a gate asks.
  let present: string[] | undefined;
  const presentNow = () => (present ??= presentPaths(changes));
  // Every touched path (a deleted or renamed-from one too): listed only when a tier names `paths`.
  let touched: readonly string[] | undefined;
  const touchedNow = () => (touched ??= changes instanceof ChangeList ? changes.paths() : touchedPaths(changes));
  const planned: PlannedTier[] = tiers.map((tier) => {
    if (!tier.hooks.includes(hook)) return { tier, run: false, skip: 'hook', reason: `not configured for ${hook}` };
    if (tier.paths !== undefined && !touchedNow().some(pathsTest(tier.paths)))
      return { tier, run: false, skip: 'paths', reason: `no changed path matches its paths (${tier.paths.join(', ')})` };
    if (tier.skipWhenTestAdjacent && first !== undefined) {
      const more = hits.length > 1 ? ` (and ${hits.length - 1} more)` : '';
      return { tier, run: false, skip: 'scope', reason: `test-adjacent: ${first.path} matches ${first.marker}${more}` };
    }
    if (!tier.lintStaged && usesChanged(tier.run)) {
      const x = expandChanged(tier.run, presentNow(), tier.cwd);
      if ('empty' in x)
        return {
          tier,
          run: false,
          skip: 'changed',
          reason: x.empty === undefined ? 'no changed path left to check (every one was deleted)' : `no changed path matches ${x.empty}`,
        };
      return { tier, run: true, command: x.run };
    }
    return { tier, run: true };
  });
  return { files, fileCount, hits, tiers: planned, present: presentNow };
}

/** A tier's `paths`: a path is the tier's when a glob matches it and no `!glob` does. Pure. */
export function pathsTest(globs: readonly string[]): (path: string) => boolean {
  const take = globs.filter((g) => !g.startsWith('!')).map((g) => compileGlob(g));
  const leave = globs.filter((g) => g.startsWith('!')).map((g) => compileGlob(g.slice(1)));
  return (path) => take.some((t) => t(path)) && !leave.some((t) => t(path));
}

/**
 * The plan with the named tiers kept from running (GATE_LADDER_SKIP): `skip: 'env'`, the reason
 * naming `why`. Tiers that were not going to run keep their own reason. Pure.
 */
export function skipTiers(plan: Plan, names: readonly string[], why: string): Plan {
  if (names.length === 0 || !plan.tiers.some((t) => t.run && names.includes(t.tier.name))) return plan;
  return {
    ...plan,
    tiers: plan.tiers.map((t) =>
      t.run && names.includes(t.tier.name) ? { tier: t.tier, run: false, skip: 'env', reason: `${why} names it` } : t,
    ),
  };
}
