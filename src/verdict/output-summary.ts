/**
 * One screen of a long gate output, for a tier that did not pass (config `output: 'summary'`): at most
 * `max` lines chosen from what the gate kept (its tail, and the lines its runner's reading keeps however
 * far up they fall), in the order printed. Chosen first: the runner's summary at the end; then each line
 * that names a failed test or says a failure (FAIL, ✘, not ok, an error), then the lines that follow each
 * of those (its message and diff), a line at a time for each failure in turn, so every failure gets its
 * first lines before any gets more; stack frames inside dependencies, blank lines and progress redraws are
 * left out. A gap is shown as one `…` line, counted in `max`. A failed test the chosen lines do not name
 * is listed on a line of its own. Pure: text in, lines out (colours stripped; escaping is the printer's).
 */
import { stripAnsi } from '../runners/read.js';
import { plainText } from '../util/escape.js';
import { keepFor } from './runner-output.js';
import type { GateResult } from '../gates/result.js';

export interface OutputSummary {
  /** The lines to show, in order (gaps as `…`), each at most `width` characters. */
  lines: string[];
  /** How many of them are lines of the gate's output (not gap marks nor the failed-test list). */
  shown: number;
}

export interface SummaryInput {
  /** What the gate kept of its output: GateResult.tail. */
  text: string;
  /** The ids or names of the tests that failed, when known (a JUnit report, the runner's reading). */
  failed?: readonly string[];
  /** The runner's own "this line matters" test (its profile's `keep`), on a line without colours. */
  keep?: (line: string) => boolean;
  /** At most this many lines (default 40). */
  max?: number;
  /** Each line cut to this many characters (default 200). */
  width?: number;
}

export const SUMMARY_LINES = 40;
const WIDTH = 200;
/** Lines at the end kept as the runner's summary (blank lines and stack frames not counted). */
const END_LINES = 6;
const GAP = '…';

/** A line that says a failure, in the words test runners, linters and compilers use. */
const FAILURE =
  /(?:^|[\s[(:])(?:FAIL(?:ED|URE|URES)?|ERROR|Error|error|failed|failing|Failed|Failure|not ok|✘|✗|✖|×|●|AssertionError|assert(?:ion)?|Expected|expected|panicked|Traceback)|^E\s{2,}|^\s*\d+\)\s/;
/** Lines no reader needs: node's own warnings about its environment. */
const NOISE = /^\(node:\d+\) (?:\[\w+\] )?\w*Warning: |^\(Use `node --trace-/;
/** A line that counts tests or problems: a summary. */
const COUNTS =
  /\b\d+\s+(?:passed|failed|passing|failing|pending|skipped|tests?|errors?|problems?|warnings?|suites?)\b|^\s*(?:Total|Passed|Failed|Skipped|Tests|Test Suites|Test Files|Duration|Ran \d+|FAILED|OK)\b|^\s*#\s*(?:tests|pass|fail)\b/i;
/** A stack frame: `at f (file:1:2)`, `at file:1:2`, python's `File "x", line 3`. */
const FRAME = /^\s*at\s.+(?:\)|:\d+(?::\d+)?)\s*$/;
const DEPENDENCY = /node_modules|node:internal|\(node:|site-packages|<anonymous>/;

/** The lines of `text` as a person would see them: colours stripped, a line redrawn with `\r` as its last drawing, no trailing space. */
function screenLines(text: string): string[] {
  const lines = stripAnsi(text).split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => {
    const r = l.replace(/\r+$/, '').lastIndexOf('\r');
    return (r === -1 ? l : l.slice(r + 1)).replace(/\s+$/, '');
  });
}

/** The lines worth a reader's screen out of a long output (see the module's comment). Pure. */
export function summarizeOutput(input: SummaryInput): OutputSummary {
  const max = Math.max(1, input.max ?? SUMMARY_LINES);
  const width = Math.max(20, input.width ?? WIDTH);
  const lines = screenLines(input.text);
  const failed = [...new Set((input.failed ?? []).map(testName).filter((n) => n.length >= 3))];
  const frame = lines.map((l) => FRAME.test(l));
  const skip = lines.map((l, i) => l.trim() === '' || NOISE.test(l) || (frame[i]! && DEPENDENCY.test(l)));
  // Lines not skipped before each index: a gap between two chosen lines is one only when such a line lies between them.
  const before = [0];
  for (let i = 0; i < lines.length; i++) before.push(before[i]! + (skip[i] ? 0 : 1));
  const gapBetween = (from: number, to: number) => before[to]! - before[from]! > 0;
  const names = (l: string) => failed.some((n) => l.includes(n));
  const heads: number[] = [];
  const isHead = new Set<number>();
  const tree = mochaTrees(lines);
  for (let i = 0; i < lines.length; i++) {
    if (skip[i] || frame[i] || tree[i]) continue;
    const l = lines[i]!;
    if (names(l) || FAILURE.test(l) || input.keep?.(l) === true) {
      heads.push(i);
      isHead.add(i);
    }
  }
  const chosen = new Set<number>();
  /** Marks a gap between chosen lines takes: each run of unchosen lines between two chosen ones, and before the first. */
  const cost = (with_: number) => {
    const all = [...chosen, with_].sort((a, b) => a - b);
    let gaps = 0;
    for (let k = 0; k < all.length; k++) if (gapBetween(k === 0 ? 0 : all[k - 1]! + 1, all[k]!)) gaps++;
    return all.length + gaps;
  };
  const take = (i: number) => {
    if (chosen.has(i) || skip[i]) return true;
    if (cost(i) > max) return false;
    chosen.add(i);
    return true;
  };
  // The summary: the last lines, up to END_LINES of them that say something.
  const end: number[] = [];
  for (let i = lines.length - 1; i >= 0 && end.length < END_LINES; i--) if (!skip[i] && !frame[i]) end.push(i);
  // A counts line further up than the end (mocha prints its counts before the failures' details).
  const counts = lines.findIndex((l, i) => !skip[i] && COUNTS.test(l) && !end.includes(i));
  // The summary first, then the failures' first lines (a line naming a failed test before any other), then their following lines in turns.
  for (const i of end.slice(0, 3)) take(i);
  const named = heads.filter((i) => names(lines[i]!));
  for (const i of [...named, ...heads.filter((i) => !named.includes(i))]) take(i);
  for (const i of end.slice(3)) take(i);
  if (counts !== -1) take(counts);
  const next = new Map(heads.map((h) => [h, h]));
  for (let round = 0; round < 12; round++) {
    let grew = false;
    for (const h of heads) {
      let i = next.get(h)! + 1;
      while (i < lines.length && (skip[i] || chosen.has(i)) && !isHead.has(i)) i++;
      if (i >= lines.length || isHead.has(i)) continue;
      next.set(h, i);
      if (take(i)) grew = true;
    }
    if (!grew) break;
  }
  // Nothing says a failure: the end is the best guess, read upwards while there is room.
  for (let i = heads.length === 0 ? lines.length - 1 : -1; i >= 0; i--) {
    if (chosen.has(i) || skip[i] || frame[i]) continue;
    if (!take(i)) break;
  }
  return rendered([...chosen], lines, gapBetween, width, failed);
}

/** A line that starts a script's run: npm's banner (`> name@1.0.0 test`, then `> the command`). */
const RUN_START = /^> \S/;

/**
 * The lines of each mocha spec reporter's tree: mocha draws the whole tree first (each failed test as
 * `1) adds` among the passing ones), then `N failing` and each failure's details, which are what says
 * why; so a tree gives no heads. A tree runs from its run's start (the output's, npm's banner: each
 * workspace of an `npm test --workspaces` run its own, or the end of the run before) to its `N failing`:
 * the details of the first workspace's failures are not taken for the tree of the second's.
 */
function mochaTrees(lines: readonly string[]): boolean[] {
  const tree = lines.map(() => false);
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    if (RUN_START.test(lines[i]!)) start = i;
    else if (/^\s*\d+ failing\b/.test(lines[i]!)) {
      tree.fill(true, start, i);
      start = i + 1;
    }
  }
  return tree;
}

/** The chosen lines in order, each cut to `width`, a gap mark where lines were left out, and the failed tests no chosen line names. */
function rendered(
  chosen: number[],
  lines: readonly string[],
  gapBetween: (from: number, to: number) => boolean,
  width: number,
  failed: readonly string[],
): OutputSummary {
  const order = chosen.sort((a, b) => a - b);
  const out: string[] = [];
  let prev = -1;
  for (const i of order) {
    if (gapBetween(prev + 1, i)) out.push(GAP);
    out.push(cut(lines[i]!, width));
    prev = i;
  }
  const shown = order.length;
  const text = out.join('\n');
  const unnamed = failed.filter((n) => !text.includes(n));
  if (unnamed.length > 0) {
    const list = `failed: ${unnamed.slice(0, 10).join(', ')}${unnamed.length > 10 ? `, and ${unnamed.length - 10} more` : ''}`;
    out.push(cut(list, width * 2));
  }
  return { lines: out, shown };
}

/** The last part of a test id (`file > suite > name`, `file::name`): what its runner prints. */
function testName(id: string): string {
  const parts = id.split(/\s+>\s+|::/);
  return (parts.at(-1) ?? id).trim();
}

function cut(line: string, width: number): string {
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** The one screen of a tier's output that did not pass: its runner's keeper, the failed tests it should name. Pure. */
export function resultSummary(r: GateResult): OutputSummary {
  const failed = r.failed ?? r.failures?.map((f) => f.id);
  const keep = r.runner?.runner ? keepFor(r.runner.runner) : undefined;
  return summarizeOutput({ text: r.tail, ...(failed && { failed }), ...(keep && { keep }) });
}

/**
 * A tier's result as a machine reads it (`run --json`, `judge --json`, MCP): the raw tail of its output
 * (colour codes, at most 64 kB) replaced by the one-screen summary (a tier that did not pass), each line's
 * control characters escaped but its tabs kept (`plainText`: a tab is data to a machine, go's `FAIL\tpkg`),
 * and the log holding its whole output, with its line count; with the failed tests, how many failed in all
 * (`failures_total`, the runner's count) and whether the list holds fewer (`failures_truncated`: at most 50
 * are read from an output). Pure.
 */
export function resultForMachines(r: GateResult): Omit<GateResult, 'tail' | 'outputLines' | 'screen' | 'failuresTotal'> & {
  summary?: string[];
  output_lines?: number;
  failures_total?: number;
  failures_truncated?: boolean;
} {
  const { tail, outputLines, screen, failuresTotal, ...rest } = r;
  const total = Math.max(failuresTotal ?? 0, r.failures?.length ?? 0);
  return {
    ...rest,
    // With `failures`: how many tests failed in all (the runner's count), and whether `failures` lists fewer (at most 50 are read from the output).
    ...(r.failures !== undefined && { failures_total: total, failures_truncated: total > r.failures.length }),
    // The blocked tier's screen was chosen already when it was blocked (run/gates-step.ts): not chosen twice.
    ...(r.verdict !== 'pass' && tail !== '' && { summary: (screen?.lines ?? resultSummary(r).lines).map(plainText) }),
    ...(outputLines !== undefined && { output_lines: outputLines }),
  };
}
