/**
 * Whether the process may exit the moment a run is done (src/cli/entry.ts), skipping node's teardown of
 * the event loop and the heap: nothing node would otherwise wait for is still under way. Public API
 * only (`process.exit`); kept because a push waits for that teardown, and the bookkeeping is a counter. Whatever
 * writes in the background says so here: a file written on the thread pool (cache-files.ts), output
 * through node's stream objects, where a write to a pipe whose reader is slow stays queued (`--json`
 * on stdout; stderr after a full non-blocking descriptor).
 */
let pending = 0;
let streamed = false;

/** Marks background work as under way; call the returned function when it is done (twice is harmless). */
export function backgroundWork(): () => void {
  pending++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    pending--;
  };
}

/** Something was written through process.stdout or process.stderr. */
export function wroteToStream(): void {
  streamed = true;
}

export function mayExitNow(): boolean {
  return pending === 0 && !streamed;
}
