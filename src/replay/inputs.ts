import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { readdirSync, readFileSync, statSync } from '../util/node.js';
import { basename, extname, join, resolve } from 'node:path';
import { EMPTY_TREE, git, resolveCommit } from '../git/git.js';

/** One patch to replay: a commit judged against its parent, or a patch file applied onto a base. */
export type ReplayPatch =
  | { kind: 'commit'; id: string; base: string; label: string }
  | { kind: 'file'; id: string; base: string; label: string; file: string };

export interface ReplayInputs {
  patches: ReplayPatch[];
  /** Merge commits of a range left out (their side branch's commits are replayed one by one). */
  merges: string[];
  /** Every input that could not be read, each with what to do. */
  problems: string[];
}

export interface RevCommit {
  sha: string;
  parents: string[];
  subject: string;
}

export const PATCH_EXTENSIONS: readonly string[] = ['.patch', '.diff'];

/** Sits in front of each commit's fields in `git rev-list --format` output, so headers can be told apart. */
export const REV_FORMAT = '--format=%x00%H%x00%P%x00%s';

/** `<file name>@<12 hex of the content's sha256>`: the same patch under the same name has the same id. Pure. */
export function patchFileId(name: string, content: Buffer | string): string {
  return `${name}@${createHash('sha256').update(content).digest('hex').slice(0, 12)}`;
}

/** Parses `git rev-list` output made with `REV_FORMAT`; the `commit <sha>` header lines are ignored. Pure. */
export function parseRevList(out: string): RevCommit[] {
  const commits: RevCommit[] = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('\0')) continue;
    const [, sha = '', parents = '', subject = ''] = line.split('\0');
    commits.push({ sha, parents: parents.split(' ').filter(Boolean), subject });
  }
  return commits;
}

/**
 * Commits to patches, each judged against its first parent (a root commit against the empty tree).
 * A merge is left out unless `firstParent`: its side branch's commits are in the range already, and
 * judging the merge too would count their catches twice. With `firstParent` the range holds only the
 * mainline, and a merge is the whole merged branch as one patch. Pure.
 */
export function commitPatches(commits: readonly RevCommit[], firstParent: boolean): { patches: ReplayPatch[]; merges: string[] } {
  const patches: ReplayPatch[] = [];
  const merges: string[] = [];
  for (const c of commits) {
    if (c.parents.length > 1 && !firstParent) {
      merges.push(c.sha);
      continue;
    }
    patches.push({ kind: 'commit', id: c.sha, base: c.parents[0] ?? EMPTY_TREE, label: `${c.sha.slice(0, 12)} ${c.subject}` });
  }
  return { patches, merges };
}

function revList(root: string, rangeOrCommit: string[], firstParent: boolean): RevCommit[] | string {
  const args = ['rev-list', '--reverse', '--topo-order', ...(firstParent ? ['--first-parent'] : []), REV_FORMAT, ...rangeOrCommit, '--'];
  const r = git(root, args);
  return r.ok ? parseRevList(r.stdout) : (r.stderr.trim().split('\n')[0] ?? `exit ${r.code}`);
}

function patchFilesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && PATCH_EXTENSIONS.includes(extname(e.name).toLowerCase()))
    .map((e) => join(dir, e.name))
    .sort();
}

/**
 * What the user named, as patches in replay order: a folder (its .patch/.diff files, by name), a patch
 * file, a revision range (`A..B`, oldest first) or one commit. Patch files apply onto `onto` (default HEAD).
 */
export function resolveInputs(
  root: string,
  cwd: string,
  inputs: readonly string[],
  opts: { onto?: string; firstParent?: boolean } = {},
): ReplayInputs {
  const patches: ReplayPatch[] = [];
  const merges: string[] = [];
  const problems: string[] = [];
  const ontoRev = opts.onto ?? 'HEAD';
  let onto: string | null | undefined;
  const addFiles = (found: readonly string[]) => {
    if (found.length === 0) return;
    if (onto === undefined) {
      onto = resolveCommit(root, ontoRev);
      if (onto === null) problems.push(`--onto ${ontoRev}: not a commit in this repository`);
    }
    if (onto === null) return;
    for (const file of found) {
      const name = basename(file);
      patches.push({ kind: 'file', id: patchFileId(name, readFileSync(file)), base: onto, label: name, file });
    }
  };

  for (const input of inputs) {
    const path = resolve(cwd, input);
    let stat: Stats | undefined;
    try {
      stat = statSync(path);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) {
      const found = patchFilesIn(path);
      if (found.length === 0) problems.push(`${input}: no ${PATCH_EXTENSIONS.join(' or ')} files in this folder`);
      addFiles(found);
    } else if (stat?.isFile()) {
      addFiles([path]);
    } else if (input.includes('..') || resolveCommit(root, input) !== null) {
      const isRange = input.includes('..');
      const commits = revList(root, isRange ? [input] : ['-1', input], opts.firstParent === true);
      if (typeof commits === 'string') {
        problems.push(`${input}: not a file, a folder or a revision range git knows (${commits})`);
        continue;
      }
      const found = commitPatches(commits, opts.firstParent === true);
      if (found.patches.length === 0 && found.merges.length === 0) problems.push(`${input}: the range has no commits`);
      patches.push(...found.patches);
      merges.push(...found.merges);
    } else {
      problems.push(`${input}: not a file, a folder, a commit or a revision range (A..B)`);
    }
  }

  const seen = new Set<string>();
  const unique = patches.filter((p) => {
    const key = `${p.id}\0${p.base}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { patches: unique, merges, problems };
}
