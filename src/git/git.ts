import { existsSync } from '../util/node.js';
import { join } from 'node:path';
import { decodeText } from '../util/cache-files.js';
import { type Started, startProcess } from '../util/spawn.js';
import { ChangeList, parseNameStatusZ, type ChangedPath } from './change-list.js';
import { argvLine, debugFor } from '../util/debug.js';

const sayGit = debugFor('git');

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
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args.join(' ')} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
    this.name = 'GitError';
  }
}

/**
 * Variables that tie a process to one repository, index or work tree (`git rev-parse --local-env-vars`).
 * Git sets some of them for hooks (GIT_DIR in a linked worktree, GIT_INDEX_FILE for pre-commit).
 */
export const LOCAL_GIT_ENV = [
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_OBJECT_DIRECTORY',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_INDEX_FILE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_REPLACE_REF_BASE',
  'GIT_PREFIX',
  'GIT_SHALLOW_FILE',
  'GIT_COMMON_DIR',
] as const;

/** Of those, the ones that say where the repository itself is (not an index, a prefix or a config). */
export const REPO_GIT_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
] as const;

/**
 * The environment without the variables above (and the GIT_CONFIG_KEY_n/VALUE_n pairs), for another
 * work tree; with `keepRepo`, those of REPO_GIT_ENV stay. Pure.
 */
export function withoutLocalGitEnv(env: NodeJS.ProcessEnv, keepRepo = false): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  const drop = new Set<string>(LOCAL_GIT_ENV);
  if (keepRepo) for (const k of REPO_GIT_ENV) drop.delete(k);
  for (const [k, v] of Object.entries(env)) {
    if (drop.has(k) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(k)) continue;
    out[k] = v;
  }
  return out;
}

export interface GitOptions {
  input?: string;
  /**
   * `true`: run without the hook's GIT_DIR/GIT_INDEX_FILE/...: for commands that touch another work tree.
   * `'root'`: the same, for a command on the repository run at its main work tree's root (worktree
   * add/remove/list, ls-files), except that where that root has no `.git` of its own (GIT_DIR and
   * GIT_WORK_TREE set by the user: a dotfiles repository, `git --git-dir=... push`), the variables that
   * name the repository stay: without them git finds no repository there.
   */
  scrub?: boolean | 'root';
  /** An index of our own (GIT_INDEX_FILE), so that the user's is never written (`judge --worktree`). */
  indexFile?: string;
}

const gitEnv = (scrub: boolean | 'root' = false, cwd = '', indexFile?: string) => ({
  ...(scrub ? withoutLocalGitEnv(process.env, scrub === 'root' && !existsSync(join(cwd, '.git'))) : process.env),
  GATE_LADDER: '0',
  GIT_OPTIONAL_LOCKS: '0',
  ...(indexFile !== undefined && { GIT_INDEX_FILE: indexFile }),
});

/** Runs git synchronously. Every git call of gate-ladder goes through here. */
export function git(cwd: string, args: readonly string[], opts: string | GitOptions = {}): GitResult {
  const { input, scrub, indexFile } = typeof opts === 'string' ? { input: opts, scrub: false, indexFile: undefined } : opts;
  sayGit?.(`${argvLine('git', args)} (in ${cwd})`);
  const r = process
    .getBuiltinModule('node:child_process')
    .spawnSync('git', args, { cwd, input, maxBuffer: 1024 * 1024 * 1024, env: gitEnv(scrub, cwd, indexFile) });
  if (r.error) return { ok: false, code: null, stdout: '', stderr: r.error.message };
  return { ok: r.status === 0, code: r.status, stdout: decodeText(r.stdout), stderr: decodeText(r.stderr) };
}

/** A git process started in the background. */
export interface GitJob {
  /** Its output as bytes. */
  done: Promise<{ ok: boolean; stdout: Buffer }>;
}

/**
 * Starts git without waiting for it, so that it works on the other core while this process does
 * something else (another git call included: a spawnSync blocks only us, not a process already
 * started). Never rejects.
 */
export function gitJob(cwd: string, args: readonly string[]): GitJob {
  sayGit?.(`${argvLine('git', args)} (in ${cwd}, in the background)`);
  const proc: Started = startProcess({ file: 'git', args, cwd, env: gitEnv(), stdout: 'pipe', stderr: 'ignore', detached: false });
  const chunks: Buffer[] = [];
  proc.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  // Piped output is whole once the pipe closes (after the exit, or with it when git could not start).
  const closed = proc.stdout ? new Promise<void>((resolve) => proc.stdout!.once('close', resolve)) : Promise.resolve();
  return {
    done: Promise.all([proc.ended, closed]).then(([end]) => ({
      ok: !('error' in end) && end.exitCode === 0,
      stdout: Buffer.concat(chunks),
    })),
  };
}

/** Like `git`, but a failure is an exception. */
export function gitOk(cwd: string, args: readonly string[], opts: string | GitOptions = {}): string {
  const r = git(cwd, args, opts);
  if (!r.ok) throw new GitError(args, r);
  return r.stdout;
}

/** Where a repository lives: its work tree's root, the common git dir (shared by worktrees), this worktree's git dir. */
export interface RepoInfo {
  root: string;
  commonDir: string;
  gitDir: string;
}

export const REPO_PATHS = ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir', '--git-dir'] as const;
/**
 * How every diff is read: names and statuses, NUL-separated (odd paths stay unquoted). No rename or
 * copy detection: a rename is then listed as its old path deleted and its new path added, the same
 * touched paths (and a copy's source is listed only when it changed, as with -C), found faster.
 */
const NAME_STATUS = ['--name-status', '-z', '--no-renames', '--no-ext-diff', '--no-textconv'] as const;
/**
 * Two commits' (or trees') changes: plumbing `diff-tree -r`, which lists the same paths as `git diff`
 * without reading its porcelain settings, about 6% sooner on a 100,000-path diff; with `--merge-base`
 * it takes `git diff a...b`'s place.
 */
export const DIFF_NAMES = ['diff-tree', '-r', ...NAME_STATUS] as const;

/**
 * The repository git refuses at `cwd` because another user owns it (its `safe.directory` check), as
 * git names it; `undefined` when git does not refuse one. Asked only once `repoInfo` found no repository.
 */
export function refusedRepo(cwd: string): string | undefined {
  const r = git(cwd, ['rev-parse', '--git-dir']);
  if (r.ok) return undefined;
  return /dubious ownership in repository at '(.*)'/.exec(r.stderr)?.[1];
}

/**
 * One git call for the three paths the runner needs; `null` outside a work tree. git prints them one a
 * line, unquoted: a path with a newline in it (three lines no longer add up) is asked for on its own.
 */
export function repoInfo(cwd: string): RepoInfo | null {
  const r = git(cwd, REPO_PATHS);
  if (!r.ok) return null;
  const lines = r.stdout.replace(/\n$/, '').split('\n');
  const [root, commonDir, gitDir] = lines.length === 3 ? lines : REPO_PATHS.slice(2).map((flag) => onePath(cwd, flag));
  if (!root || !commonDir || !gitDir) return null;
  return { root, commonDir, gitDir };
}

/** One of REPO_PATHS's paths, by itself: git's whole line, newlines in it included; '' when git cannot say. */
function onePath(cwd: string, flag: string): string {
  const r = git(cwd, ['rev-parse', '--path-format=absolute', flag]);
  return r.ok ? r.stdout.replace(/\n$/, '') : '';
}

export { NameStatusReader, parseNameStatusZ } from './change-list.js';

/** Paths changed between two commits (or trees), renames and copies with both paths. */
export function diffPaths(cwd: string, base: string, head: string): ChangedPath[] {
  return diffList(cwd, base, head).changes();
}

/** The same, as git's listing (the form routing reads without splitting it, see change-list.ts). */
export function diffList(cwd: string, base: string, head: string): ChangeList {
  return new ChangeList(gitOk(cwd, [...DIFF_NAMES, base, head, '--']));
}

/** Paths staged for commit (in `$GIT_INDEX_FILE` when git commit set it), against HEAD or nothing. */
export function stagedPaths(cwd: string): ChangedPath[] {
  return parseNameStatusZ(gitOk(cwd, ['diff', '--cached', ...NAME_STATUS, '--']));
}

/** The tree the index would commit. */
export function writeTree(cwd: string): GitResult {
  return git(cwd, ['write-tree']);
}

/** `git stash list`, one `stash@{N} <sha> <message>` a line; empty when there is none or git cannot say. */
export function stashList(cwd: string): string {
  const r = git(cwd, ['stash', 'list', '--format=%gd %H %gs']);
  return r.ok ? r.stdout : '';
}

/** An unreferenced commit of `tree` (so a worktree can check it out); git's gc removes it in time. */
export function commitTree(cwd: string, tree: string, parent: string | null, message = 'gate-ladder: staged tree'): string {
  const r = commitTreeRun(cwd, tree, parent, message);
  if (!r.ok) throw new GitError(r.args, r);
  return r.stdout.trim();
}

/** `commitTree` with git's answer as data. */
export function commitTreeRun(cwd: string, tree: string, parent: string | null, message: string): GitResult & { args: string[] } {
  // Never signed (commit-tree honours commit.gpgSign): nobody should be asked for a passphrase for it.
  const args = [
    '-c',
    'user.name=gate-ladder',
    '-c',
    'user.email=gate-ladder@localhost',
    'commit-tree',
    '--no-gpg-sign',
    tree,
    '-m',
    message,
  ];
  if (parent) args.push('-p', parent);
  return { ...git(cwd, args, { scrub: true }), args };
}

export function isShallow(cwd: string): boolean {
  return git(cwd, ['rev-parse', '--is-shallow-repository']).stdout.trim() === 'true';
}

/** Tracked files differ from HEAD (staged or not); untracked files do not count. */
export function hasTrackedChanges(cwd: string): boolean {
  return gitOk(cwd, ['status', '--porcelain', '-z', '--untracked-files=no', '--ignore-submodules=untracked']) !== '';
}

/** Tracked files differ from the index being committed (unstaged changes). */
export function hasUnstagedChanges(cwd: string): boolean {
  const r = git(cwd, ['diff', '--quiet', '--no-ext-diff', '--ignore-submodules=untracked']);
  if (r.code !== 0 && r.code !== 1) throw new GitError(['diff', '--quiet'], r);
  return r.code === 1;
}

/** Parses `git rev-list --boundary` output: the new commits, and the boundary commits (`-sha`). Pure. */
export function parseBoundary(out: string): { commits: string[]; boundary: string[] } {
  const commits: string[] = [];
  const boundary: string[] = [];
  for (const line of out.split('\n')) {
    if (line.startsWith('-')) boundary.push(line.slice(1).trim());
    else if (line.trim() !== '') commits.push(line.trim());
  }
  return { commits, boundary };
}

/** Commits reachable from `head` that no remote-tracking ref of `remote` has, and where they meet those refs. */
export function newCommits(cwd: string, head: string, remote: string): { commits: string[]; boundary: string[] } {
  return parseBoundary(gitOk(cwd, ['rev-list', '--boundary', head, '--not', `--remotes=${remote}`, '--']));
}

/**
 * The remote a pre-push hook was handed: git passes the URL itself as the remote's name when the push
 * named a URL or a path (`git push /srv/repo.git main`), and a URL has no remote-tracking refs, so every
 * new branch would look like a first push (every file judged). Such a name (with ':', or starting with
 * '/' or '.': no remote's name can) is matched against the configured remotes' `url` and `pushurl`;
 * the first remote with exactly that URL stands for it. Any other name is returned as it is, with no git
 * process.
 */
export function remoteFor(cwd: string, name: string): string {
  if (!(name.includes(':') || name.startsWith('/') || name.startsWith('.'))) return name;
  const r = git(cwd, ['config', '-z', '--get-regexp', '^remote\\..*\\.(url|pushurl)$']);
  if (!r.ok) return name;
  for (const entry of r.stdout.split('\0')) {
    const nl = entry.indexOf('\n');
    if (nl < 0 || entry.slice(nl + 1) !== name) continue;
    const key = entry.slice(0, nl);
    return key.slice('remote.'.length, key.lastIndexOf('.'));
  }
  return name;
}

/** The commit a revision names, or null when it does not exist locally. */
/**
 * `rev` peeled to the commit it names. A search of commit messages (`:/text`) takes no suffix: git
 * would read `^{commit}` as part of the text searched for, and what it finds is always a commit.
 */
export const peeledCommit = (rev: string): string => (rev.startsWith(':/') ? rev : `${rev}^{commit}`);

export function resolveCommit(cwd: string, rev: string): string | null {
  const r = git(cwd, ['rev-parse', '--verify', '--quiet', peeledCommit(rev)]);
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

/**
 * The base a manual run compares with when none is given: the remote's HEAD, else its `main` or `master` (a
 * remote this clone pushed to but never cloned from has no HEAD ref), else the upstream of HEAD's branch.
 */
export function defaultBase(cwd: string, remote: string): string | null {
  const head = remoteHead(cwd, remote);
  if (head !== null) return head;
  for (const branch of ['main', 'master']) {
    const ref = `refs/remotes/${remote}/${branch}`;
    if (git(cwd, ['rev-parse', '--verify', '--quiet', ref]).ok) return ref;
  }
  const up = git(cwd, ['rev-parse', '--symbolic-full-name', '@{upstream}']);
  return up.ok && up.stdout.trim() !== '' ? up.stdout.trim() : null;
}

export interface WorktreeEntry {
  path: string;
  head?: string;
  locked?: string;
}

/** Parses `git worktree list --porcelain -z`. Pure. */
export function parseWorktreeList(out: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  let cur: WorktreeEntry | undefined;
  for (const field of out.split('\0')) {
    if (field === '') {
      cur = undefined;
      continue;
    }
    const sp = field.indexOf(' ');
    const [key, value] = sp < 0 ? [field, ''] : [field.slice(0, sp), field.slice(sp + 1)];
    if (key === 'worktree') entries.push((cur = { path: value }));
    else if (cur && key === 'HEAD') cur.head = value;
    else if (cur && key === 'locked') cur.locked = value;
  }
  return entries;
}

export function listWorktrees(root: string): WorktreeEntry[] {
  const r = git(root, ['worktree', 'list', '--porcelain', '-z'], { scrub: 'root' });
  return r.ok ? parseWorktreeList(r.stdout) : [];
}

/**
 * HEAD's commit and whether tracked files differ from it (untracked files are not looked at), in one
 * process (`hasTrackedChanges` and `resolveCommit(HEAD)` would be two), with the paths that differ.
 */
export function workTreeState(cwd: string): { head: string | null; clean: boolean; changed: string[] } | null {
  const r = git(cwd, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=no', '--ignore-submodules=untracked']);
  return r.ok ? parseStatusV2(r.stdout) : null;
}

/** How many paths `git status` lists as not committed (changed, staged, or untracked and not ignored); undefined when git fails. */
export function uncommittedPaths(cwd: string): number | undefined {
  const r = git(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--ignore-submodules=untracked']);
  if (!r.ok) return undefined;
  const fields = r.stdout.split('\0').filter((f) => f !== '');
  let n = 0;
  // A rename or copy is two fields: `R  new`, then the old path.
  for (let i = 0; i < fields.length; i++, n++) if (/^[RC]|^.[RC]/.test(fields[i]!)) i++;
  return n;
}

/** Index entries `git status` does not compare with their files (see `uncomparedIn`). */
export interface UncomparedEntries {
  /** skip-worktree entries: a sparse checkout, or `git update-index --skip-worktree`. */
  skipWorktree: number;
  /** assume-unchanged entries (`git update-index --assume-unchanged`). */
  assumeValid: number;
}

/**
 * The index entries `git status` is blind to (skip-worktree, assume-unchanged), whose files may be
 * absent or differ from the commit while git calls the tree clean, as `git ls-files -v` tags them;
 * started in the background (the caller asks `git status` meanwhile). `undefined` when git fails.
 */
export function uncomparedIn(root: string): Promise<UncomparedEntries | undefined> {
  return gitJob(root, ['ls-files', '-v', '-z']).done.then((r) => (r.ok ? tagsOfLsFiles(decodeText(r.stdout)) : undefined));
}

/** Pure: `git ls-files -v -z` output (a tag, a space, the path) counted by tag: `S` skip-worktree, a lower-case tag assume-unchanged. */
export function tagsOfLsFiles(out: string): UncomparedEntries {
  const counted: UncomparedEntries = { skipWorktree: 0, assumeValid: 0 };
  for (const entry of out.split('\0')) {
    const tag = entry[0];
    if (tag === undefined || entry[1] !== ' ') continue;
    if (tag === 'S' || tag === 's') counted.skipWorktree++;
    if (tag !== tag.toUpperCase()) counted.assumeValid++;
  }
  return counted;
}

/**
 * Pure: `git status --porcelain=v2 -z --branch` output. Entries: `1 XY sub mH mI mW hH hI path`,
 * `2 XY sub mH mI mW hH hI Xscore path` followed by the original path as an entry of its own, `u XY
 * sub m1 m2 m3 mW h1 h2 h3 path`; headers start with `#`. Any entry makes the tree not clean, even one
 * this does not recognise.
 */
export function parseStatusV2(out: string): { head: string | null; clean: boolean; changed: string[] } {
  let head: string | null = null;
  let clean = true;
  const changed: string[] = [];
  const entries = out.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.startsWith('# branch.oid ')) head = /^[0-9a-f]{40,64}$/.test(entry.slice(13)) ? entry.slice(13) : null;
    if (entry === '' || entry.startsWith('#')) continue;
    clean = false;
    const fields = entry[0] === '1' ? 8 : entry[0] === '2' ? 9 : entry[0] === 'u' ? 10 : -1;
    const parts = fields < 0 ? [] : entry.split(' ');
    if (parts.length > fields && fields > 0) changed.push(parts.slice(fields).join(' '));
    if (entry[0] === '2') i++; // the original path of a rename or copy
  }
  return { head, clean, changed };
}

/**
 * The committed content of each path in `treeish` (a commit or a tree), in one `git cat-file --batch`
 * (one process, about 3 ms here, whatever the number of paths): a file's bytes, or `null` when the
 * path is absent there or is not a file. `undefined` when git fails. Paths are repo-relative with `/`.
 * A committed symlink is followed inside the tree, as node follows it in a checkout (a config that is
 * a link to `config/gate-ladder.mjs` is that file's content, not the link's target text); one that
 * leads outside the tree, dangles or loops is `null` (git answers `symlink`, `dangling`, `loop`).
 */
export function filesAt(cwd: string, treeish: string, paths: readonly string[]): Map<string, Buffer | null> | undefined {
  const asked = [...new Set(paths)].filter((p) => p !== '' && !p.includes('\n'));
  const out = new Map<string, Buffer | null>();
  if (asked.length === 0) return out;
  sayGit?.(`git cat-file --batch --follow-symlinks (in ${cwd}): ${asked.length} path(s) at ${treeish}`);
  const r = process.getBuiltinModule('node:child_process').spawnSync('git', ['cat-file', '--batch', '--follow-symlinks'], {
    cwd,
    input: asked.map((p) => `${treeish}:${p}\n`).join(''),
    maxBuffer: 1024 * 1024 * 1024,
    env: gitEnv(),
  });
  if (r.error || r.status !== 0) return undefined;
  return parseCatFileBatch(r.stdout, asked);
}

/** One file's text at a commit: `null` when the commit has no such file, `undefined` when git could not say. */
export function textAt(cwd: string, treeish: string, path: string): string | null | undefined {
  const got = filesAt(cwd, treeish, [path]);
  if (got === undefined || !got.has(path)) return undefined;
  return got.get(path)?.toString('utf8') ?? null;
}

/**
 * Pure: `git cat-file --batch` output for `asked`, in order. Each object is `<oid> <type> <size>\n`,
 * then `size` bytes and `\n`; an object that does not resolve is `<name> missing\n` (or `ambiguous`).
 * `undefined` when the output does not add up.
 */
export function parseCatFileBatch(buf: Buffer, asked: readonly string[]): Map<string, Buffer | null> | undefined {
  const out = new Map<string, Buffer | null>();
  let at = 0;
  for (const path of asked) {
    const lf = buf.indexOf(10, at);
    if (lf < 0) return undefined;
    const header = buf.toString('utf8', at, lf);
    at = lf + 1;
    const sp = header.lastIndexOf(' ');
    const size = header.slice(sp + 1);
    if (sp < 0 || size === '' || [...size].some((c) => c < '0' || c > '9')) {
      out.set(path, null); // missing, ambiguous
      continue;
    }
    const type = header.slice(header.lastIndexOf(' ', sp - 1) + 1, sp);
    const end = at + Number(size);
    if (end + 1 > buf.length || buf[end] !== 10) return undefined;
    out.set(path, type === 'blob' ? buf.subarray(at, end) : null);
    at = end + 1;
  }
  return at === buf.length ? out : undefined;
}
