import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { TAIL_BYTES } from '../config/defaults.js';
import type { GateExit, GateIo } from './gate.js';
import type { ResolvedTier } from '../types.js';
import { writeErr } from '../util/stderr.js';
import { LINT_STAGED_SAID } from '../util/messages.js';

type LintStaged = (options: Record<string, unknown>, logger: Record<'log' | 'warn' | 'error' | 'debug', (...a: unknown[]) => void>) => Promise<boolean>;

/**
 * What lint-staged printed when it returned `false` and it was not a task failing: lint-staged could not
 * do its job, which says nothing about the staged change. Its API answers only true or false.
 */
const NOT_A_VERDICT: [RegExp, string][] = [
  [/could not find any valid configuration/, 'no lint-staged configuration found (.lintstagedrc*, lint-staged.config.*, a "lint-staged" key in package.json, or the tier\'s lintStaged.config)'],
  [/Failed to (?:read|parse) config/, 'its configuration could not be read (see above)'],
  [/Validation Error/, 'its configuration or options are invalid (see above)'],
  [/not a git directory/, 'it is not running in a git repository'],
  [/Failed to get staged files/, 'it could not list the staged files'],
  [/Unstaged changes have been kept back in a patch file/, 'it could not restore the unstaged changes; they are kept in the patch file named above'],
  [/prevented an empty git commit/, 'its tasks reverted every staged change, so lint-staged prevented an empty commit'],
];

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

export type LintStagedOutcome = { ok: boolean } | { threw: string };

/** lint-staged's answer and what it said, as a gate exit: a task failure is exit 1, anything else a spawn error. Pure. */
export function lintStagedExit(outcome: LintStagedOutcome, said: readonly string[]): Pick<GateExit, 'exitCode' | 'interrupted' | 'spawnError'> {
  if ('threw' in outcome) return { exitCode: null, interrupted: false, spawnError: `lint-staged could not run: ${outcome.threw}` };
  if (outcome.ok) return { exitCode: 0, interrupted: false };
  const text = said.join('\n').replace(ANSI, '');
  if (/failed due to a git error/.test(text)) return { exitCode: null, interrupted: false, spawnError: gitErrorReason(text) };
  for (const [pattern, reason] of NOT_A_VERDICT) {
    if (pattern.test(text)) return { exitCode: null, interrupted: false, spawnError: `lint-staged could not run: ${reason}` };
  }
  const spawn = /Task failed to spawn: (.+)/.exec(text);
  if (spawn) return { exitCode: null, interrupted: false, spawnError: `lint-staged task could not start: ${spawn[1]!.trim()}` };
  if (/Task interrupted/.test(text)) return { exitCode: null, interrupted: true };
  return { exitCode: 1, interrupted: false };
}

/** lint-staged's own lines, when it printed some. */
const GENERIC = /lint-staged failed due to a git error|Skipped because of|^Running tasks|^Applying modifications|^Cleaning up|^Backing up|^Preparing/;

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
  const words = quoted.length > 0 ? quoted.slice(0, 3).map((l) => `"${l}"`).join(', ') : '"lint-staged failed due to a git error"';
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
  return () => streams.forEach((s, i) => (s.write = originals[i]!));
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

/** lint-staged from next to gate-ladder, else from the repository's own node_modules. */
async function load(root: string): Promise<LintStaged> {
  try {
    return ((await import('lint-staged')) as { default: LintStaged }).default;
  } catch {
    try {
      const path = createRequire(join(root, 'package.json')).resolve('lint-staged');
      return ((await import(pathToFileURL(path).href)) as { default: LintStaged }).default;
    } catch {
      throw new Error('lint-staged is not installed; run `npm i -D lint-staged@16`');
    }
  }
}

/**
 * Runs lint-staged in-process through its API, in the repository itself: it backs up, hides unstaged
 * changes, runs its tasks on the staged files and restores, exactly as it does on its own.
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
  try {
    const lintStaged = await load(root);
    stopCopying = copyOutput(printed);
    outcome = { ok: await lintStaged(lintStagedOptions(tier, root), logger) };
  } catch (err) {
    outcome = { threw: (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error' };
  } finally {
    stopCopying?.();
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const tail = said.join('\n');
  return {
    signal: null,
    timedOut: false,
    ...(stopped ? { exitCode: null, interrupted: true } : lintStagedExit(outcome, [...said, ...printed])),
    seconds: Math.round(performance.now() - started) / 1000,
    tail: tail.slice(Math.max(0, tail.length - TAIL_BYTES)),
  };
}
