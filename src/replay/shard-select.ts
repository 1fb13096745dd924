/** `replay --shard i/n` against the ledger: the durations it already knows, then the pure split. */
import { forEachRow, type ReadStats } from '../ledger/ledger.js';
import type { LedgerRow } from '../ledger/row.js';
import type { ReplayPatch } from './inputs.js';
import { patchDurations, type Shard, selectShard } from './shard.js';

/**
 * This shard's patches. Durations come from rows not written under `hash` (the replay being sharded
 * adds only such rows), so shard jobs run one after another in one clone split the corpus the same way.
 */
export async function shardPatches(
  patches: readonly ReplayPatch[],
  shard: Shard,
  ledger: string,
  hash: string,
): Promise<{ patches: ReplayPatch[]; balanced: boolean }> {
  const wanted = new Set(patches.map((p) => p.id));
  const rows: LedgerRow[] = [];
  const stats: ReadStats = { rows: 0, skipped: 0 };
  await forEachRow(ledger, stats, (row) => {
    if (wanted.has(row.patch) && row.config_hash !== hash && row.cached !== true) rows.push(row);
  });
  const durations = patchDurations(rows);
  return { patches: selectShard(patches, (p) => p.id, shard, durations), balanced: durations.size > 0 };
}
