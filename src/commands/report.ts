import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import { repoInfo } from '../git/git.js';
import { defaultLedgerPath, forEachRow, type ReadStats } from '../ledger/ledger.js';
import { reportMsg } from '../util/messages.js';
import { renderReport } from '../report/render.js';
import { reportFold } from '../report/figures.js';
import type { HookName, Report, ResolvedConfig } from '../types.js';
import { EXIT } from './run.js';

export interface ReportCommandOptions {
  cwd: string;
  /** Default: the config's `ledger`, else `<git common dir>/gate-ladder/ledger.jsonl`. */
  ledger?: string;
  since?: string;
  hook?: HookName;
  json?: boolean;
  markdown?: boolean;
}

const err = (line: string) => process.stderr.write(`${line}\n`);

/** Streams the ledger through the report fold and prints it as a table, markdown or JSON. */
export async function reportCommand(opts: ReportCommandOptions): Promise<number> {
  let since: Date | undefined;
  if (opts.since !== undefined) {
    since = new Date(opts.since);
    if (Number.isNaN(since.getTime())) {
      err(reportMsg.badSince(opts.since));
      return EXIT.error;
    }
  }
  const info = repoInfo(opts.cwd);
  let config: ResolvedConfig | undefined;
  if (info !== null) {
    const loaded = await loadConfig(info.root);
    if (loaded.kind === 'ok') config = loaded.config;
    if (loaded.kind === 'invalid') err(reportMsg.configIgnored(loaded.file, loaded.problems.length));
  }
  let ledger: string;
  if (opts.ledger !== undefined) {
    ledger = resolve(opts.cwd, opts.ledger);
    // A path the user named that is not there is a mistake, not an empty ledger.
    if (!existsSync(ledger)) {
      err(reportMsg.noSuchLedger(opts.ledger));
      return EXIT.error;
    }
  } else if (info === null) {
    err(reportMsg.noLedger(opts.cwd));
    return EXIT.error;
  } else if (config?.ledger) ledger = isAbsolute(config.ledger) ? config.ledger : join(info.root, config.ledger);
  else ledger = defaultLedgerPath(info.commonDir);

  const fold = reportFold({
    ...(config && { tiers: config.tiers.map((t) => t.name), minAttempts: config.report.minAttempts }),
    ...(since && { since }),
    ...(opts.hook && { hook: opts.hook }),
  });
  const stats: ReadStats = { rows: 0, skipped: 0 };
  try {
    await forEachRow(ledger, stats, fold.add);
  } catch (e) {
    err(reportMsg.unreadable(ledger, e instanceof Error ? e.message : String(e)));
    return EXIT.error;
  }
  const report = fold.finish(stats.skipped);
  if (stats.skipped > 0) err(reportMsg.skippedLines(stats.skipped, ledger));
  if (stats.rows === 0) err(reportMsg.empty(ledger));
  else if (report.excluded.filtered === stats.rows) err(reportMsg.allFiltered(stats.rows));

  if (opts.json) process.stdout.write(`${JSON.stringify(jsonReport(report, ledger), null, 2)}\n`);
  else process.stdout.write(renderReport(report, opts.markdown ? 'markdown' : 'table', ledger));
  return EXIT.pass;
}

/** The documented keys first (`tiers`, `scope`, `advice`, `skipped_lines`), then the rest. */
function jsonReport(r: Report, ledger: string): Record<string, unknown> {
  const { tiers, scope, advice, skipped_lines, ...rest } = r;
  return { tiers, scope, advice, skipped_lines, ...rest, ledger };
}
