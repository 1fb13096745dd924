/** `gate-ladder sync [remote]`: share ledger rows through the git remote (src/ledger/sync.ts). */
import { ciOrigin, validOrigin } from '../ledger/identity.js';
import { mainReason } from '../ledger/row-check.js';
import { LEDGER_REFS, originId, syncLedger } from '../ledger/sync.js';
import { shown } from '../util/escape.js';
import { teamMsg } from '../ledger/messages.js';
import { err, loadContext } from './context.js';
import { EXIT } from '../config/defaults.js';

export interface SyncOptions {
  cwd: string;
  remote?: string;
  /** Default: GATE_LADDER_ORIGIN, the CI job's id, else this clone's stored id. */
  origin?: string;
  /** Add the rows of this origin's ref that the local ledger lacks (a lost or deleted ledger). */
  restore?: boolean;
}

export async function syncCommand(opts: SyncOptions): Promise<number> {
  const ctx = await loadContext(opts.cwd, false);
  if (typeof ctx === 'number') return ctx;
  const remote = opts.remote ?? 'origin';
  const origin = originId(ctx.commonDir, opts.origin ?? ciOrigin(process.env));
  if (!validOrigin(origin)) {
    err(teamMsg.badOrigin(shown(origin)));
    return EXIT.error;
  }
  const ref = `${LEDGER_REFS}${origin}`;
  const limits = { timeouts: new Map((ctx.config?.tiers ?? []).map((t) => [t.name, t.timeout] as const)), now: Date.now() };
  const r = await syncLedger({ root: ctx.root, ledger: ctx.ledger, tests: ctx.tests, commonDir: ctx.commonDir }, remote, origin, {
    restore: opts.restore === true,
    limits,
  });
  if (!r.ok) {
    const detail = shown(r.detail);
    err(
      r.stage === 'fetch'
        ? teamMsg.syncFetchFailed(shown(remote), detail)
        : r.stage === 'race'
          ? teamMsg.syncRace(shown(remote), ref, detail)
          : teamMsg.syncPushRefused(shown(remote), ref, detail),
    );
    return EXIT.error;
  }
  if (r.skipped > 0) err(teamMsg.syncSkipped(r.skipped));
  for (const [from, refused] of Object.entries(r.refused)) err(teamMsg.syncRefused(shown(from), refused.rows, shown(mainReason(refused))));
  if (r.notRestored > 0) err(teamMsg.syncNotRestored(r.notRestored, ref));
  if (opts.restore === true) err(teamMsg.syncRestored(r.restored, ref, shown(ctx.ledger), r.restoredSpan?.[0], r.restoredSpan?.[1]));
  err(teamMsg.synced(shown(remote), origin, r.pushed, r.restored, r.teamRows, r.origins));
  return EXIT.pass;
}
