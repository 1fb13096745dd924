import { EXIT } from '../config/defaults.js';
import { shownLines } from '../util/escape.js';

/**
 * A command's end: its exit code set, or the one line of an error it did not expect. Both entries
 * (entry.ts for `run`, commands.ts for the rest) end through here.
 */
export function settle(done: Promise<number>, onCode: (code: number) => void = () => {}): void {
  done.then(
    (code) => {
      process.exitCode = code;
      onCode(code);
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
}
