import { parseArgs } from '../util/node.js';
import type { RunOptions } from '../commands/run.js';

/**
 * `run`'s arguments, defined once. Node's parser reads them on every push (`parseRunArgs`: the hook's
 * path never loads yargs), and yargs shows them in `run --help` and explains what node's parser
 * refused (cli/main.ts). A boolean that defaults to true is given as `--no-<name>`.
 */
export const RUN_POSITIONALS = {
  hook: { choices: ['pre-push', 'pre-commit'], describe: 'The git hook calling (omit for a manual or CI run)' },
  remote: { type: 'string', describe: 'Remote name (git passes it to pre-push)' },
  url: { type: 'string', describe: 'Remote URL (git passes it to pre-push)' },
} as const;

export const RUN_FLAGS = {
  base: {
    type: 'string',
    describe: "Base revision (manual runs; default: config base, else the remote's HEAD, main or master, else the branch's upstream)",
  },
  head: { type: 'string', describe: 'Head revision (manual runs)' },
  'dry-run': { type: 'boolean', describe: 'Print the plan and why, run nothing' },
  calibrate: { type: 'boolean', describe: 'Run every planned tier whatever the verdicts (rows flagged, not counted in yield)' },
  json: { type: 'boolean', describe: 'Print the targets, plans and verdicts as JSON on stdout' },
  output: {
    type: 'string',
    choices: ['summary', 'all', 'failures'],
    describe:
      "How gates' output is shown, over the config's `output` (for a push: GATE_LADDER_OUTPUT=all git push): summary (one screen for a tier that does not pass, the whole output in a log under the git dir), all (as it comes), failures (a failing tier's whole output)",
  },
  cache: {
    type: 'boolean',
    default: true,
    describe:
      'Reuse a pass of the same tree under the same config (--no-cache, or GATE_LADDER_NO_CACHE=1: run every planned gate and load the config afresh)',
  },
} as const;

type Flags = typeof RUN_FLAGS;
type NodeOptions = { [K in keyof Flags as Flags[K] extends { default: true } ? `no-${K}` : K]: { type: Flags[K]['type'] } };

/** `RUN_FLAGS` as node's parser takes them. */
export const RUN_OPTIONS = Object.fromEntries(
  Object.entries(RUN_FLAGS).map(([name, f]) =>
    'default' in f && f.default === true ? [`no-${name}`, { type: f.type }] : [name, { type: f.type }],
  ),
) as NodeOptions;

/** What either parser read, as one record (yargs: `cache: false` for `--no-cache`). */
export interface RunArgs {
  hook?: string | undefined;
  remote?: string | undefined;
  base?: string | undefined;
  head?: string | undefined;
  'dry-run'?: boolean | undefined;
  calibrate?: boolean | undefined;
  json?: boolean | undefined;
  cache?: boolean | undefined;
  output?: string | undefined;
}

/** The run options the arguments mean, from node's parser or yargs. Pure. */
export function runOptionsOf(a: RunArgs): Omit<RunOptions, 'cwd'> {
  return {
    ...(a.hook && { hook: a.hook as RunOptions['hook'] & string }),
    ...(a.remote && { remote: a.remote }),
    ...(a.base && { base: a.base }),
    ...(a.head && { head: a.head }),
    dryRun: a['dry-run'] === true,
    json: a.json === true,
    calibrate: a.calibrate === true,
    ...(a.cache === false && { noCache: true }),
    ...(a.output !== undefined && { output: a.output as NonNullable<RunOptions['output']> }),
  };
}

/**
 * The hook's path: `run`'s arguments read with node's parser, strict. Returns `undefined` for
 * anything else (another command, --help, an unknown flag, a bad value): yargs then parses it and
 * says what is wrong. Pure.
 */
export function parseRunArgs(argv: readonly string[]): Omit<RunOptions, 'cwd'> | undefined {
  if (argv[0] !== 'run') return undefined;
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: true; options: typeof RUN_OPTIONS }>>;
  try {
    parsed = parseArgs({ args: argv.slice(1), strict: true, allowPositionals: true, options: RUN_OPTIONS });
  } catch {
    return undefined;
  }
  const { values: v, positionals: p } = parsed;
  const [hook, remote, _url, ...rest] = p;
  if (rest.length > 0) return undefined;
  if (hook !== undefined && !(RUN_POSITIONALS.hook.choices as readonly string[]).includes(hook)) return undefined;
  if (v.base === '' || v.head === '') return undefined;
  if (v.output !== undefined && !(RUN_FLAGS.output.choices as readonly string[]).includes(v.output)) return undefined;
  return runOptionsOf({ ...v, hook, remote, ...(v['no-cache'] && { cache: false }) });
}
