/**
 * Where git takes hooks from: core.hooksPath (this repository's, or any scope's), whether it is husky's
 * own folder or husky 8's layout, the folder's hooks, and the hooks the project keeps in `.husky/`.
 */
import { join, resolve } from 'node:path';
import { git } from '../git/git.js';
import { existsSync, readFileSync, readdirSync, statSync } from '../util/node.js';
import { GIT_HOOKS } from './hook-managers.js';

/** core.hooksPath as this repository sets it (`local`), or as git will use it (any scope). */
export function getHooksPath(root: string, local = true): string | null {
  const r = git(root, ['config', ...(local ? ['--local'] : []), '--get', 'core.hooksPath']);
  return r.ok ? r.stdout.trim() : null;
}

/** Whether a core.hooksPath value is husky's own folder (`.husky/_`, or `.husky` of husky 4 to 8). */
export function isHuskyPath(value: string, root: string): boolean {
  const v = value.replace(/\/+$/, '').replace(/^\.\//, '');
  return v === '.husky/_' || v === '.husky' || v === join(root, '.husky', '_') || v === join(root, '.husky');
}

/**
 * husky 8 set up in this repository: core.hooksPath is `.husky` and `.husky/_/husky.sh` is husky 8's
 * (husky 9 leaves a stub there that only prints a deprecation). Installing husky 9 over it would move
 * core.hooksPath to `.husky/_` and replace husky.sh, which the project's own hooks source.
 */
export function huskyEight(root: string, hooksPath: string | null): boolean {
  if (hooksPath === null || !['.husky', '.husky/', join(root, '.husky')].includes(hooksPath.trim())) return false;
  const script = join(root, '.husky', '_', 'husky.sh');
  return existsSync(script) && !readFileSync(script, 'utf8').includes('DEPRECATED');
}

/** The folder git runs hooks from (core.hooksPath's, `~` expanded, or its own), as an absolute path. */
export function hooksFolder(root: string): string {
  const r = git(root, ['rev-parse', '--git-path', 'hooks']);
  return resolve(root, r.ok ? r.stdout.trim() : join('.git', 'hooks'));
}

/** Hooks git would run from a hooks folder: executable files there named as git's hooks (its `.sample` files are not). */
export function gitOwnHooks(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => GIT_HOOKS.has(e.name) && (e.isFile() || e.isSymbolicLink()))
      .filter((e) => {
        try {
          return (statSync(join(dir, e.name)).mode & 0o111) !== 0;
        } catch {
          return false;
        }
      })
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The hooks in `.husky/` (files named as git's hooks), once gate-ladder's own lines are out of them. */
export function projectHuskyHooks(root: string): string[] {
  try {
    return readdirSync(join(root, '.husky'), { withFileTypes: true })
      .filter((e) => GIT_HOOKS.has(e.name) && e.isFile())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}
