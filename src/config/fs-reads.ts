import { readFileSync } from '../util/node.js';

/**
 * Whether a config may read files by hand (`readFileSync('./tiers.json')`): one of its own module
 * files (not a package's) imports `node:fs` and calls one of its reading functions. The config cache sees the modules a config imports (the
 * loader's module cache), not the files its code reads, so such a config is loaded afresh on every
 * run instead of being kept: slower, never stale, and nothing of node's own is patched to watch it.
 */
const FS_IMPORT = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)['"](?:node:)?fs(?:\/promises)?['"]/;
/** A call of one of fs's reading functions (a config that only appends to a log file reads nothing). */
const FS_READ =
  /\b(?:readFileSync|readFile|readdirSync|readdir|existsSync|statSync|lstatSync|stat|lstat|accessSync|access|openSync|open|createReadStream|readlinkSync|opendir|opendirSync|glob|globSync)\s*\(/;

export function readsFilesByHand(files: readonly string[]): boolean {
  return files.some((f) => {
    if (f.includes('/node_modules/')) return false;
    try {
      const text = readFileSync(f, 'utf8');
      return FS_IMPORT.test(text) && FS_READ.test(text);
    } catch {
      return true;
    }
  });
}
