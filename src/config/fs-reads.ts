import { dirname, resolve } from 'node:path';
import { readFileSync, statSync } from '../util/node.js';

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

/** A relative module specifier in a file's source: `from './x.mjs'`, `import './x.js'`, `import('./x')`, `require('../y')`. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"\n]+)['"]/g;
/** What a specifier without its extension may name, in the order a loader tries them. */
const TRY = ['', '.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json', '/index.ts', '/index.js', '/index.mjs'];

/**
 * `files` and, read from their sources, the files their relative imports name, again and again: the
 * modules a config imports that the loader's module cache does not show (an ES module node imports
 * itself: `.mjs`, or `.js` in a `"type": "module"` package). More files than imported (a specifier in
 * a comment) only make the config cache load the config afresh more often; a package's files are not read.
 */
export function withImportedFiles(files: readonly string[]): string[] {
  const seen = new Set(files);
  const queue = files.filter((f) => !f.includes('/node_modules/'));
  for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(RELATIVE_IMPORT)) {
      const named = resolve(dirname(f), m[1]!.split(/[?#]/)[0]!);
      const file = TRY.map((ext) => named + ext).find(isFile);
      if (file === undefined || seen.has(file) || file.includes('/node_modules/')) continue;
      seen.add(file);
      queue.push(file);
    }
  }
  return [...seen];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
