import { EMPTY_TREE, resolveCommit, stagedPaths, writeTree } from './git.js';
import type { RangeError, Skip, Target } from './targets.js';

/** What pre-commit judges: the tree the index would commit, against HEAD (or nothing, before the first commit). */
export interface StagedTarget extends Target {
  /** HEAD, the commit's parent-to-be; null on an unborn branch. */
  parent: string | null;
}

export const STAGED_REF = 'the staged changes';

/** Reads the index git commit is about to commit (`$GIT_INDEX_FILE` when git set it). */
export function stagedTarget(root: string): StagedTarget | Skip | RangeError {
  const tree = writeTree(root);
  if (!tree.ok) {
    return {
      kind: 'error',
      ref: STAGED_REF,
      head: '',
      reason: `git write-tree failed (${tree.stderr.trim().split('\n')[0] || `exit ${tree.code}`}); resolve any conflicts and stage the files again`,
    };
  }
  const changes = stagedPaths(root);
  if (changes.length === 0) return { kind: 'skip', ref: STAGED_REF, why: 'nothing staged: nothing to test' };
  const parent = resolveCommit(root, 'HEAD');
  return { kind: 'test', ref: STAGED_REF, head: tree.stdout.trim(), base: parent ?? EMPTY_TREE, parent, changes };
}
