import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { RepoInfo } from './git.js';
import { configLine } from './text.js';

/**
 * The repo's paths read from the file system, as git finds them: the nearest `.git` folder, or a
 * `.git` file naming a linked worktree's git dir (whose `commondir` names the shared one). `undefined`
 * whenever git might see it differently (GIT_DIR and friends set, core.worktree or core.bare in the
 * config, a shallow clone, replace refs): the caller then asks git.
 */
export function repoFromFiles(cwd: string): (RepoInfo & { plain: true; config: string }) | undefined {
  const env = process.env;
  if (env.GIT_DIR || env.GIT_WORK_TREE || env.GIT_COMMON_DIR || env.GIT_OBJECT_DIRECTORY || env.GIT_CEILING_DIRECTORIES) return undefined;
  try {
    for (let dir = cwd; ; dir = dirname(dir)) {
      const dotgit = join(dir, '.git');
      // The usual case first, a `.git` folder with its HEAD: one call, no Stats object (stat makes one).
      const folder = existsSync(join(dotgit, 'HEAD'));
      const st = folder ? undefined : statSync(dotgit, { throwIfNoEntry: false });
      if (folder || st?.isDirectory() || st?.isFile()) {
        const gitDir = folder || st?.isDirectory() ? dotgit : resolve(dir, /^gitdir: (.+)$/m.exec(readFileSync(dotgit, 'utf8'))?.[1]?.trim() ?? '\0');
        const common = join(gitDir, 'commondir');
        const commonDir = existsSync(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
        // Kept for readers of HEAD (head-file.ts). UTF-8: node reads it in one native call (latin1 takes
        // twice as long), and the keys looked for are ASCII either way.
        const config = readFileSync(join(commonDir, 'config'), 'utf8');
        if (configLine(config, 'worktree') || configLine(config, 'bare', 'true')) return undefined;
        if (existsSync(join(commonDir, 'shallow')) || existsSync(join(commonDir, 'refs', 'replace'))) return undefined;
        // A folder was found by its HEAD already; a `.git` file's git dir is checked here.
        if (!folder && !existsSync(join(gitDir, 'HEAD'))) return undefined;
        return { root: dir, commonDir, gitDir, plain: true, config };
      }
      if (dirname(dir) === dir) return undefined;
    }
  } catch {
    return undefined;
  }
}
