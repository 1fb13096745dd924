/**
 * The files `hookSetup` (hook-managers.ts) decides from: the package's package.json, the hook managers'
 * config files at the repository root and in the package's folder, and the hook files in git's own hooks
 * folder with whether each is executable.
 */
import { readFileSync, readdirSync, statSync } from '../util/node.js';
import { join } from 'node:path';
import { GIT_HOOKS, type GitHookFile, type HookFacts } from './hook-managers.js';

/** The config files whose text is read (the others are only named). */
const READ = /^(?:\.huskyrc(?:\.json)?|\.?simple-git-hooks\.json|\.?lefthook\.(?:yml|yaml|json|toml))$/;

const readSmall = (file: string): string | undefined => {
  try {
    return statSync(file).size <= 1024 * 1024 ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
};

/** What install reads to find the project's hook setup: `root`, the package's folder `pkg`, and git's hooks folder `hooksDir`. */
export function readHookFacts(root: string, pkg: string, hooksDir: string): HookFacts {
  const dirs = [...new Set([root, pkg])];
  const files: string[] = [];
  const texts: Record<string, string> = {};
  for (const d of dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(d);
    } catch {
      // An unreadable folder: nothing found there.
    }
    for (const n of names) {
      if (!files.includes(n)) files.push(n);
      if (READ.test(n) && texts[n] === undefined) {
        const t = readSmall(join(d, n));
        if (t !== undefined) texts[n] = t;
      }
    }
  }
  const nested = readSmall(join(root, '.config', 'lefthook.yml'));
  if (nested !== undefined) texts['.config/lefthook.yml'] = nested;
  let packageJson: unknown;
  try {
    packageJson = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as unknown;
  } catch {
    packageJson = undefined;
  }
  const gitHooks: GitHookFile[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync(hooksDir);
  } catch {
    // No hooks folder.
  }
  for (const name of entries.filter((n) => GIT_HOOKS.has(n)).sort()) {
    try {
      const st = statSync(join(hooksDir, name));
      if (!st.isFile()) continue;
      gitHooks.push({ name, text: readSmall(join(hooksDir, name)) ?? '', executable: (st.mode & 0o111) !== 0 });
    } catch {
      // A dangling link: git cannot run it either.
    }
  }
  return { ...(packageJson !== undefined && { packageJson }), files, texts, gitHooks };
}
