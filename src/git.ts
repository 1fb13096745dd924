import { spawnSync } from 'node:child_process';
import type { ChangedPath } from './types.js';

/** The empty tree: the base of a first push to an empty remote. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface GitResult {
  ok: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Thrown only for git failures the caller did not expect; expected ones are checked via `ok`. */
export class GitError extends Error {
  constructor(readonly args: readonly string[], readonly result: GitResult) {
    super(`git ${args.join(' ')} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
    this.name = 'GitError';
  }
}

/** Runs git synchronously. Every git call of gate-ladder goes through here. */
export function git(cwd: string, args: readonly string[], input?: string): GitResult {
  const r = spawnSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, GATE_LADDER: '0', GIT_OPTIONAL_LOCKS: '0' },
  });
  if (r.error) return { ok: false, code: null, stdout: '', stderr: r.error.message };
  return { ok: r.status === 0, code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like `git`, but a failure is an exception. */
export function gitOk(cwd: string, args: readonly string[], input?: string): string {
  const r = git(cwd, args, input);
  if (!r.ok) throw new GitError(args, r);
  return r.stdout;
}

export interface RepoInfo {
  root: string;
  commonDir: string;
  gitDir: string;
}

/** One git call for the three paths the runner needs; `null` outside a work tree. */
export function repoInfo(cwd: string): RepoInfo | null {
  const r = git(cwd, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir', '--git-dir']);
  if (!r.ok) return null;
  const [root, commonDir, gitDir] = r.stdout.trim().split('\n');
  if (!root || !commonDir || !gitDir) return null;
  return { root, commonDir, gitDir };
}

/** Parses `git diff --name-status -z` output. Pure. */
export function parseNameStatusZ(out: string): ChangedPath[] {
  const parts = out.split('\0');
  const changes: ChangedPath[] = [];
  for (let i = 0; i < parts.length; ) {
    const status = parts[i++];
    if (!status) continue;
    if (status[0] === 'R' || status[0] === 'C') {
      const from = parts[i++] ?? '';
      const path = parts[i++] ?? '';
      changes.push({ status, path, from });
    } else {
      changes.push({ status, path: parts[i++] ?? '' });
    }
  }
  return changes;
}

/** Paths changed between two commits (or trees), renames with both paths. */
export function diffPaths(cwd: string, base: string, head: string): ChangedPath[] {
  return parseNameStatusZ(gitOk(cwd, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', '--no-textconv', base, head, '--']));
}

/** Paths staged for commit. */
export function stagedPaths(cwd: string): ChangedPath[] {
  return parseNameStatusZ(gitOk(cwd, ['diff', '--cached', '--name-status', '-z', '-M', '--no-ext-diff']));
}

/** The commit a revision names, or null when it does not exist locally. */
export function resolveCommit(cwd: string, rev: string): string | null {
  const r = git(cwd, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  return r.ok ? r.stdout.trim() : null;
}

export function mergeBase(cwd: string, a: string, b: string): string | null {
  const r = git(cwd, ['merge-base', a, b]);
  return r.ok ? r.stdout.trim() : null;
}

export function treeOf(cwd: string, rev: string): string | null {
  const r = git(cwd, ['rev-parse', '--verify', '--quiet', `${rev}^{tree}`]);
  return r.ok ? r.stdout.trim() : null;
}

/** The remote's default branch as this clone knows it (`refs/remotes/<remote>/HEAD`). */
export function remoteHead(cwd: string, remote: string): string | null {
  const r = git(cwd, ['symbolic-ref', '--quiet', `refs/remotes/${remote}/HEAD`]);
  return r.ok ? r.stdout.trim() : null;
}
