import { DEFAULT_TIMEOUT_S, SEARCH_PLACES, defaultScope } from '../config/defaults.js';
import { RUNNER_NAMES, runnerCaught } from '../config/runner-names.js';

/** Every config field, one line each (the README's table, for the terminal). */
const FIELDS: readonly (readonly [string, string])[] = [
  ['tiers', 'the gates, cheapest first (required); each tier:'],
  ['  name', 'unique name, stored in the ledger (required)'],
  [
    '  run',
    'a command string (run by /bin/sh -c, like an npm script) or an argv array (no shell); required unless lintStaged; {changed} or {changed:GLOB} in it: the changed paths, one argument each (docs/config.md)',
  ],
  ['  lintStaged', 'instead of run: lint-staged on the staged files (pre-commit only); true, or lint-staged options'],
  ['  timeout', `seconds before the gate's process tree is killed and the tier is an error (default ${DEFAULT_TIMEOUT_S})`],
  ['  env, cwd', 'extra environment; working directory relative to the repository root'],
  [
    '  caught',
    `exit codes that mean "a test failed" (default [1]; ${RUNNER_NAMES.flatMap((n) => {
      const codes = runnerCaught(n);
      return codes?.length === 1 ? [`${n} [${codes.join(', ')}]`] : [];
    }).join(', ')})`,
  ],
  ['  skipWhenTestAdjacent', 'skip this tier when t0-scope finds a test-adjacent path (default false)'],
  [
    '  paths',
    "run this tier only when a changed path matches one of these globs (repo-relative; '!glob' leaves out), e.g. ['src/**', 'package.json']",
  ],
  ['  hooks', "pre-push, pre-commit, manual, replay, seed (default all but pre-commit; ['pre-commit'] for lintStaged)"],
  ['  runner', `${RUNNER_NAMES.join(', ')}: exit codes and reports`],
  ['  junit', 'where the gate writes a JUnit XML report (relative to cwd)'],
  ['scope', 'test-adjacent path globs; replaces the defaults (spread defaultScope to extend them)'],
  ['output', "'summary' (default: one screen of a failing tier's output, all of it in a log under the git dir), 'all' or 'failures'"],
  ['runOnEmpty', 'run the tiers on an empty change (default false: nothing to judge, nothing runs)'],
  ['isolation', "'auto' (default), 'worktree' or 'none': where gates run"],
  ['cache', 'reuse a pass for a tree that already passed under this config (default true)'],
  ['ledger', 'ledger path relative to the repository root (default <git common dir>/gate-ladder/ledger.jsonl)'],
  ['base', "base revision for a new branch's range (default: the remote's HEAD)"],
  ['calibrate, calibrateHooks', 'fraction of manual/CI runs that run every tier (default 0); let hooks calibrate too'],
  ['freeze', '{ minRuns: 20, minFlipRate: 0.02, maxExpiryDays: 90 }'],
  ['report', '{ minAttempts: 30 }'],
  [
    'order',
    "'fixed' (default) or 'predicted': per patch, tiers by predicted catch per expected second from the ledger's history of its paths (after 20 calibration runs)",
  ],
  [
    'select',
    '{ risk: 0.001 }: opt in to skipping a tier whose predicted catch is under the risk (never in gate-ladder ci, never calibrating)',
  ],
];

const ENV: readonly (readonly [string, string])[] = [
  ['GATE_LADDER=0', 'skip every gate (as git push --no-verify)'],
  ['GATE_LADDER_SKIP=t2-full,t3', 'do not run these tiers this time (rows say skipped_by_env)'],
  ['GATE_LADDER_NO_CACHE=1', 'run every planned gate, even on a tree that already passed'],
  ['GATE_LADDER_OUTPUT=all', "show gates' output as it comes this time (summary, all, failures: over the config's output)"],
];

const table = (rows: readonly (readonly [string, string])[]) => {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
};

/** `gate-ladder help config`. */
export function configHelp(): string {
  return [
    'gate-ladder config',
    '',
    `Where it lives (the first found, in the repository root): ${SEARCH_PLACES.filter((p) => p !== 'package.json').join(', ')}, or a "gate-ladder" key in package.json.`,
    "A .ts or .js config: `import { defineConfig } from 'gate-ladder'; export default defineConfig({ tiers: [...] })`.",
    '',
    'Fields:',
    ...table(FIELDS),
    '',
    `Default scope: ${defaultScope.join(' ')}`,
    '',
    'For one push or commit (git passes no flags to a hook):',
    ...table(ENV),
    '',
    'Check a config: gate-ladder run --dry-run. More: the README (Config).',
    '',
  ].join('\n');
}
