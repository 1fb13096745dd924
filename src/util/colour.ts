/**
 * Whether a gate whose output gate-ladder reads (through a pipe) should be told to keep its colours:
 * our stderr is a terminal and the user set neither NO_COLOR nor FORCE_COLOR (a FORCE_COLOR of theirs
 * reaches the gate as it is). node:tty (which loads node:net) loads only when asked: process.getBuiltinModule.
 */
export function gateColourWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.NO_COLOR ?? '') !== '' || env.FORCE_COLOR !== undefined) return false;
  return process.getBuiltinModule('node:tty').isatty(2);
}

/**
 * Colour for the few lines gate-ladder wants seen (a blocked push's last block). Node's own rules:
 * FORCE_COLOR wins (`0` or `false` turn colour off), else NO_COLOR (set and not empty) turns it off,
 * else TERM=dumb does, else colour only on a terminal. Pure: `isTerminal` is asked last, and only then.
 */
export function colourWanted(env: NodeJS.ProcessEnv, isTerminal: () => boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTerminal();
}

const CODES = { red: '31', yellow: '33', bold: '1' } as const;

/** Each line of `text` in a colour (a reset first: a runner may have left its own colour on). Pure. */
export function paint(text: string, colour: keyof typeof CODES, on: boolean): string {
  if (!on) return text;
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `\u001b[0m\u001b[${CODES[colour]}m${line}\u001b[0m`))
    .join('\n');
}
