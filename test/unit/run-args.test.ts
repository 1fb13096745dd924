import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseArgs } from 'node:util';
import { RUN_OPTIONS, parseRunArgs, scanRunArgs } from '../../src/cli/run-args.js';

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


/** node's parser on the same arguments: the oracle the hand-read fast path must agree with. */
function oracle(args: string[]) {
  try {
    const r = parseArgs({ args, strict: true, allowPositionals: true, options: RUN_OPTIONS });
    return { values: { ...r.values }, positionals: r.positionals };
  } catch {
    return 'rejected';
  }
}

test('the fast path answers the hook line and CI forms itself', () => {
  for (const args of [['pre-push', 'origin', 'git@x:y.git'], ['--base', 'A', '--head', 'B', '--no-cache'], ['--base=A', '--dry-run', '--json', '--calibrate'], []]) {
    assert.ok(scanRunArgs(args) !== undefined, JSON.stringify(args));
  }
});

test('where the fast path answers, it answers what node\'s parser does (20,000 generated argument lists)', () => {
  const tokens = ['pre-push', 'pre-commit', 'origin', 'u', 'A', '', '-', '--', '-x', '-h', '--base', '--head', '--base=A', '--head=', '--base=-x', '--base=a=b',
    '--dry-run', '--json', '--json=1', '--calibrate', '--no-cache', '--no-cache=true', '--bogus', '--help', '--dry-run=', '---base'];
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let answered = 0;
  for (let i = 0; i < 20_000; i++) {
    const args = Array.from({ length: rand(6) }, () => tokens[rand(tokens.length)]!);
    const fast = scanRunArgs(args);
    const slow = oracle(args);
    if (fast !== undefined) {
      answered++;
      assert.equal({ values: { ...fast.values }, positionals: fast.positionals }, slow, JSON.stringify(args));
    }
    // The whole parse agrees whichever path answered.
    const whole = parseRunArgs(['run', ...args]);
    if (slow === 'rejected') assert.is(whole, undefined, JSON.stringify(args));
  }
  assert.ok(answered > 2_000, `fast path answered ${answered}`);
});

test.run();
