/**
 * A ledger row's identity, for merging shard ledgers and syncing clones: its run, tier, patch and
 * flags. Two copies of one row (a shard merged twice, a row fetched back from the remote, the same
 * row stamped with its `origin` or not) are one row. Pure.
 */
import type { LedgerRow } from './row.js';

/** The flags that make two rows of one run, tier and patch different rows. */
function flags(row: LedgerRow): string {
  return [
    row.hook ?? '',
    row.calibration === true ? 'calibration' : '',
    row.cached === true ? 'cached' : '',
    row.applied === false ? 'not-applied' : '',
    row.isolate ?? '',
  ].join(',');
}

/** The identity key of a row: run, tier, patch and flags (never `origin`, `ts` or `seconds`). */
export function rowKey(row: LedgerRow): string {
  return `${String(row.run)}\u0000${row.tier}\u0000${row.patch}\u0000${flags(row)}`;
}

/** A per-test record's identity: run, tier, patch and hook, like its ledger row. */
export function testRecordKey(rec: { run: unknown; tier: unknown; patch: unknown; hook?: unknown }): string {
  return `${String(rec.run)}\u0000${String(rec.tier)}\u0000${String(rec.patch)}\u0000${String(rec.hook ?? '')}`;
}

/**
 * The rows of `incoming` whose identity is not in `seen`, in order, each once; `seen` gains them.
 * The fold behind merge and sync.
 */
export function newRows<T>(incoming: Iterable<T>, seen: Set<string>, key: (row: T) => string): { added: T[]; duplicates: number } {
  const added: T[] = [];
  let duplicates = 0;
  for (const row of incoming) {
    const k = key(row);
    if (seen.has(k)) {
      duplicates++;
      continue;
    }
    seen.add(k);
    added.push(row);
  }
  return { added, duplicates };
}

/** A row as stored for the team: stamped with the origin it came from, unless it already names one. */
export function stamp<T extends Record<string, unknown>>(row: T, origin: string): T {
  return typeof row.origin === 'string' && row.origin !== '' ? row : { ...row, origin };
}

/** Origins a sync may name in a ref: letters, digits, `.`, `_` and `-`, at most 100. */
export function validOrigin(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(id) && !id.endsWith('.lock') && !id.includes('..');
}

/** A CI job's origin from its environment (`GATE_LADDER_ORIGIN` first); `undefined` outside CI. Pure. */
export function ciOrigin(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const clean = (s: string) =>
    s
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/\.{2,}/g, '.')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 100);
  if (env.GATE_LADDER_ORIGIN) return clean(env.GATE_LADDER_ORIGIN);
  if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_RUN_ID)
    return clean(`gha-${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT ?? '1'}-${env.GITHUB_JOB ?? 'job'}`);
  if (env.GITLAB_CI === 'true' && env.CI_JOB_ID) return clean(`gitlab-${env.CI_JOB_ID}`);
  return undefined;
}
