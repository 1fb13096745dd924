'use strict';
// dist/cli.cjs, the bin: runs dist/hook.cjs (everything a push needs, one CommonJS bundle) through a V8
// code cache. Compiling the bundle, then each function the first time it runs, costs several
// milliseconds of every push; with the cache, V8 takes the bytecode it made last time instead.
//
// A cache holds the functions compiled by the runs that wrote it, so it is written when a `run` ends
// and names the path that run took (the bundle calls `__glHotPath`: hook, verdict, tree-cache hit,
// dry run...). A later run on a path the cache has not seen writes it again, with what it loaded plus
// what it compiled; a run on a known path writes nothing. Other commands (install, report, --help)
// never write it: a cache made by `install`, the first command of every project, would hold none of
// a push's functions. It is also written whenever V8 rejects it (another Node version, other V8
// flags, a new build: it checks them itself).
//
// File: the bytes V8 made, then the names of the paths in it (newline-separated, latin1), then their
// length as 2 bytes (little-endian). It lives beside the bundle, in dist/.cache (never in a shared temp
// folder: bytecode is code), one file per build of the bundle (V8 checks a cache against the source's
// length only: the name carries the bundle's content hash, filled in by scripts/build.mjs), Node
// version and architecture, written to a temp name and renamed; caches of other builds are removed
// then. A package folder we cannot write to just means no cache. GATE_LADDER_CODE_CACHE=0 turns it off.
//
// The bundle is shipped as one function expression taking the module's variables, `__glImport` and
// `__glHotPath`: its few dynamic imports (the cold parts in dist/full/) go through the former, as code
// compiled by node:vm cannot call import() itself (scripts/build.mjs does both).
const { mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

const file = join(__dirname, 'hook.cjs');
const cacheDir = join(__dirname, '.cache');
const cacheName = `hook-__HOOK_HASH__-${process.version}-${process.arch}.v8`;
const cacheFile = join(cacheDir, cacheName);
const useCache = process.env.GATE_LADDER_CODE_CACHE !== '0';

/** Paths a cache file may name; past that, a run on a new path leaves the cache as it is. */
const MAX_PATHS = 64;

let cachedData;
let paths = [];
if (useCache) {
  try {
    const bytes = readFileSync(cacheFile);
    const end = bytes.length - 2;
    const size = end >= 0 ? bytes.readUInt16LE(end) : -1;
    if (size >= 0 && size < end) {
      cachedData = bytes.subarray(0, end - size);
      paths = bytes.toString('latin1', end - size, end).split('\n');
    }
  } catch {
    // first run, or no cache folder: compile as usual
  }
}
const source = readFileSync(file, 'utf8');
const script = new Script(source, {
  filename: file,
  ...(cachedData !== undefined && { cachedData }),
});
let hotPath;
if (useCache) {
  process.once('exit', () => {
    if (hotPath === undefined) return;
    const usable = cachedData !== undefined && !script.cachedDataRejected;
    if (usable && (paths.includes(hotPath) || paths.length >= MAX_PATHS)) return;
    const names = Buffer.from([...(usable ? paths : []), hotPath].join('\n'), 'latin1');
    const size = Buffer.alloc(2);
    size.writeUInt16LE(names.length);
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(tmp, Buffer.concat([script.createCachedData(), names, size]));
      renameSync(tmp, cacheFile);
      for (const name of readdirSync(cacheDir)) if (name.endsWith('.v8') && name !== cacheName) unlinkSync(join(cacheDir, name));
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written
      }
    }
  });
}
const importCold = (specifier) => import(pathToFileURL(join(__dirname, specifier)).href);
const noteHotPath = (name) => {
  if (typeof name === 'string' && !name.includes('\n') && name.length < 200) hotPath = name;
};
script.runInThisContext()(module.exports, require, module, file, __dirname, importCold, noteHotPath);
