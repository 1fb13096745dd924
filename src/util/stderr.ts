import { writeSync } from 'node:fs';
import { wroteToStream } from './early-exit.js';

let stream = false;

/**
 * Writes to fd 2 directly: the first `process.stderr.write` builds a stream (and loads node's tty
 * module on a terminal), a few milliseconds of every push. If the descriptor is non-blocking and
 * full (EAGAIN), the rest and everything after go through the stream, so output order is kept.
 */
export function writeErr(data: string | Uint8Array): void {
  if (stream) {
    process.stderr.write(data);
    return;
  }
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  let off = 0;
  try {
    while (off < buf.length) off += writeSync(2, buf, off);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return; // stderr closed: nothing to tell
    stream = true;
    wroteToStream();
    process.stderr.write(buf.subarray(off));
  }
}

let outStream = false;

/** The same as `writeErr`, for fd 1: a command's answer (`run --dry-run`) goes to stdout. */
export function writeOut(data: string | Uint8Array): void {
  if (outStream) {
    process.stdout.write(data);
    return;
  }
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  let off = 0;
  try {
    while (off < buf.length) off += writeSync(1, buf, off);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return; // stdout closed: nobody reads the answer
    outStream = true;
    wroteToStream();
    process.stdout.write(buf.subarray(off));
  }
}
