import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isAbsolute, posix, relative, sep } from 'node:path';
import type { RunnerName } from '../types.js';

/** A failed test as its JUnit report tells it: the file and line (when the report or its stack names them) and its message. */
export interface TestFailure {
  id: string;
  /** The title path (`math > adds`), without the file. */
  title: string;
  /** Repository-relative, when the report names a file inside the repository. */
  file?: string;
  line?: number;
  message: string;
}

export interface TestOutcome {
  /** File plus title path, normalized per runner (e.g. `test/a.test.ts::math > adds`). */
  id: string;
  outcome: 'pass' | 'fail' | 'skip';
}

/** A `<testcase>` as the report spells it, with the suites around it. */
export interface RawCase {
  name: string;
  classname: string;
  /** The testcase's own `file` attribute (jest-junit `addFileAttribute`, pytest xunit1, newer node). */
  file?: string;
  /** The nearest enclosing `<testsuite file="...">` (mocha-junit-reporter). */
  suiteFile?: string;
  /** Names of the enclosing `<testsuite>` elements, outermost first. */
  suites: string[];
  outcome: TestOutcome['outcome'];
  /** The testcase's `line` attribute, when the reporter writes one. */
  line?: string;
  /** A failed case's first `<failure>` or `<error>`: its `message` attribute and its text (raw, as in the file). */
  failure?: { message?: string; text?: string };
}

export interface IdContext {
  runner?: RunnerName;
  /** Whether a path relative to the tier's cwd exists: lets pytest ids without a `file` attribute find their module. */
  exists?: (path: string) => boolean;
  /** The tier's cwd relative to the repository root, for relative file paths (default `.`). */
  base?: string;
  /** Absolute directory the gate ran in (repo root or worktree), to make absolute paths relative. */
  root?: string;
}

const LISTS = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '@',
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && LISTS.has(name),
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Numeric character references (&#x263A;) are decoded only with this on.
  htmlEntities: true,
  // Failure bodies and captured output are never read; keeping them raw is faster and safer.
  stopNodes: ['*.failure', '*.error', '*.skipped', '*.system-out', '*.system-err'],
});

type Node = Record<string, unknown>;
const attrs = (node: Node): Record<string, string> => (node['@'] as Record<string, string> | undefined) ?? {};
const list = (node: Node, key: string): Node[] => (Array.isArray(node[key]) ? (node[key] as Node[]) : []);

function outcomeOf(tc: Node): TestOutcome['outcome'] {
  // node:test marks a failing `todo` test with both <skipped> and <failure>; it does not fail the run.
  if (tc.skipped !== undefined) return 'skip';
  if (tc.failure !== undefined || tc.error !== undefined) return 'fail';
  return 'pass';
}

function walk(node: Node, suites: string[], suiteFile: string | undefined, out: RawCase[]): void {
  for (const tc of list(node, 'testcase')) {
    const a = attrs(tc);
    const outcome = outcomeOf(tc);
    out.push({
      name: a.name ?? '',
      classname: a.classname ?? '',
      ...(a.file && { file: a.file }),
      ...(suiteFile && { suiteFile }),
      suites,
      outcome,
      ...(a.line && { line: a.line }),
      ...(outcome === 'fail' && { failure: failureOf(tc) }),
    });
  }
  for (const ts of list(node, 'testsuite')) {
    const a = attrs(ts);
    walk(ts, [...suites, a.name ?? ''], a.file ?? suiteFile, out);
  }
}

/** The first `<failure>` or `<error>` of a test case (kept raw by the parser: see stopNodes). */
function failureOf(tc: Node): { message?: string; text?: string } {
  const first = (list(tc, 'failure')[0] ?? list(tc, 'error')[0]) as unknown;
  if (typeof first === 'string') return { text: first };
  if (first === null || typeof first !== 'object') return {};
  const f = first as Node;
  const message = attrs(f).message;
  const text = typeof f['#text'] === 'string' ? f['#text'] : undefined;
  return { ...(message && { message }), ...(text && { text }) };
}

/** JUnit XML text to raw test cases; `ok: false` says why the text is not a readable report. Pure. */
export function parseJUnitCases(xml: string): { ok: true; cases: RawCase[] } | { ok: false; why: string } {
  if (xml.trim() === '') return { ok: false, why: 'the file is empty' };
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { ok: false, why: `not well-formed XML (line ${valid.err.line}: ${valid.err.msg})` };
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch (err) {
    return { ok: false, why: `not readable XML (${err instanceof Error ? err.message : String(err)})` };
  }
  const out: RawCase[] = [];
  if ('testsuites' in doc) {
    const root = doc.testsuites;
    if (root !== null && typeof root === 'object') walk(root as Node, [], undefined, out);
  } else if ('testsuite' in doc) {
    walk(doc, [], undefined, out);
  } else {
    return { ok: false, why: 'no <testsuites> or <testsuite> element: not a JUnit report' };
  }
  return { ok: true, cases: out };
}

/** Report paths already made repo-relative, per IdContext: a 150,000-case report names a few hundred files. */
const pathMemo = new WeakMap<IdContext, Map<string, string>>();

/** A report path to a repo-relative posix path: absolute ones against `root`, relative ones under `base`. */
function repoPath(file: string, ctx: IdContext): string {
  let memo = pathMemo.get(ctx);
  if (memo === undefined) pathMemo.set(ctx, (memo = new Map()));
  let p = memo.get(file);
  if (p === undefined) memo.set(file, (p = repoPathOf(file, ctx)));
  return p;
}

function repoPathOf(file: string, ctx: IdContext): string {
  let p = file.replace(/^file:\/\//, '');
  if (isAbsolute(p)) {
    if (!ctx.root) return p;
    const rel = relative(ctx.root, p);
    if (rel.startsWith('..')) return p;
    p = rel;
  } else if (ctx.base && ctx.base !== '.') {
    p = posix.join(ctx.base.split(sep).join('/'), p);
  }
  return posix.normalize(p.split(sep).join('/')).replace(/^\.\//, '');
}

/**
 * pytest's dotted `tests.unit.test_x.TestK` to the file and the class names after it. The report's
 * `file` attribute (junit_family=xunit1) says where the module ends; without it (xunit2, pytest's
 * default) the files that exist decide (`exists`, when the caller can look), else the trailing run of
 * CamelCase names are the classes (PEP 8: classes are CamelCase, modules are not).
 */
export function pytestParts(
  classname: string,
  file: string | undefined,
  exists?: (path: string) => boolean,
): { file: string; classes: string[] } {
  const parts = classname.split('.').filter(Boolean);
  if (file) {
    const mod = file
      .replace(/\\/g, '/')
      .replace(/\.py$/, '')
      .split('/')
      .filter((s) => s !== '' && s !== '.')
      .join('.');
    if (classname === mod) return { file, classes: [] };
    if (mod !== '' && classname.startsWith(`${mod}.`))
      return {
        file,
        classes: classname
          .slice(mod.length + 1)
          .split('.')
          .filter(Boolean),
      };
    // A file attribute that is not the classname's module (a rootdir elsewhere): the classes are the CamelCase tail.
    return { file, classes: parts.slice(camelTail(parts)) };
  }
  if (exists) {
    const found = findModule(parts, exists);
    if (found !== undefined) return found;
  }
  const i = camelTail(parts);
  return { file: `${parts.slice(0, i).join('/')}.py`, classes: parts.slice(i) };
}

/** Where the trailing run of CamelCase names starts (a folder may be capitalised; the module and the classes after it decide). */
function camelTail(parts: readonly string[]): number {
  let i = parts.length;
  while (i > 1 && /^[A-Z]/.test(parts[i - 1]!)) i--;
  return i;
}

/**
 * The longest prefix of `parts` that is a Python file, with dots inside folder or file names allowed
 * (`tests/v1.2/test_x.py` is the classname `tests.v1.2.test_x`): folders are checked as they are walked.
 */
function findModule(parts: readonly string[], exists: (path: string) => boolean): { file: string; classes: string[] } | undefined {
  for (let k = parts.length; k >= 1; k--) {
    const walk = (i: number, prefix: string): string | undefined => {
      for (let j = k; j > i; j--) {
        const seg = parts.slice(i, j).join('.');
        const path = prefix ? `${prefix}/${seg}` : seg;
        if (j === k) {
          if (exists(`${path}.py`)) return `${path}.py`;
        } else if (exists(path)) {
          const deeper = walk(j, path);
          if (deeper !== undefined) return deeper;
        }
      }
      return undefined;
    };
    const file = walk(0, '');
    if (file !== undefined) return { file, classes: parts.slice(k) };
  }
  return undefined;
}

interface Named {
  file?: string;
  /** A path-like file is joined with the tier's cwd; a package or binary id is kept as written. */
  fileIsPath: boolean;
  path: string[];
}

function split(name: string, separator: string): string[] {
  return name
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Each runner spells identity differently; this brings them all to file + title path. */
function nameOf(c: RawCase, runner: RunnerName | undefined, exists?: (path: string) => boolean): Named {
  switch (runner) {
    case 'pytest': {
      if (c.classname === '') return { file: pytestParts(c.name, c.file, exists).file, fileIsPath: true, path: [] }; // a collection error
      const { file, classes } = pytestParts(c.classname, c.file, exists);
      return { file, fileIsPath: true, path: [...classes, c.name] };
    }
    case 'jest':
      // jest-junit repeats "{describe titles} {title}" in both fields; a suite that cannot load names its file.
      if (c.classname === 'Test suite failed to run') return { file: c.name, fileIsPath: true, path: [] };
      return { ...(c.file && { file: c.file }), fileIsPath: true, path: [c.name] };
    case 'node':
      // A test file that fails to load is reported as a test named by its path (see nodeFileCase).
      if (nodeFileCase(c)) return { file: c.file ?? c.name, fileIsPath: true, path: [] };
      // node's classname is always "test"; describe blocks are nested <testsuite>s.
      return { ...(c.file && { file: c.file }), fileIsPath: true, path: [...c.suites, c.name].filter(Boolean) };
    case 'mocha': {
      // mocha-junit-reporter: name is the full title, classname the test's own title (swapped in jenkins mode).
      const [full, own] = c.classname.length > c.name.length ? [c.classname, c.name] : [c.name, c.classname];
      const path = own && full !== own && full.endsWith(own) ? [full.slice(0, -own.length).trim(), own] : [full];
      const file = c.file ?? c.suiteFile;
      return { ...(file && { file }), fileIsPath: true, path: path.filter(Boolean) };
    }
    case 'vitest':
      return { file: c.file ?? c.classname, fileIsPath: true, path: split(c.name, ' > ') };
    case 'playwright':
      return { file: c.file ?? c.classname, fileIsPath: true, path: split(c.name, ' › ') };
    case 'tap': {
      // tap's junit reporter: classname is `file > subtest > ...`, name the test or assertion; only failures carry `file`.
      const [first, ...inner] = split(c.classname, ' > ');
      return { ...((c.file ?? first) && { file: c.file ?? first }), fileIsPath: true, path: [...inner, c.name].filter(Boolean) };
    }
    case 'go':
    case 'nextest':
    case 'cargo':
      // The package (go) or test binary (nextest) stands where a file would.
      return { ...(c.classname && { file: c.classname }), fileIsPath: false, path: [c.name] };
    default: {
      const file = c.file ?? c.suiteFile;
      const path = c.classname && c.classname !== c.name ? [c.classname, c.name] : [c.name];
      return { ...(file && { file }), fileIsPath: true, path };
    }
  }
}

/** The id history is kept under: `file::title > path` (pytest: its own `file::Class::test`). Pure. */
export function testId(c: RawCase, ctx: IdContext = {}): string {
  const n = nameOf(c, ctx.runner, ctx.exists);
  const title = n.path.join(ctx.runner === 'pytest' ? '::' : ' > ');
  const file = n.file === undefined || n.file === '' ? undefined : n.fileIsPath ? repoPath(n.file, ctx) : n.file;
  if (file === undefined) return title || '(unnamed test)';
  return title ? `${file}::${title}` : file;
}

/** Normalized outcomes, and the ids that more than one test case of the report produced. */
export interface Normalized {
  cases: TestOutcome[];
  /**
   * Ids several test cases share: two files' tests with one title, when the report names no file
   * (node 20's reporter, jest-junit without `addFileAttribute`). Such an id names no one test, so no
   * freeze may name it and no freeze forgives its failure.
   */
  dup: string[];
}

/**
 * node:test's case for a whole test file rather than a test: the file failed to load (or its process
 * exited before reporting). Node 20 and 22 name it by the absolute path; Node 23 and later by the path
 * as given, with the absolute one in `file` (`name="test/b.test.mjs" file="/repo/test/b.test.mjs"`).
 */
function nodeFileCase(c: RawCase): boolean {
  if (c.suites.length > 0) return false;
  if (isAbsolute(c.name)) return true;
  const name = c.name.replace(/^\.\//, '').replace(/\/+$/, '');
  return c.file !== undefined && name !== '' && (c.file === name || c.file.endsWith(`/${name}`));
}

/**
 * A failed case that stands for a test file that could not load, not a test: jest-junit's "Test suite
 * failed to run", node's case named by the file's absolute path, pytest's collection error (no classname).
 */
function isLoadFailure(c: RawCase, runner: RunnerName | undefined): boolean {
  if (c.outcome !== 'fail') return false;
  if (runner === 'jest') return c.classname === 'Test suite failed to run';
  if (runner === 'node') return nodeFileCase(c);
  if (runner === 'pytest') return c.classname === '';
  return false;
}

/** pytest classnames repeat for every test of a class: `ctx` with each path looked up once. */
function lookingOnce(ctx: IdContext): IdContext {
  const exists = ctx.exists;
  if (exists === undefined) return ctx;
  const memo = new Map<string, boolean>();
  const once = (p: string) => {
    let v = memo.get(p);
    if (v === undefined) memo.set(p, (v = exists(p)));
    return v;
  };
  return { ...ctx, exists: once };
}

/**
 * Test outcomes with normalized ids; a test listed more than once (two files node 20 cannot tell
 * apart, or a runner listing a retried test twice) failed if any listing failed, else passed if any
 * passed, and its id is in `dup`. Pure.
 */
export function normalizeCases(cases: readonly RawCase[], ctx: IdContext = {}): Normalized {
  const rank = { skip: 0, pass: 1, fail: 2 } as const;
  const byId = new Map<string, TestOutcome['outcome']>();
  const dup = new Set<string>();
  const c2 = lookingOnce(ctx);
  for (const c of cases) {
    const id = testId(c, c2);
    const prev = byId.get(id);
    if (prev !== undefined) dup.add(id);
    if (prev === undefined || rank[c.outcome] > rank[prev]) byId.set(id, c.outcome);
  }
  return { cases: [...byId].map(([id, outcome]) => ({ id, outcome })), dup: [...dup] };
}

export type JUnitParse =
  | { ok: true; cases: TestOutcome[]; dup: string[]; broken?: string[]; failures?: TestFailure[] }
  | { ok: false; why: string };

/**
 * JUnit XML to normalized test outcomes; files that could not load are listed apart (`broken`); each
 * failed test's file, line and message (`failures`), for CI annotations. Pure (given a pure `exists`).
 */
export function parseJUnit(xml: string, ctx: IdContext = {}): JUnitParse {
  const raw = parseJUnitCases(xml);
  if (!raw.ok) return raw;
  ctx = lookingOnce(ctx);
  const load = raw.cases.filter((c) => isLoadFailure(c, ctx.runner));
  const tests = load.length === 0 ? raw.cases : raw.cases.filter((c) => !isLoadFailure(c, ctx.runner));
  const failures = testFailures(tests, ctx);
  return {
    ok: true,
    ...normalizeCases(tests, ctx),
    ...(load.length > 0 && { broken: normalizeCases(load, ctx).cases.map((c) => c.id) }),
    ...(failures.length > 0 && { failures }),
  };
}

/** Each failed test once (its first failed listing): where the report or its stack puts it, and what it said. Pure. */
export function testFailures(cases: readonly RawCase[], ctx: IdContext = {}): TestFailure[] {
  const seen = new Set<string>();
  const out: TestFailure[] = [];
  for (const c of cases) {
    if (c.outcome !== 'fail') continue;
    const id = testId(c, ctx);
    if (seen.has(id)) continue;
    seen.add(id);
    const n = nameOf(c, ctx.runner);
    const path = n.file !== undefined && n.file !== '' && n.fileIsPath ? repoPath(n.file, ctx) : undefined;
    const text = c.failure?.text !== undefined ? xmlText(c.failure.text) : '';
    // A report that names no file (node 20 and 22): the first stack frame in the repository, outside its dependencies.
    const framed = path === undefined ? frameIn(text, ctx) : undefined;
    const named = path !== undefined && !isAbsolute(path) && !path.startsWith('../') ? path : undefined;
    const file = named ?? framed?.file;
    const line = framed?.line ?? lineOf(c.line, file, text);
    const message =
      c.failure?.message ??
      text
        .split('\n')
        .find((l) => l.trim() !== '')
        ?.trim() ??
      'failed';
    out.push({
      id,
      title: n.path.join(ctx.runner === 'pytest' ? '::' : ' > ') || id,
      ...(file && { file }),
      ...(line !== undefined && { line }),
      message,
    });
  }
  return out;
}

/** The first stack frame of `text` (`/abs/path:line:col`, or a file:// URL) inside `ctx.root` and not under node_modules. */
function frameIn(text: string, ctx: IdContext): { file: string; line: number } | undefined {
  if (!ctx.root || text === '') return undefined;
  for (const m of text.matchAll(/(?:file:\/\/)?(\/[^\s():'"]+):(\d+):\d+/g)) {
    const p = repoPath(m[1]!, ctx);
    if (isAbsolute(p) || p.startsWith('../') || p.split('/').includes('node_modules')) continue;
    return { file: p, line: Number(m[2]) };
  }
  return undefined;
}

/** The testcase's `line`, else the first `<file>:<line>` of the failure's text (a stack frame in the test's own file). */
function lineOf(attr: string | undefined, file: string | undefined, text: string): number | undefined {
  const n = attr !== undefined ? Number(attr) : NaN;
  if (Number.isInteger(n) && n > 0) return n;
  if (file === undefined || text === '') return undefined;
  const at = new RegExp(`(?:^|[\\s(/'"])${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)`, 'm').exec(text);
  return at ? Number(at[1]) : undefined;
}

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** A raw element text as its reader means it: CDATA unwrapped, entities decoded. Pure. */
export function xmlText(raw: string): string {
  return raw.replace(
    /<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g,
    (_m, cdata: string | undefined, ent: string | undefined) => {
      if (cdata !== undefined) return cdata;
      if (ent!.startsWith('#')) {
        const code = ent!.startsWith('#x') ? parseInt(ent!.slice(2), 16) : Number(ent!.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      return XML_ENTITIES[ent!]!;
    },
  );
}

/** What reading a tier's report after its gate found. */
export type ReportRead =
  /** `broken`: test files that could not run at all (listed as such by the runner), apart from the cases; `dup`: ids several cases shared. */
  | { kind: 'ok'; cases: TestOutcome[]; broken?: string[]; dup?: string[]; failures?: TestFailure[] }
  | { kind: 'missing' }
  /** Older than this gate run: left by an earlier run, so it says nothing about this one. */
  | { kind: 'stale'; written: string }
  | { kind: 'unreadable'; why: string };
