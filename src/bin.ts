import { hotPathKey } from './hot-path.js';
import { parseRunArgs } from './run-args.js';

/** Given by the bin's loader (scripts/cli-loader.cjs): names the path this run took, for its code cache. */
declare const __glHotPath: ((key: string) => void) | undefined;

const argv = process.argv.slice(2);
// `run` (every push) never loads yargs; other commands and --help go through the full CLI.
const fast = parseRunArgs(argv);
const done = fast
  ? import('./commands/run.js').then((m) => m.runCommand({ cwd: process.cwd(), ...fast }))
  : import('./cli.js').then((m) => m.main(argv));

done.then(
  (code) => {
    process.exitCode = code;
    if (fast && typeof __glHotPath === 'function') __glHotPath(hotPathKey(`${fast.hook ?? 'manual'}${fast.json ? ' json' : ''} ${code}`));
  },
  (err: unknown) => {
    process.stderr.write(`gate-ladder: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\nPlease report it with the command you ran.\n`);
    process.exitCode = 3;
  },
);
