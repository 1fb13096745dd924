import { existsSync, mkdirSync, writeFileSync } from '../util/node.js';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { loadConfigCached } from '../config/config-cache.js';
import { repoInfo } from '../git/git.js';
import { defaultLedgerPath, type ReadStats } from '../ledger/ledger.js';
import { forEachTeamRow, readRefusals, teamTestsPath } from '../ledger/team.js';
import { ciOrigin } from '../ledger/identity.js';
import { mainReason, type Refusals } from '../ledger/row-check.js';
import { storedOriginId } from '../ledger/sync.js';
import { reportMsg } from '../report/messages.js';
import { teamMsg } from '../ledger/messages.js';
import { shown } from '../util/escape.js';
import { renderByOrigin, renderReport } from '../report/render.js';
import { renderHtml } from '../report/html.js';
import { type OriginFigures, originFold, reportFold, rowOrigin } from '../report/figures.js';
import { renderTestsSection, testsFold, type TestsSection } from '../report/tests-section.js';
import { type OrderEvaluation, orderEvalFold } from '../report/order-eval.js';
import { type HistoryState, testsPath } from '../evidence/history.js';
import { type HistoryRead, type TeamHistoryRead, readHistory, readTeamHistory } from '../evidence/history-store.js';
import { readFreezes } from '../verdict/tier-report-io.js';
import { today } from '../util/iso-time.js';
import type { FreezePolicy, HookName } from '../types.js';
import type { Report } from '../report/model.js';
import type { ResolvedConfig } from '../config/resolved.js';
import { EXIT } from '../config/defaults.js';

export interface ReportCommandOptions {
  cwd: string;
  /** Default: the config's `ledger`, else `<git common dir>/gate-ladder/ledger.jsonl`. */
  ledger?: string;
  since?: string;
  hook?: HookName;
  json?: boolean;
  markdown?: boolean;
  /** Write a self-contained HTML page to this file (relative to `cwd`); `''` for the default, `<git common dir>/gate-ladder/report.html`. */
  html?: string;
  /** Open the page in a browser (`$BROWSER`, else the platform's opener); implies `html`. */
  open?: boolean;
  /** This clone's rows only, not the team's fetched by `sync` (ignored with --ledger). */
  local?: boolean;
  /** Each origin's figures apart (this clone's, and each synced one's). */
  byOrigin?: boolean;
  /** Leave out the rows of these origins (a synced origin's id, or this clone's). */
  excludeOrigins?: readonly string[];
}

/** Where `--html` without a path writes outside a repository (with `--ledger`): the current folder. */
export const DEFAULT_HTML = 'gate-ladder-report.html';

/** Where `--html` without a path writes in a repository: beside the ledger under the git dir, never in the work tree. */
export const defaultHtmlPath = (commonDir: string) => join(commonDir, 'gate-ladder', 'report.html');
const DEFAULT_FREEZE: Required<FreezePolicy> = { minRuns: 20, minFlipRate: 0.02, maxExpiryDays: 90 };

const err = (line: string) => process.stderr.write(`${line}\n`);

/** What one pass over the ledger gathered: the report, the tests, the order evaluation, each origin's figures. */
interface Folded {
  report: Report;
  tests: ReturnType<typeof testsFold>;
  evaluation: OrderEvaluation;
  origins: OriginFigures[] | undefined;
  stats: ReadStats;
  refused: Refusals;
  /** Rows of the excluded origins left out. */
  left: number;
}

/** Streams the ledger through the report fold and prints it as a table, markdown or JSON. */
export async function reportCommand(opts: ReportCommandOptions): Promise<number> {
  const since = opts.since === undefined ? undefined : new Date(opts.since);
  if (opts.since !== undefined && Number.isNaN(since!.getTime())) {
    err(reportMsg.badSince(opts.since));
    return EXIT.error;
  }
  const info = repoInfo(opts.cwd);
  let config: ResolvedConfig | undefined;
  if (info !== null) {
    const loaded = await loadConfigCached(info.root, info.commonDir);
    if (loaded.kind === 'ok') config = loaded.config;
    if (loaded.kind === 'invalid') err(reportMsg.configIgnored(loaded.file, loaded.problems.length));
  }
  const ledger = ledgerPath(opts, info, config);
  if (ledger === undefined) return EXIT.error;
  // An explicit --ledger is that file alone; --local is this clone's rows, not the team's synced ones.
  const local = opts.local === true || opts.ledger !== undefined;
  const folded = await foldLedger(opts, ledger, local, since, info, config);
  if (folded === undefined) return EXIT.error;
  const { report, stats } = folded;
  // Per-test history beside the ledger (and the team's, once synced): the tests section, one model for every format.
  const history = testHistory(ledger, local);
  if (stats.skipped > 0) err(reportMsg.skippedLines(stats.skipped, ledger));
  if (stats.rows === 0) err(reportMsg.empty(ledger));
  else if (report.excluded.filtered === stats.rows) err(reportMsg.allFiltered(stats.rows));
  const section = testsSection(
    folded.tests,
    report.tiers.map((t) => t.tier),
    history,
    info?.root,
    config,
  );
  if (opts.html !== undefined || opts.open === true) return htmlReport(opts, info, ledger, folded, section);
  const exclude = opts.excludeOrigins ?? [];
  if (opts.json)
    process.stdout.write(
      `${JSON.stringify({ ...jsonReport(report, ledger), order_evaluation: folded.evaluation, tests: section, ...(folded.origins && { by_origin: folded.origins }), ...(!local && { refused_by_origin: folded.refused }), ...(exclude.length > 0 && { excluded_origins: [...new Set(exclude)], excluded_origin_rows: folded.left }) }, null, 2)}\n`,
    );
  else {
    const format = opts.markdown ? 'markdown' : 'table';
    process.stdout.write(
      renderReport(report, format, ledger) +
        (folded.origins ? renderByOrigin(folded.origins, format) : '') +
        orderEvalText(folded.evaluation) +
        renderTestsSection(section, opts.markdown === true),
    );
  }
  return EXIT.pass;
}

/** The ledger to read: `--ledger` (which must exist), the config's, else the default under the git dir; undefined (said) when there is none. */
function ledgerPath(opts: ReportCommandOptions, info: ReturnType<typeof repoInfo>, config: ResolvedConfig | undefined): string | undefined {
  if (opts.ledger !== undefined) {
    const ledger = resolve(opts.cwd, opts.ledger);
    // A path the user named that is not there is a mistake, not an empty ledger.
    if (existsSync(ledger)) return ledger;
    err(reportMsg.noSuchLedger(opts.ledger));
    return undefined;
  }
  if (info === null) {
    err(reportMsg.noLedger(opts.cwd));
    return undefined;
  }
  if (config?.ledger) return isAbsolute(config.ledger) ? config.ledger : join(info.root, config.ledger);
  return defaultLedgerPath(info.commonDir);
}

/** One pass over the ledger (and the team's rows unless `local`) through every fold; undefined (said) when it cannot be read. */
async function foldLedger(
  opts: ReportCommandOptions,
  ledger: string,
  local: boolean,
  since: Date | undefined,
  info: ReturnType<typeof repoInfo>,
  config: ResolvedConfig | undefined,
): Promise<Folded | undefined> {
  const fold = reportFold({
    ...(config && {
      tiers: config.tiers.map((t) => t.name),
      minAttempts: config.report.minAttempts,
      ladder: config.tiers
        .filter((t) => (opts.hook === undefined ? t.hooks.some((h) => h !== 'pre-commit') : t.hooks.includes(opts.hook)))
        .map((t) => t.name),
    }),
    ...(since && { since }),
    ...(opts.hook && { hook: opts.hook }),
  });
  const tests = testsFold({ ...(since && { since }), ...(opts.hook && { hook: opts.hook }) });
  // The predicted order against the fixed one, on the calibration runs in ledger order (report/order-eval.ts).
  const orderEval = orderEvalFold({
    ...(config && { tiers: config.tiers.map((t) => t.name) }),
    ...(config?.select && { select: config.select }),
  });
  const stats: ReadStats = { rows: 0, skipped: 0 };
  // Rows a sync did not stamp are this clone's: named as its syncs name them.
  const here = ciOrigin(process.env) ?? (info === null ? undefined : storedOriginId(info.commonDir)) ?? 'this-clone';
  const exclude = new Set(opts.excludeOrigins ?? []);
  const refused: Refusals = local ? {} : readRefusals(ledger);
  const split = opts.byOrigin === true ? originFold({ ...(since && { since }), ...(opts.hook && { hook: opts.hook }) }, here) : undefined;
  let left = 0;
  try {
    const counts = await forEachTeamRow(ledger, local, stats, (row) => {
      if (exclude.size > 0 && exclude.has(rowOrigin(row, here))) {
        left++;
        return;
      }
      fold.add(row);
      tests.add(row);
      if (inWindow(row, since, opts.hook)) orderEval.add(row);
      split?.add(row);
    });
    if (counts.team > 0) err(teamMsg.teamRead(counts.local, counts.team, counts.origins));
    if (exclude.size > 0) err(teamMsg.reportExcluded([...exclude].map(shown), left));
    for (const [from, r] of Object.entries(refused))
      if (!exclude.has(from)) err(teamMsg.reportRefused(shown(from), r.rows, shown(mainReason(r))));
  } catch (e) {
    err(reportMsg.unreadable(ledger, e instanceof Error ? e.message : String(e)));
    return undefined;
  }
  return {
    report: fold.finish(stats.skipped),
    tests,
    evaluation: orderEval.finish(),
    origins: split?.finish(Object.fromEntries(Object.entries(refused).filter(([o]) => !exclude.has(o)))),
    stats,
    refused,
    left,
  };
}

/** `--html`, `--open`: the page written (beside the ledger unless named) and, with `--open`, opened in a browser. */
async function htmlReport(
  opts: ReportCommandOptions,
  info: ReturnType<typeof repoInfo>,
  ledger: string,
  folded: Folded,
  section: TestsSection,
): Promise<number> {
  const named = opts.html !== undefined && opts.html !== '';
  const file = named ? resolve(opts.cwd, opts.html!) : info === null ? resolve(opts.cwd, DEFAULT_HTML) : defaultHtmlPath(info.commonDir);
  const page = renderHtml(folded.report, section, ledger, new Date().toISOString(), folded.evaluation);
  try {
    if (!named) mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, page);
  } catch (e) {
    err(reportMsg.htmlUnwritable(file, e instanceof Error ? e.message : String(e)));
    return EXIT.error;
  }
  err(reportMsg.htmlWritten(file, Buffer.byteLength(page), opts.open === true));
  if (opts.open === true) {
    // The page is written: whatever the browser does, the report did its part (exit 0).
    const { openPage } = await import('./open-page.js');
    const opened = await openPage(file, opts.cwd);
    err(
      opened.kind === 'opened'
        ? reportMsg.htmlOpened(file, opened.by)
        : opened.kind === 'none'
          ? reportMsg.noBrowser(file, process.env.BROWSER?.trim() ? process.env.BROWSER : undefined)
          : reportMsg.openFailed(file, opened.by, opened.why),
    );
  }
  return EXIT.pass;
}

/** Whether a row is inside `--since` and `--hook` (the report's own filter, for the order evaluation). */
function inWindow(row: { ts: string; hook: HookName }, since: Date | undefined, hook: HookName | undefined): boolean {
  if (hook !== undefined && row.hook !== hook) return false;
  return since === undefined || Date.parse(row.ts) >= since.getTime();
}

/** The order evaluation's short section of the text report. */
function orderEvalText(e: OrderEvaluation): string {
  return `\n${reportMsg.orderEvaluation(e).join('\n')}\n`;
}

/** This clone's per-test history and, unless `local`, the team's synced records (in time order when they can be). */
function testHistory(ledger: string, local: boolean): HistoryState {
  const read: HistoryRead & { order?: TeamHistoryRead['order'] } = local
    ? readHistory(testsPath(ledger))
    : readTeamHistory(testsPath(ledger), teamTestsPath(ledger));
  if (read.problem !== undefined) err(`gate-ladder: ${shown(read.problem)}; counting from ${shown(testsPath(ledger))} alone.`);
  if (read.logProblem !== undefined) err(`gate-ladder: ${shown(read.logProblem)}.`);
  if (read.order === 'team-after') err(teamMsg.teamAfter());
  return read.state;
}

/** Flaky, broken and frozen tests: from the per-test history and the repository's freezes file. */
function testsSection(
  fold: ReturnType<typeof testsFold>,
  tiers: string[],
  history: HistoryState,
  root: string | undefined,
  config: ResolvedConfig | undefined,
): TestsSection {
  const freezes = root === undefined ? { freezes: [] } : readFreezes(root);
  if (freezes.problem !== undefined) err(freezes.problem);
  return fold.finish(tiers, history, freezes.freezes, today(), config?.freeze ?? DEFAULT_FREEZE);
}

/** The documented keys first (`tiers`, `scope`, `advice`, `skipped_lines`), then the rest. */
function jsonReport(r: Report, ledger: string): Record<string, unknown> {
  const { tiers, scope, advice, skipped_lines, ...rest } = r;
  return { tiers, scope, advice, skipped_lines, ...rest, ledger };
}
