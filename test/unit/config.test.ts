import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateConfig } from '../../src/config/load.js';
import { defaultScope } from '../../src/config/defaults.js';

const F = 'gate-ladder.config.ts';
const tier = { name: 't1', run: 'true' };

const bad: [string, unknown, string][] = [
  ['config not an object', 42, `${F}: (config) `],
  ['tiers missing', {}, `${F}: tiers must be a list of tiers in cost order`],
  ['tiers empty', { tiers: [] }, `${F}: tiers must list at least one tier`],
  ['tiers not a list', { tiers: 'x' }, `${F}: tiers must be a list of tiers in cost order`],
  ['tier name missing', { tiers: [{ run: 'x' }] }, `${F}: tiers[0].name must be a non-empty string`],
  ['tier name with spaces', { tiers: [{ name: 'a b', run: 'x' }] }, `${F}: tiers[0].name must be a non-empty name`],
  ['tier name duplicated', { tiers: [tier, tier] }, `${F}: tiers[1].name "t1" is used by an earlier tier`],
  ['run missing', { tiers: [{ name: 't1' }] }, `${F}: tiers[0].run must be a command string or a non-empty argv array of strings`],
  ['run empty string', { tiers: [{ name: 't1', run: '  ' }] }, `${F}: tiers[0].run must be a command string`],
  ['run empty argv', { tiers: [{ name: 't1', run: [] }] }, `${F}: tiers[0].run must be a command string`],
  ['run a number', { tiers: [{ name: 't1', run: 3 }] }, `${F}: tiers[0].run must be a command string`],
  ['timeout negative', { tiers: [{ ...tier, timeout: -1 }] }, `${F}: tiers[0].timeout must be a positive number of seconds`],
  ['timeout zero', { tiers: [{ ...tier, timeout: 0 }] }, `${F}: tiers[0].timeout must be a positive number of seconds`],
  ['timeout a string', { tiers: [{ ...tier, timeout: '60' }] }, `${F}: tiers[0].timeout must be a positive number of seconds`],
  ['env not strings', { tiers: [{ ...tier, env: { A: 1 } }] }, `${F}: tiers[0].env.A`],
  ['cwd not a string', { tiers: [{ ...tier, cwd: 1 }] }, `${F}: tiers[0].cwd must be a path relative to the repository root`],
  ['caught zero', { tiers: [{ ...tier, caught: [0] }] }, `${F}: tiers[0].caught[0] must be an exit code`],
  ['caught 256', { tiers: [{ ...tier, caught: [256] }] }, `${F}: tiers[0].caught[0] must be an exit code`],
  ['caught empty', { tiers: [{ ...tier, caught: [] }] }, `${F}: tiers[0].caught must list at least one exit code`],
  ['caught not a list', { tiers: [{ ...tier, caught: 1 }] }, `${F}: tiers[0].caught must be a list of exit codes`],
  [
    'skipWhenTestAdjacent not boolean',
    { tiers: [{ ...tier, skipWhenTestAdjacent: 'yes' }] },
    `${F}: tiers[0].skipWhenTestAdjacent must be true or false`,
  ],
  ['hooks unknown', { tiers: [{ ...tier, hooks: ['post-merge'] }] }, `${F}: tiers[0].hooks[0] must name hooks among`],
  ['runner unknown', { tiers: [{ ...tier, runner: 'rspec' }] }, `${F}: tiers[0].runner must be one of pytest`],
  ['junit empty', { tiers: [{ ...tier, junit: 5 }] }, `${F}: tiers[0].junit must be a path`],
  ['unknown tier field', { tiers: [{ ...tier, tmeout: 5 }] }, `${F}: tiers[0].tmeout is not a known field (did you mean timeout?)`],
  ['unknown top field', { tiers: [tier], ladder: 1 }, `${F}: ladder is not a known field`],
  ['scope not a list', { tiers: [tier], scope: 'tests/**' }, `${F}: scope must be a list of globs`],
  ['ledger not a string', { tiers: [tier], ledger: 1 }, `${F}: ledger must be a path relative to the repository root`],
  ['base not a string', { tiers: [tier], base: 1 }, `${F}: base must be a revision such as origin/main`],
  ['isolation unknown', { tiers: [tier], isolation: 'always' }, `${F}: isolation must be "auto", "worktree" or "none"`],
  ['calibrate above 1', { tiers: [tier], calibrate: 2 }, `${F}: calibrate must be a fraction from 0 to 1`],
  ['calibrateHooks not boolean', { tiers: [tier], calibrateHooks: 1 }, `${F}: calibrateHooks must be true or false`],
  ['cache not boolean', { tiers: [tier], cache: 'no' }, `${F}: cache must be true or false`],
  ['freeze.minRuns too small', { tiers: [tier], freeze: { minRuns: 1 } }, `${F}: freeze.minRuns must be an integer of at least 2`],
  [
    'freeze.minFlipRate above 1',
    { tiers: [tier], freeze: { minFlipRate: 1.5 } },
    `${F}: freeze.minFlipRate must be a fraction from 0 to 1`,
  ],
  [
    'freeze.maxExpiryDays zero',
    { tiers: [tier], freeze: { maxExpiryDays: 0 } },
    `${F}: freeze.maxExpiryDays must be a positive number of days`,
  ],
  ['report.minAttempts zero', { tiers: [tier], report: { minAttempts: 0 } }, `${F}: report.minAttempts must be a positive integer`],
  ['order unknown', { tiers: [tier], order: 'random' }, `${F}: order must be "fixed" or "predicted"`],
  ['select.risk zero', { tiers: [tier], select: { risk: 0 } }, `${F}: select.risk must be above 0`],
  ['select.risk above 0.5', { tiers: [tier], select: { risk: 0.9 } }, `${F}: select.risk must be at most 0.5`],
  ['select a number', { tiers: [tier], select: 0.001 }, `${F}: select must be an object: { risk: 0.001 }`],
];

for (const [title, raw, expected] of bad) {
  test(`invalid: ${title}`, () => {
    const r = validateConfig(raw, F);
    assert.is(r.ok, false);
    if (r.ok) return;
    assert.ok(
      r.problems.some((p) => p.startsWith(expected)),
      `expected "${expected}…" in:\n${r.problems.join('\n')}`,
    );
  });
}

test('every problem is reported at once', () => {
  const r = validateConfig(
    {
      tiers: [
        { name: 't1', run: 'x', timeout: -1 },
        { name: 't2', run: 1, caught: [0] },
      ],
      isolation: 'x',
    },
    F,
  );
  assert.is(r.ok, false);
  if (!r.ok) assert.is(r.problems.length, 4, r.problems.join('\n'));
});

test('defaults are filled in', () => {
  const r = validateConfig(
    {
      tiers: [
        { name: 't1', run: 'true' },
        { name: 't2', run: ['cargo', 'test'], runner: 'cargo' },
      ],
    },
    F,
  );
  assert.ok(r.ok);
  if (!r.ok) return;
  const [t1, t2] = r.config.tiers;
  assert.equal(t1, {
    name: 't1',
    run: 'true',
    timeout: 600,
    env: {},
    cwd: '.',
    caught: [1],
    caughtByRunner: true,
    skipWhenTestAdjacent: false,
    hooks: ['pre-push', 'manual', 'replay', 'seed'],
  });
  assert.equal(t2!.caught, [101], 'cargo test failures exit 101');
  assert.equal(r.config.scope, [...defaultScope]);
  assert.is(r.config.isolation, 'auto');
  assert.is(r.config.cache, true);
  assert.equal(r.config.freeze, { minRuns: 20, minFlipRate: 0.02, maxExpiryDays: 90 });
  assert.equal(r.config.report, { minAttempts: 30 });
});

test('a full valid config is accepted as written', () => {
  const r = validateConfig(
    {
      scope: ['e2e/**'],
      tiers: [
        {
          name: 't1',
          run: 'x',
          timeout: 5,
          env: { A: 'b' },
          cwd: 'pkg',
          caught: [1, 2],
          skipWhenTestAdjacent: true,
          hooks: ['pre-commit'],
          runner: 'pytest',
          junit: 'r.xml',
        },
      ],
      ledger: 'ledger.jsonl',
      base: 'origin/main',
      isolation: 'none',
      calibrate: 0.1,
      calibrateHooks: true,
      cache: false,
      freeze: { minRuns: 30, minFlipRate: 0.1, maxExpiryDays: 30 },
      report: { minAttempts: 10 },
    },
    F,
  );
  assert.ok(r.ok, r.ok ? '' : r.problems.join('\n'));
  if (r.ok) {
    assert.equal(r.config.scope, ['e2e/**']);
    assert.equal(r.config.tiers[0]!.caught, [1, 2]);
    assert.is(r.config.calibrate, 0.1);
  }
});

test("order and select: 'predicted' and the risk resolved; the default leaves the resolved config without them", () => {
  const r = validateConfig({ tiers: [tier], order: 'predicted', select: { risk: 0.001 } }, F);
  assert.ok(r.ok && r.config.order === 'predicted' && r.config.select?.risk === 0.001);
  const d = validateConfig({ tiers: [tier] }, F);
  assert.ok(d.ok && !('order' in d.config) && !('select' in d.config));
});

test.run();
