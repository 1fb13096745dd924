import { runCommand } from '../commands/run.js';
import { EXIT } from '../config/defaults.js';
import { mayExitNow } from '../util/early-exit.js';
import { shownLines } from '../util/escape.js';
import { dropOutputToClosedPipes } from '../util/stderr.js';
import { parseRunArgs } from './run-args.js';

/** The command line's work, once src/bin.ts has set up Node: `run` straight away, anything else through yargs. */
const argv = process.argv.slice(2);
// `run` (every push) never loads yargs; other commands and --help go through the full CLI.
const fast = parseRunArgs(argv);
// Every command but a plain `run` writes through process.stdout/stderr (a plain run writes to fd 2 directly,
// where a closed pipe is already ignored, and building those streams would cost every push).
if (!fast) dropOutputToClosedPipes();
else if (fast.json) dropOutputToClosedPipes([process.stdout]);
const done = fast ? runCommand({ cwd: process.cwd(), ...fast, exitsAfter: true }) : import('./main.js').then((m) => m.main(argv));

done.then(
  (code) => {
    process.exitCode = code;
    if (!fast) return;
    // A run exits as soon as it is done: its gates have exited, its files are written, and its temp
    // worktrees go in 'exit' handlers, which process.exit runs too. Unless something is still under
    // way (early-exit.ts), and then node's own exit waits for it.
    if (mayExitNow()) process.exit(code);
  },
  (err: unknown) => {
    // A ledger that cannot be written, met by a command that does not go on without it (seed, flaky...): its one line.
    if (err instanceof Error && err.name === 'LedgerError') {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = EXIT.error;
      return;
    }
    process.stderr.write(
      `gate-ladder: internal error: ${shownLines(err instanceof Error ? (err.stack ?? err.message) : String(err))}\nPlease report it with the command you ran.\n`,
    );
    process.exitCode = EXIT.internal;
  },
);
