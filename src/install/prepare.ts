/**
 * The `prepare` script install writes: husky's line, added or put together with the project's own.
 * Pure: install reads package.json and writes what this returns.
 */
import { RUNS_SIMPLE } from './hook-managers.js';

/**
 * The `prepare` command that sets husky up: husky 9's `husky`, or husky 8's `husky install`, then
 * `|| true`, as husky's docs give it: an install without dev dependencies (`npm ci --omit=dev`,
 * `NODE_ENV=production`, `pnpm install --prod`) has no husky, and must not fail for it. From a
 * package's folder, `cd` to the root first (husky looks for .git there), as husky's own docs say.
 */
export const huskyPrepare = (packageDir: string, husky8: boolean, orTrue = true): string => {
  const husky = `${husky8 ? 'husky install' : 'husky'}${orTrue ? ' || true' : ''}`;
  return packageDir === ''
    ? husky
    : `cd ${packageDir
        .split('/')
        .map(() => '..')
        .join('/')} && ${husky}`;
};

/** A `prepare` script that already runs husky. */
export const runsHusky = (script: string): boolean => /(?:^|[\s;&|(])husky(?:$|[\s;&|)])/.test(script);

/** One command of a `&&` chain that only runs simple-git-hooks (its bin, through npx or a package manager, a config file named). */
const SIMPLE_ONLY =
  /^(?:(?:npx|bunx|pnpx)\s+(?:--no(?:-install)?\s+)?|(?:pnpm|yarn|bun)\s+(?:exec\s+|run\s+)?)?simple-git-hooks(?:\s+[^\s;&|()<>]+)?$/;

/** What install makes of an existing `prepare` script, and what it did to the project's simple-git-hooks run. */
export interface ComposedPrepare {
  after: string;
  /** `dropped`: its simple-git-hooks command taken out (its hooks were carried into .husky/); `first`: husky put after it. */
  simple?: 'dropped' | 'first';
}

/**
 * The project's `prepare` with husky's `runHusky` in it. husky goes first and always exits 0 (it prints
 * why it did nothing), and where it is not installed `|| true` goes on, so the project's own prepare still
 * runs (in a subshell from a package's folder, so that it starts where it always did). Except where that
 * prepare runs simple-git-hooks, which writes its hooks into git's hooks folder (core.hooksPath: husky's
 * `.husky/_` after install), replacing husky's and deleting every other hook there, gate-ladder's pre-push
 * among them: with its config read (`simple: 'read'`, its hooks carried into .husky/) its command is taken
 * out; else (a JavaScript config, or a chain it cannot be cut from) husky runs after the whole of it.
 */
export function composePrepare(before: string, runHusky: string, packageDir: string, simple?: 'read' | 'javascript'): ComposedPrepare {
  const first = (rest: string) => (packageDir === '' ? `${runHusky} && ${rest}` : `(${runHusky}) && ${rest}`);
  if (simple === undefined || !RUNS_SIMPLE.test(before)) return { after: first(before) };
  if (simple === 'read') {
    const parts = before.split(/\s*&&\s*/).map((p) => p.trim());
    const kept = parts.filter((p) => !SIMPLE_ONLY.test(p));
    const rest = kept.join(' && ');
    if (kept.length < parts.length && !RUNS_SIMPLE.test(rest) && kept.every((p) => p !== ''))
      return { after: rest === '' ? runHusky : first(rest), simple: 'dropped' };
  }
  return { after: `${before} && (${runHusky})`, simple: 'first' };
}
