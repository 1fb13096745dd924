import { createHash } from 'node:crypto';
import type { LedgerRow } from '../ledger/row.js';
import type { ResolvedConfig } from '../config/resolved.js';

/** What besides the config changes the rows a replay writes. */
export interface ReplayMode {
  calibrate: boolean;
  isolate?: 'network';
}

/** JSON with object keys sorted, so equal values hash equally whatever their key order. Pure. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * 12 hex of a sha256 over what decides a replayed patch's rows: the scope, every resolved tier, and
 * the mode (`--calibrate`, `--isolate`). Ledger path, freeze and report policies are left out. Pure.
 */
export function configHash(config: ResolvedConfig, mode: ReplayMode): string {
  const basis = { scope: config.scope, tiers: config.tiers, calibrate: mode.calibrate, isolate: mode.isolate ?? null };
  return createHash('sha256').update(stableStringify(basis)).digest('hex').slice(0, 12);
}

/** The resume key of one replayed patch: the same patch onto the same base under the same config. */
export function replayKey(patch: string, base: string | null, hash: string): string {
  return `${hash}\0${patch}\0${base ?? ''}`;
}

/** Whether a ledger row was written by a replay under `hash`. Pure. */
export function isReplayRow(row: LedgerRow, hash: string): boolean {
  return row.source === 'replay' && row.config_hash === hash;
}
