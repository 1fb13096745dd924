/** The next step a harness error's message gives: a package or Python module that is not installed is named, with how to get it. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { msg } from '../../src/run/messages.js';
import { missingPackage } from '../../src/util/messages.js';
import type { GateResult } from '../../src/gates/result.js';

test('missingPackage: a bare module name (its package, scope kept), a jest preset, a Python module; a path is none', () => {
  assert.equal(missingPackage("a test file could not run: `Cannot find module 'fill-range' from 'index.js'`"), {
    name: 'fill-range',
    python: false,
  });
  assert.equal(missingPackage("`Error: Cannot find module 'lodash/fp/get'`"), { name: 'lodash', python: false });
  assert.equal(missingPackage("`Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@scope/pkg' imported from /w/a.js`"), {
    name: '@scope/pkg',
    python: false,
  });
  assert.equal(missingPackage('jest could not load its config: `● Validation Error: Preset ts-jest not found.`'), {
    name: 'ts-jest',
    python: false,
  });
  assert.equal(missingPackage("pytest could not collect the tests: `ModuleNotFoundError: No module named 'tomli._parser'`"), {
    name: 'tomli',
    python: true,
  });
  // python's own line for `-m flake8` names the module bare.
  assert.equal(missingPackage('this python cannot import flake8, so flake8 did not run: `/usr/bin/python3: No module named flake8`'), {
    name: 'flake8',
    python: true,
  });
  assert.is(missingPackage("`Cannot find module './nope' from 'test/a.test.js'`"), undefined);
  assert.is(missingPackage("`Cannot find module '/abs/run.js'`"), undefined);
  assert.is(missingPackage('exit 2: usage error'), undefined);
});

const result = (reason: string): GateResult =>
  ({ tier: 't1-unit', verdict: 'error', exitCode: 1, signal: null, seconds: 1, timedOut: false, tail: '', reason }) as GateResult;

test('the blocked message of a harness error: the package to install, else the tier to fix', () => {
  const pkg = msg.error(
    'refs/heads/main',
    result("a test file could not run: `Cannot find module 'fill-range' from 'index.js'`"),
    'gate-ladder.config.ts',
    'pre-push',
  );
  assert.match(
    pkg,
    "  A package it needs, fill-range, is not installed here: install the project's dependencies (`npm ci`, or your package manager's install), then push again.",
  );
  assert.not.match(pkg, 'Fix the tier in');
  const py = msg.error('refs/heads/main', result("`ModuleNotFoundError: No module named 'tomli'`"), 'gate-ladder.config.ts', 'pre-push');
  assert.match(py, "A Python module it needs, tomli, is not there: run it in the project's environment");
  const other = msg.error('refs/heads/main', result('exit 2: usage error'), 'gate-ladder.config.ts', 'pre-push');
  assert.match(other, '  Fix the tier in gate-ladder.config.ts or what it needs');
});

test.run();
