// uvu's `test` and `suite` for the unit tests under `npm run test:mutation`: scripts/mutation-build.mjs
// points the built unit tests' `uvu` imports here. Each test's handler first asks
// scripts/stryker-uvu-runner.mjs whether this run wants it (`skip`, set as uvu starts the test): a
// mutant's run reruns a suite but runs only the tests that reach the mutant.
import * as uvu from 'uvu';

const gate = (globalThis.__glMutationGate ??= { skip: false });
const guard = (handler) => (state) => (gate.skip ? undefined : handler(state));
const wrap = (t) => {
  const w = (name, handler) => t(name, guard(handler));
  w.only = (name, handler) => t.only(name, guard(handler));
  w.skip = t.skip;
  w.before = t.before;
  w.after = t.after;
  w.run = t.run;
  return w;
};

export const test = wrap(uvu.test);
export const suite = (...args) => wrap(uvu.suite(...args));
export const exec = uvu.exec;
