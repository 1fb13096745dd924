import type { ChangeList } from './change-list.js';

/** Where a repository lives: its work tree's root, the common git dir (shared by worktrees), this worktree's git dir. */
export interface RepoInfo {
  root: string;
  commonDir: string;
  gitDir: string;
}

/** Answers fetched up front by `primeRepo` (git-prime.ts); git.ts consults them before spawning git. */
export interface Primed {
  /** The directories the answers hold for: where the run started, and the repo root. */
  cwds: Set<string>;
  info: RepoInfo;
  /** Revision (as asked) → commit sha. */
  commit: Map<string, string>;
  /** Revision or commit sha → tree sha. */
  tree: Map<string, string>;
  /** `a b` (commit shas, both orders) → merge-base, `null` when they share no history. */
  mergeBase: Map<string, string | null>;
  /** `base head` (commit shas) → the changed paths between them. */
  diff: Map<string, ChangeList>;
  /** The text of the repo's `config` file, when finding the repo read it. */
  config?: string;
}

// One run primes once; a process only ever runs one command.
let primed: Primed | undefined;

export function primedFor(cwd: string): Primed | undefined {
  return primed?.cwds.has(cwd) ? primed : undefined;
}

export function setPrimed(p: Primed | undefined): void {
  primed = p;
}
