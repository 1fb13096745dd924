import { main } from './cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`gate-ladder: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\nPlease report it with the command you ran.\n`);
    process.exitCode = 3;
  },
);
