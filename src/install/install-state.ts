/**
 * What install changed, recorded in `<git common dir>/gate-ladder/install.json` (never committed), so
 * uninstall undoes exactly that: each hook file before and after, core.hooksPath, package.json, the
 * starter config.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readFileSync } from '../util/node.js';

/** What install did to one hook file. */
export interface HookState {
  created: boolean;
  line: string;
  /** The file before install (null: there was none) and after, so uninstall restores it byte for byte when untouched. */
  before?: string | null;
  after?: string;
  /** The lint-staged line gate-ladder's line took the place of (its lintStaged tier runs lint-staged). */
  replaced?: string;
  /** The part install carried over from the project's hook setup (hook-managers.ts `carriedBlock`): uninstall takes it out. */
  carried?: string;
}

/** What install changed, so uninstall can undo exactly that. Kept in the git dir, never committed. */
export interface InstallState {
  version: 1;
  hooksPath: string | null;
  createdHuskyDir: boolean;
  hooks: Record<string, HookState>;
  addedPrepare: boolean;
  /** A `prepare` script install put husky in front of: what it was, and what install made it. */
  composedPrepare?: { before: string; after: string };
  /** package.json before and after install, so uninstall restores it byte for byte when untouched. */
  packageJson?: { before: string; after: string };
  /** The folder of that package.json, relative to the repository root (absent: the root). */
  packageDir?: string;
  createdConfig: { file: string; sha: string } | null;
  /** The project runs husky 8 (core.hooksPath .husky, hooks sourcing .husky/_/husky.sh): install worked within it. */
  husky8?: boolean;
  /** The line install added to .gitignore so git ignores node_modules (uninstall keeps it: node_modules is still there). */
  addedGitignore?: string;
  /** The hooks `.husky/` held before install (absent in records of older installs). */
  huskyHooksBefore?: string[];
}

export const sha = (text: string) => createHash('sha256').update(text).digest('hex');

export function statePath(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'install.json');
}

export function readState(path: string): InstallState | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as InstallState;
  } catch {
    return null;
  }
}
