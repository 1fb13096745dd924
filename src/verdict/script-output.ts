/**
 * The output of a tier whose test runner is not known (a script that drives its runner itself, such as
 * `nyc node test.js` calling mocha, or `python run_tests.py`), read only for what means the same whatever
 * the script: a runner's own summary counting failed tests (a catch, whatever the exit code), and a node
 * or python process that died loading code, before any test could report (an error, not a catch). Pure.
 */
import type { RunnerName } from '../config/runner-names.js';
import { runnerRecord } from '../runners/index.js';
import { SCRIPT_SUMMARIES } from '../runners/identities.js';
import { outputLines } from '../runners/read.js';

/**
 * The first runner whose summary in `lines` counts a failed test, and that line: of the runners whose
 * summary line cannot be mistaken for other output (`55 failing`, `Tests:  1 failed, 2 total`, `= 1
 * failed in 0.1s =`, `FAILED (failures=1)`, `test result: FAILED.`), in their `scriptSummary` order
 * (runners/identities.ts). Their records must be loaded (runners/index.ts `loadRecords`).
 */
export function failedSummary(lines: readonly string[]): { runner: RunnerName; line: string } | undefined {
  for (const runner of SCRIPT_SUMMARIES) {
    const s = runnerRecord(runner).profile!.read(lines).summary;
    if (s && s.failed > 0) return { runner, line: s.line };
  }
  return undefined;
}

/**
 * The lines those runners' summaries need from before a long output's last 64 kB (each runner's own
 * `keep`: mocha prints `55 failing` above every failure's details), kept for a tier with no runner named.
 */
export function scriptKeep(): (line: string) => boolean {
  // One pattern, not one test per runner: every line of the output is scanned.
  const re = new RegExp(
    SCRIPT_SUMMARIES.flatMap((r) => runnerRecord(r).profile!.keep?.source ?? [])
      .map((s) => `(?:${s})`)
      .join('|'),
  );
  return (line) => re.test(outputLines(line)[0]!);
}

/** What died loading code: the error line, and the file (and line) it names when the output says. */
export interface LoadCrash {
  language: 'node' | 'python';
  line: string;
  where?: string;
}

/** A JavaScript error's first line: `SyntaxError: ...`, `Error [ERR_MODULE_NOT_FOUND]: ...`. */
const JS_ERROR_HEAD = /^(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: \S/;
/** A stack frame inside node's module loader: the error came from loading a module, not from code that ran. */
const LOADER_FRAME = /^\s+at (?:.*\()?node:internal\/modules\//;
/** What node prints last when an uncaught exception ends it (Node 18 and later). */
const NODE_FOOTER = /^Node\.js v\d+\.\d+\.\d+$/;
/** The source line node shows above a syntax error: `/path/file.js:12`, `file:///path/file.mjs:3`. */
const JS_SOURCE = /^(?:file:\/\/)?\/\S*:\d+$/;

/**
 * A node process ended by an uncaught error thrown from node's module loader: a syntax error in a file
 * it loaded, a module it cannot find, an export that is not there, an unknown file extension. An
 * assertion or any error thrown by code that ran is not one (its first frame is that code).
 */
export function nodeLoadCrash(lines: readonly string[]): LoadCrash | undefined {
  for (let i = 0; i < lines.length; i++) {
    if (!JS_ERROR_HEAD.test(lines[i]!)) continue;
    // Its first frame, within the lines of its message (CommonJS's `Require stack:` list among them).
    let frame = i + 1;
    while (frame < lines.length && frame <= i + 20 && !/^\s+at /.test(lines[frame]!)) frame++;
    if (frame >= lines.length || frame > i + 20 || !LOADER_FRAME.test(lines[frame]!)) continue;
    if (!lines.slice(frame, frame + 80).some((l) => NODE_FOOTER.test(l))) continue;
    const source = lines.slice(Math.max(0, i - 5), i).find((l) => JS_SOURCE.test(l));
    return { language: 'node', line: lines[i]!, ...(source && { where: source.replace(/^file:\/\//, '') }) };
  }
  return undefined;
}

const PY_LOAD_ERROR = /^(ModuleNotFoundError|ImportError|SyntaxError|IndentationError|TabError): /;
const PY_FRAME = /^ {2}File "(.+)", line (\d+)(?:, in (.+))?$/;

/**
 * A python process ended by a module that would not import or compile: the traceback's last line is
 * an import or syntax error, and every frame above it is a module being imported (`in <module>`), or
 * the file that does not compile. An import made by a function that ran is not one.
 */
export function pythonLoadCrash(lines: readonly string[]): LoadCrash | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = PY_LOAD_ERROR.exec(lines[i]!);
    if (!m) continue;
    const frames: RegExpExecArray[] = [];
    for (let j = i - 1; j >= 0 && j >= i - 200; j--) {
      const l = lines[j]!;
      if (l === 'Traceback (most recent call last):') break;
      const f = PY_FRAME.exec(l);
      if (f) frames.unshift(f);
      else if (!/^ {4}|^\s*[~^]+\s*$/.test(l)) break;
    }
    const last = frames.at(-1);
    if (last === undefined) continue;
    const compiles = m[1] === 'ModuleNotFoundError' || m[1] === 'ImportError' ? false : last[3] === undefined;
    const importing = frames.every((f) => f[3] === undefined || f[3] === '<module>');
    if (!compiles && !importing) continue;
    return { language: 'python', line: lines[i]!, where: `${last[1]}:${last[2]}` };
  }
  return undefined;
}

/** What python prints for `-m X` when it cannot find X, before running anything: `/usr/bin/python3: No module named flake8`. */
const PY_NO_MODULE = /^(\S+): No module named ([A-Za-z_][\w.]*)$/;
/** The same for a dotted module whose package is missing: `...: Error while finding module specification for 'a.b' (ModuleNotFoundError: No module named 'a')`. */
const PY_NO_SPEC = /^(\S+): Error while finding module specification for '([\w.]+)' \(ModuleNotFoundError: No module named '([\w.]+)'\)$/;

/** A module a `python -m X` command runs that the python cannot import: the module, its top package (what to install), and python's line. */
export interface MissingModule {
  module: string;
  install: string;
  line: string;
}

/**
 * The module `python -m X` could not find, when X is one of the command's `words` (the tier's command
 * and the scripts it runs): python exits 1 before X ran, whatever X is (pytest, flake8, mypy). A
 * test's own output saying the same of a module the command does not run is not one.
 */
export function pythonModuleMissing(lines: readonly string[], words: ReadonlySet<string>): MissingModule | undefined {
  for (const l of lines) {
    const none = PY_NO_MODULE.exec(l);
    const spec = none ? undefined : PY_NO_SPEC.exec(l);
    const module = none?.[2] ?? spec?.[2];
    if (module === undefined || !words.has(module)) continue;
    return { module, install: spec?.[3] ?? module, line: l };
  }
  return undefined;
}
