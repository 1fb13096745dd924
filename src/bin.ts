import { runCommand } from './commands/run.js';
import { hotPathKey } from './util/hot-path.js';
import { parseRunArgs } from './cli/run-args.js';
import { mayExitNow } from './util/early-exit.js';
import { shownLines } from './util/escape.js';
import { dropOutputToClosedPipes } from './util/closed-pipes.js';

/** Given by the bin's loader (scripts/cli-loader.cjs): names the path this run took, for its code cache. */
declare const __glHotPath: ((key: string) => void) | undefined;

const argv = process.argv.slice(2);
// `run` (every push) never loads yargs; other commands and --help go through the full CLI.
const fast = parseRunArgs(argv);
// Every command but a plain `run` writes through process.stdout/stderr (a plain run writes to fd 2 directly,
// where a closed pipe is already ignored, and building those streams would cost every push).
if (!fast) dropOutputToClosedPipes();
else if (fast.json) dropOutputToClosedPipes([process.stdout]);
const done = fast
  ? runCommand({ cwd: process.cwd(), ...fast, exitsAfter: true })
  : import('./cli/main.js').then((m) => m.main(argv));

done.then(
  (code) => {
    process.exitCode = code;
    if (!fast) return;
    if (typeof __glHotPath === 'function') __glHotPath(hotPathKey(`${fast.hook ?? 'manual'}${fast.json ? ' json' : ''} ${code}`));
    // A run exits as soon as it is done: its gates have exited, its files are written, and its temp
    // worktrees go in 'exit' handlers, which process.exit runs too. That skips tearing down the event
    // loop and the heap, a few tenths of a millisecond of every push; unless something is still under
    // way (early-exit.ts), and then node's own exit waits for it. At once rather than on the next tick:
    // the first process.nextTick of a process costs about 0.05 ms, and the run's last awaits have
    // already let any tick queued before them (a warning node prints) run.
    if (mayExitNow()) process.exit(code);
  },
  (err: unknown) => {
    // A ledger that cannot be written, met by a command that does not go on without it (seed, flaky...): its one line.
    if (err instanceof Error && err.name === 'LedgerError') {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`gate-ladder: internal error: ${shownLines(err instanceof Error ? (err.stack ?? err.message) : String(err))}\nPlease report it with the command you ran.\n`);
    process.exitCode = 3;
  },
);
