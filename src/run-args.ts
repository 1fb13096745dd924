import { parseArgs } from 'node:util';
import type { RunOptions } from './commands/run.js';

const HOOKS = ['pre-push', 'pre-commit'] as const;

/**
 * The hook's hot path: `run`'s few flags parsed with node's own parser, so a push never loads yargs.
 * Returns `undefined` for anything else (another command, --help, an unknown flag, a bad value):
 * yargs then parses it and says what is wrong. Pure.
 */
export function parseRunArgs(argv: readonly string[]): Omit<RunOptions, 'cwd'> | undefined {
  if (argv[0] !== 'run') return undefined;
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(1),
      strict: true,
      allowPositionals: true,
      options: {
        base: { type: 'string' },
        head: { type: 'string' },
        'dry-run': { type: 'boolean' },
        calibrate: { type: 'boolean' },
        json: { type: 'boolean' },
        'no-cache': { type: 'boolean' },
      },
    });
  } catch {
    return undefined;
  }
  const { values: v, positionals: p } = parsed;
  const [hook, remote, _url, ...rest] = p;
  if (rest.length > 0) return undefined;
  if (hook !== undefined && !(HOOKS as readonly string[]).includes(hook)) return undefined;
  if (v.base === '' || v.head === '') return undefined;
  return {
    ...(hook && { hook: hook as RunOptions['hook'] & string }),
    ...(remote && { remote }),
    ...(v.base && { base: v.base }),
    ...(v.head && { head: v.head }),
    dryRun: v['dry-run'] === true,
    json: v.json === true,
    calibrate: v.calibrate === true,
    ...(v['no-cache'] && { noCache: true }),
  };
}
