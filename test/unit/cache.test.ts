import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropBytes, readJson, readText, writeFileAtomic } from '../../src/util/cache-files.js';
import { type TreeEntry, cachedRows, coverage, tierFingerprint, treeKey } from '../../src/run/tree-cache.js';
import { configHash } from '../../src/config/config-cache.js';
import { resolveConfig } from '../../src/config/load.js';
import { hash } from '../../src/util/hash.js';
import type { LadderInput } from '../../src/run/ladder.js';
import { revQuery } from '../../src/git/rev-query.js';
import { route, scopeMatcher } from '../../src/route/route.js';
import type { TierConfig } from '../../src/types.js';
import type { ResolvedTier } from '../../src/config/resolved.js';

const tier = (t: Partial<TierConfig> = {}): ResolvedTier => resolveConfig({ tiers: [{ name: 't1', run: 'npm test', ...t }] }).tiers[0]!;

test('a tier`s fingerprint changes with its command, env, timeout, cwd, caught codes, runner and report', () => {
  const base = tierFingerprint(tier());
  const changes: Partial<TierConfig>[] = [
    { run: 'npm test --bail' },
    { run: ['npm', 'test'] },
    { env: { CI: '1' } },
    { timeout: 601 },
    { cwd: 'pkg' },
    { caught: [1, 2] },
    { runner: 'pytest' },
    { junit: 'report.xml' },
    { name: 't1b' },
  ];
  for (const c of changes) assert.is.not(tierFingerprint(tier(c)), base, JSON.stringify(c));
  assert.is(tierFingerprint(tier()), base, 'stable');
  assert.is(tierFingerprint(tier({ skipWhenTestAdjacent: true })), base, 'routing flags do not decide a verdict');
});

test('the entry key changes with the tree and with the config', () => {
  const cfg = resolveConfig({ tiers: [{ name: 't1', run: 'true' }] });
  const other = resolveConfig({ tiers: [{ name: 't1', run: 'true' }], scope: ['**/spec/**'] });
  const k = treeKey('a'.repeat(40), configHash(cfg));
  assert.is.not(treeKey('b'.repeat(40), configHash(cfg)), k);
  assert.is.not(treeKey('a'.repeat(40), configHash(other)), k);
  assert.is(treeKey('a'.repeat(40), configHash(resolveConfig({ tiers: [{ name: 't1', run: 'true' }] }))), k);
});

const config = resolveConfig({
  tiers: [
    { name: 't1', run: 'sh unit.sh', skipWhenTestAdjacent: true },
    { name: 't2', run: 'sh full.sh' },
  ],
});
const match = scopeMatcher(config.scope);
const plan = (...paths: string[]) =>
  route(
    paths.map((path) => ({ status: 'M', path })),
    config.tiers,
    match,
    'pre-push',
  );
const entry = (tiers: Record<string, string>): TreeEntry => ({
  format: 1,
  tree: 't',
  config: 'c',
  tiers: Object.fromEntries(
    Object.entries(tiers).map(([name, run]) => [
      name,
      { fp: tierFingerprint(config.tiers.find((t) => t.name === name)!), run, patch: 'p', ts: '' },
    ]),
  ),
});

test('a plan is covered when every tier it runs passed on the tree; a plan that routes past a tier needs less', () => {
  assert.equal(coverage(entry({ t1: 'r1', t2: 'r1' }), plan('src/a.ts')), { t1: 'r1', t2: 'r1' });
  assert.equal(coverage(entry({ t1: 'r1', t2: 'r1' }), plan('tests/a.ts')), { t2: 'r1' });
  assert.equal(coverage(entry({ t2: 'r2' }), plan('tests/a.ts')), { t2: 'r2' });
  assert.is(coverage(entry({ t2: 'r2' }), plan('src/a.ts')), undefined, 't1 never passed here');
  assert.is(coverage(undefined, plan('src/a.ts')), undefined);
});

test('a changed command is not covered by the old pass', () => {
  const e = entry({ t1: 'r1', t2: 'r1' });
  e.tiers.t2!.fp = hash('another command');
  assert.is(coverage(e, plan('src/a.ts')), undefined);
});

test('cached rows: one pass per planned tier, cached, with the run each reuses, no isolation', () => {
  const p = plan('tests/a.ts', 'src/b.ts');
  const input: LadderInput = {
    plan: p,
    runId: 'now',
    hook: 'pre-push',
    patch: 'c'.repeat(40),
    base: 'd'.repeat(40),
    ref: 'refs/heads/main',
    cwd: '/x',
    isolation: 'none',
  };
  const { rows, results } = cachedRows(input, { t2: 'then' }, new Date('2026-01-01T00:00:00Z'));
  assert.equal(
    results.map((r) => [r.tier, r.verdict]),
    [['t2', 'pass']],
  );
  assert.is(rows.length, 1);
  const row = rows[0]!;
  assert.equal(
    [row.tier, row.verdict, row.cached, row.cache_run, row.run, row.seconds, row.exit],
    ['t2', 'pass', true, 'then', 'now', 0, null],
  );
  assert.equal(row.files, ['tests/a.ts', 'src/b.ts']);
  assert.equal(row.skipped, ['t1']);
  assert.is(row.routed, true);
  assert.is('isolation' in row, false);
});

const sha = (c: string) => c.repeat(40);
test('revQuery asks for what the run will need, from options and pre-push stdin', () => {
  assert.equal(revQuery({ base: 'main', head: 'feature' }), { commits: [], trees: ['feature'], ranges: [['main', 'feature']] });
  assert.equal(revQuery({}), { commits: ['HEAD'], trees: ['HEAD'], ranges: [] });
  const stdin = [
    `refs/heads/a ${sha('a')} refs/heads/a ${sha('b')}`,
    `refs/heads/new ${sha('c')} refs/heads/new ${sha('0')}`,
    `(delete) ${sha('0')} refs/heads/gone ${sha('d')}`,
    `refs/heads/same ${sha('e')} refs/heads/same ${sha('e')}`,
  ].join('\n');
  assert.equal(revQuery({ hook: 'pre-push' }, stdin), { commits: [sha('c')], trees: [sha('a'), sha('c')], ranges: [[sha('b'), sha('a')]] });
  assert.equal(revQuery({ hook: 'pre-commit' }), { commits: [], trees: [], ranges: [] });
});

test('hash: stable, 28 hex digits, different for near inputs', () => {
  assert.match(hash('x'), /^[0-9a-f]{28}$/);
  assert.is(hash('gate-ladder'), hash('gate-ladder'));
  const seen = new Set<string>();
  for (let i = 0; i < 20000; i++) seen.add(hash(`run: 'npm test ${i}'`));
  assert.is(seen.size, 20000);
  assert.is.not(hash('ab'), hash('ba'));
});

test('cache files: written whole, the newest kept by count and by bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-files-'));
  try {
    for (let i = 0; i < 5; i++) {
      writeFileAtomic(join(dir, `x-${i}`), 'a'.repeat(10), { prefix: 'x-', keep: 3 });
      utimesSync(join(dir, `x-${i}`), i + 1, i + 1);
    }
    assert.equal(readdirSync(dir).sort(), ['x-2', 'x-3', 'x-4']);
    writeFileAtomic(join(dir, 'y-0'), 'b'.repeat(10), { prefix: 'y-', keep: 10, maxBytes: 25 });
    utimesSync(join(dir, 'y-0'), 1, 1);
    writeFileAtomic(join(dir, 'y-1'), 'b'.repeat(10), { prefix: 'y-', keep: 10, maxBytes: 25 });
    utimesSync(join(dir, 'y-1'), 2, 2);
    writeFileAtomic(join(dir, 'y-2'), 'b'.repeat(10), { prefix: 'y-', keep: 10, maxBytes: 25 });
    assert.equal(
      readdirSync(dir)
        .filter((n) => n.startsWith('y-'))
        .sort(),
      ['y-1', 'y-2'],
    );
    assert.is(readText(join(dir, 'y-2')), 'b'.repeat(10));
    assert.is(readJson(join(dir, 'missing.json')), undefined);
    assert.equal(
      readdirSync(dir).filter((n) => n.startsWith('.tmp')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dropBytes: what a partial writev leaves, across piece boundaries', () => {
  const parts = [Buffer.from('ab'), Buffer.from('cde'), Buffer.from('f')];
  const text = (bs: Buffer[]) => Buffer.concat(bs).toString();
  assert.is(text(dropBytes(parts, 0)), 'abcdef');
  assert.is(text(dropBytes(parts, 1)), 'bcdef');
  assert.is(text(dropBytes(parts, 2)), 'cdef');
  assert.is(text(dropBytes(parts, 4)), 'ef');
  assert.equal(dropBytes(parts, 6), []);
});

test.run();
