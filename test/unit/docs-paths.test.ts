/**
 * Docs that are true: every project path the docs and the README name (`src/...`, `scripts/...`,
 * `test/...`; a glob such as `scripts/bench-*.mjs` must match a file) exists. A path that stands for a
 * user's file in an example goes in EXAMPLES.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT } from '../helpers/repo.js';

/** Paths of a user's project in examples: a JUnit id, a ledger row, a user's glob. */
const EXAMPLES = new Set([
  'src/**',
  'src/a.test.js',
  'src/a.test.ts',
  'src/a.rs',
  'src/a.ts',
  'src/a.txt',
  'src/value.txt',
  'test/**/*.js',
  'test/*.js',
  'test/*.test.mjs',
  'test/a.spec.js',
  'test/a.test.mjs',
  'test/a.test.js',
  'test/math.test.js',
  'tests/test_a.py',
  'src/lib.rs',
]);

/** The project paths named in a text: not part of a longer path (`build/test/...` is the test build). */
export function namedPaths(text: string): string[] {
  // A glob after `{changed:` (docs/config.md) stands for a user's paths.
  return [...text.matchAll(/(?<![\w./:-])(?:src|scripts|test)\/[\w./*{},-]*[\w*}]/g)].map((m) => m[0]);
}

const files = ['src', 'scripts', 'test'].flatMap((top) =>
  readdirSync(join(PROJECT, top), { recursive: true }).map((f) => `${top}/${String(f)}`),
);

/** Whether a file or folder of the project answers to this path (a glob: `*` within a name, `**` across folders). */
function exists(path: string): boolean {
  if (!path.includes('*')) return files.includes(path) || files.some((f) => f.startsWith(`${path}/`));
  const re = new RegExp(
    `^${path
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\/?/g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replace(/\u0000/g, '(?:.*/)?')}$`,
  );
  return files.some((f) => re.test(f));
}

const docs = [
  'README.md',
  ...readdirSync(join(PROJECT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test('the path reader finds project paths and leaves the test build and longer paths alone', () => {
  assert.equal(namedPaths('see `src/run/steps.ts`, `scripts/bench-*.mjs` and build/test/unit/glob.test.js; node_modules/x/src/y.ts'), [
    'src/run/steps.ts',
    'scripts/bench-*.mjs',
  ]);
});

test('every src/, scripts/ and test/ path named in README.md and docs/*.md exists', () => {
  const missing: string[] = [];
  for (const doc of docs) {
    const lines = readFileSync(join(PROJECT, doc), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const path of namedPaths(line)) if (!EXAMPLES.has(path) && !exists(path)) missing.push(`${doc}:${i + 1}: ${path}`);
    });
  }
  assert.equal(
    missing,
    [],
    `paths named in the docs that do not exist (fix the name, or add a user's example path to EXAMPLES):\n${missing.join('\n')}`,
  );
});

test.run();
