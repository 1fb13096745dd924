/**
 * runners/detect-cache.ts: a tier's detection is kept while its command and package.json stay as they
 * were, and made afresh when either changes; a detection that asked make or read workspaces is never kept.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../src/config/load.js';
import type { ResolvedTier } from '../../src/config/resolved.js';
import { detectCached } from '../../src/runners/detect-cache.js';
import { cacheDir } from '../../src/util/cache-files.js';

const tier = (run: string, extra: { runner?: 'jest' } = {}): ResolvedTier =>
  resolveConfig({ tiers: [{ name: 'unit', run, ...extra }] }).tiers[0]!;
const kept = (common: string) => (existsSync(cacheDir(common)) ? readdirSync(cacheDir(common)).filter((f) => f.startsWith('detect-')) : []);

test('detectCached: kept while the command and package.json stay; made afresh when either changes; a make target is never kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-detect-cache-'));
  const common = join(dir, '.git');
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' } }));
    assert.is((await detectCached(tier('npm test'), dir, common)).runner, 'vitest');
    const [file, ...more] = kept(common);
    assert.equal(more, []);
    // What is kept is what the next run reads: made different here, it is what comes back.
    const path = join(cacheDir(common), file!);
    const entry = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify({ ...entry, detection: { ...entry.detection, why: 'kept' } }));
    assert.is((await detectCached(tier('npm test'), dir, common)).why, 'kept');
    // Another command, another runner named, another package.json: each is detected again.
    assert.is((await detectCached(tier('npm test', { runner: 'jest' }), dir, common)).why.includes('kept'), false);
    assert.is((await detectCached(tier('npx vitest run'), dir, common)).why === 'kept', false);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'mocha' } }));
    assert.is((await detectCached(tier('npm test'), dir, common)).runner, 'mocha');
    assert.is(kept(common).length, 4, 'the three new detections kept');
    // make's recipes are asked each time (the Makefile and what it includes can change): not kept.
    writeFileSync(join(dir, 'Makefile'), 'test:\n\tnpx jest\n');
    assert.is((await detectCached(tier('make test'), dir, common)).runner, 'jest');
    writeFileSync(join(dir, 'Makefile'), 'test:\n\tnpx mocha\n');
    assert.is((await detectCached(tier('make test'), dir, common)).runner, 'mocha');
    assert.is(kept(common).length, 4);
    // An entry this module would not have written is a miss: an unknown runner, a workspaces run.
    const write = (detection: object) => writeFileSync(path, JSON.stringify({ key: entry.key, detection }));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' } }));
    write({ ...entry.detection, runner: 'nope' });
    assert.is((await detectCached(tier('npm test'), dir, common)).runner, 'vitest');
    write({ ...entry.detection, words: 'vitest', why: 'kept' });
    assert.is((await detectCached(tier('npm test'), dir, common)).why === 'kept', false);
    write({ ...entry.detection, why: 'kept', workspaces: { manager: 'npm', event: 'test', ifPresent: false, members: [] } });
    assert.is((await detectCached(tier('npm test'), dir, common)).workspaces, undefined);
    // An unreadable entry is a miss, never an error.
    writeFileSync(path, '{ not json');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' } }));
    assert.is((await detectCached(tier('npm test'), dir, common)).runner, 'vitest');
    assert.ok(readFileSync(path, 'utf8').startsWith('{"key"'), 'written again');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
