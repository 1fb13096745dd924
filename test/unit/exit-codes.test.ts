/**
 * One exit-code table (docs/architecture.md, "Exit codes"): `EXIT` in src/config/defaults.ts is the only
 * one, and commands return `EXIT.x`, never a number.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EXIT } from '../../src/config/defaults.js';
import { PROJECT } from '../helpers/repo.js';
import { tsSources } from '../helpers/sources.js';

const SRC = join(PROJECT, 'src');

const files = tsSources(SRC).map((f) => ({ file: relative(SRC, f), text: readFileSync(f, 'utf8') }));
const literal = /\breturn (?:0|1|2|3|130);|process\.exitCode = \d|process\.exit\(\d/;

test('the table: 0 pass, 1 caught, 2 error, 3 internal, 130 interrupted', () => {
  assert.equal({ ...EXIT }, { pass: 0, caught: 1, error: 2, internal: 3, interrupted: 130 });
});

test('src/config/defaults.ts is the only file that defines exit codes', () => {
  assert.equal(
    files.filter((f) => /\bconst EXIT\b/.test(f.text)).map((f) => f.file),
    ['config/defaults.ts'],
  );
});

test('commands and the CLI return EXIT.x and set the process code from it, never a number', () => {
  const bad = files
    .filter((f) => f.file.startsWith('commands/') || f.file.startsWith('cli/'))
    .flatMap((f) => f.text.split('\n').flatMap((l, i) => (literal.test(l) ? [`src/${f.file}:${i + 1}: ${l.trim()}`] : [])));
  assert.equal(bad, []);
});

test.run();
