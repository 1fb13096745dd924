const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface Interruption {
  /** Resolves on the first SIGINT, SIGTERM or SIGHUP; hand it to running gates. */
  promise: Promise<void>;
  readonly fired: boolean;
  /** Interrupts as a first signal would (e.g. the push this run judges is gone). */
  fire: () => void;
  dispose: () => void;
}

/**
 * Traps Ctrl-C, SIGTERM and SIGHUP so the caller can stop its gates and clean up. A second signal calls
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
  for (const signal of SIGNALS) process.on(signal, on);
  return {
    promise,
    get fired() {
      return fired;
    },
    fire: () => {
      if (fired) return;
      fired = true;
      resolve();
    },
    dispose: () => {
      for (const signal of SIGNALS) process.off(signal, on);
    },
  };
}
