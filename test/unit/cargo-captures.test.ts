/**
 * cargo judged on what cargo 1.95 (and clippy, rustfmt) printed on a small crate here, one file per case in
 * test/fixtures/runners/cargo/ (scripts/capture-cargo.mjs: the case's command on its first line, the
 * temporary folder as /x, thread ids and hashes as printed). Each case: the verdict, a fragment of the
 * reason, and the failed tests the output names (id, repository-relative file, line, message) as the
 * ledger row, `run --json` and the blocked screen carry them.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runnerCaught } from '../../src/config/runner-names.js';
import { allRecords, runnerRecord } from '../../src/runners/index.js';
import { failedTestsOf, keepFor, outputLines } from '../../src/verdict/runner-output.js';
import { classify } from '../../src/verdict/verdict.js';
import type { RunnerName } from '../../src/types.js';

await allRecords();

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/runners/cargo');

/** A capture: its exit code (from its first line) and what cargo printed. */
function capture(name: string): { code: number; text: string } {
  const raw = readFileSync(resolve(FIXTURES, `${name}.txt`), 'utf8');
  const first = raw.indexOf('\n');
  return { code: Number(/^# exit (\d+)/.exec(raw)![1]), text: raw.slice(first + 1) };
}

/** As a tier that lists no `caught` judges it: the runner's own failure codes, else [1]. */
function judge(runner: RunnerName, name: string, allowNoTests = false) {
  const { code, text } = capture(name);
  return classify(
    { exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: text },
    runnerCaught(runner) ?? [1],
    30,
    {
      runner,
      output: { detection: { runner, words: [], managers: [] }, allowNoTests },
    },
  );
}

// [fixture, runner, verdict, reason fragment ('' for none)]
type Row = [string, RunnerName, 'pass' | 'caught' | 'error', string];

const ROWS: Row[] = [
  ['pass', 'cargo', 'pass', ''],
  ['pass-q', 'cargo', 'pass', ''],
  ['pass-filtered', 'cargo', 'pass', ''],
  // A test binary that exits 0 in the middle of its tests: cargo exits 0; its `running 4 tests` has no `test result:`.
  [
    'exit0',
    'cargo',
    'error',
    'the test binary for src/lib.rs (unittests) stopped before its test result (it ran 4 tests, reported none), so not every test is known to have passed; its last output: `test shapes::tests::area_works ...`; a test (or the code it calls) may have called process::exit',
  ],
  [
    'exit0-nff',
    'cargo',
    'error',
    'the test binary for src/lib.rs (unittests) stopped before its test result (it ran 4 tests, reported none)',
  ],
  // -q prints no sections: the binary is not named, its count is.
  ['exit0-q', 'cargo', 'error', 'the test binary stopped before its test result (it ran 4 tests, reported none)'],
  [
    'exit0-workspace',
    'cargo',
    'error',
    'the test binary for src/lib.rs (unittests) stopped before its test result (it ran 2 tests, reported none)',
  ],
  [
    'exit0-integration',
    'cargo',
    'error',
    'the test binary for tests/integration.rs stopped before its test result (it ran 3 tests, reported none)',
  ],
];

for (const [name, runner, verdict, reason] of ROWS) {
  test(`${runner} ${name}: ${verdict}`, () => {
    const c = judge(runner, name);
    assert.is(c.verdict, verdict, c.reason);
    if (reason === '') assert.is(c.reason, undefined);
    else assert.ok((c.reason ?? '').includes(reason), c.reason);
  });
}

test('a binary that stopped, then a long output: its `running` line and its unfinished line are kept beyond the tail', () => {
  const { text } = capture('exit0');
  const many = Array.from({ length: 4000 }, (_, i) => `test case_${i} ... ok`).join('\n');
  const long = text.replace('running 2 tests\n', `running 4002 tests\n${many}\n`).replace('2 passed; 0 failed', '4002 passed; 0 failed');
  // As gate.ts keeps a long output: the lines `keep` matches out of what falls before the last 64 KiB, then those.
  const keep = keepFor('cargo')!;
  const cut = Buffer.byteLength(long) - 64 * 1024;
  let at = 0;
  const before: string[] = [];
  for (const line of long.split('\n')) {
    if (at < cut && keep(line)) before.push(line);
    at += Buffer.byteLength(line) + 1;
  }
  assert.ok(cut > 0);
  const kept = before.map((l) => `${l}\n`).join('') + Buffer.from(long).subarray(cut).toString('utf8');
  const r = runnerRecord('cargo').profile!.read(outputLines(kept));
  assert.ok(
    (r.cannotRun?.what ?? '').startsWith('the test binary for src/lib.rs (unittests) stopped before its test result (it ran 4 tests'),
    r.cannotRun?.what,
  );
});

test.run();
