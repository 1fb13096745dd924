import { writeSync } from './node.js';

let closed = false;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes large output to fd 1 directly, waiting while a pipe is full. Through process.stdout, 30 MB
 * written to a pipe (which node makes non-blocking) is copied and queued in memory, doubling the
 * memory and the CPU time of `flaky --json` on a 150,000-test suite. A reader that went away (EPIPE)
 * gets nothing more, as with stderr.ts `dropOutputToClosedPipes`. (stderr.ts `writeOut` is for short answers: on a full pipe it
 * hands the rest to process.stdout instead of waiting.)
 */
export function writeOutBlocking(data: string): void {
  if (closed) return;
  const buf = Buffer.from(data);
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(1, buf, off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(sleeper, 0, 0, 1);
        continue;
      }
      if (code === 'EPIPE') {
        closed = true;
        return;
      }
      throw e;
    }
  }
}
