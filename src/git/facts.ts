import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { cacheDir, decodeText, tempFileIn, unlinkQuiet } from '../util/cache-files.js';
import { ChangeList, ListingTally } from './change-list.js';
import { MAX_FILES_PER_ROW } from '../config/defaults.js';
import {
  DIFF_NAMES,
  type GitJob,
  type GitResult,
  REPO_PATHS,
  type RepoInfo,
  diffList,
  git,
  peeledCommit,
  gitJob,
  gitOk,
  mergeBase,
  repoInfo,
  resolveCommit,
  treeOf,
} from './git.js';
import type { ScopeMatcher } from '../util/glob.js';
import { type RangeFacts, adoptDiff, adoptListing, hasDiff, readDiff, readRange, writeDiff, writeRange } from './range-cache.js';
import { isObjectId } from './text.js';
import { repoFromFiles } from './repo-dir.js';

/** Revisions a run will ask about, known before any git call (see rev-query.ts). */
export interface RevQuery {
  /** Revisions to peel to commits. */
  commits?: readonly string[];
  /** Revisions whose tree is wanted. */
  trees?: readonly string[];
  /** `[base, head]` pairs whose merge-base and changed paths (`base...head`) are wanted. */
  ranges?: readonly (readonly [string, string])[];
}

/**
 * The git facts one run needs, gathered once by `gatherGitFacts` before anything else looks at the
 * repository, then handed down as this value: to planning (targets.ts `rangeGit`), the config of each
 * judged commit (config-at.ts), the tree cache, isolation and the per-test records. Nobody asks git
 * again for what it holds; a question it does not answer (a revision it was not asked about, a range
 * with several merge-bases) goes to git through `commitIn`, `treeIn`, `mergeBaseIn` and `diffIn`.
 */
export interface GitFacts {
  /** Where the repository lives. */
  readonly repo: RepoInfo;
  /** Revision (as asked) → commit sha. */
  readonly commits: ReadonlyMap<string, string>;
  /** Revision or commit sha → tree sha. */
  readonly trees: ReadonlyMap<string, string>;
  /** `a b` (commit shas, both orders) → merge-base, `null` when they share no history. */
  readonly mergeBases: ReadonlyMap<string, string | null>;
  /** `base head` (commit shas) → the changed paths between them. */
  readonly diffs: ReadonlyMap<string, ChangeList>;
  /** The text of the repo's `config` file, when finding the repo read it (head-file.ts reads it again otherwise). */
  readonly configText?: string;
}

/** The same, while it is being gathered. */
interface Gathering {
  repo: RepoInfo;
  commits: Map<string, string>;
  trees: Map<string, string>;
  mergeBases: Map<string, string | null>;
  diffs: Map<string, ChangeList>;
  configText?: string;
}

/** Facts that hold only where the repository is: every other question is asked of git. */
export function repoOnly(repo: RepoInfo): GitFacts {
  return { repo, commits: new Map(), trees: new Map(), mergeBases: new Map(), diffs: new Map() };
}

/** The commit a revision names: from the facts, else `git rev-parse` (null when it does not exist locally). */
export function commitIn(f: GitFacts, rev: string): string | null {
  return f.commits.get(rev) ?? resolveCommit(f.repo.root, rev);
}

/** A revision's tree: from the facts, else `git rev-parse`. */
export function treeIn(f: GitFacts, rev: string): string | null {
  return f.trees.get(rev) ?? treeOf(f.repo.root, rev);
}

/** Two commits' merge-base: from the facts (by their commits), else `git merge-base`. */
export function mergeBaseIn(f: GitFacts, a: string, b: string): string | null {
  const key = `${f.commits.get(a) ?? a} ${f.commits.get(b) ?? b}`;
  return f.mergeBases.has(key) ? (f.mergeBases.get(key) ?? null) : mergeBase(f.repo.root, a, b);
}

/** The paths changed between two commits: from the facts, else `git diff-tree`. */
export function diffIn(f: GitFacts, base: string, head: string): ChangeList {
  return f.diffs.get(`${base} ${head}`) ?? diffList(f.repo.root, base, head);
}

/**
 * Gathers the git facts a run needs, once, before anything else looks at the repository: `null`
 * outside a work tree.
 *
 * Starting a process costs more than anything else a hook run does, so the facts a run needs are
 * asked for up front. When every revision is a full sha (pre-push stdin always is) and the range
 * cache (range-cache.ts) knows them, no git process starts at all. Otherwise one `git rev-parse`
 * answers the repo paths and every commit, tree and merge-base in `q`, and each range's changed
 * paths come from the cache or from one `git diff-tree --merge-base a b` (what `git diff a...b`
 * lists) per range. A range the cache does not know starts its diff before rev-parse runs, so that
 * git computes both at once on two cores (a 100,000-path diff no longer waits for rev-parse); when
 * rev-parse then finds the diff cached after all, or several merge-bases, the early diff is stopped
 * and its answer dropped.
 * With `scope` (the caller's config, loaded meanwhile), a diff git writes into the cache's file is read
 * as it grows and routed piece by piece (ListingTally): once git is done, only its last piece is left.
 * When a revision does not resolve, the facts hold only the repo's paths; a range with several
 * merge-bases holds no merge-base or diff: `commitIn`, `mergeBaseIn` and the rest then ask git
 * themselves, with their own messages.
 */
export async function gatherGitFacts(cwd: string, q: RevQuery = {}, scope?: (info: RepoInfo) => Promise<ScopeMatcher | undefined>): Promise<GitFacts | null> {
  const commits = q.commits ?? [];
  const trees = q.trees ?? [];
  const ranges = q.ranges ?? [];
  const revs = [...commits, ...trees, ...ranges.flat()];
  const plain = () => {
    const info = repoInfo(cwd);
    return info === null ? null : repoOnly(info);
  };
  if (revs.length === 0 || revs.some((r) => r === '' || r.startsWith('-') || r.includes('..'))) return plain();
  // The repo's paths from its files, when they can tell (read once, for the caches and the temp files).
  const repo = repoFromFiles(cwd);
  const warm = fromCache(repo, commits, trees, ranges);
  if (warm !== undefined) return warm;
  const early = startDiffs(cwd, repo, ranges);
  const r = await gitText(cwd, repo, [
    ...REPO_PATHS,
    ...commits.map(peeledCommit),
    ...trees.map((rev) => `${rev}^{tree}`),
    ...ranges.map(([a, b]) => `${a}^{commit}...${b}^{commit}`),
    '--',
  ]);
  const read = readRevParse(r, commits, trees, ranges);
  if (read === undefined) {
    for (const job of early.values()) job.cancel();
    return plain();
  }
  const { facts, pairs } = read;
  const commonDir = facts.repo.commonDir;
  for (const [a, b] of ranges) {
    const head = facts.commits.get(b)!;
    const tree = facts.trees.get(b);
    const mb = facts.mergeBases.get(`${facts.commits.get(a)} ${head}`);
    if (tree !== undefined && mb !== undefined) writeRange(commonDir, { a, b, base: facts.commits.get(a)!, head, tree, mergeBase: mb });
  }
  const match = pairs.some(([, , range]) => early.get(range)?.file !== undefined) ? await scope?.(facts.repo) : undefined;
  for (const [base, head, range] of pairs) {
    const job = early.get(range);
    early.delete(range);
    const key = `${base} ${head}`;
    const known = facts.diffs.has(key) ? undefined : readDiff(commonDir, base, head);
    if (facts.diffs.has(key) || known !== undefined) {
      job?.cancel();
      if (known !== undefined) facts.diffs.set(key, new ChangeList(known));
      continue;
    }
    const whole = () => readDiff(commonDir, base, head) ?? gitOk(cwd, [...DIFF_NAMES, base, head, '--']);
    if (job?.file !== undefined && match !== undefined) {
      const tally = new ListingTally(match, MAX_FILES_PER_ROW);
      const followed = await follow(job, job.file, tally);
      if (followed.ok) {
        adoptListing(commonDir, base, head, job.file, followed.bytes);
        facts.diffs.set(key, tally.finish(whole));
        continue;
      }
      unlinkQuiet(job.file);
    } else if (job && (await job.done).ok) {
      // Git wrote it into the cache's temp file (which becomes the entry), or through a pipe.
      const stdout = job.file === undefined ? (await job.done).stdout : undefined;
      const text = stdout ? decodeText(stdout) : adoptDiff(commonDir, base, head, job.file!);
      if (stdout) writeDiff(commonDir, base, head, [stdout]);
      if (text !== undefined) {
        facts.diffs.set(key, new ChangeList(text));
        continue;
      }
    }
    const late = git(cwd, [...DIFF_NAMES, base, head, '--']);
    if (!late.ok) continue;
    facts.diffs.set(key, new ChangeList(late.stdout));
    writeDiff(commonDir, base, head, late.stdout);
  }
  // Ranges with several merge-bases, or none.
  for (const job of early.values()) job.cancel();
  return facts;
}

/**
 * A temp file in the repo's cache folder for git's output: a diff written there becomes its cache
 * entry (range-cache.ts adoptListing), and no copy of it passes through a pipe or this process.
 */
const tempIn = (repo: RepoInfo | undefined) => (repo ? tempFileIn(cacheDir(repo.commonDir)) : undefined);

/**
 * `git` for a short answer (rev-parse's), through a temp file in the cache folder when the repo's
 * files gave its paths: git is then started without node:child_process (gitJob), which a run whose
 * diffs are cached or also go to files then never loads (about 5 ms, and spawnSync's own costs).
 */
async function gitText(cwd: string, repo: RepoInfo | undefined, args: readonly string[]): Promise<GitResult> {
  const file = tempIn(repo);
  if (file === undefined) return git(cwd, args);
  const job = gitJob(cwd, args, file);
  const { ok, stdout } = await job.done;
  if (job.file === undefined) return { ok, code: ok ? 0 : 1, stdout: decodeText(stdout), stderr: '' };
  let text = '';
  try {
    text = ok ? decodeText(readFileSync(file)) : '';
  } catch {
    // removed meanwhile: no answer
  }
  unlinkQuiet(file);
  return { ok: ok && text !== '', code: ok ? 0 : 1, stdout: text, stderr: '' };
}

/** How much of a listing is read at a time: the text of each piece stays in V8's young generation. */
const PIECE_BYTES = 64 * 1024;
/** How often a listing git is still writing is looked at for more. */
const POLL_MS = 2;

/**
 * Feeds `tally` the listing git is writing into `file`, as it grows, until git exits; each piece ends
 * after a NUL (a field cut short waits for the rest). `ok` is git's success; `bytes`, the file's size.
 */
async function follow(job: GitJob, file: string, tally: ListingTally): Promise<{ ok: boolean; bytes: number }> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { ok: false, bytes: 0 };
  }
  let exited = false;
  let ok = false;
  const done = job.done.then((r) => {
    exited = true;
    ok = r.ok;
  });
  let buf = Buffer.allocUnsafe(PIECE_BYTES);
  let have = 0;
  let pos = 0;
  try {
    for (;;) {
      // Seen before reading: a read that then finds nothing new after git exited has read it all.
      const last = exited;
      const n = readSync(fd, buf, have, buf.length - have, pos);
      if (n > 0) {
        pos += n;
        have += n;
        const cut = buf.lastIndexOf(0, have - 1) + 1;
        if (cut > 0) {
          tally.add(decodeText(buf.subarray(0, cut)));
          buf.copy(buf, 0, cut, have);
          have -= cut;
        } else if (have === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]);
        continue;
      }
      if (last) break;
      await Promise.race([done, new Promise((r) => setTimeout(r, POLL_MS))]);
    }
  } catch {
    return { ok: false, bytes: pos };
  } finally {
    closeSync(fd);
  }
  if (have > 0) tally.add(decodeText(buf.subarray(0, have)));
  return { ok, bytes: pos };
}

/** A push of many refs runs the rest of its diffs one by one, after rev-parse. */
const EARLY_DIFFS = 4;

/**
 * `git diff-tree --merge-base a b` started in the background for each range whose diff the caches
 * cannot give (read through the file system; without it, every range), keyed `a b`; at most
 * EARLY_DIFFS of them.
 */
function startDiffs(cwd: string, repo: RepoInfo | undefined, ranges: readonly (readonly [string, string])[]): Map<string, GitJob> {
  const jobs = new Map<string, GitJob>();
  for (const [a, b] of ranges) {
    const facts = repo && isObjectId(a) && isObjectId(b) ? readRange(repo.commonDir, a, b) : undefined;
    if (facts !== undefined && (facts.mergeBase === null || hasDiff(repo!.commonDir, facts.mergeBase, facts.head))) continue;
    if (jobs.size === EARLY_DIFFS) break;
    if (!jobs.has(`${a} ${b}`)) jobs.set(`${a} ${b}`, gitJob(cwd, [...DIFF_NAMES, '--merge-base', a, b, '--'], tempIn(repo)));
  }
  return jobs;
}

/**
 * Pure: rev-parse's lines into answers, and the (merge-base, head) pairs whose diffs are wanted;
 * `undefined` when they do not add up.
 */
function readRevParse(
  r: GitResult,
  commits: readonly string[],
  trees: readonly string[],
  ranges: readonly (readonly [string, string])[],
): { facts: Gathering; pairs: [string, string, string][] } | undefined {
  if (!r.ok) return undefined;
  const lines = r.stdout.split('\n').filter((l) => l !== '' && l !== '--');
  let i = 0;
  const next = () => lines[i++] ?? '';
  const [root, commonDir, gitDir] = [next(), next(), next()];
  if (!root || !commonDir || !gitDir) return undefined;
  const p: Gathering = { repo: { root, commonDir, gitDir }, commits: new Map(), trees: new Map(), mergeBases: new Map(), diffs: new Map() };
  // (merge-base, head, the range `a b` asked for) of each range with one merge-base.
  const pairs: [string, string, string][] = [];
  for (const rev of commits) p.commits.set(rev, next());
  const treeShas = trees.map(() => next());
  for (const [a, b] of ranges) {
    // `a...b` prints b, a, then ^<merge-base> for each merge-base.
    const head = next();
    const base = next();
    p.commits.set(b, head).set(a, base);
    const bases: string[] = [];
    while (lines[i]?.startsWith('^')) bases.push(next().slice(1));
    if (bases.length > 1) continue; // `git merge-base` picks one; let it
    const mb = bases[0] ?? null;
    p.mergeBases.set(`${base} ${head}`, mb).set(`${head} ${base}`, mb);
    if (mb !== null) pairs.push([mb, head, `${a} ${b}`]);
  }
  trees.forEach((rev, k) => {
    const tree = treeShas[k]!;
    p.trees.set(rev, tree);
    const commit = p.commits.get(rev);
    if (commit !== undefined) p.trees.set(commit, tree);
  });
  if (i !== lines.length || ![...p.commits.values(), ...p.trees.values(), ...pairs.flatMap(([mb, head]) => [mb, head])].every(isObjectId)) return undefined;
  return { facts: p, pairs };
}

/** Every answer from the file system and the range cache, or `undefined` when one is missing. */
function fromCache(
  info: ReturnType<typeof repoFromFiles>,
  commits: readonly string[],
  trees: readonly string[],
  ranges: readonly (readonly [string, string])[],
): GitFacts | undefined {
  if (commits.length > 0 || ranges.length === 0 || !ranges.flat().every(isObjectId) || !trees.every((t) => ranges.some(([, b]) => b === t))) return undefined;
  if (info === undefined) return undefined;
  const { plain: _, config, ...paths } = info;
  const p: Gathering = { repo: paths, commits: new Map(), trees: new Map(), mergeBases: new Map(), diffs: new Map(), configText: config };
  for (const [a, b] of ranges) {
    const f: RangeFacts | undefined = readRange(info.commonDir, a, b);
    if (f === undefined) return undefined;
    p.commits.set(a, f.base).set(b, f.head);
    p.trees.set(b, f.tree).set(f.head, f.tree);
    p.mergeBases.set(`${f.base} ${f.head}`, f.mergeBase).set(`${f.head} ${f.base}`, f.mergeBase);
    if (f.mergeBase !== null) {
      const diff = readDiff(info.commonDir, f.mergeBase, f.head);
      if (diff === undefined) return undefined;
      p.diffs.set(`${f.mergeBase} ${f.head}`, new ChangeList(diff));
    }
  }
  return p;
}
