/**
 * Whose fault an `error` is (issue 35): the patch's, when the piece that failed is a file the pushed
 * range (or the replayed patch) changed, the tier's npm script the patch removed from package.json, a
 * command package.json's scripts name only since the patch, or a test binary the code under test ended
 * mid-run when the change touched that code (`stopped`); else the harness's (the tier, its
 * config, what it needs). An error of the run as a whole (coverage, no tests, memory) names no file.
 * Pure: the reason, the gate's output and the changed paths in, a cause and the file out.
 */
import { posix } from 'node:path';
import type { ErrorCause } from '../ledger/row.js';
import { missingPackage } from '../util/messages.js';
import type { Stopped } from '../runners/read.js';

export interface Fault {
  cause: ErrorCause;
  /** The changed file that cannot load, or the package.json that lost the tier's script. */
  file?: string;
  /** The line of `file` the runner's message names (`a.ts:12`, `a.ts(12,5)`, `"a.py", line 12`), when it names one. */
  line?: number;
  /** The npm script the patch removed (with `file` its package.json). */
  script?: string;
  /** The command not found that package.json's scripts name since the patch (with `file` its package.json). */
  command?: string;
  /** The test binary ended mid-run in the code it runs (an exit, an abort): `file`, when known, is the changed file there. */
  stopped?: true;
}

export interface FaultInput {
  /** The error's reason, as the ledger row keeps it. */
  reason?: string;
  /** The gate's kept output (its tail and the lines its runner reads). */
  output: string;
  /** The changed paths of the range or patch, relative to the repository's root. */
  changed: readonly string[];
  /** The tier's `cwd`, relative to the root ('' or '.' for the root). */
  cwd?: string;
  /** Folders the runners name files from, relative to the root (the tier's cwd, each workspace's folder): `c.test.js` in `packages/c` is `packages/c/c.test.js`. */
  dirs?: readonly string[];
  /** The gate ran and exited with a code: no timeout, signal, interrupt or spawn failure (those name no file). */
  exited: boolean;
  /** The error is the run's as a whole (verdict.ts `runWide`): no file is to blame as one that cannot load. */
  runWide?: boolean;
  /** The script the tier's package.json lacks, when that is the error. */
  missingScript?: string;
  /** The command the shell could not find, when that is the error, and the tier's own command (a string tier's). */
  notFound?: { command: string; tierRun: string };
  /** A changed file's text at the base (`null`: not there; `undefined`: not known): did it name a missing package before? */
  textAtBase?: (path: string) => string | null | undefined;
  /** package.json's text at the base the range or patch starts from: `null` when it had none, `undefined` when not known. */
  packageJsonAtBase?: string | null;
  /** The test binary ended mid-run (verdict.ts `stopped`): where, as its runner printed it. */
  stopped?: Stopped;
}

/** The cause of one `error` verdict. Pure. */
export function errorFault(e: FaultInput): Fault {
  if (e.missingScript !== undefined) return scriptFault(e, e.missingScript);
  if (e.notFound !== undefined) return commandFault(e, e.notFound);
  if (!e.exited || e.runWide === true || e.changed.length === 0) return { cause: 'harness' };
  const dirs = [e.cwd ?? '', ...(e.dirs ?? [])].map(folder).filter((d) => d !== '');
  if (e.stopped !== undefined) return stoppedFault(e.stopped, e.changed, dirs);
  // The reason quotes the runner's own line, which names the file where the runner does; else the output around it.
  const file =
    namedIn(e.reason ?? '', e.changed, dirs) ?? namedIn(e.output, e.changed, dirs) ?? goPackageIn(e.reason ?? '', e.changed, dirs);
  if (file === undefined) return { cause: 'harness' };
  // A package that is not installed (`Cannot find package 'delay' imported from test.js`) that the file named before the
  // change too: today's dependencies are missing it, not the change (its base fails the same way).
  const pkg = e.reason === undefined ? undefined : missingPackage(e.reason);
  const before = pkg === undefined ? undefined : e.textAtBase?.(file);
  if (pkg !== undefined && typeof before === 'string' && before.includes(pkg.name)) return { cause: 'harness' };
  const line = lineOf(file, e.reason ?? '', dirs) ?? lineOf(file, e.output, dirs);
  return { cause: 'patch', file, ...(line !== undefined && { line }) };
}

/**
 * A test binary that ended mid-run: the code it runs ended it (go's log.Fatal, Rust's abort), so it is
 * the patch's when the change touched that language's code (a `.go` file for a go package, a `.rs` file
 * for a cargo binary); the file named is the changed one the stop points at (a panic's place), else the
 * binary's own source, else (go) a changed file of the package's folder, its code before its tests.
 * A change to no such code leaves the harness (an environment the code needs: a variable, a service).
 */
function stoppedFault(s: Stopped, changed: readonly string[], dirs: readonly string[]): Fault {
  const code = changed.filter((p) => p.endsWith(s.package !== undefined ? '.go' : '.rs'));
  if (code.length === 0) return { cause: 'harness' };
  const as = (f: string) => code.find((p) => p === f || dirs.some((d) => p === `${d}/${f}`));
  const named = [s.at, s.file].flatMap((f) => (f === undefined ? [] : [as(posix.normalize(f))])).find((p) => p !== undefined);
  const own = s.package !== undefined ? code.filter((p) => inPackage(p, s.package!, dirs)) : [];
  const file = named ?? own.find((p) => !p.endsWith('_test.go')) ?? own[0];
  return { cause: 'patch', stopped: true, ...(file !== undefined && { file }) };
}

/** Whether a file's folder (from the root or one of `dirs`) is the end of go package `pkg` (`calc/calc.go` of `example.com/m/calc`). */
function inPackage(path: string, pkg: string, dirs: readonly string[]): boolean {
  const dir = posix.dirname(path);
  const from = [dir, ...dirs.filter((d) => dir.startsWith(`${d}/`)).map((d) => dir.slice(d.length + 1))];
  return from.some((d) => d !== '.' && pkg.endsWith(`/${d}`));
}

/** A missing npm script is the patch's doing when the range changed its package.json and the script was there at the base. */
function scriptFault(e: FaultInput, script: string): Fault {
  const file = packageJsonIn(e.cwd);
  if (!e.changed.includes(file)) return { cause: 'harness' };
  // Not known at the base (no base, an unreadable file): the change to package.json is the best lead there is.
  if (e.packageJsonAtBase === undefined) return { cause: 'patch', file, script };
  return hadScript(e.packageJsonAtBase, script) ? { cause: 'patch', file, script } : { cause: 'harness' };
}

/**
 * A command not found is the patch's doing when the range changed package.json, the tier's own command
 * does not name it (then the tier is what names it), and package.json's scripts did not name it at
 * the base (then it was missing before the patch: not installed here). Not known at the base: the harness's.
 */
function commandFault(e: FaultInput, notFound: { command: string; tierRun: string }): Fault {
  const file = packageJsonIn(e.cwd);
  const name = notFound.command;
  if (!e.changed.includes(file) || e.packageJsonAtBase === undefined || namesCommand(notFound.tierRun, name)) return { cause: 'harness' };
  if (e.packageJsonAtBase !== null && Object.values(scriptsOf(e.packageJsonAtBase)).some((script) => namesCommand(script, name)))
    return { cause: 'harness' };
  return { cause: 'patch', file, command: name };
}

/** Whether a command line names `command` as a word of its own (`mochaa` in `mochaa --x && y`, `./bin/t` in `./bin/t`). */
function namesCommand(line: string, command: string): boolean {
  for (let at = line.indexOf(command); at >= 0; at = line.indexOf(command, at + 1)) {
    const before = at === 0 ? '' : line[at - 1]!;
    const after = line[at + command.length] ?? '';
    if (!/[^\s;&|()'"=]/.test(before) && !/[^\s;&|()'"]/.test(after)) return true;
  }
  return false;
}

/** A package.json text's scripts (none when it does not parse). */
function scriptsOf(text: string): Record<string, string> {
  return Object.fromEntries(Object.entries(scriptsObject(text) ?? {}).filter((kv): kv is [string, string] => typeof kv[1] === 'string'));
}

/** A package.json text's `scripts` object as written; undefined when it does not parse or has none. */
function scriptsObject(text: string): object | undefined {
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    return typeof scripts === 'object' && scripts !== null ? scripts : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a package.json text has the script. Pure. */
export function hadScript(text: string | null, script: string): boolean {
  const scripts = text === null ? undefined : scriptsObject(text);
  return scripts !== undefined && Object.hasOwn(scripts, script);
}

/** The first changed path the text names as a path of its own (from the root or one of `dirs`, or the end of an absolute one), longest first. */
function namedIn(text: string, changed: readonly string[], dirs: readonly string[]): string | undefined {
  if (text === '') return undefined;
  const hits = changed
    .filter((p) => p !== '')
    .map((p) => ({
      p,
      at: Math.min(
        ...namesOf(p, dirs)
          .map((n) => firstWhole(text, n))
          .map((at) => (at < 0 ? Infinity : at)),
      ),
    }))
    .filter((h) => h.at !== Infinity)
    .sort((a, b) => a.at - b.at || b.p.length - a.p.length);
  return hits[0]?.p;
}

/** The names a runner may give a changed path: from the root, or from one of `dirs` it is in. */
const namesOf = (p: string, dirs: readonly string[]) => [p, ...dirs.filter((d) => p.startsWith(`${d}/`)).map((d) => p.slice(d.length + 1))];

/** The first line number the text gives right after a whole occurrence of the file's name (`a.js:4`), if any. */
function lineOf(file: string, text: string, dirs: readonly string[]): number | undefined {
  for (const name of namesOf(file, dirs))
    for (let at = firstWhole(text, name); at >= 0; at = firstWhole(text, name, at + 1)) {
      const line = lineAfter(text.slice(at + name.length, at + name.length + 24));
      if (line !== undefined) return line;
    }
  return undefined;
}

/** The line number right after a file's name: `:12` (node, jest, vitest, go, rustc's `--> a.rs:12:5`), `(12,5)` (tsc), `", line 12` (python). */
function lineAfter(rest: string): number | undefined {
  const m = /^(?::(\d+)|\((\d+),\d+\)|", line (\d+))/.exec(rest);
  const n = Number(m?.[1] ?? m?.[2] ?? m?.[3]);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * go's errors before any package is built name packages, not files (`imports example.com/m/a: import
 * cycle not allowed`): the first changed `.go` file whose folder (from the root or one of `dirs`) is
 * the end of a package the reason names.
 */
function goPackageIn(reason: string, changed: readonly string[], dirs: readonly string[]): string | undefined {
  if (!reason.includes('go could not load the packages')) return undefined;
  const packages = reason.match(/[\w.-]+(?:\/[\w.-]+)+/g) ?? [];
  return changed.find((p) => {
    if (!p.endsWith('.go')) return false;
    const dir = posix.dirname(p);
    const from = [dir, ...dirs.filter((d) => dir.startsWith(`${d}/`)).map((d) => dir.slice(d.length + 1))];
    return from.some((d) => d !== '.' && packages.some((pkg) => pkg.endsWith(`/${d}`)));
  });
}

/** Where `path` first occurs as a whole path (not inside a longer name), else -1. */
function firstWhole(text: string, path: string, from = 0): number {
  for (let at = text.indexOf(path, from); at >= 0; at = text.indexOf(path, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + path.length] ?? '';
    if (!/[\w.@-]/.test(before) && !/[\w/@-]/.test(after) && !(after === '.' && /[\w]/.test(text[at + path.length + 1] ?? ''))) return at;
  }
  return -1;
}

/** The package.json of a tier's cwd, relative to the root. */
export function packageJsonIn(cwd: string | undefined): string {
  const dir = folder(cwd ?? '');
  return dir === '' ? 'package.json' : `${dir}/package.json`;
}

/** A folder relative to the root, without `./` or a trailing slash ('' for the root). */
function folder(dir: string): string {
  return dir.replace(/^\.(?:\/|$)/, '').replace(/\/+$/, '');
}
