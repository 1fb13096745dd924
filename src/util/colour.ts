import { isatty } from 'node:tty';

/**
 * Whether a gate whose output gate-ladder reads (through a pipe) should be told to keep its colours:
 * our stderr is a terminal and the user set neither NO_COLOR nor FORCE_COLOR (a FORCE_COLOR of theirs
 * reaches the gate as it is). node:tty loads only when asked (scripts/lazy-tty.cjs in the hook's bundle).
 */
export function colourWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.NO_COLOR ?? '') !== '' || env.FORCE_COLOR !== undefined) return false;
  return isatty(2);
}
