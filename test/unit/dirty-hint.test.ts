import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rememberChanged, rememberClean } from '../../src/git/dirty-hint.js';
import { cacheDir } from '../../src/util/cache-files.js';

const kept = (commonDir: string) => {
  const dir = cacheDir(commonDir);
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('changed-')) : [];
  return files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { root: string; paths: string[]; clean?: number });
};

test('rememberChanged: new paths first, then those kept, at most 32, odd names left out; one file per work tree', () => {
  const common = mkdtempSync(join(tmpdir(), 'gl-hint-'));
  try {
    rememberChanged(common, '/repo', ['a.txt', 'b.txt']);
    rememberChanged(common, '/repo', ['c.txt', 'a.txt', 'line\nbreak', 'bad\uFFFDname', '']);
    assert.equal(kept(common), [{ root: '/repo', paths: ['c.txt', 'a.txt', 'b.txt'] }]);
    rememberChanged(common, '/repo', Array.from({ length: 40 }, (_, i) => `f${i}`));
    assert.is(kept(common)[0]!.paths.length, 32);
    rememberChanged(common, '/other', ['x']);
    assert.equal(kept(common).map((h) => h.root).sort(), ['/other', '/repo']);
  } finally {
    rmSync(common, { recursive: true, force: true });
  }
});

test('rememberClean: counts clean statuses, a change starts the count again, and the eighth in a row forgets the paths', () => {
  const common = mkdtempSync(join(tmpdir(), 'gl-hint-'));
  try {
    rememberClean(common, '/repo');
    assert.equal(kept(common), [], 'nothing kept: nothing to count');
    rememberChanged(common, '/repo', ['a.txt']);
    for (let i = 0; i < 7; i++) rememberClean(common, '/repo');
    assert.equal(kept(common), [{ root: '/repo', paths: ['a.txt'], clean: 7 }]);
    rememberChanged(common, '/repo', ['a.txt']);
    assert.equal(kept(common), [{ root: '/repo', paths: ['a.txt'] }], 'changed again: the count starts over');
    for (let i = 0; i < 8; i++) rememberClean(common, '/repo');
    assert.equal(kept(common), []);
  } finally {
    rmSync(common, { recursive: true, force: true });
  }
});
