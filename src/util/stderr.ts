import { writeSync } from 'node:fs';
import { wroteToStream } from './early-exit.js';

/**
 * A writer to fd 1 or 2 directly: the first `process.stderr.write` builds a stream (and loads node's
 * tty module on a terminal), a few milliseconds of every push. If the descriptor is non-blocking and
 * full (EAGAIN), the rest and everything after go through the stream, so output order is kept. A
 * closed descriptor (EPIPE, EBADF) drops the output: nobody is reading it.
 */
function directWriter(fd: 1 | 2, stream: () => NodeJS.WriteStream): (data: string | Uint8Array) => void {
  let streaming = false;
  return (data) => {
    if (streaming) {
      stream().write(data);
      return;
    }
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(fd, buf, off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      streaming = true;
      wroteToStream();
      stream().write(buf.subarray(off));
    }
  };
}

/** Messages, progress and gates' output: stderr (git shows it during a push). */
export const writeErr = directWriter(2, () => process.stderr);

/** A command's answer (`run --dry-run`): stdout. */
export const writeOut = directWriter(1, () => process.stdout);
