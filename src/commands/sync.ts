/** `gate-ladder sync [remote]`: share ledger rows through the git remote (src/ledger/sync.ts). */
import { ciOrigin, validOrigin } from '../ledger/identity.js';
import { LEDGER_REFS, originId, syncLedger } from '../ledger/sync.js';
import { shown } from '../util/escape.js';
import { teamMsg } from '../util/messages.js';
import { err, loadContext } from './context.js';
import { EXIT } from './run.js';

export interface SyncOptions {
  cwd: string;
  remote?: string;
  /** Default: GATE_LADDER_ORIGIN, the CI job's id, else this clone's stored id. */
  origin?: string;
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
  const r = await syncLedger({ root: ctx.root, ledger: ctx.ledger, tests: ctx.tests, commonDir: ctx.commonDir }, remote, origin);
  if (!r.ok) {
    const detail = shown(r.detail);
    err(r.stage === 'fetch' ? teamMsg.syncFetchFailed(shown(remote), detail) : teamMsg.syncPushRefused(shown(remote), `${LEDGER_REFS}${origin}`, detail));
    return EXIT.error;
  }
  if (r.skipped > 0) err(teamMsg.syncSkipped(r.skipped));
  err(teamMsg.synced(shown(remote), origin, r.pushed, r.recovered, r.teamRows, r.origins));
  return EXIT.pass;
}
