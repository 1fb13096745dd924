/**
 * JSON test reports to test outcomes: jest's `--json` (vitest's json reporter writes the same shape)
 * and `go test -json` event lines. Pure. A test file that could not run at all is listed apart
 * (`broken`): it is no test's failure.
 */
import { isAbsolute, posix, relative, sep } from 'node:path';
import type { TestOutcome, IdContext } from './junit.js';

export type JsonParse = { ok: true; cases: TestOutcome[]; broken: string[] } | { ok: false; why: string };

function repoPath(file: string, ctx: IdContext): string {
  let p = file.replace(/^file:\/\//, '');
  if (isAbsolute(p)) {
    const rel = ctx.root ? relative(ctx.root, p) : p;
    if (rel.startsWith('..')) return p;
    p = rel;
  } else if (ctx.base && ctx.base !== '.') p = posix.join(ctx.base.split(sep).join('/'), p);
  return posix.normalize(p.split(sep).join('/')).replace(/^\.\//, '');
}

const OUTCOME: Record<string, TestOutcome['outcome'] | undefined> = {
  passed: 'pass',
  failed: 'fail',
  pending: 'skip',
  skipped: 'skip',
  todo: 'skip',
  disabled: 'skip',
  focused: 'pass',
};

interface JestFile {
  name?: unknown;
  status?: unknown;
  message?: unknown;
  testExecError?: unknown;
  assertionResults?: unknown;
}

interface JestAssertion {
  ancestorTitles?: unknown;
  title?: unknown;
  status?: unknown;
}

/** jest `--json` / vitest `--reporter=json`: `testResults[]` of files, each with `assertionResults[]`. */
export function parseJestJson(text: string, ctx: IdContext = {}): JsonParse {
  if (text.trim() === '') return { ok: false, why: 'the file is empty' };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { ok: false, why: `not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  const files = (doc as { testResults?: unknown } | null)?.testResults;
  if (!Array.isArray(files)) return { ok: false, why: 'no "testResults" list: not a jest or vitest JSON report' };
  const byId = new Map<string, TestOutcome['outcome']>();
  const broken: string[] = [];
  for (const f of files as JestFile[]) {
    const file = typeof f?.name === 'string' ? repoPath(f.name, ctx) : '(unnamed file)';
    const asserts = Array.isArray(f?.assertionResults) ? (f.assertionResults as JestAssertion[]) : [];
    if (asserts.length === 0 && (f?.status === 'failed' || f?.testExecError)) {
      broken.push(file);
      continue;
    }
    for (const a of asserts) {
      const titles = Array.isArray(a?.ancestorTitles) ? a.ancestorTitles.filter((t): t is string => typeof t === 'string' && t !== '') : [];
      const id = `${file}::${[...titles, typeof a?.title === 'string' ? a.title : '(unnamed test)'].join(' > ')}`;
      const outcome = OUTCOME[String(a?.status)] ?? 'fail';
      if (byId.get(id) !== 'fail') byId.set(id, outcome);
    }
  }
  return { ok: true, cases: [...byId].map(([id, outcome]) => ({ id, outcome })), broken };
}

interface GoEvent {
  Action?: unknown;
  Package?: unknown;
  Test?: unknown;
  FailedBuild?: unknown;
  ImportPath?: unknown;
}

/** `go test -json` event lines (test2json): a test's last pass/fail/skip; a package failing with no failed test could not build or run. */
export function parseGoJson(text: string): JsonParse {
  const byId = new Map<string, TestOutcome['outcome']>();
  const failedPkgs = new Set<string>();
  const pkgsWithFailedTests = new Set<string>();
  let events = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let e: GoEvent;
    try {
      e = JSON.parse(line) as GoEvent;
    } catch {
      continue;
    }
    events++;
    const action = e.Action;
    const pkg = typeof e.Package === 'string' ? e.Package : typeof e.ImportPath === 'string' ? e.ImportPath.split(' ')[0]! : '';
    if (action === 'build-fail') failedPkgs.add(pkg);
    if (action !== 'pass' && action !== 'fail' && action !== 'skip') continue;
    if (typeof e.Test !== 'string') {
      if (action === 'fail') failedPkgs.add(pkg);
      continue;
    }
    const outcome = action === 'pass' ? 'pass' : action === 'fail' ? 'fail' : 'skip';
    if (outcome === 'fail') pkgsWithFailedTests.add(pkg);
    byId.set(`${pkg}::${e.Test}`, outcome);
  }
  if (events === 0) return { ok: false, why: 'no `go test -json` events in it' };
  const broken = [...failedPkgs].filter((p) => !pkgsWithFailedTests.has(p));
  return { ok: true, cases: [...byId].map(([id, outcome]) => ({ id, outcome })), broken };
}
