/** The bin exits at once after a run only when nothing node would wait for is still under way. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileAtomicLater } from '../../src/util/cache-files.js';
import { backgroundWork, mayExitNow } from '../../src/util/early-exit.js';

test('a file written in the background holds the early exit until it is in place', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-early-'));
  try {
    assert.ok(mayExitNow(), 'nothing under way yet');
    const file = join(dir, 'diff-x');
    writeFileAtomicLater(file, [Buffer.from('a\0'), Buffer.from('b\0')], { prefix: 'diff-', keep: 8 });
    assert.not.ok(mayExitNow(), 'the write is on the thread pool');
    // A deadline, not a count of naps: a loaded machine's thread pool may take seconds to get to it.
    const end = Date.now() + 30_000;
    while (!mayExitNow() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    assert.ok(mayExitNow(), 'released once written');
    assert.is(readFileSync(file, 'utf8'), 'a\0b\0');
    assert.equal(
      readdirSync(dir).filter((f) => f.startsWith('.tmp-')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('each piece of work is released once, however often its done is called', () => {
  const a = backgroundWork();
  const b = backgroundWork();
  a();
  a();
  assert.not.ok(mayExitNow(), 'b is still under way');
  b();
  assert.ok(mayExitNow());
});

test.run();
