import { readFileSync, readdirSync } from '../util/node.js';
import { join, sep } from 'node:path';
import { cacheDir, readJson, writeJsonAtomic } from '../util/cache-files.js';
import type { ConfigLoad } from './load.js';
import { SEARCH_PLACES } from './defaults.js';
import { isScopePlan, planScope, type ScopePlan } from '../util/glob.js';
import { hash } from '../util/hash.js';
import type { ResolvedConfig } from './resolved.js';
import { debugFor } from '../util/debug.js';

const sayCache = debugFor('cache');

/**
 * The compiled-config cache. Loading a `.ts` config costs cosmiconfig, jiti and zod, about 0.3 s;
 * a push should not pay that twice for the same file. The validated, resolved config is kept as
 * JSON in `<git common dir>/gate-ladder/cache/config-<key>.json`, where the key hashes:
 *   - this build of gate-ladder (its defaults and validation rules are part of the answer),
 *   - the repo root (worktrees may hold different configs),
 *   - the first search place that exists, the file cosmiconfig will pick (a config of higher priority
 *     appearing changes the key; package.json counts when it has a "gate-ladder" key),
 *   - that file's content.
 * The entry lists every file the config loaded (jiti records them; a package under node_modules is
 * represented by its package.json) with its content hash; a hit re-hashes them, so editing an
 * imported file is noticed. Only valid configs are cached; zod, cosmiconfig and jiti load on a miss only.
 */

declare const __GATE_LADDER_BUILD__: string | undefined;
/** Set by the bundler to a hash of the sources; `dev` in the test build (whose tests make fresh repos). */
export const BUILD_ID = typeof __GATE_LADDER_BUILD__ === 'string' ? __GATE_LADDER_BUILD__ : 'dev';
const FORMAT = 1;

export interface ConfigEntry {
  format: number;
  /** The config file, relative to the root (as messages name it). */
  file: string;
  /** Absolute path and content hash of every file the config read; `-` for one that did not exist. */
  deps: [string, string][];
  config: ResolvedConfig;
  /** Hash of the resolved config: part of every tree-cache key. */
  hash: string;
  /** The scope matcher's parts, worked out once (glob.ts). */
  scopePlan?: ScopePlan;
}

export type CachedLoad = ConfigLoad & {
  hash?: string;
  cached?: boolean;
  scopePlan?: ScopePlan;
  /** The search place the config came from and its content hash (config-at.ts compares them with a commit's). */
  place?: { name: string; sha: string };
  /** Every file a valid config read, with its content hash, as the cache entry lists them. */
  deps?: [string, string][];
};

// UTF-8, as the config loader reads these files: two files that decode alike load alike. (Node reads a
// file as UTF-8 in one native call, twice as fast as latin1 here.)
const read = (path: string) => readFileSync(path, 'utf8');

function hashFile(path: string): string {
  try {
    return hash(read(path));
  } catch (e) {
    // A folder the config listed: its names.
    if ((e as NodeJS.ErrnoException).code === 'EISDIR') return listing(path);
    return '-';
  }
}

function listing(path: string): string {
  try {
    return `dir:${hash(readdirSync(path).sort().join('\0'))}`;
  } catch {
    return '-';
  }
}

/** A search place's text; undefined when it is not there (or is not a file: cosmiconfig skips those too). */
function readPlace(path: string): string | undefined {
  try {
    return read(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/**
 * Where this root's config would come from: the key, or `none` when no search place can hold one.
 * The places are tried in cosmiconfig's order, and the first present one is the file it picks: those
 * after it cannot change the answer, so they are not looked at (one file read, on a push, not ten stats).
 */
export function configKey(root: string): { key: string; file: string; name: string; sha: string } | { none: true } {
  for (const name of SEARCH_PLACES) {
    const content = readPlace(join(root, name));
    if (content === undefined) continue;
    if (name === 'package.json' && !mentionsKey(content)) return { none: true };
    const sha = hash(content);
    // Every place before `name` was absent: `name` says which were there as far as the pick goes.
    return { key: hash(`${FORMAT}\0${BUILD_ID}\0${root}\0${name}\0${sha}`), file: join(root, name), name, sha };
  }
  return { none: true };
}

/** Cheap test before parsing: a package.json whose text never says "gate-ladder" has no such key. */
export function mentionsKey(content: string): boolean {
  if (!content.includes('"gate-ladder"')) return false;
  try {
    const pkg = JSON.parse(content) as Record<string, unknown>;
    return pkg !== null && typeof pkg === 'object' && 'gate-ladder' in pkg;
  } catch {
    return true; // let cosmiconfig report the broken file
  }
}

/**
 * A file inside a package under node_modules stands for the whole package: its package.json, which
 * changes with the version. Only node_modules folders below `root` (or anywhere, for files outside it).
 */
export function depFile(path: string, root: string): string {
  const marker = `${sep}node_modules${sep}`;
  const at = path.lastIndexOf(marker);
  if (at < 0 || (path.startsWith(root + sep) && at < root.length)) return path;
  const parts = path.slice(at + marker.length).split(sep);
  const pkg = parts[0]?.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1);
  return join(path.slice(0, at + marker.length), ...pkg, 'package.json');
}

function entryPath(commonDir: string, key: string): string {
  return join(cacheDir(commonDir), `config-${key}.json`);
}

/** The cached config when every file it read is unchanged; `known` is a file already hashed (the config, read for the key). */
export function readConfigEntry(commonDir: string, key: string, known?: { file: string; sha: string }): ConfigEntry | undefined {
  const entry = readJson<ConfigEntry>(entryPath(commonDir, key));
  if (entry?.format !== FORMAT || !Array.isArray(entry.deps)) return undefined;
  for (const [path, hash] of entry.deps) if ((path === known?.file ? known.sha : hashFile(path)) !== hash) return undefined;
  return entry;
}

export function configHash(config: ResolvedConfig): string {
  return hash(JSON.stringify(config));
}

/**
 * The repo's config: from the cache when it is current, else loaded (cosmiconfig, jiti, zod) and cached.
 * `fresh` skips reading the cache (`--no-cache`) but still refreshes it.
 */
export async function loadConfigCached(root: string, commonDir: string, fresh = false): Promise<CachedLoad> {
  const source = configKey(root);
  if ('none' in source) return { kind: 'none' };
  const place = { name: source.name, sha: source.sha };
  const hit = fresh ? undefined : readConfigEntry(commonDir, source.key, source);
  sayCache?.(`config cache for ${source.file}: ${fresh ? 'not read (--no-cache)' : hit ? 'hit' : 'miss: loading it'}`);
  if (hit) {
    const plan = isScopePlan(hit.scopePlan, hit.config.scope) ? { scopePlan: hit.scopePlan } : {};
    return { kind: 'ok', file: hit.file, config: hit.config, hash: hit.hash, cached: true, ...plan, place, deps: hit.deps };
  }
  // In a worker with a time limit (load-worker.ts): a config that never settles, exits or loops is an error.
  const { loadConfigLimited } = await import('./load-worker.js');
  const loaded = await loadConfigLimited(root);
  if (loaded.kind === 'none') return { kind: 'none' };
  if (loaded.kind === 'invalid')
    return { kind: 'invalid', file: loaded.file, problems: loaded.problems, ...(loaded.missing && { missing: loaded.missing }), place };
  const hash = configHash(loaded.config);
  const deps = [...new Set([source.file, ...(loaded.deps ?? []), join(root, loaded.file)].map((d) => depFile(d, root)))];
  const entry: ConfigEntry = {
    format: FORMAT,
    file: loaded.file,
    deps: deps.map((d) => [d, hashFile(d)]),
    config: loaded.config,
    hash,
    scopePlan: planScope(loaded.config.scope),
  };
  // A file edited while it loaded: the answer may mix two versions, so it is not kept; nor is a config
  // that may read files by hand, whose answer depends on what the cache cannot see.
  if (!loaded.readsFiles && entry.deps[0]?.[1] === source.sha)
    writeJsonAtomic(entryPath(commonDir, source.key), entry, { prefix: 'config-', keep: 32 });
  return {
    kind: 'ok',
    file: loaded.file,
    config: loaded.config,
    hash,
    ...(entry.scopePlan && { scopePlan: entry.scopePlan }),
    place,
    deps: entry.deps,
  };
}
