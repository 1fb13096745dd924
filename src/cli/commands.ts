import { dropOutputToClosedPipes } from '../util/stderr.js';
import { main } from './main.js';
import { settle } from './settle.js';

/**
 * Every command but a plain `run`, and `--help`: the yargs CLI (main.ts). Loaded by src/bin.ts for any
 * other first word, and by entry.ts for a `run` its own parser leaves to yargs (`run --help`, a flag it
 * does not know). Its own build in the package (scripts/build.mjs), apart from the hook's.
 */
// These commands write through process.stdout/stderr: a closed pipe (`| head`) ends them quietly.
dropOutputToClosedPipes();
settle(main(process.argv.slice(2)));
