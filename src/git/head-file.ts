import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoInfo } from './git.js';
import { configLine, isObjectId, isRefName } from './text.js';

/**
 * The commit HEAD names, read from the files git keeps (`HEAD`, loose refs, `packed-refs`) instead of
 * asking git. `undefined` whenever git might see it otherwise or the answer is not a commit id: a
 * reftable repository, an unborn branch, a symref chain longer than git would follow in practice,
 * anything unreadable or odd. Loose refs are written by rename, so a concurrent update is seen whole.
 * `configText`: the repo's `config` file, when the caller has read it already (a run's GitFacts).
 */
export function headFromFiles(info: RepoInfo, configText?: string): string | undefined {
  try {
    // reftable keeps refs in binary tables; the `HEAD` file there is a placeholder.
    if (existsSync(join(info.commonDir, 'reftable'))) return undefined;
    const text = configText ?? readFileSync(join(info.commonDir, 'config'), 'utf8');
    if (configLine(text, 'refstorage', '')) return undefined;
    let value = parseRefFile(readFileSync(join(info.gitDir, 'HEAD'), 'utf8'));
    let packed: string | undefined;
    for (let depth = 0; depth < 5 && value !== undefined; depth++) {
      if (value.sha !== undefined) return value.sha;
      const name = value.ref;
      const dir = perWorktree(name) ? info.gitDir : info.commonDir;
      const loose = readIfFile(join(dir, name));
      if (loose !== undefined) {
        value = parseRefFile(loose);
        continue;
      }
      packed ??= readIfFile(join(info.commonDir, 'packed-refs')) ?? '';
      const sha = packedRef(packed, name);
      // Neither loose nor packed: an unborn branch (or a per-worktree ref, never packed).
      return sha;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** A ref file's content: a full object id, or `ref: <name>` for a name under refs/. Pure. */
export function parseRefFile(text: string): { sha: string; ref?: undefined } | { ref: string; sha?: undefined } | undefined {
  const line = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (isObjectId(line)) return { sha: line };
  if (!line.startsWith('ref: ')) return undefined;
  const ref = line.slice(5).trim();
  // Only names git could have written: no path tricks, nothing outside refs/.
  return isRefName(ref) ? { ref } : undefined;
}

/** The id a `packed-refs` file gives a ref name (`<sha> <name>` lines; `#` header and `^` peeled lines skipped). Pure. */
export function packedRef(text: string, name: string): string | undefined {
  const needle = ` ${name}\n`;
  const body = text.endsWith('\n') ? text : `${text}\n`;
  for (let i = body.indexOf(needle); i >= 0; i = body.indexOf(needle, i + 1)) {
    const sha = body.slice(body.lastIndexOf('\n', i - 1) + 1, i);
    if (isObjectId(sha)) return sha;
  }
  return undefined;
}

/** Refs each worktree keeps for itself, in its own git dir (git's `is_per_worktree_ref`). */
const perWorktree = (name: string) => name.startsWith('refs/bisect/') || name.startsWith('refs/worktree/') || name.startsWith('refs/rewritten/');

/** A file's text; `undefined` when it does not exist. A directory (a ref that is only a prefix) throws: odd, so the caller gives up. */
function readIfFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
