import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateConfig } from '../../src/config/load.js';

const F = 'gate-ladder.config.ts';

const invalid: { title: string; tiers: unknown[]; problems: string[] }[] = [
  {
    title: 'neither run nor lintStaged',
    tiers: [{ name: 't1' }],
    problems: [`${F}: tiers[0].run must be a command string or a non-empty argv array of strings (or set \`lintStaged: true\` instead)`],
  },
  {
    title: 'both run and lintStaged',
    tiers: [{ name: 't1', run: 'x', lintStaged: true }],
    problems: [`${F}: tiers[0] has both \`run\` and \`lintStaged\`; keep one`],
  },
  {
    title: 'fields lint-staged does not take',
    tiers: [{ name: 'lint', lintStaged: true, timeout: 5, caught: [1], runner: 'jest', junit: 'r.xml' }],
    problems: ['timeout', 'caught', 'runner', 'junit'].map(
      (k) => `${F}: tiers[0].${k} does not apply to a lintStaged tier (lint-staged runs its own tasks); remove it`,
    ),
  },
  {
    title: 'lint-staged on pre-push',
    tiers: [{ name: 'lint', lintStaged: true, hooks: ['pre-commit', 'pre-push'] }],
    problems: [`${F}: tiers[0].hooks: a lintStaged tier runs on pre-commit only (it checks the staged files)`],
  },
  {
    title: 'lintStaged of the wrong type',
    tiers: [{ name: 'lint', lintStaged: 'yes' }],
    problems: [
      `${F}: tiers[0].lintStaged must be true or an object of lint-staged options (configPath, config, hideUnstaged, concurrent, continueOnError, relative, verbose, failOnChanges, allowEmpty)`,
    ],
  },
  {
    title: 'an unknown lint-staged option (stash cannot be turned off)',
    tiers: [{ name: 'lint', lintStaged: { stash: false } }],
    problems: [`${F}: tiers[0].lintStaged.stash is not a known field`],
  },
  {
    title: 'tier-kind problems are reported with the other problems, in one pass',
    tiers: [{ name: 't1', timeout: -1 }],
    problems: [
      `${F}: tiers[0].timeout must be a positive number of seconds`,
      `${F}: tiers[0].run must be a command string or a non-empty argv array of strings (or set \`lintStaged: true\` instead)`,
    ],
  },
];
for (const c of invalid) {
  test(`config: ${c.title}`, () => {
    const r = validateConfig({ tiers: c.tiers }, F);
    assert.is(r.ok, false);
    if (!r.ok) assert.equal(r.problems, c.problems);
  });
}

test('config: a lintStaged tier defaults to pre-commit only, with run "lint-staged" for display', () => {
  const r = validateConfig(
    {
      tiers: [
        { name: 'lint', lintStaged: true },
        { name: 't1', run: 'npm test' },
      ],
    },
    F,
  );
  assert.ok(r.ok);
  if (!r.ok) return;
  const [lint, t1] = r.config.tiers;
  assert.equal(lint!.hooks, ['pre-commit']);
  assert.equal(lint!.lintStaged, {});
  assert.is(lint!.run, 'lint-staged');
  assert.is(t1!.lintStaged, undefined);
  assert.ok(!t1!.hooks.includes('pre-commit'));
});

test('config: lint-staged options, an inline config, and a command tier on pre-commit', () => {
  const fn = (files: readonly string[]) => `eslint ${files.join(' ')}`;
  const r = validateConfig(
    {
      tiers: [
        { name: 'lint', lintStaged: { config: { '*.ts': 'eslint' }, hideUnstaged: true, concurrent: 2 } },
        { name: 'lint-fn', lintStaged: { config: fn } },
        { name: 'unit', run: 'npm run test:unit', hooks: ['pre-commit', 'pre-push'] },
      ],
      isolation: 'worktree',
    },
    F,
  );
  assert.ok(r.ok, JSON.stringify(r));
  if (!r.ok) return;
  assert.equal(r.config.tiers[0]!.lintStaged, { config: { '*.ts': 'eslint' }, hideUnstaged: true, concurrent: 2 });
  assert.is(r.config.tiers[1]!.lintStaged?.config, fn);
  assert.equal(r.config.tiers[2]!.hooks, ['pre-commit', 'pre-push']);
  assert.is(r.config.isolation, 'worktree');
});

test('config: isolation defaults to auto', () => {
  const r = validateConfig({ tiers: [{ name: 't1', run: 'true' }] }, F);
  assert.ok(r.ok && r.config.isolation === 'auto');
});

test.run();
