import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { shouldCalibrate } from '../../src/route/calibrate.js';
import type { HookName } from '../../src/types.js';

const cases: [string, number, boolean, HookName, boolean, number, boolean][] = [
  // title, calibrate, calibrateHooks, hook, --calibrate, random(), expected
  ['--calibrate always', 0, false, 'manual', true, 0.99, true],
  ['--calibrate on a hook too', 0, false, 'pre-push', true, 0.99, true],
  ['calibrate 0: never', 0, false, 'manual', false, 0, false],
  ['calibrate 0.1, draw 0.0999: manual run calibrates', 0.1, false, 'manual', false, 0.0999, true],
  ['calibrate 0.1, draw 0.1: it does not', 0.1, false, 'manual', false, 0.1, false],
  ['hooks do not sample without calibrateHooks', 0.1, false, 'pre-push', false, 0, false],
  ['pre-commit neither', 0.1, false, 'pre-commit', false, 0, false],
  ['hooks sample with calibrateHooks', 0.1, true, 'pre-push', false, 0.05, true],
  ['calibrate 1: every manual run', 1, false, 'manual', false, 0.999999, true],
];
for (const [title, calibrate, calibrateHooks, hook, explicit, draw, expected] of cases) {
  test(`calibrate: ${title}`, () => {
    assert.is(
      shouldCalibrate({ calibrate, calibrateHooks }, hook, explicit, () => draw),
      expected,
    );
  });
}

test('one in ten manual runs over a uniform draw', () => {
  let n = 0;
  for (let i = 0; i < 1000; i++) if (shouldCalibrate({ calibrate: 0.1, calibrateHooks: false }, 'manual', false, () => i / 1000)) n++;
  assert.is(n, 100);
});

test('no draw when the run cannot be a calibration run (calibrate 0, or a hook without calibrateHooks)', () => {
  let draws = 0;
  const random = () => {
    draws++;
    return 0;
  };
  assert.is(shouldCalibrate({ calibrate: 0, calibrateHooks: true }, 'manual', false, random), false);
  assert.is(shouldCalibrate({ calibrate: 0.5, calibrateHooks: false }, 'pre-push', false, random), false);
  assert.is(draws, 0);
  assert.is(shouldCalibrate({ calibrate: 0.5, calibrateHooks: false }, 'manual', false, random), true);
  assert.is(draws, 1);
});

test.run();
