import { compileScope } from './glob.js';
import type { ChangedPath, HookName, Plan, PlannedTier, ResolvedTier, ScopeHit } from './types.js';

export type Matcher = (path: string) => string | undefined;

/** Compiles scope globs once; the returned function names the first marker a path matches. */
export function scopeMatcher(scope: readonly string[]): Matcher {
  return compileScope(scope);
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
export function route(
  changes: readonly ChangedPath[],
  tiers: readonly ResolvedTier[],
  match: Matcher,
  hook: HookName,
): Plan {
  const files = touchedPaths(changes);
  const hits = scopeHits(files, match);
  const first = hits[0];
  const planned: PlannedTier[] = tiers.map((tier) => {
    if (!tier.hooks.includes(hook)) return { tier, run: false, skip: 'hook', reason: `not configured for ${hook}` };
    if (tier.skipWhenTestAdjacent && first !== undefined) {
      const more = hits.length > 1 ? ` (and ${hits.length - 1} more)` : '';
      return { tier, run: false, skip: 'scope', reason: `test-adjacent: ${first.path} matches ${first.marker}${more}` };
    }
    return { tier, run: true };
  });
  return { files, hits, tiers: planned };
}
