/**
 * A tier that lists no `caught` takes its runner's failure codes, the detected runner's too: `cargo
 * test` exits 101 for a failed test whether or not the config says `runner: 'cargo'`. Before, a
 * detected cargo (or nextest, or mocha with two failures) run read as `error: exit 101 but cargo
 * reports no failed test` while its summary said FAILED.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../src/config/load.js';
import type { Detection } from '../../src/runners/detect.js';
import { runLadder } from '../../src/run/ladder.js';
import type { RunnerName, TierConfig } from '../../src/types.js';
import type { LedgerRow } from '../../src/ledger/row.js';
import type { Plan } from '../../src/route/route.js';

// What cargo 1.95 printed for `cargo test --no-fail-fast` with a failing integration test (trimmed).
const CARGO_FAILED = `     Running tests/b.rs (target/debug/deps/b-8cd136700b92481b)

running 2 tests
test b_fails ... FAILED
test b_ok ... ok

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass \`--test b\`
`;
const NEXTEST_FAILED = '     Summary [   0.010s] 2 tests run: 1 passed, 1 failed, 0 skipped\nerror: test run failed\n';
const MOCHA_TWO = '  1 passing (5ms)\n  2 failing\n';

async function judge(tier: TierConfig, detected: RunnerName | undefined, code: number, tail: string) {
  const config = resolveConfig({ tiers: [tier] });
  const plan: Plan = { files: ['src/a.rs'], fileCount: 1, hits: [], tiers: config.tiers.map((t) => ({ tier: t, run: true })) };
  const detection: Detection = { ...(detected && { runner: detected }), why: 'test', managers: [], words: [] };
  const out = await runLadder({ plan, runId: 'r', hook: 'manual', patch: 'abc', base: 'def', cwd: '/repo', isolation: 'none' }, {
    runGate: async () => ({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 0.1, tail }),
    appendRows: (_: LedgerRow[]) => {},
    now: () => new Date('2025-01-15T10:00:00Z'),
    log: () => {},
    write: () => {},
    env: {},
    detect: () => detection,
  } as never);
  return out.results[0]!;
}

test('cargo test detected from the command: exit 101 with a FAILED result is caught', async () => {
  const r = await judge({ name: 't', run: 'cargo test --no-fail-fast' }, 'cargo', 101, CARGO_FAILED);
  assert.is(r.verdict, 'caught', r.reason);
});

test('nextest detected: exit 100 is caught', async () => {
  const r = await judge({ name: 't', run: 'cargo nextest run' }, 'nextest', 100, NEXTEST_FAILED);
  assert.is(r.verdict, 'caught', r.reason);
});

test('mocha detected: exit 2 for two failures is caught', async () => {
  const r = await judge({ name: 't', run: 'mocha' }, 'mocha', 2, MOCHA_TWO);
  assert.is(r.verdict, 'caught', r.reason);
});

test("a tier's own `caught` still wins over the detected runner's", async () => {
  const r = await judge({ name: 't', run: 'cargo test', caught: [1] }, 'cargo', 101, CARGO_FAILED);
  assert.is(r.verdict, 'error', r.reason);
});

test('no runner detected: exit 101 is not a catch by its code alone', async () => {
  const r = await judge({ name: 't', run: './run-tests.sh' }, undefined, 101, 'boom\n');
  assert.is(r.verdict, 'error', r.reason);
});

test("the configured runner's codes, as before", async () => {
  const r = await judge({ name: 't', run: 'cargo test', runner: 'cargo' }, 'cargo', 101, CARGO_FAILED);
  assert.is(r.verdict, 'caught', r.reason);
});

test.run();
