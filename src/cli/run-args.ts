import { parseArgs } from 'node:util';
import type { RunOptions } from '../commands/run.js';

const HOOKS = ['pre-push', 'pre-commit'] as const;

/**
 * The hook's hot path: `run`'s few flags parsed without yargs (see `scanRunArgs`, then node's parser).
 * Returns `undefined` for anything else (another command, --help, an unknown flag, a bad value):
 * yargs then parses it and says what is wrong. Pure.
 */
export function parseRunArgs(argv: readonly string[]): Omit<RunOptions, 'cwd'> | undefined {
  if (argv[0] !== 'run') return undefined;
  const parsed = scanRunArgs(argv.slice(1)) ?? strictParse(argv.slice(1));
  if (parsed === undefined) return undefined;
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

/** `run`'s flags, as node's parser takes them. */
export const RUN_OPTIONS = {
  base: { type: 'string' },
  head: { type: 'string' },
  'dry-run': { type: 'boolean' },
  calibrate: { type: 'boolean' },
  json: { type: 'boolean' },
  'no-cache': { type: 'boolean' },
} as const;

interface Parsed {
  values: { base?: string; head?: string; 'dry-run'?: boolean; calibrate?: boolean; json?: boolean; 'no-cache'?: boolean };
  positionals: string[];
}

/** node's own parser, strict: undefined on any problem (yargs then explains it). */
function strictParse(args: string[]): Parsed | undefined {
  try {
    return parseArgs({ args, strict: true, allowPositionals: true, options: RUN_OPTIONS });
  } catch {
    return undefined;
  }
}

/**
 * The forms a hook line and a CI step use (`pre-push origin <url>`, `--base A --head B`, `--base=A`,
 * the four flags), read without node's parser: its first call costs about 1.5 ms of every push.
 * Anything else (`--`, a short flag, a value that starts with `-`, `--json=x`, an unknown flag) is
 * undefined here and goes to node's parser, which decides. Where this answers, it answers exactly
 * what node's parser would (test/unit/run-args.test.ts checks that on generated arguments).
 */
export function scanRunArgs(args: readonly string[]): Parsed | undefined {
  const values: Parsed['values'] = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) return undefined;
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (name === 'base' || name === 'head') {
      const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
      values[name] = value;
    } else if (eq < 0 && (name === 'dry-run' || name === 'calibrate' || name === 'json' || name === 'no-cache')) {
      values[name] = true;
    } else return undefined;
  }
  return { values, positionals };
}
