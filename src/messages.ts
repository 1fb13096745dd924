/** Every sentence gate-ladder says to its users, in one place. Each says the next step. */
import type { GateResult, Plan } from './types.js';

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
  cachedPass: (ref: string, tiers: readonly string[], tree: string, runs: readonly string[]) =>
    `gate-ladder: ${ref}: tree ${tree.slice(0, 12)} already passed ${tiers.join(', ')} under this config (run ${[...new Set(runs)].join(', ')}); no gate ran. \`gate-ladder run --no-cache\` runs them anyway.`,
  wouldReuse: (runs: readonly string[]) =>
    `  cached: this tree already passed every planned tier (run ${[...new Set(runs)].join(', ')}); no gate would run (--no-cache to force)`,
};

/** The plan as lines of text, for `--dry-run`. */
export function planLines(plan: Plan): string[] {
  const lines = [`  changed paths: ${plan.files.length}`];
  for (const hit of plan.hits.slice(0, 10)) lines.push(`  test-adjacent: ${hit.path} (matches ${hit.marker})`);
  if (plan.hits.length > 10) lines.push(`  test-adjacent: … and ${plan.hits.length - 10} more`);
  for (const t of plan.tiers) lines.push(`  ${t.run ? 'run ' : 'skip'} ${t.tier.name}${t.reason ? `: ${t.reason}` : ''}`);
  return lines;
}
