import { createRequire } from '../util/node.js';
import { readFileSync } from '../util/node.js';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from '../util/node.js';
import { TAIL_BYTES } from '../config/defaults.js';
import type { GateExit, GateIo } from '../gates/gate.js';
import type { ResolvedTier } from '../config/resolved.js';
import { writeErr } from '../util/stderr.js';
import { LINT_STAGED_SAID } from '../util/messages.js';
import {
  LS_COULD_NOT_RUN,
  LS_TESTED,
  commitMsg,
  lintStagedConfigMsg,
  lintStagedWhy,
  taskNotStarted,
  untestedLintStaged,
  yamlMissing,
} from './messages.js';
import { saveWork, settleWork } from './guard.js';

type LintStaged = (
  options: Record<string, unknown>,
  logger: Record<'log' | 'warn' | 'error' | 'debug', (...a: unknown[]) => void>,
) => Promise<boolean>;

/**
 * What lint-staged printed when it returned `false` and it was not a task failing: lint-staged could not
 * do its job, which says nothing about the staged change. Its API answers only true or false.
 */
const NOT_A_VERDICT: [RegExp, string][] = [
  [/could not find any valid configuration/, lintStagedWhy.noConfig.reason],
  [/Failed to (?:read|parse) config/, lintStagedWhy.unreadable.reason],
  [/Validation Error/, lintStagedWhy.invalid.reason],
  [/not a git directory/, lintStagedWhy.notGit.reason],
  [/Failed to get staged files/, lintStagedWhy.stagedFiles.reason],
  [/Unstaged changes have been kept back in a patch file/, lintStagedWhy.unstagedPatch.reason],
  [/prevented an empty git commit/, lintStagedWhy.empty.reason],
  [/refused to run with files staged with "--intent-to-add"/, lintStagedWhy.intentToAdd.reason],
  [/requires at least Git version/, lintStagedWhy.oldGit.reason],
];

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

export type LintStagedOutcome = { ok: boolean } | { threw: string };

/** The config file lint-staged said it could not read (`Failed to read config from file "..."`), if it said so. Pure. */
export function unreadableConfig(said: readonly string[]): string | undefined {
  return /Failed to read config from file "([^"\n]+)"/.exec(said.join('\n').replace(ANSI, ''))?.[1];
}

/** Why a config file could not be loaded, as the import said, with the next step: lint-staged says only that it failed. Pure. */
export function configCause(file: string, err: { code?: unknown; message?: unknown }, typescript: boolean): string {
  const message = String(err.message ?? err).split('\n')[0] ?? '';
  const cause = typeof err.code === 'string' && !message.includes(err.code) ? `${err.code}: ${message}` : message;
  const ts = /\.[cm]?ts$/.test(file);
  const next =
    ts && err.code === 'ERR_UNKNOWN_FILE_EXTENSION' && !typescript
      ? lintStagedConfigMsg.tsUnsupported(file)
      : ts && /TYPESCRIPT/.test(String(err.code))
        ? lintStagedConfigMsg.tsSyntax(file)
        : lintStagedConfigMsg.fixIt(file);
  return lintStagedConfigMsg.unreadable(file, cause, next);
}

/**
 * A task that failed to start, as lint-staged says it: `Task failed to spawn: CMD` and then the error code
 * (16.3 on), `CMD failed to spawn:` and the error (16.2's later patches), or `CMD failed without output (CODE).`
 * (13 to 16.2). A code that is a system error (ENOENT,
 * EACCES) is a command that did not start. A task that ran and exited non-zero without a word is said the
 * same way, with `undefined` (16.3 on) or `FAILED`, `KILLED`, a signal as its code: that task failed. Pure.
 */
export function taskNotStartedIn(text: string): { command: string; code: string } | undefined {
  const spawn = /Task failed to spawn: (.+)\r?\n\s*(E[A-Z0-9]+)\s*$/m.exec(text);
  if (spawn) return { command: spawn[1]!.trim(), code: spawn[2]! };
  // 16.2.x later patches: `CMD failed to spawn:`, then nano-spawn's error and its cause (`Error: spawn CMD ENOENT`).
  const nano = /^\s*(?:✖|×)?\s*(.+?) failed to spawn:\s*\r?\n(?:.*\r?\n){0,3}?.*\bspawn \S+ (E[A-Z0-9]+)\s*$/m.exec(text);
  if (nano) return { command: nano[1]!.trim(), code: nano[2]! };
  const silent = /^\s*(?:✖|×)?\s*(.+?) failed without output \((E[A-Z0-9]+)\)\.\s*$/m.exec(text);
  if (silent) return { command: silent[1]!.trim(), code: silent[2]! };
  return undefined;
}

/**
 * A task's spawn error that lint-staged 16.0 to 16.2 (nano-spawn) leave unhandled: `Command failed: CMD
 * FILES...` whose cause is the system error (ENOENT, EACCES) naming the command (`path`). Pure.
 */
export function spawnFailureOf(err: unknown): { command: string; code: string } | undefined {
  const cause = (err as { cause?: { code?: unknown; path?: unknown; syscall?: unknown } } | null)?.cause;
  if (typeof cause?.code !== 'string' || !/^E[A-Z0-9]+$/.test(cause.code) || !/^spawn\b/.test(String(cause.syscall ?? '')))
    return undefined;
  return { command: typeof cause.path === 'string' ? cause.path : String(cause.syscall).replace(/^spawn\s*/, ''), code: cause.code };
}

/** lint-staged's answer and what it said, as a gate exit: a task failure is exit 1, anything else a spawn error. Pure. */
export function lintStagedExit(
  outcome: LintStagedOutcome,
  said: readonly string[],
  configWhy?: string,
  configFile?: string,
): Pick<GateExit, 'exitCode' | 'interrupted' | 'spawnError'> {
  if ('threw' in outcome) {
    // lint-staged 17 throws what 16 said and returned false for (a config that fails validation): read alike.
    const known = NOT_A_VERDICT.find(([pattern]) => pattern.test(outcome.threw.replace(ANSI, '')));
    return { exitCode: null, interrupted: false, spawnError: `${LS_COULD_NOT_RUN}${known?.[1] ?? outcome.threw}` };
  }
  if (outcome.ok) return { exitCode: 0, interrupted: false };
  const text = said.join('\n').replace(ANSI, '');
  if (configWhy !== undefined && unreadableConfig(said) !== undefined)
    return { exitCode: null, interrupted: false, spawnError: `${LS_COULD_NOT_RUN}${configWhy}` };
  if (/failed due to a git error/.test(text)) return { exitCode: null, interrupted: false, spawnError: gitErrorReason(text) };
  for (const [pattern, reason] of NOT_A_VERDICT) {
    if (pattern.test(text)) return { exitCode: null, interrupted: false, spawnError: `${LS_COULD_NOT_RUN}${reason}` };
  }
  const notStarted = taskNotStartedIn(text);
  if (notStarted)
    return { exitCode: null, interrupted: false, spawnError: taskNotStarted(notStarted.command, notStarted.code, configFile) };
  if (/Task interrupted/.test(text)) return { exitCode: null, interrupted: true };
  return { exitCode: 1, interrupted: false };
}

/** lint-staged's own lines, when it printed some. */
const GENERIC =
  /lint-staged failed due to a git error|Skipped because of|^Running tasks|^Applying modifications|^Cleaning up|^Backing up|^Preparing/;

/**
 * What lint-staged said when git stopped it (the repository's state, not the tier: `git add -N` files, a
 * stash it cannot make), quoted: its failed steps' own lines (`[FAILED] error: Entry 'x' not uptodate.`). Pure.
 */
export function gitErrorReason(text: string): string {
  const quoted: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:\[FAILED\]|✖)\s*(.+)$/.exec(raw);
    const line = m?.[1]?.trim().replace(/[\u0000-\u001f\u007f]/g, '?');
    if (line && !GENERIC.test(line) && !quoted.includes(line)) quoted.push(line);
  }
  const words =
    quoted.length > 0
      ? quoted
          .slice(0, 3)
          .map((l) => `"${l}"`)
          .join(', ')
      : '"lint-staged failed due to a git error"';
  return `${LINT_STAGED_SAID} ${words}`;
}

/**
 * Copies what is written to stdout and stderr while lint-staged runs (its task list writes there, not
 * to the logger), so its own words can be quoted. Returns the function that stops copying.
 */
function copyOutput(into: string[]): () => void {
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((s) => s.write);
  streams.forEach((s, i) => {
    s.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (originals[i] as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof s.write;
  });
  return () => {
    for (const [i, s] of streams.entries()) s.write = originals[i]!;
  };
}

/** The tier's lintStaged field as lint-staged's options; stash and hiding of unstaged changes stay lint-staged's defaults. Pure. */
export function lintStagedOptions(tier: ResolvedTier, root: string): Record<string, unknown> {
  const { configPath, ...rest } = tier.lintStaged ?? {};
  return {
    ...rest,
    cwd: resolve(root, tier.cwd),
    ...(configPath !== undefined && { configPath: resolve(root, configPath) }),
  };
}

/**
 * What made a lint-staged config fail to load: lint-staged keeps the error for `--debug`. The file is
 * imported again as lint-staged imports it (the same module, so a module that failed fails the same
 * way, and nothing in it runs twice), or parsed, for JSON. Undefined when it loads now.
 */
async function whyUnreadable(cwd: string, file: string, pkg?: { file: string; version: string }): Promise<string | undefined> {
  const path = resolve(cwd, file);
  const shownAs = relative(cwd, path) || file;
  const yaml = yamlCause(path, shownAs, pkg);
  if (yaml !== undefined) return yaml;
  try {
    if (/\.json$/.test(path)) JSON.parse(readFileSync(path, 'utf8'));
    else if (/\.[cm]?[jt]s$/.test(path)) await import(pathToFileURL(path).href);
    else return undefined;
    return undefined;
  } catch (err) {
    const typescript = Boolean((process.features as { typescript?: unknown }).typescript);
    return configCause(shownAs, (err ?? {}) as { code?: unknown; message?: unknown }, typescript);
  }
}

/** lint-staged's package.json where `load` finds lint-staged (next to gate-ladder, else the repository's), and its version. */
function lintStagedPackage(root: string): { file: string; version: string } | undefined {
  const found = [
    () => fileURLToPath(import.meta.resolve('lint-staged/package.json')),
    () => createRequire(join(root, 'package.json')).resolve('lint-staged/package.json'),
  ];
  for (const find of found) {
    try {
      const file = find();
      return { file, version: String((JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version) };
    } catch {
      // Not there: the next place.
    }
  }
  return undefined;
}

/** lint-staged's package.json and version (lintStagedPackage); a version outside LS_TESTED is said, with the one to install. */
function testedLintStaged(root: string): { file: string; version: string } | undefined {
  const pkg = lintStagedPackage(root);
  const major = pkg === undefined ? Number.NaN : majorOf(pkg.version);
  if (pkg !== undefined && !(major >= LS_TESTED.from && major <= LS_TESTED.to))
    writeErr(Buffer.from(`${untestedLintStaged(pkg.version)}\n`));
  return pkg;
}

/** The major version of a lint-staged version string, or NaN. Pure. */
export const majorOf = (version: string) => Number(/^(\d+)\./.exec(version)?.[1] ?? Number.NaN);

/** Whether a YAML config lint-staged could not read is one it cannot read without the `yaml` package (17 on): the cause, with the next step. */
function yamlCause(file: string, shownAs: string, pkg: { file: string; version: string } | undefined): string | undefined {
  if (pkg === undefined || majorOf(pkg.version) < 17 || !/(?:\.ya?ml|(?:^|\/)\.lintstagedrc)$/.test(file)) return undefined;
  try {
    createRequire(pkg.file).resolve('yaml');
    return undefined;
  } catch {
    return yamlMissing(shownAs, pkg.version);
  }
}

/** lint-staged from next to gate-ladder, else from the repository's own node_modules. */
async function load(root: string): Promise<LintStaged> {
  try {
    return ((await import('lint-staged')) as { default: LintStaged }).default;
  } catch {
    try {
      const path = createRequire(join(root, 'package.json')).resolve('lint-staged');
      return ((await import(pathToFileURL(path).href)) as { default: LintStaged }).default;
    } catch {
      throw new Error(lintStagedWhy.notInstalled.reason);
    }
  }
}

/**
 * Runs lint-staged in-process through its API, in the repository itself: it backs up, hides unstaged
 * changes, runs its tasks on the staged files and restores, exactly as it does on its own. Around it,
 * gate-ladder's own backup (lint-staged-guard.ts): unless lint-staged passed and nobody stopped it, the
 * work tree and index end as they were, or stay in a named stash with the command that restores them.
 */
export async function runLintStaged(tier: ResolvedTier, root: string, env: NodeJS.ProcessEnv, io: GateIo): Promise<GateExit> {
  const started = performance.now();
  // lint-staged traps SIGINT itself (it stops its tasks, then restores); a run we were asked to stop
  // during, by any signal, reached no verdict: it is `interrupted`, and no row is written for it.
  let stopped = false;
  void io.interrupt?.then(() => (stopped = true));
  const said: string[] = [];
  const say = (...args: unknown[]) => {
    const line = format(...args);
    said.push(line);
    (io.write ?? writeErr)(Buffer.from(`${line}\n`));
  };
  const logger = { log: say, warn: say, error: say, debug: say };
  // Its tasks inherit process.env: give them the gate's environment (GATE_LADDER=0, the tier's env) for the run.
  const saved = new Map<string, string | undefined>();
  for (const [k, v] of Object.entries(env)) {
    if (process.env[k] !== v) {
      saved.set(k, process.env[k]);
      process.env[k] = v;
    }
  }
  let outcome: LintStagedOutcome;
  const printed: string[] = [];
  let stopCopying: (() => void) | undefined;
  const pkg = testedLintStaged(root);
  const backup = await saveWork(root, tier.name);
  // lint-staged 16.0 to 16.2 leave a task's spawn error (a command not found) unhandled, which would end this
  // process before lint-staged restores anything: it is kept as what it is, and lint-staged finishes.
  let notStarted: { command: string; code: string } | undefined;
  const onRejection = (err: unknown) => {
    const failed = spawnFailureOf(err);
    if (failed === undefined) throw err;
    notStarted ??= failed;
  };
  process.on('unhandledRejection', onRejection);
  try {
    const lintStaged = await load(root);
    stopCopying = copyOutput(printed);
    // Stopped while the work was being saved: lint-staged never starts.
    outcome = stopped ? { ok: false } : { ok: await lintStaged(lintStagedOptions(tier, root), logger) };
    // A rejection is reported after the microtasks of the turn it happened in: let it arrive.
    await new Promise((r) => setImmediate(r));
  } catch (err) {
    outcome = { threw: (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error' };
  } finally {
    process.off('unhandledRejection', onRejection);
    stopCopying?.();
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  if (backup !== undefined) {
    const settled = await settleWork(root, backup, !stopped && 'ok' in outcome && outcome.ok);
    if (settled.kind === 'restored') writeErr(Buffer.from(`${commitMsg.guardRestored()}\n`));
    if (settled.kind !== 'stashed' && settled.notDropped !== undefined)
      writeErr(Buffer.from(`${commitMsg.guardNotDropped(backup.sha, settled.notDropped)}\n`));
    if (settled.kind === 'stashed') writeErr(Buffer.from(`${commitMsg.guardKept(settled.sha, settled.why)}\n`));
  }
  const unreadable = 'ok' in outcome && !outcome.ok ? unreadableConfig([...said, ...printed]) : undefined;
  const configWhy = unreadable === undefined ? undefined : await whyUnreadable(resolve(root, tier.cwd), unreadable, pkg);
  const tail = said.join('\n');
  return {
    signal: null,
    timedOut: false,
    ...(stopped
      ? { exitCode: null, interrupted: true }
      : notStarted !== undefined && 'ok' in outcome && !outcome.ok
        ? {
            exitCode: null,
            interrupted: false,
            spawnError: taskNotStarted(notStarted.command, notStarted.code, tier.lintStaged?.configPath),
          }
        : lintStagedExit(outcome, [...said, ...printed], configWhy, tier.lintStaged?.configPath)),
    seconds: Math.round(performance.now() - started) / 1000,
    tail: tail.slice(Math.max(0, tail.length - TAIL_BYTES)),
  };
}
