/**
 * `replay --shard i/n`: which patches of a corpus one CI job replays. Every job computes the same
 * assignment from the same list (and the same known durations), so every patch lands in exactly
 * one shard. Pure.
 */

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n); a sentence saying what is wrong otherwise. */
export function parseShard(text: string): Shard | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return `--shard takes i/n (e.g. --shard 2/3), not "${text}"`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) return `--shard ${text}: i must be between 1 and n (e.g. --shard 1/${Math.max(count, 1)})`;
  return { index, count };
}

/**
 * The shard (0-based) of each id. With no known durations: round-robin in list order, so shards
 * differ in size by at most one. With durations (seconds a patch took before, by id): longest
 * first onto the least-loaded shard (ties: id order, then the lowest shard), unknown ones priced at
 * the mean of the known.
 */
export function assignShards(
  ids: readonly string[],
  count: number,
  durations: ReadonlyMap<string, number> = new Map(),
): Map<string, number> {
  const out = new Map<string, number>();
  const unique = [...new Set(ids)];
  const known = unique.map((id) => durations.get(id)).filter((s): s is number => s !== undefined && Number.isFinite(s) && s >= 0);
  if (known.length === 0) {
    for (const [i, id] of unique.entries()) out.set(id, i % count);
    return out;
  }
  const mean = known.reduce((a, b) => a + b, 0) / known.length;
  const cost = (id: string) => {
    const s = durations.get(id);
    return s !== undefined && Number.isFinite(s) && s >= 0 ? s : mean;
  };
  const order = [...unique].sort((a, b) => cost(b) - cost(a) || (a < b ? -1 : a > b ? 1 : 0));
  const load = new Array<number>(count).fill(0);
  for (const id of order) {
    let best = 0;
    for (let s = 1; s < count; s++) if (load[s]! < load[best]!) best = s;
    out.set(id, best);
    load[best]! += cost(id);
  }
  return out;
}

/** The items of shard `shard` (1-based index), in their original order. */
export function selectShard<T>(items: readonly T[], id: (item: T) => string, shard: Shard, durations?: ReadonlyMap<string, number>): T[] {
  const assigned = assignShards(items.map(id), shard.count, durations);
  return items.filter((item) => assigned.get(id(item)) === shard.index - 1);
}

/**
 * Seconds per known patch: its first run's tiers summed (file order), so a later run never changes
 * what an earlier shard job saw. The caller leaves out the rows of the replay being sharded. Pure.
 */
export function patchDurations(rows: Iterable<{ patch: string; run: unknown; seconds: number }>): Map<string, number> {
  const first = new Map<string, string>();
  const out = new Map<string, number>();
  for (const r of rows) {
    const run = String(r.run);
    if (!first.has(r.patch)) first.set(r.patch, run);
    if (first.get(r.patch) !== run) continue;
    out.set(r.patch, (out.get(r.patch) ?? 0) + r.seconds);
  }
  return out;
}
