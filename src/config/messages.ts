/** What loading and checking the config says. Each sentence says the next step. */
import type { HookName } from '../types.js';
import { shown, shownLines } from '../util/escape.js';
import { isCommit, isManual, blocked, bypass, short } from '../util/messages.js';

/** Which config judges a push, a commit, a manual run or a replay (config/config-at.ts). */
export const configMsg = {
  /** The tested commit's own config was used; the working tree's differs from it or is missing. */
  workingTreeIgnored: (ref: string, head: string, file: string, working: 'differs' | 'missing', hook?: HookName) =>
    isCommit(hook)
      ? `gate-ladder: the commit is judged under the staged ${file}; the working tree's config ${working === 'missing' ? 'is missing' : 'differs (unstaged changes)'} and is not used. To judge the commit under it, \`git add\` it and commit again.`
      : `gate-ladder: ${ref} is judged under ${file} as committed at ${short(head)}; the working tree's config ${working === 'missing' ? 'is missing (deleted, not committed?)' : 'differs (uncommitted changes?)'} and is not used for this push. To judge pushes under it, commit it.`,
  /** The tested commit has no config at all: the working tree's judges it. */
  noCommittedConfig: (ref: string, head: string, file: string, hook?: HookName) =>
    isCommit(hook)
      ? `gate-ladder: the staged tree has no config: the commit is judged under the working tree's ${file}. Stage it (\`git add ${file}\`) to commit it.`
      : `gate-ladder: ${ref} at ${short(head)} has no committed config: judged under the working tree's ${file}. Commit it so that pushes are judged under the config they carry.`,
  /** `run --base/--head` (and a run without either). */
  todays: (file: string) =>
    `gate-ladder: judged under the working tree's ${file} (today's config; a push is judged under the pushed commit's own, a commit under the staged one).`,
  replayToday: (file: string) =>
    `gate-ladder: every patch is judged under the working tree's ${file} (today's config), whatever config its commit had.`,
  invalidCommitted: (ref: string, head: string, problems: readonly string[], hook?: HookName) =>
    [
      `gate-ladder: ${blocked(hook)}${isCommit(hook) ? '' : `${shown(ref)}: `}the config has ${problems.length} problem${problems.length === 1 ? '' : 's'} (${isCommit(hook) ? 'as staged' : `as committed at ${short(head)}`}); no gate ran${isCommit(hook) ? '' : ' for it'}:`,
      ...problems.map((p) => `  - ${shownLines(p)}`),
      `Fix ${problems.length === 1 ? 'it' : 'them'}, ${isCommit(hook) ? 'stage the fix, and commit again' : isManual(hook) ? 'then run it again' : 'commit the fix, and push again'}.${bypass(hook) ? ` ${bypass(hook)}` : ''}`,
    ].join('\n'),
  unreadable: (treeish: string) =>
    `could not read the config committed at ${short(treeish)} (git cat-file failed); check the repository with \`git fsck\``,
  cannotCopy: (treeish: string, dir: string) =>
    `could not write the config committed at ${short(treeish)} under ${dir} to load it; check that folder's permissions and free space`,
  /** A config this run could not start loading: an earlier one used up the run's one time limit. */
  loadTimeSpent: (limitS: number) =>
    `was not loaded: this run's ${limitS} s for loading configs were used up by a config that did not finish loading (an endless loop, or work that never ends?); no gate ran. Fix that config; GATE_LADDER_CONFIG_TIMEOUT=<seconds> sets the limit`,
};
