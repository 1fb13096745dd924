import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRunArgs } from '../../src/run-args.js';

const base = { dryRun: false, json: false, calibrate: false };
const cases: [string[], ReturnType<typeof parseRunArgs>][] = [
  [['run'], base],
  [['run', 'pre-push', 'origin', 'git@x:y.git'], { ...base, hook: 'pre-push', remote: 'origin' }],
  [['run', 'pre-commit'], { ...base, hook: 'pre-commit' }],
  [['run', '--base', 'A', '--head', 'B'], { ...base, base: 'A', head: 'B' }],
  [['run', '--base=A', '--dry-run', '--json'], { ...base, base: 'A', dryRun: true, json: true }],
  [['run', '--calibrate', '--no-cache'], { ...base, calibrate: true, noCache: true }],
  // Anything else goes to yargs, which explains or rejects it.
  [['run', '--help'], undefined],
  [['run', '-h'], undefined],
  [['run', '--bogus'], undefined],
  [['run', '--base'], undefined],
  [['run', '--base', ''], undefined],
  [['run', 'pre-rebase'], undefined],
  [['run', 'pre-push', 'origin', 'url', 'extra'], undefined],
  [['run', '--dryRun'], undefined],
  [['install'], undefined],
  [['--version'], undefined],
  [[], undefined],
];

for (const [argv, want] of cases) {
  test(`parseRunArgs ${JSON.stringify(argv)}`, () => {
    assert.equal(parseRunArgs(argv), want);
  });
}

test.run();
