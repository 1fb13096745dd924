/**
 * Which parts of the `run` path this process took: a tree-cache hit, gates that ran, a verdict.
 * The bin's loader (scripts/cli-loader.cjs) keeps the hook bundle's V8 code cache per path taken:
 * a cache holds only the functions the runs that wrote it compiled, so a path it has not seen yet
 * (the first push after `install`, the first tree-cache hit, the first caught) adds its functions
 * to it once, and no other command writes it.
 */
const taken = new Set<string>();

export function tookPath(tag: string): void {
  taken.add(tag);
}

/** A stable name for the path taken: the sorted tags. */
export function hotPathKey(prefix: string): string {
  return [prefix, ...[...taken].sort()].join(' ');
}
