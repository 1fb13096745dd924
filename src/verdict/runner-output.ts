/**
 * What a gate's output says whatever its runner: its lines (ANSI stripped), the lines a runner's reading
 * needs kept from a long output, and a package manager's or the shell's own failures. Each runner's
 * reading is its record's profile (src/runners/). Pure.
 */
import { isAbsolute, posix, relative, sep } from 'node:path';
import type { RunnerName } from '../config/runner-names.js';
import { allRecords, runnerRecord } from '../runners/index.js';
import { type RunnerProfile, outputLines } from '../runners/read.js';
import type { TestFailure } from '../evidence/junit.js';

export { type Reading, type RunnerProfile, type Summary, outputLines, stripAnsi } from '../runners/read.js';

/**
 * Each test runner's profile, by name, every record loaded (a linter's or type checker's record reads
 * its output with `check`, and is not here): for the tests and the docs; a run reads its runner's own.
 */
export async function allProfiles(): Promise<Readonly<Record<RunnerName, RunnerProfile>>> {
  return Object.fromEntries((await allRecords()).flatMap((r) => (r.profile ? [[r.name, r.profile]] : []))) as Record<
    RunnerName,
    RunnerProfile
  >;
}

/** Whether a line of a gate's raw output (colours and progress redraws in it) is one the runner's reading needs kept (RunnerProfile.keep). */
export function keepFor(runner: RunnerName | undefined, other?: RegExp): ((line: string) => boolean) | undefined {
  const profile = runner === undefined ? undefined : runnerRecord(runner).profile;
  const re = profile ? profile.keep : other;
  const next = profile?.keepNext;
  if (!re && !next) return undefined;
  // Lines left, after a `keepNext` line, in which its reason is looked for (as nextLine does): one keeper per gate, fed its lines in order.
  // The blank lines before the reason are kept too, so a reason further down than nextLine looks is not taken from whatever follows.
  let window = 0;
  return (raw) => {
    const line = outputLines(raw)[0]!;
    let kept = re?.test(line) === true;
    if (window > 0) {
      window--;
      kept = true;
      if (line.trim() !== '') window = 0;
    }
    if (next?.test(line)) {
      window = 5;
      kept = true;
    }
    return kept;
  };
}

/** The most failed tests read from one gate's output (the rest are in its output). */
export const MAX_FAILURES_READ = 50;

/** Where a gate ran, to make the files its runner names repository-relative. */
export interface FailureContext {
  /** Absolute folder the gate ran in: the repository's root or a worktree slot's. */
  root: string;
  /** The tier's cwd, relative to the root (`.`). */
  base: string;
  /** go: a package's folder relative to the root (from go.mod's module path), when known (detect-io.ts `goPackageDirs`). */
  packageDir?: (pkg: string) => string | undefined;
  /** cargo: the folder of the command's `--manifest-path`, relative to `base`: its panics name files from there (or from its workspace's root, `base`). */
  manifestDir?: string;
  /** cargo: whether a repository-relative file is there; a file named where none is, is left out (a path from another folder). */
  exists?: (file: string) => boolean;
}

/**
 * The failed tests a runner's output names (its profile's `failures`), as TestFailure: the file made
 * relative to the repository (a file outside it is left out), the id `file::suite > test` as a JUnit
 * report's (pytest's `file::Class::test`; go's `package::TestX`; cargo's `module::test`; unittest's dotted
 * `module.Class.test`, as the runner gives it), each id once,
 * at most MAX_FAILURES_READ. Pure.
 */
export function failedTestsOf(runner: RunnerName, text: string, ctx: FailureContext): TestFailure[] {
  return failedTestsRead(runner, text, ctx).failures;
}

/**
 * `failedTestsOf`'s failed tests (at most MAX_FAILURES_READ), and how many the output names in all (each id
 * once), past that bound too. Pure.
 */
export function failedTestsRead(runner: RunnerName, text: string, ctx: FailureContext): { failures: TestFailure[]; named: number } {
  const read = runnerRecord(runner).profile?.failures;
  if (!read) return { failures: [], named: 0 };
  const out: TestFailure[] = [];
  const seen = new Set<string>();
  for (const f of read(outputLines(text))) {
    const title = f.title.join(' > ');
    const dir = f.package !== undefined ? ctx.packageDir?.(f.package) : undefined;
    // go's file is relative to its package's folder, which packageDir gives relative to the root (a panic's stack frame: absolute).
    const file =
      f.package !== undefined
        ? repoFile(
            f.file !== undefined && isAbsolute(f.file)
              ? f.file
              : dir === undefined || f.file === undefined
                ? undefined
                : posix.join(dir, f.file),
            { root: ctx.root, base: '.' },
          )
        : runner === 'cargo' || runner === 'nextest'
          ? cargoFile(f.file, ctx)
          : repoFile(f.file, ctx);
    const idFile = f.idFile !== undefined ? repoFile(f.idFile, ctx) : file;
    const id =
      f.id ??
      (f.package !== undefined ? `${f.package}::${title}` : idFile !== undefined && runner !== 'cargo' ? `${idFile}::${title}` : title);
    if (seen.has(id)) continue;
    seen.add(id);
    if (out.length >= MAX_FAILURES_READ) continue;
    out.push({
      id,
      title,
      ...(file !== undefined && { file }),
      ...(file !== undefined && f.line !== undefined && { line: f.line }),
      message: f.message,
    });
  }
  return { failures: out, named: seen.size };
}

/**
 * A file a cargo panic names, relative to the repository's root: from the `--manifest-path` folder (a
 * crate of its own), else from where cargo ran (a workspace's member), the first that is there; none when
 * neither is (the gate ran in a folder the tier does not say: `cd crates/rs && cargo test`).
 */
function cargoFile(printed: string | undefined, ctx: FailureContext): string | undefined {
  const from = printed !== undefined && ctx.manifestDir !== undefined && !isAbsolute(printed) ? [posix.join(ctx.manifestDir, printed)] : [];
  const candidates = [...from, printed].map((p) => repoFile(p, ctx)).filter((p) => p !== undefined);
  return ctx.exists === undefined ? candidates[0] : candidates.find((p) => ctx.exists!(p));
}

/** A file as a runner printed it, relative to the repository's root (posix); undefined when it is outside it. */
function repoFile(printed: string | undefined, ctx: FailureContext): string | undefined {
  if (printed === undefined || printed === '') return undefined;
  let p = printed.replace(/^file:\/\//, '');
  if (isAbsolute(p)) {
    const rel = relative(ctx.root, p);
    if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
    p = rel;
  } else if (ctx.base !== '' && ctx.base !== '.') p = posix.join(ctx.base.split(sep).join('/'), p);
  // normalize drops a leading `./` but leaves the root itself as `.` (the absolute root's '' too) or `./`: the root or a folder (`sub/`) is no test file.
  const n = posix.normalize(p.split(sep).join('/'));
  return n === '.' || n.endsWith('/') || n.startsWith('../') ? undefined : n;
}

/** A package manager's or the shell's own failure: the tier's command could not start its tests at all. */
export interface ManagerFailure {
  /** What failed, e.g. `npm: missing script "test:quick"`. */
  what: string;
  line: string;
  /** The command the shell could not find, when that is what failed. */
  notFound?: string;
}

const MANAGER_FAILURES: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [/^npm (?:error|ERR!) Missing script: "?([^"\s]+)"?/, (m) => `npm: missing script "${m[1]}"`],
  [/^npm (?:error|ERR!) enoent Could not read package\.json/, () => 'npm: no package.json'],
  [
    /^npm (?:error|ERR!) (?:npx canceled due to missing packages|could not determine executable to run)/,
    () => 'npx: the command is not installed',
  ],
  // npm's banner before a script it runs: npm init's placeholder (in a workspace, where package.json here does not say it).
  [
    /^> echo (["']?)Error: no test specified\1 && exit 1$/,
    () => 'npm: a test script is npm init\'s placeholder, which runs no test; put the test command in that package\'s "test" script',
  ],
  [/ERR_PNPM_NO_SCRIPT\s+Missing script: (\S+)/, (m) => `pnpm: missing script "${m[1]}"`],
  [/ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL\s+Command "([^"]+)" not found/, (m) => `pnpm: no script or command "${m[1]}"`],
  [/ERR_PNPM_NO_IMPORTER_MANIFEST_FOUND/, () => 'pnpm: no package.json'],
  [/^error Command "([^"]+)" not found\./, (m) => `yarn: no script or command "${m[1]}"`],
  [/^error Couldn't find a package\.json file in/, () => 'yarn: no package.json'],
  [/^Usage Error: Couldn't find a script named "([^"]+)"/, (m) => `yarn: missing script "${m[1]}"`],
  [/^error: Script not found "([^"]+)"/, (m) => `bun: missing script "${m[1]}"`],
];

/**
 * A package manager's failure (missing script, no package.json), a command the shell could not find
 * (one of `words`, the command's and its scripts' words), or a node entry point that does not exist.
 */
export function managerFailure(lines: readonly string[], words: ReadonlySet<string>): ManagerFailure | undefined {
  // pnpm's own error as the first thing printed (` ERROR  Refusing to run pnpm@...`, ` ERR_PNPM_BAD_PM_VERSION  ...`):
  // it stopped before running anything. Later in the output, such a line only wraps up a script that failed.
  const first = lines.find((l) => l.trim() !== '');
  if (first !== undefined && words.has('pnpm') && /^\s?(?:ERR_PNPM_[A-Z0-9_]+|ERROR) {2}\S/.test(first))
    return {
      what: "pnpm stopped before it ran the command (fix pnpm's setup: run the tier's command in a terminal to see why)",
      line: first,
    };
  for (const l of lines) {
    for (const [re, what] of MANAGER_FAILURES) {
      const m = re.exec(l);
      if (m) return { what: what(m), line: l };
    }
  }
  for (const l of lines) {
    const m = /^(?:\/bin\/)?sh: (?:\d+: )?(?:line \d+: )?([^:\s]+): (?:command )?not found/.exec(l);
    if (m && words.has(m[1]!.slice(m[1]!.lastIndexOf('/') + 1))) return { what: `command not found: ${m[1]}`, line: l, notFound: m[1]! };
  }
  // node's own "Cannot find module" for the script it was asked to run: nothing required it.
  const stack = lines.findIndex((l) => /^\s*requireStack: \[\]/.test(l));
  if (stack !== -1) {
    for (let i = stack; i >= 0 && i > stack - 12; i--) {
      const m = /^Error: Cannot find module '([^']+)'/.exec(lines[i]!);
      if (m) return { what: `the script to run does not exist: ${m[1]}`, line: lines[i]! };
    }
  }
  return undefined;
}
