'use strict';
// dist/cli.cjs, the bin: runs dist/hook.cjs (everything a push needs, one CommonJS bundle) through a V8
// code cache. Compiling the bundle, then each function the first time it runs, costs several
// milliseconds of every push; with the cache, V8 takes the bytecode it made last time instead. The
// cache is written once, when a run ends (so it holds the functions that run compiled too), and again
// whenever V8 rejects it (another Node version, other V8 flags, a new build: it checks them itself).
//
// It lives beside the bundle, in dist/.cache (never in a shared temp folder: bytecode is code), one
// file per build of the bundle (V8 checks a cache against the source's length only: the name carries
// the bundle's content hash, filled in by scripts/build.mjs), Node version and architecture, written
// to a temp name and renamed; caches of other builds are removed then. A package folder we cannot
// write to just means no cache. GATE_LADDER_CODE_CACHE=0 turns it off.
//
// The bundle is shipped as one function expression taking the module's variables and `__glImport`:
// its few dynamic imports (the cold parts in dist/full/) go through that, as code compiled by node:vm
// cannot call import() itself (scripts/build.mjs does both).
const { mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

const file = join(__dirname, 'hook.cjs');
const cacheDir = join(__dirname, '.cache');
const cacheName = `hook-__HOOK_HASH__-${process.version}-${process.arch}.v8`;
const cacheFile = join(cacheDir, cacheName);
const useCache = process.env.GATE_LADDER_CODE_CACHE !== '0';

let cachedData;
if (useCache) {
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // first run, or no cache folder: compile as usual
  }
}
const source = readFileSync(file, 'utf8');
const script = new Script(source, {
  filename: file,
  ...(cachedData !== undefined && { cachedData }),
});
if (useCache && (cachedData === undefined || script.cachedDataRejected)) {
  process.once('exit', () => {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(tmp, script.createCachedData());
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
script.runInThisContext()(module.exports, require, module, file, __dirname, importCold);
