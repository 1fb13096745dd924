import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configKey, depFile, loadConfigCached } from '../../src/config/config-cache.js';
import { planScope } from '../../src/util/glob.js';

/** A fake repo root and common dir; the config cache needs no git. */
function dirs<T>(fn: (root: string, common: string) => Promise<T> | T): () => Promise<T> {
  return async () => {
    const base = mkdtempSync(join(tmpdir(), 'gl-cfg-'));
    const root = join(base, 'repo');
    const common = join(base, 'repo', '.git');
    mkdirSync(common, { recursive: true });
    try {
      return await fn(root, common);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  };
}

const put = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

const tiersTs = (cmd: string) => `export const tiers = [{ name: 't1', run: ${JSON.stringify(cmd)} }];\n`;
// The config counts its own evaluations in evals.txt: a cache hit evaluates nothing.
const CONFIG_TS = `import { appendFileSync } from 'node:fs';
import { tiers } from './ladder/tiers.js';
appendFileSync(new URL('./evals.txt', import.meta.url), 'x');
export default { tiers };
`;
const evals = (root: string) => {
  try {
    return readFileSync(join(root, 'evals.txt'), 'utf8').length;
  } catch {
    return 0;
  }
};

test(
  'no config anywhere, or a package.json without the key: none, without loading anything',
  dirs(async (root, common) => {
    assert.equal(configKey(root), { none: true });
    put(root, 'package.json', '{ "name": "x", "description": "not gate-ladder" }');
    assert.equal(configKey(root), { none: true });
    assert.equal(await loadConfigCached(root, common), { kind: 'none' });
  }),
);

test(
  'a .ts config: loaded once, then served from the cache until it or a file it imports changes',
  dirs(async (root, common) => {
    put(root, 'gate-ladder.config.ts', CONFIG_TS);
    put(root, 'ladder/tiers.ts', tiersTs('npm test'));
    const first = await loadConfigCached(root, common);
    assert.is(first.kind, 'ok');
    assert.is(first.kind === 'ok' && first.config.tiers[0]!.run, 'npm test');
    assert.is(evals(root), 1);
    const second = await loadConfigCached(root, common);
    assert.is(evals(root), 1, 'a hit evaluates nothing');
    assert.equal(second, { ...first, cached: true });

    put(root, 'ladder/tiers.ts', tiersTs('npm run test:all'));
    const third = await loadConfigCached(root, common);
    assert.is(evals(root), 2, 'an edited import is noticed');
    assert.is(third.kind === 'ok' && third.config.tiers[0]!.run, 'npm run test:all');
    assert.is.not(third.kind === 'ok' && third.hash, first.kind === 'ok' && first.hash);

    put(root, 'gate-ladder.config.ts', `${CONFIG_TS}// edited\n`);
    await loadConfigCached(root, common);
    assert.is(evals(root), 3, 'an edited config is noticed');
    await loadConfigCached(root, common);
    assert.is(evals(root), 3);
  }),
);

test(
  "a hit carries the scope matcher's plan; a plan that does not fit the scope is dropped, not used",
  dirs(async (root, common) => {
    put(root, 'gate-ladder.config.ts', "export default { scope: ['**/tests/**', '**/*.test.*'], tiers: [{ name: 't1', run: 'true' }] };\n");
    const first = await loadConfigCached(root, common);
    const hit = await loadConfigCached(root, common);
    assert.is(hit.cached, true);
    assert.equal(hit.scopePlan, planScope(['**/tests/**', '**/*.test.*']));
    assert.equal(first.scopePlan, hit.scopePlan);
    const dir = join(common, 'gate-ladder', 'cache');
    const file = join(dir, readdirSync(dir).find((f) => f.startsWith('config-'))!);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { scopePlan: { sources: unknown[] } };
    entry.scopePlan.sources.pop();
    writeFileSync(file, JSON.stringify(entry));
    const odd = await loadConfigCached(root, common);
    assert.is(odd.cached, true);
    assert.is(odd.scopePlan, undefined);
  }),
);

test(
  'a config of higher search priority appearing wins at once',
  dirs(async (root, common) => {
    put(root, '.gate-ladderrc.json', JSON.stringify({ tiers: [{ name: 'from-rc', run: 'true' }] }));
    const rc = await loadConfigCached(root, common);
    assert.is(rc.kind === 'ok' && rc.file, '.gate-ladderrc.json');
    assert.is((await loadConfigCached(root, common)).cached, true);
    put(root, 'gate-ladder.config.mjs', "export default { tiers: [{ name: 'from-mjs', run: 'true' }] };\n");
    const mjs = await loadConfigCached(root, common);
    assert.is(mjs.kind === 'ok' && mjs.config.tiers[0]!.name, 'from-mjs');
    assert.is(mjs.kind === 'ok' && mjs.file, 'gate-ladder.config.mjs');
  }),
);

test(
  'package.json "gate-ladder" key: cached, and edits are seen',
  dirs(async (root, common) => {
    const pkg = (cmd: string) => JSON.stringify({ name: 'x', 'gate-ladder': { tiers: [{ name: 't1', run: cmd }] } });
    put(root, 'package.json', pkg('a'));
    assert.is((await loadConfigCached(root, common)).kind, 'ok');
    assert.is((await loadConfigCached(root, common)).cached, true);
    put(root, 'package.json', pkg('b'));
    const edited = await loadConfigCached(root, common);
    assert.is(edited.cached, undefined);
    assert.is(edited.kind === 'ok' && edited.config.tiers[0]!.run, 'b');
  }),
);

test(
  'an invalid config is reported every time, never cached',
  dirs(async (root, common) => {
    put(root, 'gate-ladder.config.ts', "export default { tiers: [{ name: 't1', run: 'x', timeout: -1 }] };\n");
    for (let i = 0; i < 2; i++) {
      const r = await loadConfigCached(root, common);
      assert.is(r.kind, 'invalid');
      assert.match(r.kind === 'invalid' ? r.problems.join('\n') : '', 'tiers[0].timeout must be a positive number of seconds');
    }
  }),
);

test(
  'a config that throws a string or an object, not an Error: the problem names the file and what it threw',
  dirs(async (root, common) => {
    for (const [thrown, said] of [
      ["'just a string'", 'gate-ladder.config.ts: could not be loaded: it threw "just a string"'],
      ['{ get message() { throw 1; } }', 'gate-ladder.config.ts: could not be loaded: it threw an object, not an Error'],
    ]) {
      put(root, 'gate-ladder.config.ts', `throw ${thrown};\nexport default {};\n`);
      const r = await loadConfigCached(root, common);
      assert.is(r.kind, 'invalid');
      assert.is(r.kind === 'invalid' ? r.problems.join('\n') : '', said);
    }
  }),
);

test(
  'a config importing gate-ladder gets this running copy (defineConfig)',
  dirs(async (root, common) => {
    put(
      root,
      'gate-ladder.config.ts',
      "import { defineConfig } from 'gate-ladder';\nexport default defineConfig({ tiers: [{ name: 't1', run: 'true' }] });\n",
    );
    const r = await loadConfigCached(root, common);
    assert.is(r.kind, 'ok', JSON.stringify(r));
  }),
);

test('depFile: a file in a package stands for the package`s package.json', () => {
  assert.is(depFile('/r/node_modules/lib/dist/a.js', '/r'), '/r/node_modules/lib/package.json');
  assert.is(depFile('/r/node_modules/@s/lib/a.js', '/r'), '/r/node_modules/@s/lib/package.json');
  assert.is(depFile('/r/node_modules/a/node_modules/b/x.js', '/r'), '/r/node_modules/a/node_modules/b/package.json');
  assert.is(depFile('/r/ladder/tiers.ts', '/r'), '/r/ladder/tiers.ts');
  assert.is(depFile('/x/node_modules/r/ladder/tiers.ts', '/x/node_modules/r'), '/x/node_modules/r/ladder/tiers.ts');
});

test.run();
