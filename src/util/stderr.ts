import { writeSync } from './node.js';
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

/**
 * A reader that goes away before we are done (`gate-ladder flaky | head -1`) closes our stdout; the
 * next write fails with EPIPE, which node raises as an 'error' event that nobody listens to, and the
 * process dies with a stack trace. Output to a reader that left is output nobody wants: drop it and
 * let the command finish its work and exit with its own code. Any other stream error still throws.
 */
export function dropOutputToClosedPipes(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const s of streams) {
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
      throw e;
    });
  }
}
