/** A tier priced for ordering: mean seconds per run and the chance it catches the patch. */
export interface PricedTier {
  tier: string;
  cost: number;
  p: number;
}

/** Cost ÷ catch probability; a tier that never catches goes last, a free tier that catches goes first. */
export function costRatio(t: PricedTier): number {
  return t.p === 0 ? Infinity : t.cost / t.p;
}

/**
 * Expected seconds per patch when tiers run in this order and the first catch stops the ladder:
 * each tier's cost times the chance every earlier tier passed (tiers assumed to fail independently).
 */
export function expectedSeconds(order: readonly PricedTier[]): number {
  let reach = 1;
  let total = 0;
  for (const t of order) {
    total += t.cost * reach;
    reach *= 1 - t.p;
  }
  return total;
}

/** The order with the least expected seconds: ascending cost ÷ p (the sequential-testing ratio rule). Ties keep their order. */
export function bestOrder(tiers: readonly PricedTier[]): PricedTier[] {
  return tiers
    .map((t, i) => ({ t, i, r: costRatio(t) }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r < b.r ? -1 : 1))
    .map((x) => x.t);
}

/**
 * One calibration run as the exact evaluation reads it, over tiers numbered 0..n-1: bit i of `pass` is set when
 * tier i passed or t0-scope routed past it (either way it does not stop the ladder), and `seconds[i]` is what
 * tier i took in the run (0 when routed past).
 */
export interface ReplayRun {
  pass: number;
  seconds: readonly number[];
}

/** Beyond this many tiers the exact search (2^n sets of tiers) is not tried. */
export const MAX_EXACT_TIERS = 12;

/**
 * Expected seconds per patch of an order, exactly: each run's verdicts replayed under the order, the ladder
 * stopping at the first tier that does not pass, averaged over the runs. No independence assumed.
 */
export function replaySeconds(order: readonly number[], runs: readonly ReplayRun[]): number {
  if (runs.length === 0) return 0;
  let total = 0;
  for (const r of runs) {
    for (const i of order) {
      total += r.seconds[i]!;
      if ((r.pass & (1 << i)) === 0) break;
    }
  }
  return total / runs.length;
}

/**
 * The order of tiers 0..n-1 with the least `replaySeconds`, found over sets of tiers rather than orders
 * (2^n·n² steps, not n!): once the tiers of a set S have run, a patch reaches tier t exactly in the runs where
 * every tier of S passed, whatever their order. Among equally cheap orders, earlier tiers stay earlier.
 */
export function bestReplayOrder(n: number, runs: readonly ReplayRun[]): number[] {
  const sets = 1 << n;
  const full = sets - 1;
  // reach[S·n + t]: tier t's seconds summed over the runs in which every tier of S passed.
  const reach = new Float64Array(sets * n);
  for (const r of runs) {
    const m = r.pass & full;
    for (let t = 0; t < n; t++) reach[m * n + t]! += r.seconds[t]!;
  }
  for (let b = 0; b < n; b++) {
    for (let s = 0; s < sets; s++) {
      if ((s & (1 << b)) !== 0) continue;
      const from = (s | (1 << b)) * n;
      for (let t = 0; t < n; t++) reach[s * n + t]! += reach[from + t]!;
    }
  }
  // best[S]: the least seconds for running the tiers of S first; last[S]: which of them runs last.
  const best = new Float64Array(sets).fill(Infinity);
  const last = new Int8Array(sets);
  best[0] = 0;
  for (let s = 1; s < sets; s++) {
    for (let t = n - 1; t >= 0; t--) {
      if ((s & (1 << t)) === 0) continue;
      const before = s ^ (1 << t);
      const v = best[before]! + reach[before * n + t]!;
      if (v < best[s]!) {
        best[s] = v;
        last[s] = t;
      }
    }
  }
  const order: number[] = [];
  for (let s = full; s !== 0; s ^= 1 << last[s]!) order.unshift(last[s]!);
  return order;
}
