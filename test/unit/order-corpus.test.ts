/**
 * The order bench's corpus generator (scripts/lib/order-corpus.mjs, run by `npm run bench:order`; the
 * bench itself is not part of npm test): the same seed gives the same patches, and every patch it
 * writes applies onto the base it was made from, changing what it says it changes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, sh } from '../helpers/repo.js';

interface Patch {
  name: string;
  kind: 'mutant' | 'clean';
  file: string;
  line: number;
  op: string;
  diff: string;
}
interface CorpusModule {
  generateCorpus: (opts: { files: Record<string, string>; seed: number; count: number; clean?: number; stay?: number }) => Patch[];
}

const corpus = (await import(pathToFileURL(join(PROJECT, 'scripts', 'lib', 'order-corpus.mjs')).href)) as CorpusModule;

/** A tiny library: two source files, one without a final newline, operators inside strings that must stay. */
const FILES: Record<string, string> = {
  'lib/range.js': [
    "'use strict';",
    '',
    'function clamp(x, lo, hi) {',
    '  if (x < lo) return lo;',
    '  if (x > hi) return hi;',
    '  return x;',
    '}',
    '',
    'function inside(x, lo, hi) {',
    "  const why = 'lo <= x && x <= hi';",
    '  return x >= lo && x <= hi;',
    '}',
    '',
    'module.exports = { clamp, inside };',
    '',
  ].join('\n'),
  'lib/count.js': [
    'function count(xs, want) {',
    '  let n = 0;',
    '  for (let i = 0; i < xs.length; i++) {',
    '    if (xs[i] === want || want === true) {',
    '      n = n + 1;',
    '    }',
    '  }',
    '  return n;',
    '}',
    'module.exports = count;',
    'module.exports.limit = 3;',
  ].join('\n'),
};

function repoWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gl-order-corpus-'));
  const git = (...args: string[]) => {
    const r = sh('git', args, dir);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.out}`);
    return r.stdout;
  };
  git('init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git('add', '-A');
  git('-c', 'user.name=T', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'base');
  return dir;
}

test('the same seed gives the same patches; another seed, others', () => {
  const a = corpus.generateCorpus({ files: FILES, seed: 37, count: 12 });
  const b = corpus.generateCorpus({
    files: { 'lib/count.js': FILES['lib/count.js']!, 'lib/range.js': FILES['lib/range.js']! },
    seed: 37,
    count: 12,
  });
  const c = corpus.generateCorpus({ files: FILES, seed: 38, count: 12 });
  assert.is(a.length, 12);
  assert.equal(a, b);
  assert.not.equal(
    a.map((p) => p.diff),
    c.map((p) => p.diff),
  );
  assert.is(new Set(a.map((p) => p.diff)).size, a.length, 'no patch twice');
  assert.ok(
    a.every((p, i) => p.name.startsWith(String(i + 1).padStart(4, '0'))),
    'names in time order',
  );
});

test('every patch applies onto the base and changes one line (a bug) or adds a comment line (a clean patch)', () => {
  const dir = repoWith(FILES);
  try {
    // More patches than the files have places: every site is used, the file's last line too.
    const patches = corpus.generateCorpus({ files: FILES, seed: 5, count: 60, clean: 0.3 });
    assert.ok(
      patches.some((p) => p.file === 'lib/count.js' && p.line === 11),
      'the last line, without a newline',
    );
    assert.ok(patches.some((p) => p.kind === 'clean'));
    assert.ok(patches.some((p) => p.kind === 'mutant'));
    for (const p of patches) {
      const check = sh('git', ['apply', '--check', '-'], dir, { input: p.diff });
      assert.is(check.code, 0, `${p.name} applies: ${check.out}\n${p.diff}`);
      assert.is(sh('git', ['apply', '-'], dir, { input: p.diff }).code, 0);
      const stat = sh('git', ['diff', '--numstat'], dir).stdout.trim();
      assert.is(stat, p.kind === 'clean' ? `1\t0\t${p.file}` : `1\t1\t${p.file}`, p.name);
      const now = readFileSync(join(dir, 'lib/range.js'), 'utf8');
      assert.ok(now.includes("const why = 'lo <= x && x <= hi';"), `${p.name} leaves strings alone`);
      sh('git', ['checkout', '--', '.'], dir);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
