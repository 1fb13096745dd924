import { isAbsolute, join, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import { repoInfo } from '../git/git.js';
import { defaultLedgerPath, forEachRow, type ReadStats } from '../ledger/ledger.js';
import { reportMsg } from '../util/messages.js';
import { renderReport } from '../report/render.js';
import { reportFold } from '../report/figures.js';
import { renderTestsSection, testsFold, type TestsSection } from '../report/tests-section.js';
import { testsPath } from '../evidence/history.js';
import { readHistory } from '../evidence/history-store.js';
import { readFreezes, today } from '../ladder/tier-report-io.js';
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
  if (opts.ledger !== undefined) ledger = resolve(opts.cwd, opts.ledger);
  else if (info === null) {
    err(reportMsg.noLedger(opts.cwd));
    return EXIT.error;
  } else if (config?.ledger) ledger = isAbsolute(config.ledger) ? config.ledger : join(info.root, config.ledger);
  else ledger = defaultLedgerPath(info.commonDir);

  const fold = reportFold({
    ...(config && { tiers: config.tiers.map((t) => t.name), minAttempts: config.report.minAttempts }),
    ...(since && { since }),
    ...(opts.hook && { hook: opts.hook }),
  });
  const tests = testsFold({ ...(since && { since }), ...(opts.hook && { hook: opts.hook }) });
  const stats: ReadStats = { rows: 0, skipped: 0 };
  try {
    await forEachRow(ledger, stats, (row) => {
      fold.add(row);
      tests.add(row);
    });
  } catch (e) {
    err(reportMsg.unreadable(ledger, e instanceof Error ? e.message : String(e)));
    return EXIT.error;
  }
  const report = fold.finish(stats.skipped);
  if (stats.skipped > 0) err(reportMsg.skippedLines(stats.skipped, ledger));
  if (stats.rows === 0) err(reportMsg.empty(ledger));
  else if (report.excluded.filtered === stats.rows) err(reportMsg.allFiltered(stats.rows));

  const section = testsSection(tests, report.tiers.map((t) => t.tier), ledger, info?.root, config);
  if (opts.json) process.stdout.write(`${JSON.stringify({ ...jsonReport(report, ledger), tests: section }, null, 2)}\n`);
  else process.stdout.write(renderReport(report, opts.markdown ? 'markdown' : 'table', ledger) + renderTestsSection(section, opts.markdown === true));
  return EXIT.pass;
}

/** Flaky, broken and frozen tests: from the per-test history beside the ledger and the repository's freezes file. */
function testsSection(fold: ReturnType<typeof testsFold>, tiers: string[], ledger: string, root: string | undefined, config: ResolvedConfig | undefined): TestsSection {
  const history = readHistory(testsPath(ledger));
  const freezes = root === undefined ? { freezes: [] } : readFreezes(root);
  if (freezes.problem !== undefined) err(freezes.problem);
  return fold.finish(tiers, history.state, freezes.freezes, today(), config?.freeze.minRuns ?? 20);
}

/** The documented keys first (`tiers`, `scope`, `advice`, `skipped_lines`), then the rest. */
function jsonReport(r: Report, ledger: string): Record<string, unknown> {
  const { tiers, scope, advice, skipped_lines, ...rest } = r;
  return { tiers, scope, advice, skipped_lines, ...rest, ledger };
}
