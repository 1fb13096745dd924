/**
 * Which test a user means: the id as `gate-ladder flaky` prints it, the id pytest prints (relative to
 * its rootdir, so possibly without the tier's folder), or a title alone when only one file has it.
 * Pure.
 */

export interface KnownTest {
  tier: string;
  id: string;
}

export type Resolution =
  | { kind: 'one'; test: KnownTest }
  /** Several tests answer to it: one per tier, or one per file. */
  | { kind: 'many'; candidates: KnownTest[] }
  | { kind: 'none'; near: string[] };

const clean = (s: string) => s.trim().replace(/^\.\//, '');

/** `known` ends with `typed` at a boundary a path or an id has: after a `/` (a folder the runner left out) or a `::` (the file). */
function endsAt(known: string, typed: string): boolean {
  if (!known.endsWith(typed) || known.length === typed.length) return false;
  const before = known.slice(0, known.length - typed.length);
  return before.endsWith('/') || before.endsWith('::');
}

const tokens = (s: string) =>
  new Set(
    s
      .toLowerCase()
      .split(/[^a-z0-9_]+/)
      .filter(Boolean),
  );

/** How alike two ids are, 0 to 1: shared words, with a bonus when one contains the other. */
function likeness(a: string, b: string): number {
  const x = tokens(a);
  const y = tokens(b);
  let shared = 0;
  for (const t of x) if (y.has(t)) shared++;
  const union = x.size + y.size - shared;
  const base = union === 0 ? 0 : shared / union;
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return base + (la.includes(lb) || lb.includes(la) ? 0.5 : 0);
}

export function resolveTestId(typed: string, known: readonly KnownTest[], tier?: string, maxNear = 5): Resolution {
  const want = clean(typed);
  const pool = tier === undefined ? known : known.filter((k) => k.tier === tier);
  const exact = pool.filter((k) => k.id === want);
  if (exact.length === 1) return { kind: 'one', test: exact[0]! };
  if (exact.length > 1) return { kind: 'many', candidates: exact };
  const suffix = pool.filter((k) => endsAt(k.id, want));
  if (suffix.length === 1) return { kind: 'one', test: suffix[0]! };
  if (suffix.length > 1) return { kind: 'many', candidates: suffix };
  const scored: { id: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const k of pool) {
    if (seen.has(k.id)) continue;
    seen.add(k.id);
    const score = likeness(k.id, want);
    if (score > 0) scored.push({ id: k.id, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { kind: 'none', near: scored.slice(0, maxNear).map((s) => s.id) };
}
