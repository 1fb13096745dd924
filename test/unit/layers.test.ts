/**
 * The layout's rules (docs/architecture.md), checked over the sources: imports go downward only,
 * there is no import cycle, and the pure policy modules reach no I/O, however indirectly.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT } from '../helpers/repo.js';
import { tsSources } from '../helpers/sources.js';

const SRC = join(PROJECT, 'src');

/** Lower ranks are lower layers; a module may import its own folder and any lower rank. */
const RANK: Record<string, number> = {
  util: 0,
  git: 1,
  config: 1,
  ledger: 1,
  evidence: 2,
  slots: 2,
  runners: 2,
  gates: 3,
  route: 3,
  report: 3,
  verdict: 4,
  'lint-staged': 4,
  run: 5,
  replay: 6,
  install: 6,
  commands: 7,
  cli: 8,
};
/**
 * src/types.ts holds the public types (what a config is written with, what src/index.ts exports): anyone
 * may import it. So it imports types only, and only what a public type needs, from PUBLIC_NEEDS, which
 * import nothing of src/ themselves; every internal model lives beside its owner, in its layer.
 */
const TOP: Record<string, number> = { 'types.ts': -1, 'bin.ts': 9, 'index.ts': 9 };
const PUBLIC_NEEDS = new Set([
  // TierConfig's `runner`: the runners' names.
  'config/runner-names.ts',
]);

/** Pure policy: decides from values, touches no file, process or network, not even through an import. */
const POLICY = [
  'route/route.ts',
  'config/runner-names.ts',
  'verdict/verdict.ts',
  'route/calibrate.ts',
  'verdict/runner-output.ts',
  'runners/index.ts',
  'runners/detect.ts',
  'evidence/json-report.ts',
  'util/glob.ts',
  'git/push-refs.ts',
  'git/change-list.ts',
  'evidence/freeze.ts',
  'evidence/history.ts',
  'evidence/resolve-id.ts',
  'report/tests-section.ts',
  'report/figures.ts',
  'report/advice.ts',
  'report/order.ts',
  'report/trend.ts',

  'report/render.ts',
  'report/html.ts',
  'report/svg.ts',
  'replay/shard.ts',
  'ledger/identity.ts',
  'run/ci-target.ts',
  'verdict/fault.ts',
  'verdict/output-summary.ts',
  'verdict/output-failures.ts',
  'report/ci-summary.ts',
  'report/ci-annotations.ts',
  'ledger/predict.ts',
  'route/order-plan.ts',
  'report/order-eval.ts',
  'install/hook-managers.ts',
  'install/check-twin.ts',
];
const IO = /^(node:)?(fs|fs\/promises|child_process|net|http|https|dgram|worker_threads|cluster)$/;

/**
 * The one import that points up, on purpose: a user's config imports 'gate-ladder', and the loader
 * hands it the library (src/index.ts) as that module. It is the user's edge, not ours.
 */
const ALLOWED = new Set(['config/load.ts -> index.ts']);

interface Edge {
  to: string;
  typeOnly: boolean;
}

type Graph = Map<string, Edge[]>;

/** Every import and re-export of every source, relative ones as src-relative paths, others by name. */
function graph(): Graph {
  const g: Graph = new Map();
  for (const file of tsSources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const edges: Edge[] = [];
    const add = (spec: string, typeOnly: boolean) => {
      const to = spec.startsWith('.') ? relative(SRC, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))) : spec;
      edges.push({ to, typeOnly });
    };
    const visit = (n: ts.Node) => {
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
        const typeOnly = ts.isImportDeclaration(n) ? n.importClause?.isTypeOnly === true : n.isTypeOnly;
        add(n.moduleSpecifier.text, typeOnly);
      } else if (
        ts.isCallExpression(n) &&
        n.expression.kind === ts.SyntaxKind.ImportKeyword &&
        n.arguments[0] &&
        ts.isStringLiteral(n.arguments[0])
      ) {
        add(n.arguments[0].text, false);
      } else if (
        ts.isCallExpression(n) &&
        n.expression.getText(sf) === 'process.getBuiltinModule' &&
        n.arguments[0] &&
        ts.isStringLiteral(n.arguments[0])
      ) {
        // A builtin loaded on first use (util/spawn.ts, util/colour.ts...) is an import all the same.
        add(n.arguments[0].text, false);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    g.set(relative(SRC, file), edges);
  }
  return g;
}

function rank(file: string): number | undefined {
  const top = file.split('/')[0]!;
  return file.includes('/') ? RANK[top] : TOP[top];
}

/** Imports that climb, type-only ones included: to a higher layer, or from types.ts to anything but a public type's need, as a type. */
export function upward(g: Graph): string[] {
  const bad: string[] = [];
  for (const [from, edges] of g) {
    for (const e of edges) {
      if (!g.has(e.to)) continue;
      const key = `${from} -> ${e.to}`;
      if (ALLOWED.has(key)) continue;
      const a = rank(from);
      const b = rank(e.to);
      if (a === undefined || b === undefined) bad.push(`${key} (not in a known folder)`);
      else if (from === 'types.ts' ? !e.typeOnly || !PUBLIC_NEEDS.has(e.to) : b > a) bad.push(key);
    }
  }
  return bad;
}

/** Import cycles, each as the path round it. */
export function cycles(g: Graph): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (f: string) => {
    const at = stack.indexOf(f);
    if (at >= 0) {
      found.push([...stack.slice(at), f].join(' -> '));
      return;
    }
    if (done.has(f)) return;
    stack.push(f);
    for (const e of g.get(f) ?? []) if (g.has(e.to) && !ALLOWED.has(`${f} -> ${e.to}`)) visit(e.to);
    stack.pop();
    done.add(f);
  };
  for (const f of g.keys()) visit(f);
  return found;
}

/** For each policy module, the I/O it reaches through its (non-type) imports. */
export function impure(g: Graph, policy: readonly string[]): string[] {
  const bad: string[] = [];
  for (const p of policy) {
    const seen = new Set<string>();
    const walk = (f: string, path: string[]) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const e of g.get(f) ?? []) {
        if (e.typeOnly) continue;
        if (IO.test(e.to)) bad.push(`${[...path, f].join(' -> ')} imports ${e.to}`);
        else if (g.has(e.to)) walk(e.to, [...path, f]);
      }
    };
    if (!g.has(p)) bad.push(`${p}: no such module (update the POLICY list)`);
    walk(p, []);
  }
  return bad;
}

const edges = (...to: (string | [string, boolean])[]): Edge[] =>
  to.map((t) => (typeof t === 'string' ? { to: t, typeOnly: false } : { to: t[0], typeOnly: t[1] }));

test('the checks catch what they claim to (a made-up graph)', () => {
  const g: Graph = new Map([
    ['git/a.ts', edges('run/b.ts')],
    ['run/b.ts', edges('git/a.ts', 'util/c.ts')],
    ['util/c.ts', edges('node:fs')],
    ['route/route.ts', edges('util/c.ts', ['git/d.ts', true])],
    ['git/d.ts', edges('node:child_process')],
    ['git/e.ts', edges(['route/f.ts', true])],
    ['route/f.ts', edges()],
    ['config/runner-names.ts', edges()],
    ['types.ts', edges('git/d.ts', ['git/a.ts', true], ['config/runner-names.ts', true], 'config/runner-names.ts')],
  ]);
  assert.equal(upward(g), [
    'git/a.ts -> run/b.ts',
    'git/e.ts -> route/f.ts',
    'types.ts -> git/d.ts',
    'types.ts -> git/a.ts',
    'types.ts -> config/runner-names.ts',
  ]);
  assert.equal(cycles(g), ['git/a.ts -> run/b.ts -> git/a.ts']);
  assert.equal(impure(g, ['route/route.ts']), ['route/route.ts -> util/c.ts imports node:fs']);
});

const real = graph();

test('every source sits in a known folder and imports only downward', () => {
  assert.ok(real.size > 40, `found ${real.size} sources`);
  assert.equal(upward(real), []);
});

test("src/types.ts's imports are a public type's needs, which import nothing of src/", () => {
  const needs = (real.get('types.ts') ?? []).filter((e) => real.has(e.to)).map((e) => e.to);
  assert.ok(
    needs.every((n) => PUBLIC_NEEDS.has(n)),
    needs.join(', '),
  );
  for (const n of PUBLIC_NEEDS)
    assert.equal(
      (real.get(n) ?? []).filter((e) => real.has(e.to)).map((e) => e.to),
      [],
      n,
    );
});

test('no import cycles', () => {
  assert.equal(cycles(real), []);
});

test('pure policy modules reach no file, process or network module', () => {
  assert.equal(impure(real, POLICY), []);
});

test('src/ keeps only the entry points and the public types at its top', () => {
  const top = readdirSync(SRC)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  assert.equal(top, ['bin.ts', 'index.ts', 'types.ts']);
});

test('no folder of src/ holds more than 16 source files (a room a newcomer can name; split it by concern)', () => {
  const over: string[] = [];
  const visit = (dir: string) => {
    const entries = readdirSync(dir);
    const files = entries.filter((e) => e.endsWith('.ts')).length;
    if (files > 16) over.push(`${relative(SRC, dir) || 'src'}: ${files} files`);
    for (const e of entries) if (statSync(join(dir, e)).isDirectory()) visit(join(dir, e));
  };
  visit(SRC);
  assert.equal(over, []);
});

test.run();
