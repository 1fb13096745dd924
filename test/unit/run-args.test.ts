import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseArgs } from 'node:util';
import { RUN_FLAGS, RUN_OPTIONS, parseRunArgs, runOptionsOf } from '../../src/cli/run-args.js';

const base = { dryRun: false, json: false, calibrate: false };
const cases: [string[], ReturnType<typeof parseRunArgs>][] = [
  [['run'], base],
  [['run', 'pre-push', 'origin', 'git@x:y.git'], { ...base, hook: 'pre-push', remote: 'origin' }],
  [['run', 'pre-commit'], { ...base, hook: 'pre-commit' }],
  [['run', '--base', 'A', '--head', 'B'], { ...base, base: 'A', head: 'B' }],
  [['run', '--base=A', '--dry-run', '--json'], { ...base, base: 'A', dryRun: true, json: true }],
  [['run', '--calibrate', '--no-cache'], { ...base, calibrate: true, noCache: true }],
  [['run', '--output', 'all'], { ...base, output: 'all' }],
  [['run', '--output=summary'], { ...base, output: 'summary' }],
  [['run', '--output', 'everything'], undefined],
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

/** node's parser on the same arguments, as written out here: the oracle parseRunArgs must agree with. */
function oracle(args: string[]) {
  try {
    const r = parseArgs({ args, strict: true, allowPositionals: true, options: RUN_OPTIONS });
    return { values: { ...r.values }, positionals: r.positionals };
  } catch {
    return 'rejected';
  }
}

/** What an accepted parse means as run options, written out plainly (positionals: hook, remote, url). */
function meaning(parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] }) {
  const { values: v, positionals: p } = parsed;
  if (p.length > 3) return undefined;
  if (p[0] !== undefined && p[0] !== 'pre-push' && p[0] !== 'pre-commit') return undefined;
  if (v.base === '' || v.head === '') return undefined;
  if (typeof v.output === 'string' && !['summary', 'all', 'failures'].includes(v.output)) return undefined;
  const out: Record<string, unknown> = { dryRun: v['dry-run'] === true, json: v.json === true, calibrate: v.calibrate === true };
  if (p[0]) out.hook = p[0];
  if (p[1]) out.remote = p[1];
  if (typeof v.base === 'string') out.base = v.base;
  if (typeof v.head === 'string') out.head = v.head;
  if (v['no-cache'] === true) out.noCache = true;
  if (typeof v.output === 'string') out.output = v.output;
  return out;
}

test("node's options are the flags defined for yargs: a boolean that defaults to true is --no-<name>", () => {
  assert.equal(Object.keys(RUN_OPTIONS), ['base', 'head', 'dry-run', 'calibrate', 'json', 'output', 'no-cache']);
  assert.equal(Object.keys(RUN_FLAGS), ['base', 'head', 'dry-run', 'calibrate', 'json', 'output', 'cache']);
  // yargs reads --no-cache as cache: false: the same run options as node's parser.
  assert.equal(runOptionsOf({ cache: false }), parseRunArgs(['run', '--no-cache']));
  assert.equal(runOptionsOf({ cache: true, hook: 'pre-push', remote: 'origin' }), parseRunArgs(['run', 'pre-push', 'origin', 'url']));
});

test("the run options are what node's parse means, or undefined where it refuses (20,000 generated argument lists)", () => {
  const tokens = [
    'pre-push',
    'pre-commit',
    'origin',
    'u',
    'A',
    '',
    '-',
    '--',
    '-x',
    '-h',
    '--base',
    '--head',
    '--base=A',
    '--head=',
    '--base=-x',
    '--base=a=b',
    '--dry-run',
    '--json',
    '--json=1',
    '--calibrate',
    '--no-cache',
    '--no-cache=true',
    '--bogus',
    '--help',
    '--dry-run=',
    '---base',
    '--output',
    '--output=all',
    '--output=nope',
    'failures',
  ];
  // mulberry32: every token in every position (an LCG's low bits, used before, repeat in short cycles)
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  for (let i = 0; i < 20_000; i++) {
    const args = Array.from({ length: rand(6) }, () => tokens[rand(tokens.length)]!);
    const slow = oracle(args);
    const whole = parseRunArgs(['run', ...args]);
    assert.equal(whole, slow === 'rejected' ? undefined : meaning(slow), JSON.stringify(args));
  }
});

test.run();
