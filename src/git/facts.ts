import { decodeText } from '../util/cache-files.js';
import { ChangeList } from './change-list.js';
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
  mergeBase,
  repoInfo,
  resolveCommit,
  treeOf,
} from './git.js';
import { isObjectId } from './push-refs.js';
import { readDiff, writeDiff } from './range-cache.js';

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
}

/** The same, while it is being gathered. */
interface Gathering {
  repo: RepoInfo;
  commits: Map<string, string>;
  trees: Map<string, string>;
  mergeBases: Map<string, string | null>;
  diffs: Map<string, ChangeList>;
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
 * One `git rev-parse` answers the repo paths and every commit, tree and merge-base in `q`; each
 * range's changed paths then come from the range cache (keyed by the merge-base and head commit ids,
 * which never change) or from one `git diff-tree` per range, started in the background: while it
 * lists, `whileListing` does the caller's own work (commands/run.ts loads the config and what the run
 * needs next), given the repo's paths. When a revision does not resolve, the facts hold only the
 * repo's paths; a range with several merge-bases holds no merge-base or diff: `commitIn`,
 * `mergeBaseIn` and the rest then ask git themselves, with their own messages.
 */
export async function gatherGitFacts(
  cwd: string,
  q: RevQuery = {},
  whileListing?: (info: RepoInfo) => Promise<unknown>,
): Promise<GitFacts | null> {
  const commits = q.commits ?? [];
  const trees = q.trees ?? [];
  const ranges = q.ranges ?? [];
  const revs = [...commits, ...trees, ...ranges.flat()];
  const plain = () => {
    const info = repoInfo(cwd);
    return info === null ? null : repoOnly(info);
  };
  if (revs.length === 0 || revs.some((r) => r === '' || r.startsWith('-') || r.includes('..'))) return plain();
  const r = git(cwd, [
    ...REPO_PATHS,
    ...commits.map(peeledCommit),
    ...trees.map((rev) => `${rev}^{tree}`),
    ...ranges.map(([a, b]) => `${a}^{commit}...${b}^{commit}`),
    '--',
  ]);
  const read = readRevParse(r, commits, trees, ranges);
  if (read === undefined) return plain();
  const { facts, pairs } = read;
  const commonDir = facts.repo.commonDir;
  const jobs = new Map<string, GitJob>();
  for (const [base, head] of pairs) {
    const key = `${base} ${head}`;
    if (facts.diffs.has(key) || jobs.has(key)) continue;
    const known = readDiff(commonDir, base, head);
    if (known !== undefined) facts.diffs.set(key, new ChangeList(known));
    else jobs.set(key, gitJob(cwd, [...DIFF_NAMES, base, head, '--']));
  }
  if (jobs.size > 0) await whileListing?.(facts.repo);
  for (const [key, job] of jobs) {
    const done = await job.done;
    // A failed diff is left to diffIn, which asks git again and says why.
    if (!done.ok) continue;
    const [base, head] = key.split(' ') as [string, string];
    facts.diffs.set(key, new ChangeList(decodeText(done.stdout)));
    writeDiff(commonDir, base, head, [done.stdout]);
  }
  return facts;
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
  if (i !== lines.length || ![...p.commits.values(), ...p.trees.values(), ...pairs.flatMap((pair) => pair.slice(0, 2))].every(isObjectId))
    return undefined;
  return { facts: p, pairs };
}
