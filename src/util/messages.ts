/**
 * The phrasing every voice shares: who hears a verdict, how to bypass or retry, quoting outside text.
 * Each folder's own sentences are in its messages.ts (run/, install/, evidence/, report/, replay/,
 * lint-staged/, config/, ledger/, slots/); each says the next step.
 */
import type { HookName } from '../types.js';
import { shown } from './escape.js';

export const BYPASS = 'To push anyway: `git push --no-verify`, or `GATE_LADDER=0 git push`.';

export const BYPASS_COMMIT = 'To commit anyway: `git commit --no-verify`, or `GATE_LADDER=0 git commit`.';

/** Who hears a verdict: a hook (or a manual run), or a CI job (`gate-ladder ci`), which blocks no push and has no bypass. */
export type Voice = HookName | 'ci';

export const isCommit = (hook?: Voice) => hook === 'pre-commit';

/** A manual run blocks nothing: it answers, and its exit code says how. */
export const isManual = (hook?: Voice) => hook === 'manual';

export const blocked = (hook?: Voice) =>
  hook === 'ci' ? 'check failed: ' : isCommit(hook) ? 'commit blocked: ' : isManual(hook) ? '' : 'push blocked: ';

export const bypass = (hook?: Voice) => (hook === 'ci' || isManual(hook) ? '' : isCommit(hook) ? BYPASS_COMMIT : BYPASS);

export const again = (hook?: Voice) => (isCommit(hook) ? 'commit' : isManual(hook) ? 'run it' : 'push');

/** What brought the change being judged: a push, a commit, a replayed patch, or a manual run's range. */
export const change = (hook?: Voice) =>
  isCommit(hook) ? 'commit' : isManual(hook) || hook === 'ci' ? 'range' : hook === 'replay' || hook === 'judge' ? 'patch' : 'push';

/** How the project runs gate-ladder's bin (`npx gate-ladder`, `pnpm exec gate-ladder`, ...). */
export type Exec = (command: string) => string;

export const npx: Exec = (command) => `npx ${command}`;

/** A line of outside input quoted in a message: at most `max` characters (a 5 MB line would be printed whole), saying how long it was. Pure. */
export function clipped(line: string, max = 200): string {
  return line.length > max ? `${line.slice(0, max)}… (${line.length} characters)` : line;
}

/** How the reason of a gate whose command the kernel refused as too long (E2BIG) begins (gates/gate.ts). */
export const TOO_LONG_SAID = 'its command is too long to start';

/** Why a gate could not start when its command and arguments were too long for the kernel (E2BIG). */
export const tooLongToStart = (bytes: number) =>
  `${TOO_LONG_SAID}: ${Math.ceil(bytes / 1024)} KiB of arguments, over Linux's 128 KiB for one argument (a /bin/sh command is one) or about 2 MiB in all`;

/** How an error reason quoting lint-staged's own words begins (lint-staged/tier.ts). */
export const LINT_STAGED_SAID = 'lint-staged stopped: it said';

/** Test ids come from reports: control characters in them are shown escaped, never sent to the terminal. */
export const list = (ids: readonly string[], max = 5) =>
  ids.slice(0, max).map(shown).join(', ') + (ids.length > max ? ` and ${ids.length - max} more` : '');

export const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;

export const q = (s: string) => `"${shown(s).replace(/(["\\$`])/g, '\\$1')}"`;

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const short = (sha: string) => sha.slice(0, 12);

/**
 * The package a harness error says is not installed: node's `Cannot find module 'x'` or `Cannot find
 * package 'x'` for a bare name (not a path), jest's `Preset x not found`, Python's `No module named 'x'`
 * (and `No module named x`, python's own for `-m x`). Pure.
 */
export function missingPackage(reason: string): { name: string; python: boolean } | undefined {
  const js = /Cannot find (?:module|package) '([^'./][^']*)'|\bPreset (\S+) not found/.exec(reason);
  if (js) return { name: (js[1] ?? js[2]!).replace(/^(@[^/]+\/[^/]+|[^@/][^/]*).*$/, '$1'), python: false };
  // Quoted by an ImportError (`No module named 'tomli'`), bare after `python -m X` (`python3: No module named flake8`).
  const py = /No module named (?:'([^'.][^']*)'|([A-Za-z_][\w.]*))/.exec(reason);
  return py ? { name: (py[1] ?? py[2]!).split('.')[0]!, python: true } : undefined;
}
