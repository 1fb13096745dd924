/** `gate-ladder merge <ledgers...> [--into FILE]`: shard ledgers into this repository's ledger, each row once. */
import { existsSync, statSync } from '../util/node.js';
import { resolve } from 'node:path';
import { mergeLedgers } from '../ledger/merge.js';
import { teamMsg } from '../ledger/messages.js';
import { shown } from '../util/escape.js';
import { err, loadContext, out } from './context.js';
import { EXIT } from '../config/defaults.js';

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
    err(teamMsg.mergeMissing(missing.map(shown)));
    return EXIT.error;
  }
  // A folder (a CI artifact's) or a FIFO among the inputs is said as such, before anything is written:
  // reading it would fail inside the merge, where it would read as a fault of the ledger merged into.
  const notFiles = files.filter((f) => statSync(f, { throwIfNoEntry: false })?.isFile() !== true);
  if (notFiles.length > 0) {
    err(teamMsg.mergeNotFiles(notFiles.map(shown)));
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
    const result = await mergeLedgers(
      files.filter((f) => resolve(f) !== resolve(into)),
      into,
    );
    for (const s of result.sources) err(teamMsg.mergeSource(shown(s.file), s.rows, s.added, s.duplicates, s.skipped));
    out(teamMsg.merged(result.added, shown(into)));
    return EXIT.pass;
  } catch (e) {
    err(teamMsg.mergeFailed(shown(into), e instanceof Error ? e.message : String(e)));
    return EXIT.error;
  }
}
