import {
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from '../util/node.js';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { type RepoInfo, filesAt } from '../git/git.js';
import { cacheDir, readJson, writeJsonAtomic } from '../util/cache-files.js';
import { hash, newRunId } from '../util/hash.js';
import { configMsg } from './messages.js';
import { type CachedLoad, loadConfigCached, mentionsKey } from './config-cache.js';
import type { MissingModule } from './load.js';
import { SEARCH_PLACES } from './defaults.js';

/**
 * The config a push or a commit is judged under: the one in the commit it tests (for pre-commit, the
 * staged tree), not whatever the working tree holds now. An uncommitted edit cannot change a push's
 * verdict, and an uncommitted deletion cannot let it through. A commit without any config (one from
 * before the repository adopted gate-ladder) is judged under the working tree's, and the run says so.
 *
 * The common case, the commit's config being the working tree's, starts no git process: the working
 * tree's config is already loaded (config-cache.ts) with a content hash of every file it read, and
 * `<cache>/committed-config-<tree>.json` keeps the same hashes for that tree (a tree never changes, so
 * the entry never goes stale).
 * Otherwise one `git cat-file --batch` reads them all from the commit. A committed config that differs
 * is written out of git under `<git common dir>/gate-ladder/config-at/<tree>-<root hash>/` with a
 * `node_modules` link to the repository's, and loaded from there (then cached like any config); a
 * relative import it makes is taken from the same commit when node reports it missing.
 */
export interface ConfigChoice {
  load: CachedLoad;
  /** `commit`: the tested commit's own config; `working-tree`: the commit has none, so the working tree's. */
  source: 'commit' | 'working-tree';
  /** Set when the commit's config was used and the working tree's differs from it or is missing: said, not used. */
  workingTree?: 'differs' | 'missing';
}

const FORMAT = 1;
const FACTS_PREFIX = 'committed-config-';
/** How many commits' differing configs stay written out (a few kilobytes each). */
const KEEP_COPIES = 16;
/** Relative imports fetched one at a time from the commit, at most this many. */
const MAX_IMPORTS = 20;
const READY = '.gate-ladder-ready';

/** What one tree holds at the paths a config may come from; cached per tree. */
interface TreeFacts {
  format: number;
  /** Repo-relative paths asked about. */
  asked: string[];
  /**
   * Content hash (util/hash.ts, of its UTF-8 text, as config-cache.ts hashes files) of each asked path
   * that is a file there.
   */
  files: Record<string, string>;
  /** Whether the tree's package.json has a "gate-ladder" key. */
  pkgKey?: boolean;
}

/**
 * The config `treeish` (a pushed commit, or the staged tree) is judged under, given the working tree's
 * config as loaded (`working`). `tree` is its tree sha when the run knows it: it names the tree in the
 * caches.
 *
 * What each answer costs (one cold call each, as a hook makes it, measured on the shared 2-core VM
 * under heavy load, medians: 1.0 and 31 ms, while `node -e 0` took 410 ms):
 *   - the cached facts of this tree: one small JSON file read; a tree seen before;
 *   - else one `git cat-file --batch` for every path at once (a git start-up), then the facts written.
 * So a tree pays for its facts once.
 */
export async function configAtTree(info: RepoInfo, treeish: string, working: CachedLoad, tree?: string): Promise<ConfigChoice> {
  const { root, commonDir } = info;
  const key = tree ?? treeish;
  const deps = working.kind === 'ok' ? repoDeps(root, working) : [];
  const wanted = [...SEARCH_PLACES, ...deps.map((d) => d.path)];
  const cached = cachedFacts(commonDir, key, wanted);
  const got = cached ? { facts: cached } : askGit(root, commonDir, treeish, key, wanted);
  if (got === undefined) return { load: unreadable(treeish), source: 'commit' };
  const committed = committedPlace(got.facts);
  if (committed === undefined) return { load: working, source: 'working-tree' };
  const same =
    working.kind === 'ok' &&
    working.place?.name === committed.name &&
    working.place.sha === committed.sha &&
    deps.every((d) => got.facts.files[d.path] === d.sha);
  if (same) return { load: working, source: 'commit' };
  const load = await loadCommitted(root, commonDir, treeish, key, got);
  return { load, source: 'commit', workingTree: working.kind === 'none' ? 'missing' : 'differs' };
}

/** The files of the repository a loaded config read besides itself (imports), with their hashes; `undefined` for one that was absent. */
function repoDeps(root: string, load: CachedLoad): { path: string; sha: string | undefined }[] {
  const out: { path: string; sha: string | undefined }[] = [];
  for (const [abs, sha] of load.deps ?? []) {
    const rel = relative(root, abs);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue;
    const parts = rel.split(sep);
    if (parts.includes('node_modules') || parts[0] === '.git') continue;
    const path = parts.join('/');
    if (path !== load.place?.name) out.push({ path, sha: sha === '-' ? undefined : sha });
  }
  return out;
}

/** The search place cosmiconfig would pick in the tree, and its hash; `undefined` when the tree has no config. */
function committedPlace(f: TreeFacts): { name: string; sha: string } | undefined {
  for (const name of SEARCH_PLACES) {
    const sha = f.files[name];
    if (sha === undefined) continue;
    return name === 'package.json' && !f.pkgKey ? undefined : { name, sha };
  }
  return undefined;
}

const factsPath = (commonDir: string, key: string) => join(cacheDir(commonDir), `${FACTS_PREFIX}${key}.json`);

/** The tree's cached facts, when they cover every wanted path. */
function cachedFacts(commonDir: string, key: string, wanted: readonly string[]): TreeFacts | undefined {
  const known = readJson<TreeFacts>(factsPath(commonDir, key));
  if (known?.format !== FORMAT || !Array.isArray(known.asked) || known.files === null || typeof known.files !== 'object') return undefined;
  return wanted.every((p) => known.asked.includes(p)) ? known : undefined;
}

/** The tree's facts for `wanted` paths (and any asked before) from git, with the files' contents; cached. */
function askGit(
  root: string,
  commonDir: string,
  treeish: string,
  key: string,
  wanted: readonly string[],
): { facts: TreeFacts; contents: Map<string, Buffer | null> } | undefined {
  const prior = readJson<TreeFacts>(factsPath(commonDir, key));
  const asked = [...new Set([...(prior?.format === FORMAT && Array.isArray(prior.asked) ? prior.asked : []), ...wanted])];
  const contents = filesAt(root, treeish, asked);
  if (contents === undefined) return undefined;
  const files: Record<string, string> = {};
  let pkgKey: boolean | undefined;
  for (const [p, buf] of contents) {
    if (buf === null) continue;
    const text = buf.toString('utf8');
    files[p] = hash(text);
    if (p === 'package.json') pkgKey = mentionsKey(text);
  }
  const facts: TreeFacts = { format: FORMAT, asked, files, ...(pkgKey !== undefined && { pkgKey }) };
  writeJsonAtomic(factsPath(commonDir, key), facts, { prefix: FACTS_PREFIX, keep: 256 });
  return { facts, contents };
}

function unreadable(treeish: string): CachedLoad {
  return { kind: 'invalid', file: 'config', problems: [configMsg.unreadable(treeish)] };
}

/**
 * The committed config, loaded from a copy of the commit's files: the search places and the files the
 * working tree's config imports, as committed, beside a link to the repository's node_modules (so its
 * npm imports resolve as they do from the repository). A relative import not copied yet is fetched
 * from the commit when node reports it missing, and the load tried again.
 */
async function loadCommitted(
  root: string,
  commonDir: string,
  treeish: string,
  key: string,
  got: { facts: TreeFacts; contents?: Map<string, Buffer | null> },
): Promise<CachedLoad> {
  const dir = join(commonDir, 'gate-ladder', 'config-at', `${key}-${hash(root).slice(0, 12)}`);
  if (!existsSync(join(dir, READY))) {
    const contents = got.contents ?? filesAt(root, treeish, got.facts.asked);
    if (contents === undefined) return unreadable(treeish);
    if (!writeCopy(dir, root, contents))
      return { kind: 'invalid', file: 'config', problems: [configMsg.cannotCopy(treeish, dirname(dir))] };
  }
  const fetched = new Set<string>();
  for (;;) {
    const load = await loadConfigCached(dir, commonDir);
    if (load.kind !== 'invalid' || load.missing === undefined || fetched.size >= MAX_IMPORTS) return load;
    const added = fetchImport(root, treeish, dir, load.missing, fetched);
    if (!added) return load;
  }
}

/** Writes the files into a fresh folder renamed to `dir` once complete (another run may have made it meanwhile: then its copy is used). */
function writeCopy(dir: string, root: string, contents: Map<string, Buffer | null>): boolean {
  const tmp = `${dir}.tmp-${process.pid}-${newRunId()}`;
  try {
    for (const [p, buf] of contents) if (buf !== null) writeIn(tmp, p, buf);
    mkdirSync(tmp, { recursive: true });
    if (existsSync(join(root, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(tmp, 'node_modules'), 'dir');
    writeFileSync(join(tmp, READY), '');
    try {
      renameSync(tmp, dir);
    } catch {
      rmSync(tmp, { recursive: true, force: true });
      return existsSync(join(dir, READY));
    }
    pruneCopies(dirname(dir), dir);
    return true;
  } catch {
    rmSync(tmp, { recursive: true, force: true });
    return false;
  }
}

/** Writes a file whole (a temp file renamed), so that a run loading the same copy never reads half of it. */
function writeIn(dir: string, path: string, buf: Buffer): void {
  const file = join(dir, ...path.split('/'));
  const tmp = `${file}.tmp-${process.pid}-${newRunId()}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(tmp, buf);
  renameSync(tmp, file);
}

/** Keeps the newest KEEP_COPIES copies. */
function pruneCopies(parent: string, fresh: string): void {
  const dirs = readdirSync(parent)
    .map((n) => join(parent, n))
    .filter((d) => d !== fresh)
    .map((d) => ({ d, t: statSync(d, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.t - a.t);
  for (const { d } of dirs.slice(KEEP_COPIES - 1)) rmSync(d, { recursive: true, force: true });
}

const EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json', '.tsx', '.jsx'];

/** The files node (or jiti) may mean by a relative import of `base`: as written, with each extension, a folder's index, and `.js` written for `.ts`. */
export function importCandidates(base: string): string[] {
  const out = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => `${base}/index${e}`)];
  const dot = base.lastIndexOf('.');
  const ext = dot > base.lastIndexOf('/') ? base.slice(dot) : '';
  if (ext === '.js' || ext === '.jsx') out.push(`${base.slice(0, dot)}.ts`, `${base.slice(0, dot)}.tsx`);
  if (ext === '.mjs') out.push(`${base.slice(0, dot)}.mts`);
  if (ext === '.cjs') out.push(`${base.slice(0, dot)}.cts`);
  return out;
}

/**
 * Copies from the commit the file a relative import names (`missing.request`, from the copy's file
 * `missing.from`); false when it is not a relative import inside the copy, or the commit has no
 * such file, or it was fetched already (the load failed for another reason).
 */
function fetchImport(root: string, treeish: string, dir: string, missing: MissingModule, fetched: Set<string>): boolean {
  const r = missing.request;
  if (!(r === '.' || r === '..' || r.startsWith('./') || r.startsWith('../'))) return false;
  const target = resolve(dirname(missing.from), r);
  let rel = relative(dir, target);
  if (rel.startsWith('..') || isAbsolute(rel)) rel = relative(realpathSync(dir), target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
  const base = rel.split(sep).join('/');
  if (fetched.has(base)) return false;
  fetched.add(base);
  const got = filesAt(root, treeish, importCandidates(base));
  let added = false;
  for (const [p, buf] of got ?? []) {
    if (buf === null) continue;
    writeIn(dir, p, buf);
    added = true;
  }
  return added;
}
