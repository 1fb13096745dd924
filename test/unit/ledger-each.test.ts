import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachRow, type ReadStats } from '../../src/ledger/ledger.js';
import type { LedgerRow } from '../../src/ledger/row.js';

const good = (tier: string, extra = '') => `{"patch":"p","tier":"${tier}","verdict":"pass","seconds":1${extra}}`;

async function read(text: string | Buffer, chunk?: number): Promise<{ tiers: string[]; stats: ReadStats }> {
  const dir = mkdtempSync(join(tmpdir(), 'gl-each-'));
  try {
    const path = join(dir, 'ledger.jsonl');
    writeFileSync(path, text);
    const stats: ReadStats = { rows: 0, skipped: 0 };
    const tiers: string[] = [];
    await forEachRow(path, stats, (r: LedgerRow) => tiers.push(r.tier), chunk);
    return { tiers, stats };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const corrupt: [string, string][] = [
  ['blank', ''],
  ['spaces', '   \t'],
  ['truncated mid-write', '{"patch":"p","tier":"t","verdict":"pa'],
  ['not JSON', 'hello world'],
  ['a JSON array', '[1,2]'],
  ['a JSON string', '"row"'],
  ['null', 'null'],
  ['missing tier', '{"patch":"p","verdict":"pass","seconds":1}'],
  ['missing patch', '{"tier":"t","verdict":"pass","seconds":1}'],
  ['missing seconds', '{"patch":"p","tier":"t","verdict":"pass"}'],
  ['seconds as text', '{"patch":"p","tier":"t","verdict":"pass","seconds":"1"}'],
  ['unknown verdict', '{"patch":"p","tier":"t","verdict":"flaky","seconds":1}'],
];
for (const [title, line] of corrupt) {
  test(`a ${title} line is skipped and counted`, async () => {
    const { tiers, stats } = await read(`${good('a')}\n${line}\n${good('b')}\n`);
    assert.equal(tiers, ['a', 'b']);
    assert.equal(stats, { rows: 2, skipped: 1 });
  });
}

test('unknown extra fields are accepted; CRLF lines read; a last line without newline is read', async () => {
  const { tiers, stats } = await read(`${good('a', ',"future":{"x":[1]}')}\r\n${good('b')}\r\n${good('c')}`);
  assert.equal(tiers, ['a', 'b', 'c']);
  assert.equal(stats, { rows: 3, skipped: 0 });
});

test('a last line cut off mid-write is skipped and counted', async () => {
  const { tiers, stats } = await read(`${good('a')}\n{"patch":"p","ti`);
  assert.equal(tiers, ['a']);
  assert.equal(stats, { rows: 1, skipped: 1 });
});

test('lines split across read chunks, multi-byte characters included', async () => {
  const lines = Array.from({ length: 50 }, (_, i) => good(`tier-ü€😀-${i}`));
  for (const chunk of [1, 2, 3, 7, 64]) {
    const { tiers, stats } = await read(`${lines.join('\n')}\n`, chunk);
    assert.equal(
      tiers,
      lines.map((_, i) => `tier-ü€😀-${i}`),
      `chunk ${chunk}`,
    );
    assert.equal(stats, { rows: 50, skipped: 0 });
  }
});

test('a missing ledger has no rows', async () => {
  const stats: ReadStats = { rows: 0, skipped: 0 };
  await forEachRow('/nonexistent/gate-ladder/ledger.jsonl', stats, () => assert.unreachable());
  assert.equal(stats, { rows: 0, skipped: 0 });
});

test.run();
