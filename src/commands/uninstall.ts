/**
 * `gate-ladder uninstall`: what install recorded (install/install-state.ts), undone step by step: the hook
 * files, core.hooksPath and husky's folder (or husky kept, where the project's own hooks need it),
 * package.json's "prepare", the starter config; then the worktree pool, and what stays under the git dir.
 */
import { EXIT } from '../config/defaults.js';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from '../util/node.js';
import { join } from 'node:path';
import { git, repoInfo } from '../git/git.js';
import { installMsg } from '../install/messages.js';
import { shown } from '../util/escape.js';
import { poolLines } from './gc.js';
import { poolDir } from '../slots/worktree-pool.js';
import { dataDir, deleteSyncRefs, leftovers, purge, syncRefs } from '../install/leftovers.js';
import { detectPackageManager, pmSays } from '../runners/package-manager.js';
import { withoutCarried } from '../install/hook-managers.js';
import { refsCopy } from '../install/refs-copy.js';
import { huskyPrepare } from '../install/prepare.js';
import { type HookState, type InstallState, readState, sha, statePath } from '../install/install-state.js';
import { HUSKY8_HEAD } from '../install/hook-line.js';
import { dependsOnHusky, editPackageJson } from '../install/project-facts.js';
import { projectHuskyHooks } from '../install/hooks-path.js';

const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `gate-ladder uninstall`: what install changed, undone (`undoInstall`), and the worktree pool removed;
 * then what stays under the git dir (the ledger, caches, logs) is named with its size, or, with
 * `purge`, removed too. `purge` works without an install record as well (after a plain uninstall).
 */
export async function uninstallCommand(opts: { cwd: string; purge?: boolean }): Promise<number> {
  const info = repoInfo(opts.cwd);
  if (info === null) {
    process.stderr.write(`gate-ladder: ${shown(opts.cwd)} is not inside a git work tree.\n`);
    return EXIT.error;
  }
  const { root, commonDir } = info;
  const path = statePath(commonDir);
  const state = readState(path);
  if (state === null) say('gate-ladder: nothing to uninstall (no record of an install in this repository).');
  const undone = state === null ? undefined : undoInstall(root, state);
  if (state !== null) rmSync(path);
  // After a plain uninstall the pool is gone already: --purge then says nothing of it.
  if (state !== null || (opts.purge === true && existsSync(poolDir(commonDir)))) for (const line of poolLines(root, commonDir)) say(line);
  if (undone) say(installMsg.uninstalled(undone.done, undone.kept));
  const pm = detectPackageManager(join(root, state?.packageDir ?? ''));
  const refs = syncRefs(root);
  if (opts.purge === true) {
    const { removed, failed } = purge(commonDir);
    const refsGone = deleteSyncRefs(root, refs);
    if (removed.length > 0 || failed.length > 0) say(installMsg.purged(dataDir(commonDir), removed, failed));
    else if (refs.length === 0) say(installMsg.nothingToPurge(dataDir(commonDir)));
    if (refs.length > 0) say(installMsg.syncRefsPurged(refs.length, refsGone));
  } else {
    const left = leftovers(commonDir);
    const purgeCmd = pmSays.exec(pm, 'gate-ladder uninstall --purge');
    if (left.length > 0) say(installMsg.leftBehind(dataDir(commonDir), left, purgeCmd));
    if (refs.length > 0) say(installMsg.syncRefsLeft(refs.length, purgeCmd));
  }
  return EXIT.pass;
}

/** What uninstall made of each thing install changed: one line each, done, or kept as it is and why. */
interface Undone {
  done: string[];
  kept: string[];
}

/**
 * Puts back each thing install changed, in install's order reversed: the hook files (`undoHook`), husky
 * (`undoHusky`, or kept where `.husky/` holds hooks of the project's own: `ownHuskyHooks`), package.json's
 * "prepare" (`undoPrepare`), the starter config (`undoConfig`); the .gitignore line stays, said.
 */
function undoInstall(root: string, state: InstallState): Undone {
  const undone: Undone = { done: [], kept: [] };
  for (const [hook, h] of Object.entries(state.hooks)) undoHook(root, hook, h, state.husky8 === true, undone);
  const own = ownHuskyHooks(root, state);
  if (own.length > 0) {
    const pkgDir = join(root, state.packageDir ?? '');
    const addHusky = dependsOnHusky(join(pkgDir, 'package.json')) ? undefined : pmSays.addDev(detectPackageManager(pkgDir), 'husky');
    undone.kept.push(installMsg.huskyKept(own, packageName(state), addHusky));
  } else {
    undoHusky(root, state, undone.done);
    // With husky kept, package.json stays as it is: install's only edit there is husky's `prepare`.
    undoPrepare(root, state, undone);
  }
  undoConfig(root, state, undone);
  if (state.addedGitignore !== undefined) undone.kept.push(installMsg.gitignoreKept(state.addedGitignore));
  return undone;
}

const packageName = (state: InstallState) => (state.packageDir ? `${state.packageDir}/package.json` : 'package.json');

/**
 * One hook file: as it was before install when untouched since; else, edited since, what install carried
 * over and gate-ladder's line taken out (or the lint-staged line it replaced put back), the rest kept.
 */
function undoHook(root: string, hook: string, h: HookState, husky8: boolean, { done, kept }: Undone): void {
  const file = join(root, '.husky', hook);
  const name = `.husky/${hook}`;
  if (!existsSync(file)) return;
  const now = readFileSync(file, 'utf8');
  if (h.after !== undefined && now === h.after && h.before !== undefined) {
    if (h.before === null) rmSync(file);
    else writeFileSync(file, h.before);
    done.push(h.before === null ? `${name}: removed (install created it)` : `${name}: restored as it was before install`);
    return;
  }
  const uncarried = h.carried !== undefined ? withoutCarried(now) : undefined;
  const lines = (uncarried ?? now).split('\n');
  const at = h.line === '' ? -1 : lines.findIndex((l) => l.trim() === h.line);
  if (at < 0 && uncarried === undefined) {
    kept.push(`${name}: left as it is (gate-ladder's ${h.line === '' ? 'lines are' : 'line is'} no longer in it)`);
    return;
  }
  if (at < 0) {
    if (h.created && uncarried!.trim() === '') {
      rmSync(file);
      done.push(`${name}: removed (install created it)`);
    } else {
      writeFileSync(file, uncarried!);
      done.push(`${name}: took out what install carried over; your edits since install are kept`);
    }
    return;
  }
  if (h.replaced !== undefined) lines[at] = h.replaced;
  else lines.splice(at, 1);
  // The refs' copy around it, when install put its line before the hook's own.
  for (const line of [refsCopy.around.after, refsCopy.around.before]) {
    const i = lines.indexOf(line);
    if (i >= 0) lines.splice(i, 1);
  }
  let rest = lines.join('\n');
  if (h.before !== undefined && h.before !== null && !h.before.endsWith('\n') && h.replaced === undefined && at === lines.length - 1)
    rest = rest.replace(/\n$/, '');
  if (h.created && rest.replace(husky8 ? HUSKY8_HEAD : '', '').trim() === '') {
    rmSync(file);
    done.push(`${name}: removed (install created it)`);
  } else {
    writeFileSync(file, rest);
    done.push(
      `${name}: took out gate-ladder's line${h.replaced !== undefined ? ` and put back \`${h.replaced.trim()}\`` : ''}${uncarried !== undefined ? ' and what install carried over' : ''}; your edits since install are kept`,
    );
  }
}

/** core.hooksPath as before install, husky's `.husky/_` removed when install made it, and `.husky/` when it is empty. */
function undoHusky(root: string, state: InstallState, done: string[]): void {
  if (state.hooksPath === null) git(root, ['config', '--local', '--unset', 'core.hooksPath']);
  else git(root, ['config', '--local', 'core.hooksPath', state.hooksPath]);
  done.push(
    state.hooksPath === null ? 'core.hooksPath: unset, as before install' : `core.hooksPath: ${state.hooksPath}, as before install`,
  );
  // husky 8's folder holds the husky.sh the project's hooks source: it stays.
  if (state.hooksPath !== '.husky/_' && state.husky8 !== true) rmSync(join(root, '.husky', '_'), { recursive: true, force: true });
  const husky = join(root, '.husky');
  if (state.createdHuskyDir && existsSync(husky) && readdirSync(husky).length === 0) rmSync(husky, { recursive: true });
}

/**
 * The hooks of the project's own in `.husky/` that were not there before install, where install set husky
 * up (no core.hooksPath before): added since, a line added to the hook install created, or moved there from
 * git's folder as install advised. Unsetting core.hooksPath or `prepare` would silently stop them; hooks
 * there before install did not run.
 */
function ownHuskyHooks(root: string, state: InstallState): string[] {
  if (state.hooksPath !== null) return [];
  const before = state.huskyHooksBefore ?? Object.keys(state.hooks).filter((h) => typeof state.hooks[h]?.before === 'string');
  return projectHuskyHooks(root).filter((h) => !before.includes(h));
}

/** package.json as before install when untouched since; else its "prepare" as before, when that is as install left it. */
function undoPrepare(root: string, state: InstallState, { done, kept }: Undone): void {
  const pkgDir = join(root, state.packageDir ?? '');
  const pkgFile = join(pkgDir, 'package.json');
  const name = shown(packageName(state));
  if (state.packageJson && existsSync(pkgFile) && readFileSync(pkgFile, 'utf8') === state.packageJson.after) {
    writeFileSync(pkgFile, state.packageJson.before);
    done.push(`${name}: restored as it was before install`);
    return;
  }
  if (!state.addedPrepare && !state.composedPrepare) return;
  const composed = state.composedPrepare;
  const added = huskyPrepare(state.packageDir ?? '', state.husky8 === true);
  const undone = editPackageJson(pkgDir, (pkgJson) => {
    const scripts = pkgJson.scripts as Record<string, string> | undefined;
    if (composed) {
      if (scripts?.prepare !== composed.after) return false;
      scripts.prepare = composed.before;
      return true;
    }
    // Before 0.1.1, install wrote husky's line without `|| true`.
    if (scripts?.prepare !== added && scripts?.prepare !== huskyPrepare(state.packageDir ?? '', state.husky8 === true, false)) return false;
    delete scripts.prepare;
    if (Object.keys(scripts).length === 0) delete pkgJson.scripts;
    return true;
  });
  if (undone)
    done.push(
      composed
        ? `${name}: "prepare" is "${shown(composed.before)}" again; your other edits are kept`
        : `${name}: removed the "prepare": "${added}" install added; your other edits are kept`,
    );
  else
    kept.push(
      `${name}: "prepare" was edited since install, so it is left as it is${composed ? ` (install had made it "${shown(composed.after)}")` : ''}`,
    );
}

/** The starter config install wrote: removed when untouched since, else kept and said. */
function undoConfig(root: string, state: InstallState, { done, kept }: Undone): void {
  if (!state.createdConfig) return;
  const file = join(root, state.createdConfig.file);
  if (existsSync(file) && sha(readFileSync(file, 'utf8')) === state.createdConfig.sha) {
    rmSync(file);
    done.push(`${state.createdConfig.file}: removed (install wrote it)`);
  } else if (existsSync(file))
    kept.push(`${state.createdConfig.file}: kept, it was edited since install (delete it yourself if you no longer want it)`);
}
