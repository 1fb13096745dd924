/** What the report and a CI job's summary say. Each sentence says the next step. */
import type { OrderFigures, PairOverlap, RateFigures, Report, ScopeFigures, SeedFigures, TierFigures } from './model.js';
import { shown } from '../util/escape.js';
import { plural } from '../util/messages.js';

const percent = (x: number) => `${Number((x * 100).toPrecision(3))} %`;

/** The ladder as text, t0-scope first (once: a tier may itself be named t0-scope). */
const chain = (tiers: readonly string[]) => (tiers.includes('t0-scope') ? tiers : ['t0-scope', ...tiers]).map(shown).join(' → ');

/** What `gate-ladder report` says: warnings on stderr, advice in the report. */
export const reportMsg = {
  /** The report's section on the order: predicted against fixed on the calibration runs (report/order-eval.ts; fields as `order_evaluation`). */
  orderEvaluation: (e: {
    patches: number;
    catching_patches: number;
    reason?: string;
    fixed?: { median_seconds_to_first_catch: number | null; mean_apfdc: number | null; missed: number };
    predicted?: { median_seconds_to_first_catch: number | null; mean_apfdc: number | null; missed: number };
    ratio?: number | null;
    select?: { risk: number; missed: number; seconds_saved: number; tiers_skipped: number } | null;
    left_out_errors?: number;
  }): string[] => {
    const head = 'Order: predicted against fixed, on the calibration runs in time order (each predicted from the rows before it)';
    if (e.patches === 0) return [head, `  not evaluated: ${e.reason ?? 'no calibration run'}`];
    const secs = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${x} s`);
    const side = (name: string, x: NonNullable<typeof e.fixed>) =>
      `  ${name.padEnd(9)} median to first catch ${secs(x.median_seconds_to_first_catch)}, mean APFDc ${x.mean_apfdc ?? '-'}, catches missed ${x.missed}`;
    const lines = [
      head,
      `  ${plural(e.patches, 'patch', 'patches')} evaluated, ${e.catching_patches} caught${e.left_out_errors ? ` (${plural(e.left_out_errors, 'run')} with an error left out)` : ''}`,
      side('fixed', e.fixed!),
      side('predicted', e.predicted!),
      `  ratio (predicted ÷ fixed median): ${e.ratio ?? '-'}${e.ratio !== null && e.ratio !== undefined && e.ratio < 1 ? " (below 1: the predicted order reaches catches sooner; config `order: 'predicted'` runs it)" : ''}`,
    ];
    if (e.select)
      lines.push(
        `  select (risk ${e.select.risk}): ${plural(e.select.tiers_skipped, 'tier run')} skipped, ${e.select.seconds_saved} s saved, catches missed ${e.select.missed}${e.select.missed > 0 ? ' (lower the risk, or remove `select`)' : ''}`,
      );
    return lines;
  },
  empty: (path: string) =>
    `gate-ladder: the ledger ${shown(path)} has no rows yet. Every push writes rows once the hook is installed (\`npx gate-ladder install\`); \`npx gate-ladder run --base origin/main\` writes some now. Then run \`gate-ladder report\` again.`,
  allFiltered: (rows: number) =>
    `gate-ladder: none of the ledger's ${plural(rows, 'row')} match --since/--hook. Widen or drop the filter and run it again.`,
  skippedLines: (n: number, path: string) =>
    `gate-ladder: skipped ${plural(n, 'line')} of ${shown(path)}: blank, cut off mid-write, not JSON, or missing patch/tier/verdict/seconds (or seconds no run could take: negative, or past 2^31). They are not counted; if the number grows, check what else writes to that file.`,
  badSince: (value: string) =>
    `gate-ladder: --since "${shown(value)}" is not a date. Use a date such as 2025-01-31 or 2025-01-31T12:00:00Z.`,
  noLedger: (cwd: string) =>
    `gate-ladder: ${cwd} is not inside a git repository, so there is no default ledger. Pass \`--ledger PATH\`, or run it from the repository.`,
  unreadable: (path: string, why: string) =>
    `gate-ladder: cannot read the ledger ${path}: ${why}. Check the path and its permissions, or pass another with --ledger.`,
  noSuchLedger: (path: string) =>
    `gate-ladder: --ledger ${path}: no such file. Check the path (without --ledger, the report reads the repository's own ledger).`,
  configIgnored: (file: string, problems: number) =>
    `gate-ladder: ${shown(file)} has ${plural(problems, 'problem')}; reporting tiers in ledger order with default thresholds. \`npx gate-ladder run --dry-run\` lists them.`,
  routedPast: (p: ScopeFigures['past'][number]) =>
    `routed ${plural(p.patches, 'patch', 'patches')} past ${shown(p.tier)}: saved ${p.saved_s ?? 'unknown (the tier has no runs)'} s (median ${p.median_s ?? '-'} s × ${p.patches})`,
  routedTotal: (s: ScopeFigures) => `${plural(s.patches, 'patch', 'patches')} routed; ${s.saved_s} s saved in all`,
  summary: (r: Report, ledger?: string) =>
    `${plural(r.rows, 'row')}${ledger ? ` from ${shown(ledger)}` : ''}; ${plural(r.attempts, 'patch attempt')} counted; ${plural(r.skipped_lines, 'line')} skipped`,
  rate: (r: RateFigures) =>
    r.first === null
      ? 'no dated rows: no monthly rate'
      : `${r.per_month} patch attempts a month (${r.attempts} from ${r.first} to ${r.last}, ${r.months} ${r.months === 1 ? 'month' : 'months'})`,
  excluded: (x: Report['excluded'], countedCalibration = 0) =>
    `not in the tier figures: ${x.calibration} calibration rows past their run's first non-pass (${countedCalibration} before it are counted as the ladder run), ${x.cached} cached, ${x.seed} seed, ${x.not_applied} not applied, ${x.not_applicable} not applicable, ${x.filtered} filtered out`,
  errorCauses: (e: Report['errors']) =>
    `errors: ${e.patch} caused by the patches (a file the patch changed cannot load, or the patch removed the tier's script), ${e.harness} of the harness (the tier, its config or what it needs); the tier figures count both as errors`,
  retired: (names: readonly string[]) =>
    `${names.join(', ')}: not in the config any more; listed apart and left out of the order and the advice`,
  orderMethod: (o: OrderFigures) =>
    o.method === 'calibration'
      ? `exact: ${plural(o.calibration_runs, 'calibration run')} replayed under each order, each stopping at its first non-pass`
      : "estimated: each tier's mean seconds and catch rate, assuming tiers fail independently (no calibration run covers every tier; `gate-ladder run --calibrate` records one)",
  orderLine: (label: string, tiers: readonly string[], seconds: number | null) =>
    `${label}: ${chain(tiers)}: ${seconds ?? '-'} s per patch`,
  trendHeading: (unit: string) => `over time (per ${unit}: runs, caught, yield per second)`,
  seedsLine: (s: SeedFigures) =>
    `${plural(s.runs, 'seeded bug')}: ${s.caught} caught by some tier, ${s.runs - s.caught} escaped every tier`,
  seedTier: (t: SeedFigures['tiers'][number]) =>
    `${t.tier}: caught ${t.caught} of the ${plural(t.runs, 'seeded bug')} it ran on${t.errors ? ` (${plural(t.errors, 'error')})` : ''}`,
  seedCaughtByTiers: (tiers: readonly string[]) =>
    `gate-ladder: the seeded bug was caught by ${tiers.join(', ')}; no test was named (no \`junit\` report), so no per-test evidence was recorded. \`gate-ladder report\` counts the catch per tier; add \`junit\` to a tier to credit its tests.`,
  htmlWritten: (file: string, bytes: number, opening = false) =>
    `gate-ladder: wrote ${shown(file)} (${Math.max(1, Math.round(bytes / 1024))} KB, self-contained: it loads nothing from the network).${opening ? '' : ' Open it in a browser (`gate-ladder report --open` does), or keep it as a CI artifact.'}`,
  htmlUnwritable: (file: string, why: string) =>
    `gate-ladder: cannot write ${shown(file)}: ${shown(why)}. Pass another path: \`gate-ladder report --html PATH\`.`,
  htmlOpened: (file: string, by: string) => `gate-ladder: opened ${shown(file)} with ${shown(by)}.`,
  /** `--open` found no browser: the page is written all the same. */
  noBrowser: (file: string, browser?: string) =>
    `gate-ladder: no browser to open the page: ${browser === undefined ? 'BROWSER is not set and no xdg-open, open or start was found' : `$BROWSER (${shown(browser)}) names no command found here`}. Open ${shown(file)} in a browser yourself, or set BROWSER to one (e.g. \`BROWSER=firefox gate-ladder report --open\`).`,
  openFailed: (file: string, by: string, why: string) =>
    `gate-ladder: ${shown(by)} could not open the page (${shown(why)}). Open ${shown(file)} in a browser yourself, or set BROWSER to one (e.g. \`BROWSER=firefox gate-ladder report --open\`).`,
  noSeeds: () => 'no seeded bugs yet: `gate-ladder seed <commit>` runs a known-bad change through every tier',
  overlapHeading: (runs: number) => `calibration overlap (${plural(runs, 'calibration run')})`,
  pair: (p: PairOverlap) =>
    `${shown(p.earlier)} / ${shown(p.later)}: ${plural(p.patches, 'patch', 'patches')}; both caught ${p.both}, only ${shown(p.earlier)} ${p.only_earlier}, only ${shown(p.later)} ${p.only_later}, neither ${p.neither}`,
  noRoutes: () => 'routed no patch past any tier (a tier with `skipWhenTestAdjacent: true` is what it can route past)',
  noCalibration: () => 'no calibration runs yet: `gate-ladder run --calibrate` records one, config `calibrate: 0.1` samples one run in ten',
  tooFewAttempts: (r: RateFigures, min: number) =>
    `too few attempts: ratios are noise; choose the order by judgment and revisit. ${r.per_month} patch attempts a month (${r.attempts} in ${r.months} ${r.months === 1 ? 'month' : 'months'}), fewer than ${min} a month (config report.minAttempts); every push adds one.`,
  shortFeedback: (tier: string, median: number, limit: number) =>
    `short-feedback suite: the ladder's overhead likely exceeds what ordering saves. The most expensive tier, ${shown(tier)}, has a median of ${median} s, under ${limit} s; consider one gate that runs everything.`,
  errors: (t: TierFigures) =>
    `${shown(t.tier)}: ${plural(t.errors, 'error')} in ${plural(t.runs, 'run')}${(t.patch_errors ?? 0) > 0 ? ` (${t.errors - t.patch_errors!} of the harness, ${t.patch_errors} caused by the patches)` : ''}, error rate ${percent(t.error_rate ?? 0)}, apart from its ${plural(t.caught, 'catch', 'catches')}: errors of the harness are trouble with the tier, not the patch. Read those rows' "reason" in the ledger and fix the tier's command or environment.`,
  decorative: (p: PairOverlap) =>
    `${shown(p.earlier)}: decorative: delete it rather than reorder. In ${plural(p.patches, 'calibration run')}, ${shown(p.later)} caught every patch ${shown(p.earlier)} caught (${p.both}) and ${p.only_later} more; ${shown(p.earlier)} caught none alone.`,
  contractCheck: (p: PairOverlap, limit: number) =>
    `${p.later}: buying a contract check, not bug detection: keep it, but it does not earn its minutes. In ${plural(p.patches, 'calibration run')} it caught ${p.only_later} that ${p.earlier} missed, of ${p.both + p.only_earlier + p.only_later} caught by either (both ${p.both}, only ${p.earlier} ${p.only_earlier}); the limit is ${limit} %.`,
  contractCheckLadder: (t: TierFigures, limit: number) =>
    `${t.tier}: buying a contract check, not bug detection: keep it, but it does not earn its minutes. Reached by ${plural(t.runs, 'patch', 'patches')}, it caught ${t.caught} (${percent(t.caught / t.runs)}); the limit is ${limit} %.`,
  reorder: (o: OrderFigures) =>
    `reorder to ${chain(o.recommended)}: expected ${o.recommended_s} s per patch instead of ${o.current_s} s for ${chain(o.current)} (${ratios(o)}). Reorder \`tiers\` in the config.`,
  keepOrder: (o: OrderFigures) =>
    `keep the order ${chain(o.current)}: expected ${o.current_s} s per patch, and no order of these tiers is cheaper (${ratios(o)}).`,
};

function ratios(o: OrderFigures): string {
  const unpriced = o.unranked.length > 0 ? `; not priced, no runs: ${o.unranked.join(', ')}` : '';
  if (o.method === 'calibration') return `${reportMsg.orderMethod(o)}${unpriced}`;
  const each = o.priced.map((t) => `${t.tier} ${t.mean_s} s ÷ ${t.p} = ${t.ratio ?? 'never catches'}`).join('; ');
  return `mean seconds ÷ catch probability, ascending: ${each}${unpriced}; assumes tiers fail independently (no calibration run covers every tier)`;
}

/** `gate-ladder ci` (issue 18, point 3): the range a CI job judges, and what stops it from judging one. */
export const ciMsg = {
  howFlags: (ci: 'github' | 'gitlab' | 'none') =>
    `--base/--head${ci === 'none' ? '' : ` (the ${ci === 'github' ? 'GitHub' : 'GitLab'} event is not read)`}`,
  howNoCi: () =>
    'not in GitHub Actions or GitLab CI: HEAD against the config `base` (else origin/HEAD, origin/main or origin/master, else the upstream of the branch); pass --base/--head to choose',
  howPullRequest: (event: string, n: number | undefined) =>
    `GitHub ${event} event${n === undefined ? '' : ` #${n}`}: its head against its base`,
  howMergeGroup: () => 'GitHub merge_group event: the queued merge against its base',
  howGithubPush: () => 'GitHub push event: after against before',
  howGitlabMr: (iid: string | undefined) => `GitLab merge request${iid ? ` !${iid}` : ''}: its head against its diff base`,
  howGitlabPush: () => 'GitLab push pipeline: CI_COMMIT_SHA against CI_COMMIT_BEFORE_SHA',
  howNewBranch: (what: string, main: string) => `${what} of a new branch: against its merge-base with origin/${main}`,
  howLastCommit: (what: string, head: string) =>
    `${what} names no range: the last commit (${head === 'HEAD' ? 'HEAD' : head.slice(0, 12)}~1..); pass --base/--head to choose`,
  noEvent: (event: string, where: string) =>
    `this is a ${event} event, but ${where}, so its range is unknown. Pass the range yourself: \`gate-ladder ci --base <sha> --head <sha>\`.`,
  malformed: (event: string, fields: string) =>
    `the ${event} event payload has no ${fields}, so its range is unknown. Pass the range yourself: \`gate-ladder ci --base <sha> --head <sha>\`.`,
  gitlabMrVars: () =>
    'a merge request pipeline without CI_MERGE_REQUEST_DIFF_BASE_SHA and CI_COMMIT_SHA: is the job limited to `rules: - if: $CI_PIPELINE_SOURCE == "merge_request_event"`? Otherwise pass `--base <sha> --head <sha>`.',
  deleted: (ref: string) => `the push deleted ${ref}: no commit to judge`,

  problem: (message: string) => `gate-ladder: ci: ${shown(message)}`,
  nothing: (why: string) => `gate-ladder: ci: ${shown(why)}; nothing checked.`,
  judging: (how: string, base: string | undefined, head: string) =>
    `gate-ladder: ci: ${shown(how)}: judging ${shown(head.length === 40 ? head.slice(0, 12) : head)}${base === undefined ? '' : ` against ${shown(base.length === 40 ? base.slice(0, 12) : base)}`}.`,
  /** A commit of the range is not in the clone: a shallow checkout, or a ref never fetched. */
  missing: (what: 'base' | 'head', rev: string, ci: 'github' | 'gitlab' | 'none', shallow: boolean, isBranch: boolean) =>
    `gate-ladder: ci: cannot judge: the ${what} ${shown(rev)} is not in this clone${shallow ? ' (a shallow clone)' : ''}. ${
      isBranch
        ? `Fetch it first (\`git fetch origin ${shown(rev.replace(/^origin\//, ''))}\`)${ci === 'github' ? ', or give actions/checkout `fetch-depth: 0`, which fetches every branch' : ''}.`
        : shallow
          ? ci === 'github'
            ? 'Give the actions/checkout step `with: fetch-depth: 0` (docs/ci.md), or run `git fetch --unshallow` before gate-ladder.'
            : ci === 'gitlab'
              ? "Set `GIT_DEPTH: 0` in the job's `variables:` (docs/ci.md), or run `git fetch --unshallow` (or `git fetch --deepen=<n>`) before gate-ladder."
              : 'Run `git fetch --unshallow` (or `git fetch --deepen=<n>`) first.'
          : `A force push or a deleted branch can leave it unreachable: fetch it (\`git fetch origin ${shown(rev)}\`) or pass \`--base <rev>\` yourself.`
    } This is not a verdict on the patch.`,
  eventUnreadable: (path: string, why: string) => `${shown(path)} cannot be read (${shown(why)})`,
  noEventPath: () => 'GITHUB_EVENT_PATH is not set',
  reproduce: (base: string, head: string) =>
    `gate-ladder: ci: to see it on your machine: \`npx gate-ladder run --base ${shown(base)} --head ${shown(head)}\``,
  annotationsLeft: (left: number, limit: number) =>
    `gate-ladder: ci: ${plural(left, 'more failed test')} not annotated (GitHub shows ${limit} error annotations a step); the step summary and the log above list them.`,
  /** Annotations (raw text: the annotation writer escapes it). */
  caughtAnnotation: (tier: string, exit: number | null, reason?: string) => ({
    title: `gate-ladder: ${tier} caught a problem`,
    message: `${tier} exited ${exit}: a test failed.${reason ? ` ${reason}` : ''} The job's log has its output.`,
  }),
  /** An error the patch caused: the file it changed cannot load, or its package.json lost the script or names a missing command. */
  patchErrorAnnotation: (tier: string, file: string, reason?: string, script?: string, command?: string, stopped?: boolean) => ({
    title: `gate-ladder: ${tier}: the patch broke ${file}`,
    message: `${reason ?? 'harness error'}. ${
      stopped === true
        ? `The code under test ended the test process before its tests reported; ${file}, which the patch changed, is the likely place.`
        : script !== undefined
          ? `The patch took the "${script}" script the tier runs out of ${file}.`
          : command !== undefined
            ? `${file}'s scripts now run \`${command}\`, a command not found here.`
            : `${file}, which the patch changed, cannot load.`
    } Fix ${file}, then push again.`,
  }),
  errorAnnotation: (tier: string, reason?: string) => ({
    title: `gate-ladder: ${tier} could not give a verdict`,
    message: `${reason ?? 'harness error'}. This is not a verdict on the patch: the check itself did not complete.`,
  }),
  summaryWritten: (file: string) => `gate-ladder: ci: wrote the verdicts and figures to ${shown(file)}.`,
  summaryUnwritable: (file: string, why: string) =>
    `gate-ladder: ci: cannot append the summary to ${shown(file)} (${shown(why)}); the verdicts stand. Check the path (GITHUB_STEP_SUMMARY or --summary).`,
  summaryNotRegular: () => 'it is not a regular file (a FIFO, a socket or a device?), so nothing was written to it',
};
