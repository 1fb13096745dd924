import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files a config's code reads through `node:fs` while it loads (`readFileSync('./tiers.json')`,
 * `existsSync`, a folder listed), so the config cache can tell when one changes. Modules it imports
 * are known already (the loader's module cache); this adds what its code reads by hand. The loader
 * (load.ts) records while the config module runs; its worker thread (load-worker.ts) takes the list,
 * and nothing else runs in that thread meanwhile. jiti gives a config node's own ES module bindings of
 * `node:fs` (neither its `virtualModules` nor its `alias` reach a builtin), so after replacing the
 * functions on the `fs` object for the while, `syncBuiltinESMExports()` (node:module's public API for
 * exactly this) makes those bindings follow, and again when they are put back. Issue 34 asked for this
 * to go; without it a config that reads `tiers.json` kept its first answer after the file changed
 * (test/faults/cache.test.ts "a config that reads another file through fs ..."), so it stays until a
 * way that patches nothing (a loader that can reach builtins) exists.
 */

const PATCHED = [
  'readFileSync',
  'readFile',
  'existsSync',
  'statSync',
  'lstatSync',
  'readdirSync',
  'readdir',
  'openSync',
  'open',
  'accessSync',
  'access',
  'stat',
  'lstat',
  'createReadStream',
  'readlinkSync',
] as const;
const PROMISES = ['readFile', 'stat', 'lstat', 'readdir', 'open', 'access'] as const;

function pathOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return resolve(arg);
  if (arg instanceof URL && arg.protocol === 'file:') return fileURLToPath(arg);
  if (Buffer.isBuffer(arg)) return resolve(arg.toString());
  return undefined;
}

const reads = new Set<string>();

/** Runs `fn` with every path given to fs's reading functions recorded (absolute; fd-based reads are not). */
export async function recordReads<T>(fn: () => Promise<T>): Promise<T> {
  const saved: [object, string, unknown][] = [];
  const wrap = (target: Record<string, unknown>, name: string) => {
    const original = target[name];
    if (typeof original !== 'function') return;
    saved.push([target, name, original]);
    target[name] = function (this: unknown, ...args: unknown[]) {
      const path = pathOf(args[0]);
      if (path !== undefined && !path.includes(`${sep}node_modules${sep}jiti${sep}`)) reads.add(path);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  };
  for (const name of PATCHED) wrap(fs as unknown as Record<string, unknown>, name);
  for (const name of PROMISES) wrap(fs.promises as unknown as Record<string, unknown>, name);
  syncBuiltinESMExports();
  try {
    return await fn();
  } finally {
    for (const [target, name, original] of saved) (target as Record<string, unknown>)[name] = original;
    syncBuiltinESMExports();
  }
}

/** The paths recorded so far, forgetting them. */
export function takeReads(): string[] {
  const out = [...reads];
  reads.clear();
  return out;
}
