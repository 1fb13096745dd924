/**
 * verdict.ts recordsRead: the records `classify` reads are the ones it names, so a run loads only
 * those (runners/index.ts). In a process of its own, where no record is loaded yet (the other unit
 * tests load them all): each case loads what recordsRead names, then classifies, and reading any other
 * record throws. The cases go from the fewest records to the most.
 */
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RUNNER_NAMES } from '../../src/config/runner-names.js';
import { SCRIPT_SUMMARIES } from '../../src/runners/identities.js';
import { recordsRead } from '../../src/verdict/verdict.js';

const src = (path: string) => JSON.stringify(new URL(`../../src/${path}`, import.meta.url).href);

/** Each case's records and verdict, judged in a fresh process (its records loaded by recordsRead's names only). */
const CASES = `
import { loadRecords, runnerRecord } from ${src('runners/index.js')};
import { classify, recordsRead } from ${src('verdict/verdict.js')};
const exit = (exitCode, tail = '') => ({ exitCode, signal: null, timedOut: false, interrupted: false, seconds: 1, tail });
const out = (over = {}) => ({ detection: { words: [], managers: [], ...over } });
const cases = [
  ['a command naming no runner passes (the bench\\'s true)', exit(0, 'ok\\n'), undefined, out()],
  ['its output not read, a failure', exit(1), undefined, undefined],
  ['jest named', exit(1, 'Tests:       1 failed, 1 total\\n'), 'jest', out({ runner: 'jest' })],
  ['a type check', exit(2, 'src/a.ts(1,7): error TS2322: Type "1" is not assignable to type "string".\\n'), undefined, out({ typeCheck: 'tsc' })],
  ['a script naming none fails', exit(1, '  1 passing (2ms)\\n  2 failing\\n'), undefined, out()],
];
const seen = [];
for (const [what, e, runner, output] of cases) {
  const names = recordsRead(runner, output, e.exitCode);
  await loadRecords(names);
  const c = classify(e, [1], 30, { ...(runner && { runner }), ...(output && { output }) });
  let mochaLoaded = true;
  try { runnerRecord('mocha'); } catch { mochaLoaded = false; }
  seen.push({ what, names, verdict: c.verdict, reason: c.reason ?? null, mochaLoaded });
}
process.stdout.write(JSON.stringify(seen));
`;

test('recordsRead names every record classify reads, and no more than its case needs', () => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', CASES], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const seen = JSON.parse(r.stdout) as { what: string; names: string[]; verdict: string; reason: string | null; mochaLoaded: boolean }[];
  const row = (what: string) => seen.find((s) => s.what.startsWith(what))!;
  assert.equal(row('a command naming no runner').names, []);
  assert.is(row('a command naming no runner').verdict, 'pass');
  assert.is(row('a command naming no runner').mochaLoaded, false, 'no record loaded for a pass');
  assert.equal(row('its output not read').names, []);
  assert.is(row('its output not read').verdict, 'caught');
  assert.equal(row('jest named').names, ['jest']);
  assert.is(row('jest named').verdict, 'caught');
  assert.is(row('jest named').mochaLoaded, false, "jest's record only");
  assert.equal(row('a type check').names, ['tsc']);
  assert.is(row('a type check').verdict, 'caught');
  assert.equal(row('a script naming none').names, SCRIPT_SUMMARIES);
  assert.equal([row('a script naming none').verdict, row('a script naming none').reason], ['caught', 'mocha: `2 failing`']);
});

test('recordsRead: tox and nox, and workspaces runs, read every record (their parts name their own runners)', () => {
  assert.equal(recordsRead(undefined, { detection: { envTool: 'tox' } }, 1), RUNNER_NAMES);
  assert.equal(
    recordsRead('jest', { detection: { workspaces: { manager: 'npm', event: 'test', ifPresent: false, members: [] } } }, 0),
    RUNNER_NAMES,
  );
});

test.run();
