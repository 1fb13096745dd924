import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, readJson, readText, writeFileAtomicLater, writeJsonAtomic } from './cache-files.js';
import { hash } from './hash.js';

/**
 * What git says about two commits never changes: a commit's tree, two commits' merge-base, and the
 * paths changed between them. Kept by full object id, so a retried push, a CI rerun or the same
 * range judged again starts no git process at all for them (a hook run's largest cost here).
 *
 *   range-<hash(a b)>.json   for the pair [a, b] as given (full shas only): both peeled to commits,
 *                            b's tree, and their merge-base
 *   diff-<hash(base head)>   `git diff --name-status -z` output, first line naming the pair (up to
 *                            16 MB each, 64 MB and 64 files in all)
 *
 * Entries name what they hold and are checked on read. Not used in a shallow clone (deepening it
 * can change a merge-base) or a repo with replace refs (they change what an id means).
 */

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

export const isFullSha = (s: string) => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(s);

const rangePath = (commonDir: string, a: string, b: string) => join(cacheDir(commonDir), `range-${hash(`${a} ${b}`)}.json`);
const diffPath = (commonDir: string, base: string, head: string) => join(cacheDir(commonDir), `diff-${hash(`${base} ${head}`)}`);

export function readRange(commonDir: string, a: string, b: string): RangeFacts | undefined {
  const f = readJson<RangeFacts>(rangePath(commonDir, a, b));
  const shas = f && [f.base, f.head, f.tree, f.mergeBase ?? f.base];
  return f?.a === a && f.b === b && shas?.every((s) => typeof s === 'string' && isFullSha(s)) ? f : undefined;
}

export function writeRange(commonDir: string, facts: RangeFacts): void {
  if (isFullSha(facts.a) && isFullSha(facts.b)) writeJsonAtomic(rangePath(commonDir, facts.a, facts.b), facts, { prefix: 'range-', keep: KEEP * 4 });
}

export function readDiff(commonDir: string, base: string, head: string): string | undefined {
  const text = readText(diffPath(commonDir, base, head));
  const header = `${base} ${head}\n`;
  return text?.startsWith(header) ? text.slice(header.length) : undefined;
}

export function hasDiff(commonDir: string, base: string, head: string): boolean {
  return existsSync(diffPath(commonDir, base, head));
}

/** Git's output as text, or as the pieces it came in (written as they are). */
export function writeDiff(commonDir: string, base: string, head: string, output: string | readonly Buffer[]): void {
  const size = typeof output === 'string' ? output.length : output.reduce((n, b) => n + b.length, 0);
  if (size > MAX_DIFF_BYTES) return;
  const header = `${base} ${head}\n`;
  const data = typeof output === 'string' ? `${header}${output}` : [Buffer.from(header), ...output];
  writeFileAtomicLater(diffPath(commonDir, base, head), data, { prefix: 'diff-', keep: KEEP, maxBytes: MAX_DIFF_BYTES * 4 });
}
