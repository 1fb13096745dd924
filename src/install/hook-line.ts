/**
 * The line install writes into `.husky/pre-push` (and `pre-commit`), the lines earlier versions wrote,
 * and where the line goes in a hook that has lines of its own. Pure.
 */
import { type PackageManager, pmSays } from '../runners/package-manager.js';
import { shellQuoted, shellWord } from '../util/shell-words.js';
import { CARRIED_END } from './hook-managers.js';
import { refsCopy } from './refs-copy.js';

export type Hook = 'pre-push' | 'pre-commit';

export const RUNNER = 'node_modules/gate-ladder/dist/cli.cjs';

export const runnerPath = (packageDir = '') => (packageDir === '' ? RUNNER : `${packageDir}/${RUNNER}`);

/** A path as one shell word: as it is when it is plain, else single-quoted (util/shell-words.ts). Pure. */
export { shellWord };

/**
 * The hook line. The runner is started by node itself: no npx (about a Node start-up of its own), and
 * no `node_modules/.bin/gate-ladder` whose `#!/usr/bin/env node` adds an exec of env. With
 * --preserve-symlinks-main, node skips resolving the real path of the script (a walk of every folder
 * above it, about half a millisecond of every push). Safe where node_modules/gate-ladder is a link
 * (pnpm, npm link, workspaces): the script it starts requires only node's own modules and files beside
 * it, and the parts that import packages are ES modules, which node resolves from their real path.
 * Around it, a shell test (a builtin, no process): without node_modules (a fresh clone, a deleted
 * folder) the hook says in one line what is missing and what to run, instead of node's stack, unless
 * GATE_LADDER=0 asked to skip the gates anyway. One line, so the hook's other lines stay as they are.
 * `runnerDir`: the folder whose node_modules holds gate-ladder, relative to the repository root ('' for
 * the root); `installIn`: where to run the install that brings it back (the package's folder).
 */
export function hookLine(hook: Hook, pm: PackageManager, runnerDir = '', installIn = runnerDir): string {
  const verb = hook === 'pre-push' ? 'push' : 'commit';
  const runner = runnerPath(runnerDir);
  const install = installIn === '' ? pmSays.install(pm) : `${pmSays.install(pm)}\` in \`${installIn}`;
  const missing = `gate-ladder: ${runner} is missing, so the ${hook} checks cannot run: run \`${install}\` first (to ${verb} once without them: git ${verb} --no-verify).`;
  return `if [ -f ${shellWord(runner)} ]; then ${hookCommand(hook, runnerDir)}; elif [ "\${GATE_LADDER-}" != 0 ]; then echo ${shellQuoted(missing)} >&2; exit 1; fi`;
}

/** What the hook line runs when node_modules is there. */
export const hookCommand = (hook: Hook, runnerDir = '') =>
  `node --preserve-symlinks-main ${shellWord(runnerPath(runnerDir))} run ${hook === 'pre-push' ? 'pre-push "$@"' : 'pre-commit'}`;

/** Lines earlier versions wrote (and this one for another package manager); install replaces them in place. */
export function oldHookLines(hook: Hook, runnerDir = '', installIn = runnerDir): string[] {
  const args = hook === 'pre-push' ? 'pre-push "$@"' : 'pre-commit';
  return [
    `gate-ladder run ${args}`,
    `node node_modules/gate-ladder/dist/cli.cjs run ${args}`,
    `node --preserve-symlinks-main node_modules/gate-ladder/dist/cli.cjs run ${args}`,
    ...[...new Set(['', runnerDir])].flatMap((dir) =>
      (['npm', 'pnpm', 'yarn', 'bun'] as const).map((pm) => hookLine(hook, pm, dir, dir === '' ? '' : installIn)),
    ),
  ];
}

/** The two lines husky 8 starts each hook with (`husky add`), so the hook runs through its .husky/_/husky.sh. */
export const HUSKY8_HEAD = '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n';

/** A hook's lines before its own commands: a `#!` line, husky 8's husky.sh lines, blank lines. */
export const HOOK_HEAD = (l: string) => l.trim() === '' || l.startsWith('#!') || /^\.\s+"\$\(dirname\b.*husky\.sh"\s*$/.test(l.trim());

/** Whether a hook's text has commands of the project's own (not only a head, comments, or a carried part of install's). */
export function hasOwnLines(text: string): boolean {
  const lines = text.split('\n');
  if (lines.includes(CARRIED_END)) return false;
  return lines.some((l) => !HOOK_HEAD(l) && !l.trim().startsWith('#'));
}

/**
 * The pre-push hook with gate-ladder's `line` put after its head and before its own lines; git's refs
 * on stdin are kept in a temporary file, read by gate-ladder's line and then again by the hook's own
 * lines (a `while read` of theirs, or `git lfs pre-push`, sees them as before).
 */
export function beforeOwnLines(text: string, line: string): string {
  const lines = text.split('\n');
  let at = 0;
  while (at < lines.length && HOOK_HEAD(lines[at]!)) at++;
  lines.splice(at, 0, refsCopy.around.before, line, refsCopy.around.after);
  return lines.join('\n');
}
