import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendRows, parseRow, readRows, type ReadStats } from '../../src/ledger/ledger.js';
import type { LedgerRow } from '../../src/ledger/row.js';

const row = (i: number, extra: Partial<LedgerRow> = {}): LedgerRow => ({
  ts: new Date(0).toISOString(),
  run: `r${i}`,
  hook: 'manual',
  patch: `p${i}`,
  base: null,
  tier: 't1',
  verdict: 'pass',
  seconds: i,
  exit: 0,
  files: ['x'.repeat(i % 7 === 0 ? 70_000 : 10)],
  files_count: 1,
  routed: false,
  ...extra,
});

test('parseRow keeps unknown fields and rejects incomplete or partial lines', () => {
  assert.equal(parseRow(JSON.stringify({ ...row(1), future: 'x' }))?.future, 'x');
  assert.is(parseRow(''), undefined);
  assert.is(parseRow('   '), undefined);
  assert.is(parseRow('{"patch":"a","tier":"t1","verdict":"pass","sec'), undefined);
  assert.is(parseRow('not json'), undefined);
  assert.is(parseRow('[1,2]'), undefined);
  assert.is(parseRow('{"patch":"a","tier":"t1","verdict":"maybe","seconds":1}'), undefined);
  assert.is(parseRow('{"tier":"t1","verdict":"pass","seconds":1}'), undefined);
  // seconds no gate run could have taken: skipped, so that no sum of the report turns Infinity or goes down
  for (const seconds of ['-5', '1e308', '"12"', 'null', '1e400'])
    assert.is(parseRow(`{"patch":"a","tier":"t1","verdict":"pass","seconds":${seconds}}`), undefined, seconds);
  for (const seconds of ['0', '0.004', '2147483'])
    assert.is(parseRow(`{"patch":"a","tier":"t1","verdict":"pass","seconds":${seconds}}`)?.seconds, Number(seconds));
});

test('a ledger whose folder takes no new file (/proc) is one line saying so, not the error code twice', () => {
  if (process.platform !== 'linux') return;
  assert.throws(
    () => appendRows('/proc/gl-test-ledger.jsonl', [row(1)]),
    (e: Error) => {
      assert.match(e.message, 'cannot write the ledger /proc/gl-test-ledger.jsonl: no file can be created in its folder');
      assert.not.match(e.message, 'ENOENT');
      return true;
    },
  );
});

test('the per-test records (tests.jsonl) that cannot be written are said as themselves: the ledger rows are not what was lost', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-ledger-'));
  try {
    mkdirSync(join(dir, 'tests.jsonl'));
    assert.throws(
      () => appendRows(join(dir, 'tests.jsonl'), [row(1)]),
      (e: Error) => {
        assert.match(e.message, `cannot write the per-test records ${join(dir, 'tests.jsonl')}`);
        assert.match(e.message, "This run's test outcomes are not recorded (its ledger rows are)");
        assert.not.match(e.message, "This run's rows are not recorded");
        return true;
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readRows streams rows and counts what it skipped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-ledger-'));
  try {
    const file = join(dir, 'ledger.jsonl');
    writeFileSync(file, `${JSON.stringify(row(1))}\n\nnot json\n${JSON.stringify(row(2))}\n{"patch":"x","tier"`);
    const stats: ReadStats = { rows: 0, skipped: 0 };
    const rows: LedgerRow[] = [];
    for await (const r of readRows(file, stats)) rows.push(r);
    assert.equal(
      rows.map((r) => r.patch),
      ['p1', 'p2'],
    );
    assert.equal(stats, { rows: 2, skipped: 3 });
    const none: LedgerRow[] = [];
    for await (const r of readRows(join(dir, 'missing.jsonl'))) none.push(r);
    assert.equal(none, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('concurrent writers in separate processes never interleave or lose rows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-ledger-'));
  try {
    const file = join(dir, 'ledger.jsonl');
    const mod = new URL('../../src/ledger/ledger.js', import.meta.url).href;
    const writer = (w: number) =>
      new Promise<number | null>((done) => {
        const code = `import { appendRows } from '${mod}';
          for (let i = 0; i < 40; i++) appendRows(${JSON.stringify(file)}, [{ patch: 'w${w}-' + i, tier: 't1', verdict: 'pass', seconds: 0, files: ['${'y'.repeat(100_000)}'] }]);`;
        spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'inherit' }).on('exit', done);
      });
    const codes = await Promise.all([0, 1, 2, 3].map(writer));
    assert.equal(codes, [0, 0, 0, 0]);
    appendRows(file, [row(7)]);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    assert.is(lines.length, 161);
    const patches = new Set(lines.map((l) => (JSON.parse(l) as LedgerRow).patch));
    assert.is(patches.size, 161, 'every row parses and none is lost');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
