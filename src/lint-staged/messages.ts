import { shown } from '../util/escape.js';

/** How the reason of a lint-staged tier that could not run begins (tier.ts); `lintStagedNext` reads it back. */
export const LS_COULD_NOT_RUN = 'lint-staged could not run: ';
/** How the reason of a lint-staged task that could not start begins. */
export const LS_TASK_NOT_STARTED = 'lint-staged task could not start: ';

const CONFIG_FILES = '.lintstagedrc.json, lint-staged.config.mjs, a "lint-staged" key in package.json';

/**
 * Why lint-staged could not give a verdict (the part after LS_COULD_NOT_RUN), each with the next step:
 * what to fix is lint-staged's configuration, its install, the repository or the tier, not always the tier.
 */
export const lintStagedWhy = {
  noConfig: {
    reason:
      'no lint-staged configuration found (.lintstagedrc*, lint-staged.config.*, a "lint-staged" key in package.json, or the tier\'s lintStaged.config)',
    next: `Give lint-staged a configuration where the tier runs (${CONFIG_FILES}), or point the tier at yours: \`lintStaged: { configPath: 'path/to/config' }\` in the gate-ladder config`,
  },
  unreadable: {
    reason: 'its configuration could not be read (`npx lint-staged --debug` says why)',
    next: "Fix lint-staged's configuration file (`npx lint-staged --debug` shows its error)",
  },
  invalid: {
    reason: 'its configuration or options are invalid (see above)',
    next: "Fix what lint-staged's Validation Error above names: its configuration, or the tier's `lintStaged` options in the gate-ladder config",
  },
  notGit: {
    reason: 'it is not running in a git repository',
    next: "Set the tier's `cwd` in the gate-ladder config to a folder inside the repository",
  },
  stagedFiles: {
    reason: 'it could not list the staged files',
    next: 'Put the repository in order (`git status` says what git objects to; `git diff --cached --name-only` must work)',
  },
  unstagedPatch: {
    reason: 'it could not restore the unstaged changes; they are kept in the patch file named above',
    next: 'Get your unstaged changes back from that patch file (`git apply <patch file>`), and check `git status`',
  },
  empty: {
    reason: 'its tasks reverted every staged change, so lint-staged prevented an empty commit',
    next: "Nothing is left to commit once lint-staged's tasks ran: stage the change you meant to commit (`git status`), or give the tier `lintStaged: { allowEmpty: true }` to allow an empty commit",
  },
  intentToAdd: {
    reason: 'it refuses to run while files are staged with `git add -N` (intent-to-add), as lint-staged 17 does',
    next: "Stage those files' content (`git add <file>`), or unstage them (`git reset -q <file>`): lint-staged names them above",
  },
  oldGit: {
    reason: 'this git is older than lint-staged needs (2.32 for lint-staged 17)',
    next: 'Update git, or use lint-staged 16 (`npm i -D lint-staged@16`)',
  },
  notInstalled: {
    reason: 'lint-staged is not installed next to gate-ladder',
    next: "Install it: `npm i -D lint-staged` (or your package manager's add), or remove the lintStaged tier from the gate-ladder config",
  },
} as const;

/** The lint-staged versions gate-ladder reads (their words, their API): package.json's peer range. */
export const LS_TESTED = { from: 13, to: 17 };

/** A lint-staged outside LS_TESTED: it runs, and its words may be misread. */
export const untestedLintStaged = (version: string) =>
  `gate-ladder: lint-staged ${shown(version)} is not a version gate-ladder reads (${LS_TESTED.from} to ${LS_TESTED.to}): it runs as it is, but a failing task might be taken for an error or the other way round. If its verdicts look wrong, install lint-staged ${LS_TESTED.to} (\`npm i -D lint-staged@${LS_TESTED.to}\`).`;

/** lint-staged 17 reads a YAML config only with the `yaml` package, which it no longer brings along. */
export const yamlMissing = (file: string, version: string) =>
  `its configuration ${shown(file)} is YAML, which lint-staged ${shown(version)} reads only with the \`yaml\` package, and that is not installed. Install it (\`npm i -D yaml\`), or write the configuration as .lintstagedrc.json`;

/** A lint-staged task whose command could not start (lint-staged printed the error code: ENOENT, EACCES). */
export const taskNotStarted = (command: string, code: string, config: string | undefined) => {
  const inConfig = config === undefined ? "lint-staged's configuration" : shown(config);
  const word = shown(command.split(/\s+/)[0] ?? command);
  const what =
    code === 'ENOENT'
      ? `\`${word}\` is not found (${code})`
      : code === 'EACCES'
        ? `\`${word}\` is not executable (${code})`
        : `\`${word}\` did not start (${shown(code)})`;
  return `${LS_TASK_NOT_STARTED}${shown(command)}: ${what}; it is a task of ${inConfig}`;
};

/** The next step after a lint-staged tier's error reason, or undefined when the reason is not a lint-staged one. Pure. */
export function lintStagedNext(reason: string): string | undefined {
  if (reason.startsWith(LS_TASK_NOT_STARTED)) {
    const word = /: `([^`]+)` is not (found|executable)/.exec(reason);
    if (word?.[2] === 'found')
      return `Install \`${word[1]}\` (a dev dependency: \`npm i -D <its package>\`, or on PATH), or fix that task's command in lint-staged's configuration`;
    if (word?.[2] === 'executable')
      return `Make \`${word[1]}\` executable (\`chmod +x\`), or run it through its interpreter in lint-staged's configuration (\`sh ${word[1]}\`)`;
    return "Fix that task's command in lint-staged's configuration (`npx lint-staged --debug` shows how it starts)";
  }
  if (!reason.startsWith(LS_COULD_NOT_RUN)) return undefined;
  const why = reason.slice(LS_COULD_NOT_RUN.length);
  for (const w of Object.values(lintStagedWhy)) if (why.startsWith(w.reason)) return w.next;
  // lintStagedConfigMsg.unreadable: the reason ends with what to do.
  if (why.startsWith('its configuration ') && why.includes('only with the `yaml` package'))
    return 'Install the `yaml` package (`npm i -D yaml`), or write the configuration as .lintstagedrc.json';
  if (why.startsWith('its configuration ')) return "Fix lint-staged's configuration file as said above";
  return 'Run `npx lint-staged --debug` to see why lint-staged stopped, and fix what it names';
}

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
