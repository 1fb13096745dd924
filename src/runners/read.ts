/**
 * Reading a runner's output: what each test runner prints when it ran tests (its summary line and counts), when
 * it could not run them (a module that cannot load, a syntax error before any test, no test files, a
 * config or compile error), and when it ran none. Pure: text in, a reading out. The signatures were
 * read off the runners themselves (docs/verdicts.md lists the cases the tests run).
 */
import { shown, stripAnsi } from '../util/escape.js';

/** The runner's own count, and the line that says it. */
export interface Summary {
  line: string;
  failed: number;
  passed: number;
  total: number;
  /** Of `total`, how many the runner skipped (skip, todo, pending, ignored), when it says. */
  skipped?: number;
}

export interface Reading {
  /** Proof that tests ran: the summary line and its counts (absent: the runner printed none). */
  summary?: Summary;
  /** The harness failed before or outside the tests: what, the line that says so, and the next step when the line does not say it. */
  cannotRun?: {
    what: string;
    line: string;
    next?: string;
    /** The command that is not there (`cargo nextest`): the patch's fault when its package.json came to name it (verdict/fault.ts). */
    notFound?: string;
    /** The test binary ended mid-run in the code it runs (an exit, an abort), not in the harness: where (verdict/fault.ts). */
    stopped?: Stopped;
  };
  /** The runner said it found no test at all. */
  noTests?: { line: string };
  /**
   * Why the runner exits non-zero when no test failed (coverage below its threshold, obsolete
   * snapshots under `--ci`): read only for a failure exit, never to spoil an exit 0.
   */
  failedBesides?: { what: string; line: string; next?: string };
  /** On a pass: what this output cannot show (a reporter that names no test), said beside the pass. */
  passUnseen?: string;
}

/**
 * A test binary that ended in the middle of its tests (`log.Fatal`, `os.Exit`, `process::exit`, an
 * abort): the code it runs ended it, so the files the change touched there are the likely cause. Each
 * field as printed, when known.
 */
export interface Stopped {
  /** go: the package whose test binary ended (its folder holds the code it tested). */
  package?: string;
  /** cargo: the source file its test binary was built from (`tests/it.rs`, `src/lib.rs`). */
  file?: string;
  /** The file the stop points at (a panic's place, `src/lib.rs`). */
  at?: string;
  /** The test that was running. */
  test?: string;
}

/**
 * A failed test as its runner's output names it: the title path, the file and line its failure points at
 * (the frame in the test's own code, else where the runner says the test is), and the first line of its
 * message. `file` is as printed: relative to where the runner ran, absolute, or a file:// URL (made
 * repository-relative by the caller, who knows where the gate ran).
 */
export interface FailedTest {
  /** The suites and the test, outermost first (`['math', 'adds']`); pytest's and cargo's one part (`TestMath::test_adds`). */
  title: string[];
  file?: string;
  line?: number;
  message: string;
  /** go: the package the test is in (its file is printed relative to the package's folder). */
  package?: string;
  /** The id as the runner names the test, where it is not `file::title` (unittest's `unit.test_math.MathTest.test_adds`: its file is where it failed). */
  id?: string;
  /** The test's own file, for its id `file::title`, where `file` is elsewhere (pytest: a fixture in conftest.py that raised). */
  idFile?: string;
}

/** A Python file outside the project's own code: the standard library, an installed package, `<frozen ...>`, `<doctest ...>`. */
export const PYTHON_LIBRARY = /(?:^|\/)(?:site|dist)-packages\/|\/lib\/(?:pypy|python)\d[\d.]*\/|^</;

export interface RunnerProfile {
  /** Reads a gate's output (ANSI codes already stripped), split into lines. */
  read: (lines: readonly string[]) => Reading;
  /**
   * The failed tests the output names (ANSI codes already stripped), in the order printed, each once:
   * read from the runner's own failure report (its summary, its failure blocks and their stack frames).
   */
  failures?: (lines: readonly string[]) => FailedTest[];
  /**
   * The runner's failure exit code means a test failed and nothing else (pytest's 1, nextest's 100), so
   * a missing summary (a quiet flag, a cut output) does not make a catch an error.
   */
  exitProves?: boolean;
  /**
   * Exit codes, beyond the tier's `caught`, with which the runner also ends a run whose tests failed: a
   * catch only when the summary counts a failed test (unittest's 5 on Python 3.12 and later, when a
   * setUpClass or setUpModule failed before any test ran).
   */
  failedExits?: readonly number[];
  /**
   * The runner prints its summary whenever its run reaches the end, so an exit 0 without one is no
   * pass: the run was cut short (a test that called `process.exit(0)`) or the reporter prints no
   * counts, and nothing shows that the tests ran.
   */
  needsSummary?: boolean | ((lines: readonly string[]) => boolean);
  /** What to run instead when the output is none `read` knows (a custom reporter): the next step of the error. */
  reporterHint?: string;
  /** An exit 0 that `needsSummary` refuses: what most likely cut the run short, and the next step (default: process.exit, a reporter). */
  cutShort?: { cause: string; next: string };
  /**
   * The lines `read` needs that may be printed far from the end of a long output (a summary printed
   * before the failures' details, counts spread over the run): kept however long the output is (the
   * rest is read from its last TAIL_BYTES).
   */
  keep?: RegExp;
  /**
   * Lines whose next non-blank line (within five) `read` quotes as the reason (jest's `● Test suite
   * failed to run`, its error below it): kept with that line however long the output, so a long
   * output's reading does not quote whatever kept line happens to follow.
   */
  keepNext?: RegExp;
}

export { stripAnsi };

/** Output to lines: ANSI stripped, carriage-return progress redraws reduced to what was left on screen. */
export function outputLines(text: string): string[] {
  return stripAnsi(text)
    .split('\n')
    .map((l) => {
      const line = l.endsWith('\r') ? l.slice(0, -1) : l;
      const cr = line.lastIndexOf('\r');
      return cr === -1 ? line : line.slice(cr + 1);
    });
}

export const count = (text: string, word: string): number => {
  const m = new RegExp(`(\\d+) ${word}\\b`).exec(text);
  return m ? Number(m[1]) : 0;
};

export function lastMatch(lines: readonly string[], re: RegExp): { line: string; m: RegExpExecArray } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = re.exec(lines[i]!);
    if (m) return { line: lines[i]!, m };
  }
  return undefined;
}

export function firstMatch(lines: readonly string[], re: RegExp, from = 0): { line: string; index: number } | undefined {
  for (let i = from; i < lines.length; i++) if (re.test(lines[i]!)) return { line: lines[i]!, index: i };
  return undefined;
}

/** One pattern that matches where any of `res` does (a profile's `keep`, from the patterns its `read` uses). */
export function anyOf(...res: RegExp[]): RegExp {
  return new RegExp(res.map((r) => `(?:${r.source})`).join('|'));
}

/** The first non-blank line after `index`. */
export function nextLine(lines: readonly string[], index: number): string | undefined {
  for (let i = index + 1; i < lines.length && i < index + 6; i++) if (lines[i]!.trim() !== '') return lines[i]!;
  return undefined;
}

/** A JavaScript error that stops a file from loading: a module not found, a syntax error, and the like. */
export const JS_LOAD_ERROR =
  /^\s*(?:#\s*)?(?:Exception during run: )?(?:(?:Syntax|Reference|Type)Error|Error(?: \[ERR_[A-Z_]+\])?): (?:Cannot find (?:module|package)|Unexpected|Invalid or unexpected|missing \) after|Identifier '|Cannot use import|require\(\) of ES Module|Named export|The requested module|.*is not defined|.*is not a function|.*of undefined)/;
export const ANY_ERROR = /^\s*(?:#\s*)?(?:Exception during run: )?(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: \S/;

/** The line that best says why a JavaScript harness failed: a load error, else any error line. */
export function jsErrorLine(lines: readonly string[]): string | undefined {
  return (firstMatch(lines, JS_LOAD_ERROR) ?? firstMatch(lines, ANY_ERROR))?.line;
}

/** A line of a gate's output inside a reason: trimmed, control characters escaped, at most 200 characters. */
export function quoteLine(line: string): string {
  let t = shown(line.trim());
  if (t.length > 200) t = `${t.slice(0, 199)}…`;
  return `\`${t}\``;
}

/** The last line worth quoting when nothing else decides (npm's log-file pointer is not). */
export function lastLine(lines: readonly string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!.trim();
    if (l !== '' && !/A complete log of this run can be found in|^npm (?:error|ERR!)\s*$/.test(l)) return l;
  }
  return undefined;
}

/** A stack frame's file and line: `at f (/abs/a.test.js:3:9)`, `at /abs/a.test.js:3:9`, `at f (file:///abs/a.js:3:9)`, `(test/a.js:3:9)`. */
const FRAME_AT = /(?:^|[\s(])((?:file:\/\/)?[^\s():'"]+?\.[A-Za-z]\w*):(\d+):\d+\)?\s*$/;

/** The file and line of a stack frame or `file:line:col` position, when it is in the project's own code (not a dependency nor node's). */
export function frameOf(line: string): { file: string; line: number } | undefined {
  const m = FRAME_AT.exec(line);
  if (!m) return undefined;
  const file = m[1]!;
  if (/(?:^|\/)node_modules\/|^node:|^internal\/|<anonymous>/.test(file)) return undefined;
  return { file, line: Number(m[2]) };
}

/** The first frame of the project's own code in `lines[from..to)`. */
export function firstFrame(lines: readonly string[], from: number, to: number): { file: string; line: number } | undefined {
  for (let i = from; i < to && i < lines.length; i++) {
    if (!/^\s*(?:at\s|❯\s|›\s|\S+\s\()/.test(lines[i]!) && !/^\s*[\w.<>$]+ \(/.test(lines[i]!)) continue;
    const f = frameOf(lines[i]!);
    if (f) return f;
  }
  return undefined;
}

/** The first line of a message: trimmed, at most 300 characters. */
export function firstMessageLine(text: string): string {
  const t = text.trim();
  return t.length > 300 ? `${t.slice(0, 299)}…` : t;
}

/** The failures of a TAP stream (node's TAP reporter, node-tap, ava --tap, tape, mocha --reporter tap), each leaf `not ok` once. */
export function tapFailures(lines: readonly string[], opts: { dropFile?: boolean } = {}): FailedTest[] {
  const out: FailedTest[] = [];
  const open: { indent: number; name: string; failures: number }[] = [];
  /** tape: `# name` comments name the test its assertions belong to. */
  let comment: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const sub = /^(\s*)# Subtest: (.*)$/.exec(l);
    if (sub) {
      const indent = sub[1]!.length;
      while (open.length > 0 && open[open.length - 1]!.indent >= indent) open.pop();
      open.push({ indent, name: sub[2]!.trim(), failures: out.length });
      continue;
    }
    const c = /^# (?!Subtest:|tests?\b|pass\b|fail\b|skip\b|todo\b|time=|cancelled\b|suites\b|duration_ms\b|No coverage|\{)(.+)$/.exec(l);
    if (c) comment = c[1]!.trim();
    const r = /^(\s*)(not ok|ok) \d+(?: -)? ?(.*?)(?: # (?:time=|TODO|SKIP).*)?$/.exec(l);
    if (!r) continue;
    const indent = r[1]!.length;
    const desc = r[3]!.trim();
    // The result that closes an open subtest (`not ok 1 - adds` after `# Subtest: adds`, at its indent).
    while (open.length > 0 && open[open.length - 1]!.indent > indent) open.pop();
    const top = open[open.length - 1];
    const closes = top !== undefined && top.indent === indent && top.name === desc;
    if (closes) open.pop();
    if (r[2] === 'ok' || / # (?:TODO|SKIP)\b/i.test(l)) continue;
    // A subtest whose own tests failed: its failure is theirs.
    if (closes && out.length > top.failures) continue;
    const path = [...open.map((o) => o.name), ...(closes ? [desc] : [])];
    if (opts.dropFile && path.length > 0 && /\.[cm]?[jt]sx?$/.test(path[0]!)) path.shift();
    const yaml = tapYaml(lines, i + 1, indent);
    const title = path.length > 0 ? path : comment !== undefined ? [comment] : [desc];
    const message = yaml.message ?? (closes || desc === '' ? 'failed' : desc);
    out.push({ title, ...(yaml.where && { file: yaml.where.file, line: yaml.where.line }), message: firstMessageLine(message) });
  }
  return out;
}

/** What a `not ok`'s YAML block says: where (a stack frame in the project's code, node-tap's `at:` fields, node's `location:`), and the message. */
function tapYaml(lines: readonly string[], from: number, indent: number): { where?: { file: string; line: number }; message?: string } {
  if (!/^\s*---\s*$/.test(lines[from] ?? '') || lines[from]!.length - lines[from]!.trimStart().length < indent) return {};
  let end = from + 1;
  while (end < lines.length && !/^\s*\.\.\.\s*$/.test(lines[end]!)) end++;
  const block = lines.slice(from + 1, end);
  let message: string | undefined;
  let location: { file: string; line: number } | undefined;
  let fileName: string | undefined;
  let lineNumber: number | undefined;
  let assertion: string | undefined;
  // The block's own keys are the least indented (a value's lines, such as ava's `details:`, are deeper); node-tap's `at:` nests its fileName.
  const top = Math.min(...block.filter((b) => b.trim() !== '').map((b) => b.length - b.trimStart().length));
  for (let k = 0; k < block.length; k++) {
    const b = block[k]!;
    const field = /^\s*(error|message|assertion|fileName|lineNumber|location|at):\s*(.*)$/.exec(b);
    if (!field) continue;
    const [, key, raw] = field;
    if (key !== 'fileName' && key !== 'lineNumber' && b.length - b.trimStart().length !== top) continue;
    const value = raw!.replace(/^(['"])(.*)\1$/, '$2').trim();
    if ((key === 'error' || key === 'message') && message === undefined) {
      // `error: |-` and `>-`: the text is on the lines below.
      const text = /^[|>][-+]?$/.test(value) ? block.slice(k + 1).find((x) => x.trim() !== '') : value;
      if (text !== undefined && text.trim() !== '') message = text.trim();
    } else if (key === 'assertion') assertion = value;
    else if (key === 'fileName') fileName = value;
    else if (key === 'lineNumber') lineNumber = Number(value);
    else if (key === 'location') {
      const m = /^(.*):(\d+):\d+$/.exec(value);
      if (m) location = { file: m[1]!, line: Number(m[2]) };
    } else if (key === 'at' && value !== '' && !/^[|>][-+]?$/.test(value))
      location ??= frameOf(value.includes(':') && !value.includes('(') ? `(${value})` : value);
  }
  const framed = firstFrame(
    block.map((b) => b.replace(/^\s*/, ' at ')),
    0,
    block.length,
  );
  const where = fileName !== undefined && lineNumber !== undefined ? { file: fileName, line: lineNumber } : (framed ?? location);
  // ava's assertion with an empty message: the assertion (`t.is()`) failed.
  if (message === undefined && assertion !== undefined) message = `${assertion} failed`;
  return { ...(where && { where }), ...(message !== undefined && { message }) };
}

/** One `error` diagnostic rustc (or clippy) printed: its header, where it points, and the lint that raised it when the output says. */
export interface RustError {
  /** The header: `error[E0308]: mismatched types`, `error: unneeded \`return\` statement`. */
  line: string;
  message: string;
  /** rustc's error code (`E0308`): a compile error, never a lint. */
  code?: string;
  /** `src/lib.rs:11:5`, from the ` --> ` line below the header. */
  at?: string;
  /** The lint (`clippy::needless_return`, `unused_variables`): named by the diagnostic, or by an earlier one of the same message. */
  lint?: string;
}

const RUST_HEADER = /^error(?:\[(E\d{4})\])?: (.*)$/;
/** cargo's own lines that wrap up a failure: no diagnostic of the code. */
const CARGO_WRAP_UP = /^error: (?:could not compile|aborting due to|test failed, to rerun|doctest failed, to rerun|\d+ targets? failed)/;
/** Where a diagnostic names its lint: clippy's link (`...#needless_return`), `-D warnings`, a `#[deny]` attribute, a deny-by-default lint. */
const LINT_NAMED: readonly [RegExp, string][] = [
  [/rust-clippy\/[^\s#]*#([a-z0-9_]+)\s*$/, 'clippy::'],
  [/`-[DF] ([\w:-]+)` implied by/, ''],
  [/requested on the command line with `-[DF] ([\w:-]+)`/, ''],
  [/`#!?\[(?:deny|forbid)\(([\w:]+)\)\]` (?:on by default|implied by)/, ''],
];

/** The lint a diagnostic's lines name, `clippy::needless_return` (dashes as underscores). */
function lintNamed(block: readonly string[]): string | undefined {
  for (const b of block)
    for (const [re, prefix] of LINT_NAMED) {
      const m = re.exec(b);
      if (m) return `${prefix}${m[1]!.replace(/-/g, '_')}`;
    }
  return undefined;
}

/**
 * The `error` diagnostics of rustc's output (cargo test, clippy, check): each header with its ` --> `
 * location and, when it is a lint denied into an error, the lint. A lint's later occurrences do not
 * repeat the note that names it: one whose message (its backquoted names aside) an earlier lint's had
 * is that lint too. An error neither names is a compile error (a syntax error has no code either).
 */
export function rustErrors(lines: readonly string[]): RustError[] {
  const out: RustError[] = [];
  const lintOf = new Map<string, string>();
  const shape = (message: string) => message.replace(/`[^`]*`/g, '``');
  for (let i = 0; i < lines.length; i++) {
    const h = RUST_HEADER.exec(lines[i]!);
    if (!h || CARGO_WRAP_UP.test(lines[i]!)) continue;
    let end = i + 1;
    while (end < lines.length && !/^(?:error|warning)(?:\[E\d{4}\])?: /.test(lines[end]!)) end++;
    const block = lines.slice(i + 1, end);
    const at = /^\s*--> (\S+:\d+:\d+)\s*$/.exec(block[0] ?? '')?.[1];
    const named = h[1] === undefined ? lintNamed(block) : undefined;
    if (named !== undefined) lintOf.set(shape(h[2]!), named);
    const lint = h[1] === undefined ? (named ?? lintOf.get(shape(h[2]!))) : undefined;
    out.push({
      line: lines[i]!,
      message: h[2]!,
      ...(h[1] !== undefined && { code: h[1] }),
      ...(at !== undefined && { at }),
      ...(lint !== undefined && { lint }),
    });
  }
  return out;
}

/** A rust error as a reason quotes it: `src/lib.rs:11:11: error[E0277]: cannot add ...` (the header alone when it points nowhere). */
export const rustErrorLine = (e: RustError): string => (e.at !== undefined ? `${e.at}: ${e.line}` : e.line);

/**
 * What stops cargo before any test runs, for cargo test's and nextest's readings: a Cargo.toml that
 * does not parse, a cargo subcommand that is not installed (`cargo nextest` without cargo-nextest), a
 * compile error (its first error that is no lint, quoted with the place it points at).
 */
export function cargoCannotBuild(lines: readonly string[]): Reading['cannotRun'] {
  const errors = rustErrors(lines);
  const manifest = errors.find((e) => e.at !== undefined && /(?:^|\/)Cargo\.toml:/.test(e.at));
  const parse = firstMatch(lines, /^error: failed to (?:parse|load) manifest/);
  if (manifest || parse)
    return { what: 'cargo could not read its manifest', line: manifest ? rustErrorLine(manifest) : parse!.line, next: 'fix Cargo.toml' };
  const none = lines.map((l) => /^error: no such (?:sub)?command: `?([\w-]+)`?/.exec(l)).find((m) => m !== null);
  if (none)
    return {
      what: 'cargo has no such command',
      line: none[0],
      next: `install it (\`cargo install cargo-${none[1]}\`), or fix the command`,
      notFound: `cargo ${none[1]}`,
    };
  const compile = firstMatch(lines, /^error: could not compile/);
  if (!compile) return undefined;
  const first = errors.find((e) => e.lint === undefined) ?? errors[0];
  return { what: 'a compile error', line: first ? rustErrorLine(first) : compile.line };
}
