'use strict';
// dist/cli.cjs, the bin: runs dist/hook.cjs (everything a push needs, one CommonJS bundle) through a V8
// code cache. Compiling the bundle, then each function the first time it runs, costs several
// milliseconds of every push; with the cache, V8 takes the bytecode it made last time instead. The
// cache is written once, when a run ends (so it holds the functions that run compiled too), and again
// whenever V8 rejects it (another Node version, other V8 flags, a new build: it checks them itself).
//
// It lives beside the bundle, in dist/.cache (never in a shared temp folder: bytecode is code), one
// file per Node version and architecture, written to a temp name and renamed. A package folder we
// cannot write to just means no cache. GATE_LADDER_CODE_CACHE=0 turns it off.
//
// The bundle's few dynamic imports (the cold parts in dist/full/) go through `__glImport`, which
// scripts/build.mjs puts in their place: code compiled by node:vm cannot call import() itself.
const { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

const file = join(__dirname, 'hook.cjs');
const cacheDir = join(__dirname, '.cache');
const cacheFile = join(cacheDir, `hook-${process.version}-${process.arch}.v8`);
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
const script = new Script(`(function (exports, require, module, __filename, __dirname, __glImport) {${source}\n})`, {
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
