import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adoptFile, cacheDir, decodeText, readJson, readText, unlinkQuiet, writeFileAtomicLater, writeJsonAtomic } from '../util/cache-files.js';
import { hash } from '../util/hash.js';
import { isObjectId } from './text.js';
import { debugFor } from '../util/debug.js';

/**
 * What git says about two commits never changes: a commit's tree, two commits' merge-base, and the
 * paths changed between them. Kept by full object id, so a retried push, a CI rerun or the same
 * range judged again starts no git process at all for them (a hook run's largest cost here).
 *
 *   range-<hash(a b)>.json   for the pair [a, b] as given (full shas only): both peeled to commits,
 *                            b's tree, and their merge-base
 *   diff-<hash(base head)>   `git diff --name-status -z` output as git wrote it, then a last line
 *                            naming the pair (up to 16 MB each, 64 MB and 64 files in all); the
 *                            name goes last so that git can write the file itself, before rev-parse
 *                            has said which pair it is (facts.ts)
 *
 * Entries name what they hold and are checked on read. Not used in a shallow clone (deepening it
 * can change a merge-base) or a repo with replace refs (they change what an id means).
 */

const sayCache = debugFor('cache');

const KEEP = 64;
/** A larger diff is not kept (git takes long enough on it that one more process hardly shows); all of them stay under 4 times this. */
const MAX_DIFF_BYTES = 16 * 1024 * 1024;

export interface RangeFacts {
  a: string;
  b: string;
  /** a and b peeled to commits. */
  base: string;
  head: string;
  tree: string;
  mergeBase: string | null;
}

const rangePath = (commonDir: string, a: string, b: string) => join(cacheDir(commonDir), `range-${hash(`${a} ${b}`)}.json`);
const diffPath = (commonDir: string, base: string, head: string) => join(cacheDir(commonDir), `diff-${hash(`${base} ${head}`)}`);

export function readRange(commonDir: string, a: string, b: string): RangeFacts | undefined {
  const f = readJson<RangeFacts>(rangePath(commonDir, a, b));
  const shas = f && [f.base, f.head, f.tree, f.mergeBase ?? f.base];
  const found = f?.a === a && f.b === b && shas?.every((s) => typeof s === 'string' && isObjectId(s)) ? f : undefined;
  sayCache?.(`range cache ${a} ${b}: ${found ? 'hit' : 'miss'}`);
  return found;
}

export function writeRange(commonDir: string, facts: RangeFacts): void {
  if (isObjectId(facts.a) && isObjectId(facts.b)) writeJsonAtomic(rangePath(commonDir, facts.a, facts.b), facts, { prefix: 'range-', keep: KEEP * 4 });
}

/** The line that ends a diff entry: it names the pair (git's listing itself ends with a NUL). */
const trailer = (base: string, head: string) => `\n${base} ${head}\n`;
const DIFF_OPTS = { prefix: 'diff-', keep: KEEP, maxBytes: MAX_DIFF_BYTES * 4 };

export function readDiff(commonDir: string, base: string, head: string): string | undefined {
  const text = readText(diffPath(commonDir, base, head));
  const end = trailer(base, head);
  const listing = text?.endsWith(end) ? text.slice(0, text.length - end.length) : undefined;
  const found = listing === '' || listing?.endsWith('\0') ? listing : undefined;
  sayCache?.(`range cache, diff ${base} ${head}: ${found === undefined ? 'miss' : 'hit'}`);
  return found;
}

export function hasDiff(commonDir: string, base: string, head: string): boolean {
  return existsSync(diffPath(commonDir, base, head));
}

/** Git's output as text, or as the pieces it came in (written as they are). */
export function writeDiff(commonDir: string, base: string, head: string, output: string | readonly Buffer[]): void {
  const size = typeof output === 'string' ? output.length : output.reduce((n, b) => n + b.length, 0);
  if (size > MAX_DIFF_BYTES) return;
  const data = typeof output === 'string' ? `${output}${trailer(base, head)}` : [...output, Buffer.from(trailer(base, head))];
  writeFileAtomicLater(diffPath(commonDir, base, head), data, DIFF_OPTS);
}

/** A listing git wrote into `file` (a temp file in the cache folder, see cache-files `tempFileIn`), `bytes` long, becomes the pair's entry (if not too large). */
export function adoptListing(commonDir: string, base: string, head: string, file: string, bytes: number): void {
  if (bytes > MAX_DIFF_BYTES) return unlinkQuiet(file);
  try {
    appendFileSync(file, trailer(base, head));
    adoptFile(file, diffPath(commonDir, base, head), DIFF_OPTS);
  } catch {
    unlinkQuiet(file);
  }
}

/** The listing git wrote into `file` (as for adoptListing), as text; the file then becomes the pair's entry. */
export function adoptDiff(commonDir: string, base: string, head: string, file: string): string | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return undefined;
  }
  adoptListing(commonDir, base, head, file, buf.length);
  return decodeText(buf);
}
