import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../src/config/load.js';
import { lintStagedExit, lintStagedOptions } from '../../src/ladder/lint-staged.js';
import { classify } from '../../src/ladder/verdict.js';

const red = (s: string) => `\u001b[31m${s}\u001b[39m`;

/** What lint-staged returned (or threw) and printed → verdict and reason, through the usual classifier. */
const cases: { title: string; outcome: { ok: boolean } | { threw: string }; said?: string[]; verdict: string; reason?: RegExp }[] = [
  { title: 'tasks passed', outcome: { ok: true }, verdict: 'pass' },
  { title: 'no staged files matched: lint-staged passes', outcome: { ok: true }, said: ['→ lint-staged could not find any staged files matching configured tasks.'], verdict: 'pass' },
  {
    title: 'a task failed: caught',
    outcome: { ok: false },
    said: ['', red('✖ sh check-file.sh:'), 'src/value.txt: value is buggy'],
    verdict: 'caught',
  },
  { title: 'fail-on-changes: a task changed files, caught', outcome: { ok: false }, said: ['\n✖ lint-staged failed because `--fail-on-changes` was used.'], verdict: 'caught' },
  { title: 'no configuration', outcome: { ok: false }, said: ['✖ lint-staged could not find any valid configuration.'], verdict: 'error', reason: /no lint-staged configuration found/ },
  { title: 'a git error (colored)', outcome: { ok: false }, said: [`\n  ${red('✖ lint-staged failed due to a git error.')}`], verdict: 'error', reason: /git error/ },
  { title: 'not a git repository', outcome: { ok: false }, said: [red('✖ Current directory is not a git directory!')], verdict: 'error', reason: /not running in a git repository/ },
  { title: 'staged files could not be listed', outcome: { ok: false }, said: [red('✖ Failed to get staged files!')], verdict: 'error', reason: /could not list the staged files/ },
  { title: 'unstaged changes could not be restored', outcome: { ok: false }, said: ['Unstaged changes have been kept back in a patch file:', '/r/.git/lint-staged_unstaged.patch'], verdict: 'error', reason: /could not restore the unstaged changes/ },
  { title: 'empty commit prevented', outcome: { ok: false }, said: ['\n  ⚠ lint-staged prevented an empty git commit.\n  Use the --allow-empty option to continue'], verdict: 'error', reason: /prevented an empty commit/ },
  { title: 'a task command not found', outcome: { ok: false }, said: [red('\n✖ Task failed to spawn: eslintt'), 'ENOENT'], verdict: 'error', reason: /task could not start: eslintt/ },
  { title: 'a config file that fails to load throws', outcome: { threw: 'Unexpected token' }, verdict: 'error', reason: /lint-staged could not run: Unexpected token/ },
  { title: 'lint-staged missing', outcome: { threw: 'lint-staged is not installed; run `npm i -D lint-staged@16`' }, verdict: 'error', reason: /npm i -D lint-staged@16/ },
  { title: 'a task interrupted (Ctrl-C)', outcome: { ok: false }, said: [red('\n✖ Task interrupted: sleep 10')], verdict: 'error', reason: /interrupted/ },
];

for (const c of cases) {
  test(`lint-staged: ${c.title} → ${c.verdict}`, () => {
    const exit = { signal: null, timedOut: false, seconds: 0, tail: '', ...lintStagedExit(c.outcome, c.said ?? []) };
    const { verdict, reason } = classify(exit, [1], 600);
    assert.is(verdict, c.verdict);
    if (c.reason) assert.match(reason ?? '', c.reason);
  });
}

test('lintStagedOptions: cwd and configPath resolve against the repository; lint-staged options pass through', () => {
  const [tier] = resolveConfig({ tiers: [{ name: 'lint', lintStaged: { configPath: 'cfg/lint.json', hideUnstaged: true, concurrent: false }, cwd: 'pkg' }] }).tiers;
  assert.equal(lintStagedOptions(tier!, '/repo'), { hideUnstaged: true, concurrent: false, cwd: '/repo/pkg', configPath: '/repo/cfg/lint.json' });
});

test('lintStagedOptions: `lintStaged: true` is lint-staged with its defaults, in the repository root', () => {
  const [tier] = resolveConfig({ tiers: [{ name: 'lint', lintStaged: true }] }).tiers;
  assert.equal(lintStagedOptions(tier!, '/repo'), { cwd: '/repo' });
});

test.run();
