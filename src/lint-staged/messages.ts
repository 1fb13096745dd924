import { shown } from '../util/escape.js';

/** Why lint-staged could not read its config file (it says only that it could not), with the next step. */
export const lintStagedConfigMsg = {
  unreadable: (file: string, cause: string, next: string) => `its configuration ${shown(file)} could not be read: ${shown(cause)}. ${next}`,
  tsUnsupported: (file: string) =>
    `Node ${process.version} cannot load a TypeScript file: rename ${shown(file)} to a .mjs file written in plain JavaScript, or commit with Node 22.18 or later (it loads .ts files)`,
  tsSyntax: (file: string) =>
    `Node loads ${shown(file)} by removing its types only: write it without enums, namespaces or parameter properties, or as a .mjs file in plain JavaScript`,
  fixIt: (file: string) => `Fix ${shown(file)} so that Node can import it (lint-staged imports it and reads its default export)`,
};

/** The pre-commit path's lint-staged backups and restores. */
export const commitMsg = {
  leftoverBackup: (name: string) =>
    `gate-ladder: ${name} is a backup lint-staged left behind (a commit hook that was killed?). If changes are missing from your working tree, \`git stash pop --index ${name}\` brings them back; if not, \`git stash drop ${name}\` removes it.`,
  restoring: () =>
    'gate-ladder: lint-staged is stopping its tasks and restoring your unstaged changes; waiting for it to finish, so nothing is lost.',
  restoreFailed: (name: string) =>
    `gate-ladder: lint-staged did not restore everything: your changes are kept in ${name} (lint-staged automatic backup). \`git stash pop --index ${name}\` brings them back.`,
  leftoverGuard: (name: string, sha: string) =>
    `gate-ladder: ${name} is the backup gate-ladder made before a lint-staged run that was killed. If changes are missing from your working tree or index, \`git reset -q --hard && git stash apply -q --index ${sha}\` puts them back exactly as they were before that commit; if not, \`git stash drop ${name}\` removes it.`,
  guardRestored: () =>
    'gate-ladder: lint-staged stopped before it had put your changes back; gate-ladder restored the working tree and index from its own backup, exactly as they were before the commit.',
  guardLock: (lock: string) =>
    `${shown(lock)} is there from before lint-staged ran: if no git command is running, \`rm -f '${shown(lock)}'\` removes it`,
  guardNotDropped: (sha: string, why: string) =>
    `gate-ladder: your working tree and index are as they were, but gate-ladder's backup stash ${sha.slice(0, 12)} could not be dropped (${shown(why)}); \`git stash list\` shows it as "gate-ladder: before lint-staged": \`git stash drop\` that entry.`,
  guardKept: (sha: string, why: string) =>
    `gate-ladder: your working tree and index could not be put back (${shown(why)}); your changes are kept in the stash "gate-ladder: before lint-staged" (${sha}). \`git reset -q --hard && git stash apply -q --index ${sha}\` restores them exactly; then \`git stash drop\` the entry \`git stash list\` shows for it.`,
  restaged: (before: string, after: string) =>
    `gate-ladder: lint-staged changed the staged files (tree ${before.slice(0, 12)} -> ${after.slice(0, 12)}); the next tiers judge what will be committed.`,
};
