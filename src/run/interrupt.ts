const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface Interruption {
  /** Resolves on the first SIGINT, SIGTERM or SIGHUP; hand it to running gates. */
  promise: Promise<void>;
  readonly fired: boolean;
  /** Interrupts as a first signal would (e.g. the push this run judges is gone). */
  fire: () => void;
  dispose: () => void;
  /**
   * While held, every signal calls `onHeld` (a later one instead of `onSecond`): for work that must finish its own
   * clean-up (lint-staged restoring the unstaged changes it hid). Returns the release.
   */
  hold: (onHeld: () => void) => () => void;
}

/**
 * Traps Ctrl-C, SIGTERM and SIGHUP so the caller can stop its gates and clean up. A second signal calls
 * `onSecond` (e.g. exit at once; the worktrees' exit hook still removes them).
 */
export function trapInterrupt(onSecond: () => void = () => {}): Interruption {
  let resolve!: () => void;
  let fired = false;
  const promise = new Promise<void>((r) => (resolve = r));
  const holds: (() => void)[] = [];
  const on = () => {
    const held = holds.at(-1);
    if (fired) {
      if (held) held();
      else onSecond();
      return;
    }
    fired = true;
    resolve();
    held?.();
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
    hold: (onHeld) => {
      holds.push(onHeld);
      return () => {
        const at = holds.lastIndexOf(onHeld);
        if (at >= 0) holds.splice(at, 1);
      };
    },
  };
}
