import { shown } from '../util/escape.js';
import { type Exec, npx, plural } from '../util/messages.js';

/** What `gate-ladder install` and `uninstall` say. */
/** A file or folder gate-ladder keeps under the git dir (src/install/leftovers.ts). */
interface Leftover {
  name: string;
  path: string;
  bytes: number;
  what: string;
  data: boolean;
}

/** A size in B, KB or MB. */
const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const leftoverLine = (i: Leftover) => `  - ${shown(i.name)} (${size(i.bytes)}): ${i.what}`;

export const installMsg = {
  lineFirst: () =>
    "gate-ladder: .husky/pre-push has lines of its own: gate-ladder's line goes before them, so an `exit` there cannot skip it, and they read git's refs on stdin as before (from a copy).",
  wroteConfig: (dryRun: string) => `gate-ladder: wrote gate-ladder.config.ts; check its tiers, then \`${dryRun}\``,
  /** A command the starter config runs is not on PATH here: its tiers would end in `error` on every push. */
  cannotRunHere: (missing: string, tiers: readonly string[]) =>
    `gate-ladder: note: ${tiers.map(shown).join(', ')} in gate-ladder.config.ts ${tiers.length === 1 ? 'runs' : 'run'} \`${shown(missing)}\`, which is not on PATH here: install it (for a package manager named by package.json's "packageManager", \`corepack enable\`), or edit ${tiers.length === 1 ? 'that tier' : 'those tiers'}; until then ${tiers.length === 1 ? 'it ends' : 'they end'} in \`error\` and block the push.`,
  formattedConfig: () => 'gate-ladder: formatted gate-ladder.config.ts with your prettier, in your style.',
  biomePasses: () => 'gate-ladder: ran your biome (`biome check --write`) on gate-ladder.config.ts: it passes, in your style.',
  biomeFlags: (first: string, check: string) =>
    `gate-ladder: your biome still reports gate-ladder.config.ts after \`biome check --write\` (${shown(first)}), so a lint tier that runs biome would block your first push; run \`${check}\` and fix what it says (or have biome ignore the file).`,
  linterPasses: (linter: string, changed: boolean) =>
    changed
      ? `gate-ladder: ran your ${linter} with --fix on gate-ladder.config.ts: it now passes, in your style.`
      : `gate-ladder: gate-ladder.config.ts passes your ${linter} as written.`,
  linterFlags: (linter: string, count: number, first: string, run: string) =>
    `gate-ladder: your ${linter} still flags gate-ladder.config.ts after --fix (${count === 1 ? '1 error' : `${count} errors`}; ${shown(first)}), so your lint tier would block your first push; ${
      /project service|parserOptions\.project|not included in/i.test(first)
        ? 'add the file to your tsconfig.json "include" (or to typescript-eslint\'s allowDefaultProject)'
        : `add the file to your ${linter} ignores, or fix what it names`
    }, then check with \`${run}\`.`,
  linterFailed: (linter: string, why: string, run: string) =>
    `gate-ladder: your ${linter} could not check gate-ladder.config.ts (${shown(why)}); run \`${run}\` to see whether it flags the file before your first push.`,
  notFormatted: (why: string) =>
    `gate-ladder: your prettier could not format gate-ladder.config.ts (${shown(why)}); format it as your project does, or your format check may flag it.`,
  addedPrepare: (install: string, file = 'package.json', script = 'husky') =>
    `gate-ladder: ${shown(file)}: added "prepare": ${shown(JSON.stringify(script))} so a fresh clone gets the hooks on \`${install}\``,
  composedPrepare: (before: string, after: string, install: string, file = 'package.json') =>
    `gate-ladder: ${shown(file)}: "prepare" was ${shown(JSON.stringify(before))}; it is now ${shown(JSON.stringify(after))}, so a fresh clone gets the hooks on \`${install}\` and your prepare still runs.`,
  /** The project's `prepare` ran simple-git-hooks, whose hooks install carried into .husky/: taken out, and why. */
  simpleDropped: (before: string, after: string, file: string, uninstall: string) =>
    `gate-ladder: ${shown(file)}: "prepare" was ${shown(JSON.stringify(before))}; it is now ${shown(JSON.stringify(after))}. simple-git-hooks writes its hooks into git's hooks folder, which is husky's now (.husky/_): run again, it would replace husky's hooks there and gate-ladder's pre-push would stop running. Its hooks run from .husky/<hook> (above): edit them there from now on, and do not run \`simple-git-hooks\` while gate-ladder is installed (you may remove it from your devDependencies). \`${uninstall}\` puts "prepare" back.`,
  /** The project's `prepare` runs simple-git-hooks with a config install cannot read: husky runs after it. */
  simpleFirst: (before: string, after: string, file: string) =>
    `gate-ladder: ${shown(file)}: "prepare" was ${shown(JSON.stringify(before))}; it is now ${shown(JSON.stringify(after))}: simple-git-hooks writes its hooks into git's hooks folder, which is husky's now (.husky/_), so husky runs after it and puts its own hooks back. .husky/<hook> calls the hooks simple-git-hooks wrote into .git/hooks before install; its config is JavaScript, which install does not run, so when you change it, write the changed commands into .husky/<hook>.`,
  replacedLintStaged: (hook: string, line: string) =>
    `gate-ladder: .husky/${hook}: replaced \`${shown(line)}\` with gate-ladder's line: the config's lintStaged tier runs lint-staged now (it would run twice otherwise); uninstall puts the line back.`,
  replacedLintStagedArgs: (field: string) =>
    `gate-ladder: the lintStaged tier runs lint-staged with that line's arguments: \`lintStaged: ${shown(field)}\`.`,
  lintStagedTwice: (line: string, tierRunsIt: boolean, carry?: { field: string; left: readonly string[] }) =>
    tierRunsIt
      ? carry !== undefined && carry.left.length > 0
        ? `gate-ladder: .husky/pre-commit still runs \`${shown(line)}\` (kept: a lintStaged tier cannot take ${carry.left.map((a) => `\`${shown(a)}\``).join(', ')}), and the config's lintStaged tier runs lint-staged too, so it runs twice per commit. Remove that line if the tier's \`lintStaged: ${shown(carry.field)}\` does what it did, or remove the tier.`
        : carry !== undefined
          ? `gate-ladder: .husky/pre-commit still runs \`${shown(line)}\` (kept: the config's lintStaged tier runs lint-staged with other options), so lint-staged runs twice per commit. Give the tier \`lintStaged: ${shown(carry.field)}\` in the gate-ladder config and remove that line.`
          : `gate-ladder: .husky/pre-commit still runs \`${shown(line)}\` (kept: it has arguments), and the config's lintStaged tier runs lint-staged too, so it runs twice per commit. Move the arguments into the tier's \`lintStaged\` options and remove that line.`
      : `gate-ladder: .husky/pre-commit runs \`${shown(line)}\` on its own, before gate-ladder. To have lint-staged judged as a tier (a verdict and a row in the ledger), add \`{ name: 'lint-staged', lintStaged: true }\` to the config's tiers and remove that line.`,
  noPreCommitTier: () =>
    "gate-ladder: no tier runs on pre-commit, so the pre-commit hook allows every commit. Give a quick tier `hooks: ['pre-commit', 'pre-push']`, or add `{ name: 'lint-staged', lintStaged: true }`.",
  installed: (uninstall: string) => `gate-ladder: installed. \`${uninstall}\` undoes it.`,
  husky8: () =>
    "gate-ladder: this project runs husky 8 (core.hooksPath .husky, hooks that source .husky/_/husky.sh): install works within it. core.hooksPath and .husky/_ stay as they are; a hook gate-ladder creates starts with husky 8's two lines, and uninstall leaves husky 8 as it finds it.",
  /** `prepare` not set to run husky, where it would fail: why, and how a fresh clone gets the hooks. */
  prepareLeft: (file: string, script: string, why: string, add: string, install: string) =>
    `gate-ladder: note: ${shown(file)}: "prepare" left as it is: ${why}, so "prepare": ${shown(JSON.stringify(script))} would fail every install. The hooks are set up here; for a fresh clone to get them, add husky as your own (\`${add}\`) and run \`${install}\` again, which adds "prepare" then.`,
  huskyNotOnPath: (add: string, install: string) =>
    `gate-ladder: note: node_modules/.bin has no husky (husky is gate-ladder's dependency, not the project's), so "prepare" would fail on \`${install}\`. Add it as your own: \`${add}\`.`,
  /** What uninstall leaves under the git dir, each with its size, and how to remove it. */
  leftBehind: (dir: string, items: readonly Leftover[], purge: string) =>
    [
      `gate-ladder: left under ${shown(dir)} (${size(items.reduce((n, i) => n + i.bytes, 0))} in all): \`${purge}\` removes ${items.length === 1 ? 'it' : 'them'}${items.some((i) => i.data) ? ' (the ledger is your data: that is the only way it goes)' : ''}.`,
      ...items.map(leftoverLine),
    ].join('\n'),
  purged: (dir: string, removed: readonly Leftover[], failed: readonly { item: Leftover; why: string }[]) =>
    [
      `gate-ladder: --purge removed from ${shown(dir)}:`,
      ...removed.map(leftoverLine),
      ...failed.map((f) => `  - ${shown(f.item.name)}: could not be removed (${shown(f.why)}); remove ${shown(f.item.path)} yourself`),
      ...(removed.some((i) => i.name === 'ledger.jsonl')
        ? [
            "The ledger is gone with them: its verdicts were your data, and `uninstall --purge` is the only command that removes it (a report reads nothing now; the team's copy, if you ran `gate-ladder sync`, stays on the remote).",
          ]
        : []),
    ].join('\n'),
  syncRefsLeft: (n: number, purge: string) =>
    `gate-ladder: left ${plural(n, 'ref')} under refs/gate-ladder/ (the ledgers \`gate-ladder sync\` fetched and shares); \`${purge}\` deletes them here (the remote keeps its copies).`,
  syncRefsPurged: (n: number, done: boolean) =>
    done
      ? `gate-ladder: --purge deleted ${plural(n, 'ref')} under refs/gate-ladder/ (sync's ledgers; the remote keeps its copies).`
      : `gate-ladder: --purge could not delete the refs under refs/gate-ladder/: \`git for-each-ref refs/gate-ladder/\` lists them; delete each with \`git update-ref -d REF\`.`,
  nothingToPurge: (dir: string) => `gate-ladder: --purge: nothing of gate-ladder's is left under ${shown(dir)}.`,
  gitignoreAsk: (rel: string, line: string) =>
    `gate-ladder: git does not ignore ${shown(rel)}, where gate-ladder is installed; \`git add -A\` would commit it. Add \`${line}\` to .gitignore?`,
  gitignoreStep: (rel: string, line: string, rerun: string) =>
    `gate-ladder: note: git does not ignore ${shown(rel)}, where gate-ladder is installed, so \`git add -A\` would commit it: add the line \`${line}\` to .gitignore (or run \`${rerun}\`, which adds it).`,
  gitignoreAdded: (rel: string, line: string) =>
    `gate-ladder: added \`${line}\` to .gitignore, so git ignores ${shown(rel)} (uninstall keeps the line).`,
  gitignoreLineInEffect: (line: string) =>
    `gate-ladder: note: .gitignore has \`${line}\`, yet git does not ignore node_modules: a later line (\`!node_modules\`) or a nested .gitignore undoes it; \`git check-ignore -v node_modules\` shows which.`,
  /** Uninstall leaves husky set up: the project's own hooks in .husky/ would stop running without it. */
  huskyKept: (hooks: readonly string[], pkgName: string, addHusky: string | undefined) =>
    `core.hooksPath (.husky/_) and "prepare" in ${shown(pkgName)} kept: husky still runs your own ${hooks.map((h) => `.husky/${shown(h)}`).join(', ')}${
      addHusky === undefined
        ? ''
        : `; husky came with gate-ladder, so add it to your own dependencies before removing gate-ladder: \`${addHusky}\``
    }`,
  gitignoreKept: (line: string) =>
    `.gitignore: kept the line \`${line}\` install added (node_modules is still here; take the line out once you remove it)`,
  uninstalled: (done: readonly string[], kept: readonly string[]) =>
    ['gate-ladder: uninstalled:', ...done.map((d) => `  - ${shown(d)}`), ...kept.map((k) => `  - ${shown(k)}`)].join('\n'),
  foreignHooksPath: (current: string, line: string, exec: Exec = npx) =>
    [
      `gate-ladder: not installed: git's core.hooksPath is already "${shown(current)}", another hook manager's folder; husky would replace it and the hooks in that folder would stop running. Nothing was changed.`,
      `Either add gate-ladder to that folder's pre-push hook (${shown(current)}/pre-push), as the line:`,
      `  ${line}`,
      `or run \`${exec('gate-ladder install --force')}\` to point core.hooksPath at husky's .husky/_ (\`${exec('gate-ladder uninstall')}\` sets it back to "${shown(current)}").`,
    ].join('\n'),
  /** core.hooksPath set for every repository (git config --global or --system), not for this one. */
  globalHooksPath: (current: string, exec: Exec = npx) =>
    [
      `gate-ladder: not installed: git's core.hooksPath is "${shown(current)}", set for every repository on this machine (git config --global), not for this one; husky would point this repository at its .husky/_, and the hooks in that folder would stop running here. Nothing was changed.`,
      `Run \`${exec('gate-ladder install --force')}\`: it sets core.hooksPath for this repository only (git takes a repository's own setting over the global one) and calls that folder's hooks from .husky/<hook>, so they still run here; every other repository keeps the global folder as it is. \`${exec('gate-ladder uninstall')}\` unsets it here again.`,
      `(Do not add gate-ladder's line to ${shown(current)}/pre-push: every repository would run it, and a push from one without gate-ladder would stop.)`,
    ].join('\n'),
  /** The CLI that runs install is not the project's own: the hook runs node_modules/gate-ladder, which is not there. */
  notInProject: (runner: string, add: string, folder: string, rerun: string) =>
    `gate-ladder: note: this gate-ladder runs from outside the project (a global install, or npx fetched it), and ${shown(runner)} is not there: the hook runs that file, so every push would stop and say it is missing. Add it to the project: \`${add}\`${folder === '' ? '' : ` in ${shown(folder)}`}, then \`${rerun}\`.`,
  /** The hook setup install found before it moved core.hooksPath to husky's folder. */
  hookSetupFound: (managers: readonly string[], dir?: string) =>
    `gate-ladder: this project's hooks come from ${managers.map((m) => (m === 'a hook of your own' ? `hooks of your own in ${dir === undefined ? "git's hooks folder" : shown(dir)}` : shown(m))).join(', ')}; git will take hooks from .husky/_ (core.hooksPath), so each hook it runs is carried over into .husky/<hook>:`,
  /** The project names a hook manager, but this clone has none of its hooks installed: nothing was carried over. */
  noHooksToCarry: (managers: readonly string[]) =>
    `gate-ladder: note: this project's config names ${managers.map(shown).join(', ')} for its hooks, but this clone has none of ${managers.length === 1 ? 'its' : 'their'} hooks installed, so there was none to carry over. git now takes hooks from .husky/_ (core.hooksPath): to run ${managers.length === 1 ? 'its' : 'their'} hooks too, call them from the husky hook of the same name (.husky/<hook>).`,
  /** One hook carried into a husky hook: the old hook file called from it, or husky 4's command written in. */
  carriedHook: (hook: string, manager: string, from: string, called: boolean) =>
    called
      ? `  - .husky/${shown(hook)} runs ${shown(from)} (${manager === 'a hook of your own' ? 'your own' : `${shown(manager)}'s`}) first, as git ran it before${manager === 'a hook of your own' ? '' : '; it keeps reading its own config'}.`
      : `  - .husky/${shown(hook)} runs ${shown(manager)}'s ${shown(hook)} command, copied from ${shown(from)}, first: edit it in .husky/${shown(hook)} from now on (${shown(from)} is read again only after uninstall).`,
  /** A hook of the project's that no husky hook can run. */
  hookNotCarried: (hook: string, manager: string, why: string) =>
    `gate-ladder: note: ${hook === '*' ? `${shown(manager)}'s hooks were` : `${shown(manager)}'s ${shown(hook)} hook was`} not carried over: ${shown(why)}.`,
  /** Hooks in git's own folder that stop running once core.hooksPath points at husky's (the pre-commit framework, simple-git-hooks, a hand-made hook). */
  gitHooksIgnored: (dir: string, names: readonly string[]) =>
    [
      `gate-ladder: git now takes hooks from .husky/_ (core.hooksPath), so ${names.length === 1 ? 'this hook' : 'these hooks'} in ${shown(dir)} no longer ${names.length === 1 ? 'runs' : 'run'}: ${names.map(shown).join(', ')}.`,
      `  To keep ${names.length === 1 ? 'it' : 'each'}, add its line to the husky hook of the same name, e.g. in .husky/${shown(names[0]!)}: "${shown(dir)}/${shown(names[0]!)}" "$@"`,
      '  (uninstall sets core.hooksPath back, and they run again.)',
    ].join('\n'),
};
