import { copyFileSync, existsSync, mkdtempSync, rmSync } from '../util/node.js';
import { tmpdir } from '../util/node.js';
import { join } from 'node:path';
import { commitTreeRun, git, resolveCommit } from './git.js';

export type WorktreeSnapshot =
  | { kind: 'ok'; commit: string; head: string }
  | { kind: 'empty' }
  | { kind: 'no-head' }
  | { kind: 'failed'; why: string };

/**
 * The working tree's change as one unreferenced commit on HEAD, for `gate-ladder judge --worktree`:
 * what `git add -A` would commit (tracked edits and deletions, and untracked files that no ignore rule
 * excludes), staged into a copy of the index in a temporary folder, so that the user's index, working
 * tree and refs are never written. git's gc removes the commit in time.
 */
export function worktreeSnapshot(root: string, gitDir: string): WorktreeSnapshot {
  const head = resolveCommit(root, 'HEAD');
  if (head === null) return { kind: 'no-head' };
  const dir = mkdtempSync(join(tmpdir(), 'gl-judge-index-'));
  try {
    const indexFile = join(dir, 'index');
    const own = join(gitDir, 'index');
    // A copy keeps the index's file stats: `add -A` then hashes only what changed.
    if (existsSync(own)) copyFileSync(own, indexFile);
    const seeded = existsSync(own) ? { ok: true, stderr: '' } : git(root, ['read-tree', 'HEAD'], { indexFile });
    if (!seeded.ok) return { kind: 'failed', why: firstLine(seeded.stderr) };
    const added = git(root, ['add', '-A', '--', '.'], { indexFile });
    if (!added.ok) return { kind: 'failed', why: firstLine(added.stderr) };
    const tree = git(root, ['write-tree'], { indexFile });
    if (!tree.ok) return { kind: 'failed', why: firstLine(tree.stderr) };
    const headTree = git(root, ['rev-parse', `${head}^{tree}`]).stdout.trim();
    if (tree.stdout.trim() === headTree) return { kind: 'empty' };
    const commit = commitTreeRun(root, tree.stdout.trim(), head, 'gate-ladder judge: the working tree');
    if (!commit.ok) return { kind: 'failed', why: firstLine(commit.stderr) };
    return { kind: 'ok', commit: commit.stdout.trim(), head };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] || 'git failed';
}

/**
 * A patch file applied onto `base` as one unreferenced commit, without a work tree: `git apply --cached`
 * into an index of our own (for `explain_order`, which plans the change without running it).
 */
export function patchSnapshot(root: string, base: string, file: string): { kind: 'ok'; commit: string } | { kind: 'failed'; why: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gl-judge-index-'));
  try {
    const indexFile = join(dir, 'index');
    for (const args of [
      ['read-tree', base],
      ['apply', '--cached', '--whitespace=nowarn', file],
    ]) {
      const r = git(root, args, { indexFile });
      if (!r.ok) return { kind: 'failed', why: firstLine(r.stderr) };
    }
    const tree = git(root, ['write-tree'], { indexFile });
    if (!tree.ok) return { kind: 'failed', why: firstLine(tree.stderr) };
    const commit = commitTreeRun(root, tree.stdout.trim(), base, 'gate-ladder: a patch, planned');
    return commit.ok ? { kind: 'ok', commit: commit.stdout.trim() } : { kind: 'failed', why: firstLine(commit.stderr) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
