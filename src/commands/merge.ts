/** `gate-ladder merge <ledgers...> [--into FILE]`: shard ledgers into this repository's ledger, each row once. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { mergeLedgers } from '../ledger/merge.js';
import { teamMsg } from '../util/messages.js';
import { escapeControl } from '../util/escape.js';
import { err, loadContext, out } from './context.js';
import { EXIT } from './run.js';

export interface MergeOptions {
  cwd: string;
  files: string[];
  into?: string;
}

export async function mergeCommand(opts: MergeOptions): Promise<number> {
  if (opts.files.length === 0) {
    err(teamMsg.mergeNoFiles());
    return EXIT.error;
  }
  const files = opts.files.map((f) => resolve(opts.cwd, f));
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length > 0) {
    err(teamMsg.mergeMissing(missing.map(escapeControl)));
    return EXIT.error;
  }
  let into: string;
  if (opts.into !== undefined) into = resolve(opts.cwd, opts.into);
  else {
    const ctx = await loadContext(opts.cwd, false);
    if (typeof ctx === 'number') return ctx;
    into = ctx.ledger;
  }
  try {
    const result = await mergeLedgers(files.filter((f) => resolve(f) !== resolve(into)), into);
    for (const s of result.sources) err(teamMsg.mergeSource(escapeControl(s.file), s.rows, s.added, s.duplicates, s.skipped));
    out(teamMsg.merged(result.added, escapeControl(into)));
    return EXIT.pass;
  } catch (e) {
    err(teamMsg.mergeFailed(escapeControl(into), e instanceof Error ? e.message : String(e)));
    return EXIT.error;
  }
}
