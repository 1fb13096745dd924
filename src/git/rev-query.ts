import type { RevQuery } from './facts.js';
import { parsePushRefs, pushKind } from './push-refs.js';

/**
 * The revisions a run will ask git about, known from its options and pre-push stdin before any
 * git call, so `gatherGitFacts` (facts.ts) can answer them all in one. Pure.
 */
export function revQuery(opts: { hook?: string; base?: string; head?: string }, stdin?: string): RevQuery {
  const commits: string[] = [];
  const trees: string[] = [];
  const ranges: [string, string][] = [];
  if (opts.hook === 'pre-push') {
    for (const ref of parsePushRefs(stdin ?? '').refs) {
      const kind = pushKind(ref);
      if (kind === 'delete' || ref.localSha === ref.remoteSha) continue;
      if (kind === 'update') ranges.push([ref.remoteSha, ref.localSha]);
      else commits.push(ref.localSha);
      trees.push(ref.localSha);
    }
  } else if (opts.hook === undefined) {
    const head = opts.head ?? 'HEAD';
    if (opts.base !== undefined) ranges.push([opts.base, head]);
    else commits.push(head);
    trees.push(head);
  }
  return { commits, trees, ranges };
}
