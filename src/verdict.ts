import type { GateExit } from './gate.js';
import type { RunnerName, Verdict } from './types.js';

export interface Classified {
  verdict: Verdict;
  reason?: string;
}

/** What a runner's exit codes mean when they are not a test failure (see the README's table). */
export const EXIT_MEANINGS: Partial<Record<RunnerName | 'default', Record<number, string>>> = {
  pytest: {
    2: 'pytest was interrupted or hit collection errors',
    3: 'pytest internal error',
    4: 'pytest usage error (bad option, or a conftest.py that fails to import)',
    5: 'pytest collected no tests',
  },
  go: { 2: 'go test usage error' },
  cargo: { 1: 'cargo usage error' },
  nextest: {
    4: 'nextest found no tests',
    94: 'nextest setup error',
    96: 'nextest setup error',
    101: 'nextest could not build the tests',
    102: 'nextest setup error',
    104: 'nextest setup error',
    105: 'nextest setup error',
  },
  playwright: { 130: 'playwright was interrupted' },
  default: {
    2: 'usage error',
    126: 'command found but not executable',
    127: 'command not found',
    130: 'interrupted (SIGINT)',
    137: 'killed (SIGKILL), often out of memory',
    143: 'terminated (SIGTERM)',
  },
};

/** Exit codes that mean "a test failed" for a runner, when the tier does not list its own. */
export const RUNNER_CAUGHT: Partial<Record<RunnerName, number[]>> = {
  cargo: [101],
  nextest: [100],
  mocha: Array.from({ length: 255 }, (_, i) => i + 1),
};

function meaning(code: number, runner: RunnerName | undefined): string | undefined {
  return (runner && EXIT_MEANINGS[runner]?.[code]) ?? EXIT_MEANINGS.default?.[code];
}

/** `sh: 1: pytestt: not found` and the like, from the tail of a shell's output. */
export function notFoundCommand(tail: string): string | undefined {
  const m = /(?:^|\n)(?:\/bin\/)?sh: (?:\d+: )?(?:line \d+: )?([^:\n]+): (?:command )?not found/.exec(tail);
  return m?.[1]?.trim();
}

/**
 * Exit code, signal and timeout to a verdict. Pure.
 * `pass` is exit 0; `caught` is an exit code the tier lists (default exactly 1); all else is `error`.
 */
export function classify(exit: GateExit, caught: readonly number[], timeout: number, runner?: RunnerName): Classified {
  if (exit.spawnError !== undefined) return { verdict: 'error', reason: exit.spawnError };
  if (exit.interrupted) return { verdict: 'error', reason: 'interrupted (Ctrl-C)' };
  if (exit.timedOut) return { verdict: 'error', reason: `timed out after ${timeout} s` };
  if (exit.signal !== null) return { verdict: 'error', reason: `killed by ${exit.signal}` };
  const code = exit.exitCode;
  if (code === 0) return { verdict: 'pass' };
  if (code === null) return { verdict: 'error', reason: 'exited without a code' };
  if (caught.includes(code)) return { verdict: 'caught' };
  if (code === 127) {
    const cmd = notFoundCommand(exit.tail);
    return { verdict: 'error', reason: cmd ? `command not found: ${cmd}` : 'exit 127: command not found' };
  }
  const known = meaning(code, runner);
  return { verdict: 'error', reason: known ? `exit ${code}: ${known}` : `exit ${code}, which this tier does not count as a test failure` };
}
