/**
 * The copy of git's refs a pre-push hook keeps: git gives them once, on stdin, and more than one part of
 * the hook reads them (a carried hook, gate-ladder's line, the hook's own lines). One temporary file,
 * removed when the hook ends; each reader is given it, or the hook's stdin is pointed at it again.
 * Pure: the shell lines install writes (and uninstall finds again, so they never change).
 */

/** Saves stdin (git's refs) into `$gl_in`, removed when the hook's shell exits. */
const SAVE = `gl_in="$(mktemp)"; trap 'rm -f "$gl_in"' EXIT; cat >"$gl_in"`;
/** Points the hook's stdin at the copy, from the start, for every line after it. */
const AGAIN = 'exec <"$gl_in"';

export const refsCopy = {
  /** The line that saves the refs (for a block whose commands are each fed them with `feed`). */
  save: SAVE,
  /** A command's redirection from the copy. */
  feed: ' <"$gl_in"',
  /** The line that gives the rest of the hook the refs again. */
  again: AGAIN,
  /** Whether a line is one that saves the refs. */
  saves: (line: string): boolean => line.startsWith('gl_in="$(mktemp)"'),
  /**
   * The two lines around gate-ladder's in a pre-push hook with lines of its own: the refs saved and
   * given to gate-ladder's line, then given again to the hook's own lines.
   */
  around: {
    before: `${SAVE}; ${AGAIN} # gate-ladder: the refs, for gate-ladder's line and the lines below`,
    after: `${AGAIN} # gate-ladder: the refs again, for the lines below`,
  },
} as const;
