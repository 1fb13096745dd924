import { runCommand } from '../commands/run.js';
import { mayExitNow } from '../util/early-exit.js';
import { dropOutputToClosedPipes } from '../util/stderr.js';
import { parseRunArgs } from './run-args.js';
import { settle } from './settle.js';

/**
 * `gate-ladder run`, once src/bin.ts has set up Node: every push and commit. Node's own argument
 * parser reads it (run-args.ts), so a push never loads yargs; what that parser leaves (`run --help`,
 * a flag it does not know) goes to the commands' CLI (commands.ts), which explains it.
 */
const argv = process.argv.slice(2);
const fast = parseRunArgs(argv);
if (!fast) await import('./commands.js');
else {
  // A plain run writes to fd 2 directly, where a closed pipe is already ignored (building the
  // process.stdout/stderr streams would cost every push); `--json` writes its document to stdout.
  if (fast.json) dropOutputToClosedPipes([process.stdout]);
  settle(runCommand({ cwd: process.cwd(), ...fast, exitsAfter: true }), (code) => {
    // A run exits as soon as it is done: its gates have exited, its files are written, and its temp
    // worktrees go in 'exit' handlers, which process.exit runs too. Unless something is still under
    // way (early-exit.ts), and then node's own exit waits for it.
    if (mayExitNow()) process.exit(code);
  });
}
