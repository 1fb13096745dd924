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
