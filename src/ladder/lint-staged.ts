import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { TAIL_BYTES } from '../config/defaults.js';
import type { GateExit, GateIo } from './gate.js';
import type { ResolvedTier } from '../types.js';
import { writeErr } from '../util/stderr.js';

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
  [/failed due to a git error/, 'it hit a git error; any lost change is in `git stash list` (lint-staged automatic backup)'],
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
  for (const [pattern, reason] of NOT_A_VERDICT) {
    if (pattern.test(text)) return { exitCode: null, interrupted: false, spawnError: `lint-staged could not run: ${reason}` };
  }
  const spawn = /Task failed to spawn: (.+)/.exec(text);
  if (spawn) return { exitCode: null, interrupted: false, spawnError: `lint-staged task could not start: ${spawn[1]!.trim()}` };
  if (/Task interrupted/.test(text)) return { exitCode: null, interrupted: true };
  return { exitCode: 1, interrupted: false };
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
  try {
    const lintStaged = await load(root);
    outcome = { ok: await lintStaged(lintStagedOptions(tier, root), logger) };
  } catch (err) {
    outcome = { threw: (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error' };
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const tail = said.join('\n');
  return {
    signal: null,
    timedOut: false,
    ...(stopped ? { exitCode: null, interrupted: true } : lintStagedExit(outcome, said)),
    seconds: Math.round(performance.now() - started) / 1000,
    tail: tail.slice(Math.max(0, tail.length - TAIL_BYTES)),
  };
}
