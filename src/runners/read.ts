/**
 * Reading a runner's output: what each test runner prints when it ran tests (its summary line and counts), when
 * it could not run them (a module that cannot load, a syntax error before any test, no test files, a
 * config or compile error), and when it ran none. Pure: text in, a reading out. The signatures were
 * read off the runners themselves (docs/verdicts.md lists the cases the tests run).
 */
import { shown } from '../util/escape.js';

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
  /** The harness failed before or outside the tests: what, and the line that says so. */
  cannotRun?: { what: string; line: string };
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

export interface RunnerProfile {
  /** Reads a gate's output (ANSI codes already stripped), split into lines. */
  read: (lines: readonly string[]) => Reading;
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

// CSI sequences (colours, cursor moves), OSC sequences (links, titles) and lone escapes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Removes terminal colour and cursor codes. */
export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

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
