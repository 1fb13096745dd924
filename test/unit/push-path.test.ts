/**
 * What a push loads before it knows it needs more (issue 41): the modules src/cli/entry.ts reaches by
 * static imports are what every push parses, compiles and runs, whatever it then does. Everything a
 * push needs only sometimes (running a gate, reading a runner's output, isolating, the evidence of a
 * JUnit report, predicting, the yargs CLI) is behind an `await import()`, and Node's built-ins that
 * have an ES facade are taken through src/util/node.ts. `npm run bench` (bench-startup's `reads`
 * line) measures what this keeps: the KB of dist/ a push reads.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT } from '../helpers/repo.js';
import { tsSources } from '../helpers/sources.js';

const SRC = join(PROJECT, 'src');

/** The modules a source loads when it loads: value imports and re-exports (not types, not `import()`). */
function staticImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  for (const n of sf.statements) {
    if (!(ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) || !n.moduleSpecifier || !ts.isStringLiteral(n.moduleSpecifier)) continue;
    if (ts.isImportDeclaration(n)) {
      const clause = n.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      // `import { type A, type B } from` loads nothing once compiled.
      if (
        clause &&
        !clause.name &&
        named &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly)
      )
        continue;
    } else if (n.isTypeOnly) continue;
    const spec = n.moduleSpecifier.text;
    out.push(spec.startsWith('.') ? relative(SRC, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))) : spec);
  }
  return out;
}

/** The src-relative modules and the outside modules `start` reaches by static imports, `read` giving a source's text. */
function closure(
  start: string,
  read: (file: string) => string = (f) => readFileSync(f, 'utf8'),
): { ours: Set<string>; outside: Set<string> } {
  const ours = new Set<string>();
  const outside = new Set<string>();
  const visit = (mod: string) => {
    if (ours.has(mod)) return;
    ours.add(mod);
    const file = join(SRC, mod);
    for (const to of staticImports(file, read(file))) {
      if (to.endsWith('.ts')) visit(to);
      else outside.add(to);
    }
  };
  visit(start);
  return { ours, outside };
}

/** Needed only by some pushes, or by other commands: each must stay behind an `await import()`. */
const NOT_ON_EVERY_PUSH: readonly [RegExp, string][] = [
  [/^verdict\//, 'reading a gate verdict: only once a gate ran'],
  [
    /^runners\/(tests|checks)\/|^runners\/(index|read|detect|workspaces)\.ts$/,
    'runner records and detection: only for a gate, --json or --dry-run',
  ],
  [/^slots\//, 'the worktree pool: only when gates run in a slot'],
  [/^evidence\//, 'JUnit reports and per-test history: only for a tier with a report'],
  [/^lint-staged\/(tier|guard|stash)\.ts$/, 'lint-staged: only for a lint-staged tier'],
  [/^run\/(gates-step|isolation|ladder)\.ts$/, 'running gates: only when a gate is about to run'],
  [/^gates\/gate\.ts$/, 'starting a gate process: only when a gate runs'],
  [/^ledger\/predict\.ts$|^report\/order/, "predicting an order: only for order: 'predicted' or select"],
  [/^config\/load(-worker)?\.ts$/, "loading a TypeScript config: only for a config the cache hasn't seen"],
  [/^cli\/main\.ts$|^commands\/(?!run\.ts)/, 'the yargs CLI and the other commands'],
];

/** Node built-ins whose ES facade loads their lazy parts (util/node.ts says what). */
const FACADED = /^node:(fs|util|buffer|module|os)$/;

test('every push loads none of what only some pushes need', () => {
  const { ours, outside } = closure('cli/entry.ts');
  const wrong = [...ours].flatMap((mod) => NOT_ON_EVERY_PUSH.filter(([re]) => re.test(mod)).map(([, why]) => `${mod} (${why})`));
  assert.equal(wrong, []);
  // Nothing from node_modules either (yargs, picomatch, jiti load on demand), and node:path is the one built-in imported.
  assert.equal(
    [...outside].filter((m) => m !== 'node:path'),
    [],
  );
  // The closure is what it claims: the run command and the tree cache are in it.
  assert.ok(ours.has('commands/run.ts') && ours.has('run/tree-cache.ts'), [...ours].join(' '));
});

test('a static import of a gate-run module from the push path is seen (the check can fail)', () => {
  const planted = (f: string) => {
    const text = readFileSync(f, 'utf8');
    return f.endsWith(join('commands', 'run.ts')) ? `import { verdictOf } from '../verdict/verdict.js';\nvoid verdictOf;\n${text}` : text;
  };
  const { ours } = closure('cli/entry.ts', planted);
  assert.ok(ours.has('verdict/verdict.ts'));
  assert.ok(NOT_ON_EVERY_PUSH.some(([re]) => re.test('verdict/verdict.ts')));
});

test('src/ takes fs, util, buffer, module and os through util/node.ts, never as ES modules', () => {
  const wrong: string[] = [];
  for (const file of tsSources(SRC)) {
    const mod = relative(SRC, file);
    if (mod === join('util', 'node.ts')) continue;
    for (const to of staticImports(file)) if (FACADED.test(to)) wrong.push(`${mod} imports ${to}`);
  }
  assert.equal(wrong, []);
  assert.equal(staticImports(join(SRC, 'util', 'node.ts')), []);
});

test('the static-import reader skips types and sees re-exports', () => {
  const text = [
    "import type { A } from 'node:fs';",
    "import { type B, type C } from './b.js';",
    "import { d } from './d.js';",
    "export { e } from './e.js';",
    "export type { F } from './f.js';",
    "const g = await import('./g.js');",
  ].join('\n');
  assert.equal(staticImports(join(SRC, 'x.ts'), text), ['d.ts', 'e.ts']);
});

test.run();
