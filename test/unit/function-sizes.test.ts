/**
 * Functions read as steps (docs/development.md): none in src/ over 120 lines, at most 8 over 80. The
 * measure is scripts/function-sizes.mjs (`node scripts/function-sizes.mjs` lists the long ones).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT } from '../helpers/repo.js';

interface Size {
  file: string;
  line: number;
  name: string;
  lines: number;
}

const { functionSizes } = (await import(pathToFileURL(join(PROJECT, 'scripts', 'function-sizes.mjs')).href)) as {
  functionSizes: (dir?: string) => Size[];
};

/** The limits: no function over LONGEST lines, at most MAX_LONG over LONG. */
const LONGEST = 120;
const LONG = 80;
const MAX_LONG = 8;

/**
 * Functions over LONGEST lines that another change is rewriting, each with what is to happen: split
 * there, not here, so the two do not collide. The test fails once one is no longer over the limit, so
 * the entry is removed then.
 */
const BEING_REWRITTEN: Record<string, string> = {};

const key = (s: Size) => `${s.file} ${s.name}`;
const listed = (sizes: readonly Size[]) => sizes.map((s) => `src/${s.file}:${s.line} ${s.name} (${s.lines} lines)`);

test('the measure counts each kind of function from its first line to its last (a made-up source)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-sizes-'));
  try {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    mkdirSync(join(dir, 'a'));
    writeFileSync(
      join(dir, 'a', 'f.ts'),
      [
        `export function long(): void {\n${body(121)}\n}`,
        `const arrow = () => {\n${body(81)}\n};`,
        `class C {\n  method(): number {\n${body(5)}\n    return 1;\n  }\n}`,
        `[1].map(function (n) {\n${body(4)}\n});`,
      ].join('\n'),
    );
    const sizes = functionSizes(dir).map(({ file, name, lines }) => ({ file, name, lines }));
    assert.equal(sizes, [
      { file: 'a/f.ts', name: 'long', lines: 121 },
      { file: 'a/f.ts', name: 'arrow', lines: 81 },
      { file: 'a/f.ts', name: 'method', lines: 6 },
      { file: 'a/f.ts', name: '(callback of [1].map)', lines: 4 },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const real = functionSizes(join(PROJECT, 'src'));

test(`no function in src/ is over ${LONGEST} lines (split it into named steps)`, () => {
  assert.ok(real.length > 500, `measured ${real.length} functions`);
  assert.equal(listed(real.filter((s) => s.lines > LONGEST && BEING_REWRITTEN[key(s)] === undefined)), []);
});

test('each function let off the limit while it is rewritten elsewhere is still over it (else drop it from BEING_REWRITTEN)', () => {
  const over = new Set(real.filter((s) => s.lines > LONGEST).map(key));
  assert.equal(
    Object.keys(BEING_REWRITTEN).filter((k) => !over.has(k)),
    [],
  );
});

test(`at most ${MAX_LONG} functions in src/ are over ${LONG} lines (split one into named steps)`, () => {
  const long = real.filter((s) => s.lines > LONG);
  assert.ok(long.length <= MAX_LONG, `${long.length} over ${LONG} lines:\n${listed(long).join('\n')}`);
});

test.run();
