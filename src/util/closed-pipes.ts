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
