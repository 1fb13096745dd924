export interface Interruption {
  /** Resolves on the first SIGINT or SIGTERM; hand it to running gates. */
  promise: Promise<void>;
  readonly fired: boolean;
  dispose: () => void;
}

/**
 * Traps Ctrl-C and SIGTERM so the caller can stop its gates and clean up. A second signal calls
 * `onSecond` (e.g. exit at once; the worktrees' exit hook still removes them).
 */
export function trapInterrupt(onSecond: () => void = () => {}): Interruption {
  let resolve!: () => void;
  let fired = false;
  const promise = new Promise<void>((r) => (resolve = r));
  const on = () => {
    if (fired) {
      onSecond();
      return;
    }
    fired = true;
    resolve();
  };
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return {
    promise,
    get fired() {
      return fired;
    },
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}
