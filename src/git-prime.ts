import { DIFF_NAMES, type GitResult, REPO_PATHS, type RepoInfo, gitAsync, repoInfo } from './git.js';
import { type Primed, setPrimed } from './git-memo.js';

/** Revisions a run will ask about, known before any git call (see rev-query.ts). */
export interface RevQuery {
  /** Revisions to peel to commits. */
  commits?: readonly string[];
  /** Revisions whose tree is wanted. */
  trees?: readonly string[];
  /** `[base, head]` pairs whose merge-base and diff (`base...head`) are wanted. */
  ranges?: readonly (readonly [string, string])[];
}

const isSha = (s: string) => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(s);

/**
 * Starting git costs more than anything else a hook run does, so the facts a run needs are asked
 * for up front, all at once: one `git rev-parse` for the repo paths, every commit, tree and
 * merge-base in `q`, and, in parallel with it, one `git diff base...head` per range. `repoInfo`,
 * `resolveCommit`, `treeOf`, `mergeBase` and `diffPaths` then answer from memory. When any revision
 * does not resolve, or a range has several merge-bases, nothing (or not that diff) is kept and the
 * one-fact calls ask git themselves, with their own messages.
 */
export async function primeRepo(cwd: string, q: RevQuery = {}): Promise<RepoInfo | null> {
  setPrimed(undefined);
  const commits = q.commits ?? [];
  const trees = q.trees ?? [];
  const ranges = q.ranges ?? [];
  const revs = [...commits, ...trees, ...ranges.flat()];
  if (revs.length === 0 || revs.some((r) => r === '' || r.startsWith('-') || r.includes('..'))) return repoInfo(cwd);
  const parse = gitAsync(cwd, [
    ...REPO_PATHS,
    ...commits.map((r) => `${r}^{commit}`),
    ...trees.map((r) => `${r}^{tree}`),
    ...ranges.map(([a, b]) => `${a}^{commit}...${b}^{commit}`),
    '--',
  ]);
  const diffs = ranges.map(([a, b]) => gitAsync(cwd, [...DIFF_NAMES, `${a}...${b}`, '--']));
  const p = read(cwd, await parse, commits, trees, ranges, await Promise.all(diffs));
  setPrimed(p);
  return p ? p.info : repoInfo(cwd);
}

/** Pure: rev-parse's lines (and the diffs) into answers; `undefined` when they do not add up. */
function read(
  cwd: string,
  r: GitResult,
  commits: readonly string[],
  trees: readonly string[],
  ranges: readonly (readonly [string, string])[],
  diffs: GitResult[],
): Primed | undefined {
  if (!r.ok) return undefined;
  const lines = r.stdout.split('\n').filter((l) => l !== '' && l !== '--');
  let i = 0;
  const next = () => lines[i++] ?? '';
  const [root, commonDir, gitDir] = [next(), next(), next()];
  if (!root || !commonDir || !gitDir) return undefined;
  const p: Primed = { cwds: new Set([cwd, root]), info: { root, commonDir, gitDir }, commit: new Map(), tree: new Map(), mergeBase: new Map(), diff: new Map() };
  for (const rev of commits) p.commit.set(rev, next());
  const treeShas = trees.map(() => next());
  ranges.forEach(([a, b], k) => {
    // `a...b` prints b, a, then ^<merge-base> for each merge-base.
    const head = next();
    const base = next();
    p.commit.set(b, head).set(a, base);
    const bases: string[] = [];
    while (lines[i]?.startsWith('^')) bases.push(next().slice(1));
    if (bases.length > 1) return; // `git merge-base` picks one; let it
    const mb = bases[0] ?? null;
    p.mergeBase.set(`${base} ${head}`, mb).set(`${head} ${base}`, mb);
    const diff = diffs[k];
    if (mb !== null && diff?.ok) p.diff.set(`${mb} ${head}`, diff.stdout);
  });
  trees.forEach((rev, k) => {
    const tree = treeShas[k]!;
    p.tree.set(rev, tree);
    const commit = p.commit.get(rev);
    if (commit !== undefined) p.tree.set(commit, tree);
  });
  if (i !== lines.length || ![...p.commit.values(), ...p.tree.values()].every(isSha)) return undefined;
  return p;
}
