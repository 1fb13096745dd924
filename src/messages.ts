/** Every sentence gate-ladder says to its users, in one place. Each says the next step. */
import type { GateResult, OrderFigures, PairOverlap, Plan, Report, ScopeFigures, TierFigures } from './types.js';

const BYPASS = 'To push anyway: `git push --no-verify`, or `GATE_LADDER=0 git push`.';

export const msg = {
  bypassed: () => 'gate-ladder: GATE_LADDER=0, skipping every gate.',
  notRepo: (cwd: string) => `gate-ladder: ${cwd} is not inside a git work tree. Run it from a repository.`,
  noConfig: () =>
    'gate-ladder: no config found (gate-ladder.config.ts, .gate-ladderrc, or a "gate-ladder" key in package.json); nothing was checked. Create one with `npx gate-ladder install`.',
  invalidConfig: (problems: readonly string[]) =>
    [
      `gate-ladder: the config has ${problems.length} problem${problems.length === 1 ? '' : 's'}; no gate ran:`,
      ...problems.map((p) => `  - ${p}`),
      `Fix ${problems.length === 1 ? 'it' : 'them'} and try again (\`npx gate-ladder run --dry-run\` checks the config). ${BYPASS}`,
    ].join('\n'),
  badStdin: (lines: readonly string[]) =>
    `gate-ladder: ignoring ${lines.length} line(s) of pre-push input that are not "<local ref> <sha> <remote ref> <sha>": ${JSON.stringify(lines[0])}`,
  nothingToTest: (ref: string, why: string) => `gate-ladder: ${ref}: ${why}.`,
  rangeError: (ref: string, reason: string) =>
    `gate-ladder: push blocked: cannot tell what ${ref} changes: ${reason}. This says nothing about the patch. ${BYPASS}`,
  target: (ref: string, head: string, base: string, files: number) =>
    `gate-ladder: ${ref} at ${head.slice(0, 12)}: ${files} changed path${files === 1 ? '' : 's'} since ${base.slice(0, 12)}`,
  sameAs: (refs: readonly string[]) => `gate-ladder: ${refs.join(', ')} point${refs.length === 1 ? 's' : ''} at the same commit: tested once.`,
  routed: (tier: string, reason: string) => `gate-ladder: t0-scope skips ${tier}: ${reason}`,
  noTiers: () => 'gate-ladder: no tier runs for this change; allowed.',
  passed: (ref: string, tiers: number, seconds: number) =>
    `gate-ladder: ${ref}: ${tiers} tier${tiers === 1 ? '' : 's'} passed in ${seconds.toFixed(1)} s.`,
  caught: (ref: string, r: GateResult) =>
    `gate-ladder: push blocked: ${r.tier} caught a problem in ${ref} (exit ${r.exitCode}: a test failed). The patch is wrong: fix it, commit, and push again. ${BYPASS}`,
  error: (ref: string, r: GateResult, configFile: string) =>
    `gate-ladder: push blocked: ${r.tier} could not give a verdict on ${ref}: ${r.reason ?? 'harness error'}. This says nothing about the patch: the harness is broken. Fix the tier in ${configFile} or its environment, and try again. ${BYPASS}`,
  interrupted: () => 'gate-ladder: interrupted; the gates were stopped and the rows so far are in the ledger.',
  needBase: () =>
    'gate-ladder: no base to compare with. Pass `--base <rev>` (e.g. `--base origin/main`), or set `base` in the config.',
  badRev: (rev: string) => `gate-ladder: ${rev} is not a commit in this repository. Check the revision and try again.`,
  ledgerAt: (path: string) => `gate-ladder: ledger: ${path}`,
  calibrating: (rate: number) =>
    `gate-ladder: calibration run (config calibrate: ${rate}): every planned tier runs whatever the verdicts; its rows are flagged and never count in yield. Set calibrate to 0 to stop.`,
};

/** The plan as lines of text, for `--dry-run`. */
export function planLines(plan: Plan): string[] {
  const lines = [`  changed paths: ${plan.files.length}`];
  for (const hit of plan.hits.slice(0, 10)) lines.push(`  test-adjacent: ${hit.path} (matches ${hit.marker})`);
  if (plan.hits.length > 10) lines.push(`  test-adjacent: … and ${plan.hits.length - 10} more`);
  for (const t of plan.tiers) lines.push(`  ${t.run ? 'run ' : 'skip'} ${t.tier.name}${t.reason ? `: ${t.reason}` : ''}`);
  return lines;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const percent = (x: number) => `${Number((x * 100).toPrecision(3))} %`;
const chain = (tiers: readonly string[]) => ['t0-scope', ...tiers].join(' → ');

/** What `gate-ladder report` says: warnings on stderr, advice in the report. */
export const reportMsg = {
  empty: (path: string) =>
    `gate-ladder: the ledger ${path} has no rows yet. Every push writes rows once the hook is installed (\`npx gate-ladder install\`); \`npx gate-ladder run --base origin/main\` writes some now. Then run \`gate-ladder report\` again.`,
  allFiltered: (rows: number) =>
    `gate-ladder: none of the ledger's ${plural(rows, 'row')} match --since/--hook. Widen or drop the filter and run it again.`,
  skippedLines: (n: number, path: string) =>
    `gate-ladder: skipped ${plural(n, 'line')} of ${path}: blank, cut off mid-write, not JSON, or missing patch/tier/verdict/seconds. They are not counted; if the number grows, check what else writes to that file.`,
  badSince: (value: string) => `gate-ladder: --since "${value}" is not a date. Use a date such as 2025-01-31 or 2025-01-31T12:00:00Z.`,
  noLedger: (cwd: string) =>
    `gate-ladder: ${cwd} is not inside a git repository, so there is no default ledger. Pass \`--ledger PATH\`, or run it from the repository.`,
  unreadable: (path: string, why: string) => `gate-ladder: cannot read the ledger ${path}: ${why}. Check the path and its permissions, or pass another with --ledger.`,
  configIgnored: (file: string, problems: number) =>
    `gate-ladder: ${file} has ${plural(problems, 'problem')}; reporting tiers in ledger order with default thresholds. \`npx gate-ladder run --dry-run\` lists them.`,
  routedPast: (p: ScopeFigures['past'][number]) =>
    `routed ${plural(p.patches, 'patch', 'patches')} past ${p.tier}: saved ${p.saved_s ?? 'unknown (the tier has no runs)'} s (median ${p.median_s ?? '-'} s × ${p.patches})`,
  routedTotal: (s: ScopeFigures) => `${plural(s.patches, 'patch', 'patches')} routed; ${s.saved_s} s saved in all`,
  summary: (r: Report, ledger?: string) =>
    `${plural(r.rows, 'row')}${ledger ? ` from ${ledger}` : ''}; ${plural(r.attempts, 'patch attempt')} counted; ${plural(r.skipped_lines, 'line')} skipped`,
  excluded: (x: Report['excluded']) =>
    `not in the tier figures: ${x.calibration} calibration, ${x.cached} cached, ${x.seed} seed, ${x.not_applied} not applied, ${x.filtered} filtered out`,
  overlapHeading: (runs: number) => `calibration overlap (${plural(runs, 'calibration run')})`,
  pair: (p: PairOverlap) =>
    `${p.earlier} / ${p.later}: ${plural(p.patches, 'patch', 'patches')}; both caught ${p.both}, only ${p.earlier} ${p.only_earlier}, only ${p.later} ${p.only_later}, neither ${p.neither}`,
  noRoutes: () => 'routed no patch past any tier (a tier with `skipWhenTestAdjacent: true` is what it can route past)',
  noCalibration: () => 'no calibration runs yet: `gate-ladder run --calibrate` records one, config `calibrate: 0.1` samples one run in ten',
  tooFewAttempts: (attempts: number, min: number) =>
    `too few attempts: ratios are noise; choose the order by judgment and revisit. ${plural(attempts, 'patch attempt')} counted, fewer than ${min} (config report.minAttempts); every push adds one.`,
  shortFeedback: (tier: string, median: number, limit: number) =>
    `short-feedback suite: the ladder's overhead likely exceeds what ordering saves. The most expensive tier, ${tier}, has a median of ${median} s, under ${limit} s; consider one gate that runs everything.`,
  errors: (t: TierFigures) =>
    `${t.tier}: ${plural(t.errors, 'error')} in ${plural(t.runs, 'run')}, error rate ${percent(t.error_rate ?? 0)}, apart from its ${plural(t.caught, 'catch', 'catches')}: errors are harness trouble, not the patch. Read those rows' "reason" in the ledger and fix the tier's command or environment.`,
  decorative: (p: PairOverlap) =>
    `${p.earlier}: decorative: delete it rather than reorder. In ${plural(p.patches, 'calibration run')}, ${p.later} caught every patch ${p.earlier} caught (${p.both}) and ${p.only_later} more; ${p.earlier} caught none alone.`,
  contractCheck: (p: PairOverlap, limit: number) =>
    `${p.later}: buying a contract check, not bug detection: keep it, but it does not earn its minutes. In ${plural(p.patches, 'calibration run')} it caught ${p.only_later} that ${p.earlier} missed, of ${p.both + p.only_earlier + p.only_later} caught by either (both ${p.both}, only ${p.earlier} ${p.only_earlier}); the limit is ${limit} %.`,
  reorder: (o: OrderFigures) =>
    `reorder to ${chain(o.recommended)}: expected ${o.recommended_s} s per patch instead of ${o.current_s} s for ${chain(o.current)} (${ratios(o)}). Reorder \`tiers\` in the config.`,
  keepOrder: (o: OrderFigures) =>
    `keep the order ${chain(o.current)}: expected ${o.current_s} s per patch, and no order of these tiers is cheaper (${ratios(o)}).`,
};

function ratios(o: OrderFigures): string {
  const each = o.priced.map((t) => `${t.tier} ${t.mean_s} s ÷ ${t.p} = ${t.ratio ?? 'never catches'}`).join('; ');
  const unpriced = o.unranked.length > 0 ? `; not priced, no runs: ${o.unranked.join(', ')}` : '';
  return `mean seconds ÷ catch probability, ascending: ${each}${unpriced}; assumes tiers fail independently`;
}
