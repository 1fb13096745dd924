import { join } from 'node:path';
import { cacheDir, readText, writeFileAtomicLater } from '../util/cache-files.js';
import { hash } from '../util/hash.js';
import { debugFor } from '../util/debug.js';

/**
 * The paths changed between two commits never change: kept by their full object ids, so a retried
 * push, a CI rerun or the same range judged again reads them instead of starting `git diff-tree`.
 *
 *   diff-<hash(base head)>   `git diff-tree --name-status -z` output as git wrote it, then a last line
 *                            naming the pair (up to 16 MB each, 64 MB and 64 files in all)
 *
 * Entries name what they hold and are checked on read. Only commit ids are keys: a revision name
 * (which can move) is always asked of git (facts.ts).
 */

const sayCache = debugFor('cache');

const KEEP = 64;
/** A larger diff is not kept (git takes long enough on it that one more process hardly shows); all of them stay under 4 times this. */
const MAX_DIFF_BYTES = 16 * 1024 * 1024;

const diffPath = (commonDir: string, base: string, head: string) => join(cacheDir(commonDir), `diff-${hash(`${base} ${head}`)}`);

/** The line that ends a diff entry: it names the pair (git's listing itself ends with a NUL). */
const trailer = (base: string, head: string) => `\n${base} ${head}\n`;
const DIFF_OPTS = { prefix: 'diff-', keep: KEEP, maxBytes: MAX_DIFF_BYTES * 4 };

export function readDiff(commonDir: string, base: string, head: string): string | undefined {
  const text = readText(diffPath(commonDir, base, head));
  const end = trailer(base, head);
  const listing = text?.endsWith(end) ? text.slice(0, text.length - end.length) : undefined;
  const found = listing === '' || listing?.endsWith('\0') ? listing : undefined;
  sayCache?.(`range cache ${base} ${head}: ${found === undefined ? 'miss' : 'hit'}`);
  return found;
}

/** Git's output as text, or as the pieces it came in (written as they are). */
export function writeDiff(commonDir: string, base: string, head: string, output: string | readonly Buffer[]): void {
  const size = typeof output === 'string' ? output.length : output.reduce((n, b) => n + b.length, 0);
  if (size > MAX_DIFF_BYTES) return;
  const data = typeof output === 'string' ? `${output}${trailer(base, head)}` : [...output, Buffer.from(trailer(base, head))];
  writeFileAtomicLater(diffPath(commonDir, base, head), data, DIFF_OPTS);
}
