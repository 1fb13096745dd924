import { EXIT } from '../config/defaults.js';
import { mkdirSync, existsSync, lstatSync, readFileSync, writeFileSync } from '../util/node.js';
import { dirname, join } from 'node:path';
import { SEARCH_PLACES } from '../config/load.js';
import type { LintStagedOptions } from '../types.js';
import { git, refusedRepo, repoInfo, type RepoInfo } from '../git/git.js';
import { installMsg } from '../install/messages.js';
import { msg } from '../run/messages.js';
import { shown } from '../util/escape.js';
import { type PackageManager, detectPackageManager, pmSays } from '../runners/package-manager.js';
import { lintStagedField, lintStagedLine, projectLinter, sameLintStaged, starterConfig } from '../install/starter.js';
import { CARRIED_END, GIT_HOOKS, type HookSetup, carriedBlock, hookSetup } from '../install/hook-managers.js';
import { readHookFacts } from '../install/hook-managers-io.js';
import { composePrepare, huskyPrepare, runsHusky } from '../install/prepare.js';
import { readWorkspaces } from '../runners/detect-io.js';
import { type InstallState, type HookState, readState, sha, statePath } from '../install/install-state.js';
import {
  type Hook,
  HUSKY8_HEAD,
  beforeOwnLines,
  hasOwnLines,
  hookCommand,
  hookLine,
  oldHookLines,
  runnerPath,
} from '../install/hook-line.js';
import { fixWithBiome, fixWithLinter, formatWithPrettier } from '../install/project-tools.js';
import {
  editPackageJson,
  installedAt,
  lintStagedConfigured,
  onPath,
  packageFolder,
  packageHasKey,
  readScripts,
  relativeOrAbsolute,
  rootFacts,
} from '../install/project-facts.js';
import { getHooksPath, gitOwnHooks, hooksFolder, huskyEight, isHuskyPath, projectHuskyHooks } from '../install/hooks-path.js';

export interface InstallOptions {
  cwd: string;
  preCommit?: boolean;
  /** Replace a core.hooksPath that another tool set. */
  force?: boolean;
  /** Add `node_modules/` to .gitignore, when git does not ignore it, without asking. */
  gitignore?: boolean;
  /** Yes to install's questions (the .gitignore line). */
  yes?: boolean;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Where install works: the repository, the package gate-ladder was added to, its package manager, and what an earlier install recorded. */
interface InstallPlace {
  info: RepoInfo;
  root: string;
  /** install.json, what uninstall reads. */
  path: string;
  previous: InstallState | null;
  packageDir: string;
  pkg: string;
  runnerDir: string;
  pm: PackageManager;
  state: InstallState;
}

/**
 * `gate-ladder install`, step by step: where (`installPlace`), the hooks git runs today (`hooksToday`:
 * another hook manager's folder refused without --force), husky set up (`setUpHusky`), those hooks carried
 * into `.husky/` (`carryHooks`), a starter config when there is none (`writeStarterConfig`), the hook
 * lines (`writeHooks`), the `prepare` script (`addPrepare`), node_modules ignored (`ignoreNodeModules`),
 * then what uninstall will undo, recorded (`writeState`).
 */
export async function installCommand(opts: InstallOptions): Promise<number> {
  const place = installPlace(opts);
  if (typeof place === 'number') return place;
  const today = hooksToday(place, opts);
  if (typeof today === 'number') return today;
  const husky = await setUpHusky(place);
  if (typeof husky === 'number') return husky;
  const stopped = husky.husky8 ? [] : carryHooks(place, today);
  const preCommit = await writeStarterConfig(place, opts);
  writeHooks(place, opts, preCommit, husky.husky8);
  addPrepare(place, husky.husky8, today.setup?.simple);
  await ignoreNodeModules(place, opts);
  writeState(place.path, place.state);

  const { root, pm, previous } = place;
  if (stopped.length > 0) say(installMsg.gitHooksIgnored(relativeOrAbsolute(root, today.dir), stopped));
  // Run from outside the project (a global install, npx's cache): the hook's runner is not where the hook looks.
  if (!existsSync(join(root, place.runnerDir, 'node_modules', 'gate-ladder', 'package.json')))
    say(
      installMsg.notInProject(
        runnerPath(place.runnerDir),
        pmSays.addDev(pm, 'gate-ladder'),
        place.packageDir,
        pmSays.exec(pm, 'gate-ladder install'),
      ),
    );
  say(previous ? 'gate-ladder: install is up to date.' : installMsg.installed(pmSays.exec(pm, 'gate-ladder uninstall')));
  return EXIT.pass;
}

/** The hooks git runs before install: the folder it takes them from, and the project's hook setup found there (on a first install). */
interface HooksToday {
  /** The folder, absolute: git's own hooks folder, or the one core.hooksPath names. */
  dir: string;
  /** That folder as the messages and the carried calls name it, when it is core.hooksPath's (else git's own). */
  named?: string;
  setup?: HookSetup;
}

/**
 * The hooks git runs today, read before husky moves core.hooksPath: from its own folder, or, with --force,
 * from the folder another hook manager's (or a global) core.hooksPath names. Without --force such a
 * folder is refused, an exit code, after saying how to go on: replacing it would silently stop its hooks.
 */
function hooksToday(place: InstallPlace, opts: InstallOptions): HooksToday | number {
  const { info, root, previous, pm } = place;
  const current = getHooksPath(root, false);
  const fresh = current === null || current === '';
  const foreign = !fresh && !isHuskyPath(current, root);
  if (foreign && !opts.force) {
    const exec = (c: string) => pmSays.exec(pm, c);
    // Set globally (or system-wide), not here: gate-ladder's line in that folder would run in every repository.
    const here = getHooksPath(root) !== null;
    process.stderr.write(
      `${here ? installMsg.foreignHooksPath(current, hookLine('pre-push', pm), exec) : installMsg.globalHooksPath(current, exec)}\n`,
    );
    return EXIT.error;
  }
  const dir = foreign ? hooksFolder(root) : join(info.commonDir, 'hooks');
  const named = foreign ? relativeOrAbsolute(root, dir) : undefined;
  // A later install (a record there) carried them already; husky's own folder holds no hook of the project's.
  if (!(fresh || foreign) || previous) return { dir };
  return { dir, ...(named !== undefined && { named }), setup: hookSetup(readHookFacts(root, place.pkg, dir), GIT_HOOKS, named) };
}

/** What install changed, recorded for uninstall (install-state.ts), in the git dir. */
function writeState(path: string, state: InstallState): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`);
}

/** The repository, the package's folder, where node_modules holds gate-ladder, the package manager and the state to record; an exit code when install cannot go on. */
function installPlace(opts: InstallOptions): InstallPlace | number {
  const info = repoInfo(opts.cwd);
  if (info === null) {
    const refused = refusedRepo(opts.cwd);
    process.stderr.write(
      `${refused === undefined ? `gate-ladder: ${shown(opts.cwd)} is not inside a git work tree. Run install from your repository.` : msg.notRepo(opts.cwd, refused)}\n`,
    );
    return EXIT.error;
  }
  const { root } = info;
  const path = statePath(info.commonDir);
  const previous = readState(path);
  // The package gate-ladder was added to: package.json's folder, at or below the root (a repository whose
  // JavaScript lives in a folder of its own). Hooks and the config stay at the root, where git and the
  // config search look; the runner, the scripts and the `prepare` script are the package's.
  // An earlier install's record names it (a record without one: the folder install runs in, as that install's was).
  const packageDir = previous?.packageDir ?? packageFolder(opts.cwd, root);
  if (/[\x00-\x1f\x7f]/.test(packageDir)) {
    process.stderr.write(
      `gate-ladder: the package's folder ${shown(packageDir)} has a control character in its name, which a hook line cannot hold; rename it, or run install from the repository root.\n`,
    );
    return EXIT.error;
  }
  const pkg = join(root, packageDir);
  // Where node_modules holds gate-ladder: the package's own, or a folder above it (a workspace's hoisted install).
  const runnerDir = installedAt(root, packageDir);
  const pm = detectPackageManager(existsSync(join(pkg, 'package.json')) ? pkg : root);
  const state: InstallState = previous ?? {
    version: 1,
    hooksPath: getHooksPath(root),
    createdHuskyDir: !existsSync(join(root, '.husky')),
    hooks: {},
    addedPrepare: false,
    createdConfig: null,
    huskyHooksBefore: projectHuskyHooks(root),
  };
  if (packageDir !== '') state.packageDir = packageDir;
  return { info, root, path, previous, packageDir, pkg, runnerDir, pm, state };
}

/** husky set up: husky 8's layout kept as it is, else husky's own setup. Whether it is husky 8; an exit code, after saying why, when husky refuses. */
async function setUpHusky(place: InstallPlace): Promise<{ husky8: boolean } | number> {
  const { root, previous, state } = place;
  // husky 8's layout is kept as it is: its hooks path, its husky.sh, and hooks written in its form.
  const husky8 = previous ? previous.husky8 === true : huskyEight(root, getHooksPath(root));
  if (husky8) {
    state.husky8 = true;
    if (!previous) say(installMsg.husky8());
  } else {
    // husky sets core.hooksPath to .husky/_ and writes its wrappers there (they are git-ignored).
    const { default: husky } = await import('husky');
    const here = process.cwd();
    process.chdir(root);
    const refusal = husky('.husky');
    process.chdir(here);
    if (refusal) {
      process.stderr.write(`gate-ladder: husky could not set up the hooks: ${shown(refusal)}\n`);
      return EXIT.error;
    }
  }
  return { husky8 };
}

/** What the pre-commit hook will run: whether a tier does, and the options of its lintStaged tier (true is {}). */
interface PreCommitPlan {
  lintStagedTier: boolean;
  anyTier: boolean;
  lintStaged?: LintStagedOptions;
}

/** The config first: a pre-commit hook's lint-staged line is replaced only when a lintStaged tier runs lint-staged. Returns what the pre-commit hook will run. */
async function writeStarterConfig(place: InstallPlace, opts: InstallOptions): Promise<PreCommitPlan | undefined> {
  const { root, packageDir, pkg, pm, state } = place;
  const hasConfig = SEARCH_PLACES.some((p) => p !== 'package.json' && existsSync(join(root, p))) || packageHasKey(root);
  const hookText = (hook: Hook) => (existsSync(join(root, '.husky', hook)) ? readFileSync(join(root, '.husky', hook), 'utf8') : '');
  const lintStagedInHook = opts.preCommit
    ? hookText('pre-commit')
        .split('\n')
        .find((l) => lintStagedLine(l))
    : undefined;
  let preCommit: PreCommitPlan | undefined;
  // The hook line's arguments (`--config cfg.json`), carried into the starter's lintStaged tier so it runs lint-staged as the line did.
  const hookOptions = lintStagedInHook === undefined ? undefined : lintStagedLine(lintStagedInHook)?.options;
  if (!hasConfig) {
    const found = await readWorkspaces(pkg, pm === 'pnpm' ? 'pnpm' : 'npm').catch(() => null);
    const starter = starterConfig({
      scripts: readScripts(pkg),
      ...(found && { workspaces: found.list.map((w) => ({ dir: w.dir, name: w.name, scripts: w.scripts })) }),
      pm,
      preCommit: opts.preCommit === true,
      lintStaged: lintStagedInHook !== undefined || lintStagedConfigured(pkg),
      ...(hookOptions !== undefined && { lintStagedOptions: hookOptions }),
      ...(packageDir !== '' && { packageDir }),
      root: rootFacts(root),
      onPath,
    });
    const configFile = join(root, 'gate-ladder.config.ts');
    writeFileSync(configFile, starter.text);
    // In the project's own style when it formats with prettier, so its format check (a lint tier) does not fail on our file.
    const formatted = formatWithPrettier(root, packageDir, configFile);
    // Then its eslint or xo, when one lints the repository's TypeScript (not a package folder's: its lint does not reach the root).
    const linter = packageDir === '' ? projectLinter(readScripts(pkg)) : undefined;
    const linted = linter && fixWithLinter(root, configFile, linter);
    // And its biome, whose `biome check` a lint tier runs (formatting included).
    const biome = fixWithBiome(root, packageDir, configFile);
    state.createdConfig = { file: 'gate-ladder.config.ts', sha: sha(readFileSync(configFile, 'utf8')) };
    say(installMsg.wroteConfig(pmSays.exec(pm, 'gate-ladder run --dry-run')));
    for (const w of starter.warnings) say(installMsg.cannotRunHere(w.missing, w.tiers));
    if (formatted !== undefined) say(formatted === true ? installMsg.formattedConfig() : installMsg.notFormatted(formatted));
    if (biome !== undefined)
      say(biome === true ? installMsg.biomePasses() : installMsg.biomeFlags(biome, pmSays.exec(pm, 'biome check gate-ladder.config.ts')));
    if (linter && linted) {
      const run = pmSays.script(pm, linter.script);
      if (linted.kind === 'clean') say(installMsg.linterPasses(linter.linter, linted.changed));
      else if (linted.kind === 'flagged') say(installMsg.linterFlags(linter.linter, linted.count, linted.first, run));
      else say(installMsg.linterFailed(linter.linter, linted.why, run));
    }
    if (opts.preCommit) {
      const lintStagedTier = starter.text.includes('lintStaged: ');
      preCommit = { lintStagedTier, anyTier: starter.preCommitTier, ...(lintStagedTier && { lintStaged: hookOptions ?? {} }) };
    }
  } else if (opts.preCommit) {
    preCommit = await preCommitTiers(root);
  }
  return preCommit;
}

/**
 * The project's hooks carried into the husky hooks of their names (hook-managers.ts decides how: its hook
 * file called, or its command written in), before gate-ladder's line, each said; the hooks that cannot
 * be carried said with why. Recorded as each hook file's before and after, so uninstall gives the file back
 * as it was. Returns the hooks of that folder that stop running: neither carried nor stood for by a config.
 */
function carryHooks(place: InstallPlace, today: HooksToday): string[] {
  const { root, state } = place;
  const { setup } = today;
  if (setup === undefined) return [];
  // A hook manager the project names whose hooks this clone never installed (`pre-commit install` not run): nothing to carry.
  if (setup.managers.length > 0)
    say(
      setup.carried.length > 0 || setup.left.length > 0
        ? installMsg.hookSetupFound(setup.managers, today.named)
        : installMsg.noHooksToCarry(setup.managers),
    );
  const byHook = new Map<string, typeof setup.carried>();
  for (const c of setup.carried) byHook.set(c.hook, [...(byHook.get(c.hook) ?? []), c]);
  for (const [hook, items] of byHook) {
    const file = join(root, '.husky', hook);
    const exists = existsSync(file);
    const text = exists ? readFileSync(file, 'utf8') : '';
    if (text.split('\n').includes(CARRIED_END)) continue;
    const block = carriedBlock(hook, items);
    mkdirSync(dirname(file), { recursive: true });
    const next = `${text}${text && !text.endsWith('\n') ? '\n' : ''}${block}`;
    writeFileSync(file, next, { mode: 0o755 });
    state.hooks[hook] = { created: !exists, line: '', before: exists ? text : null, after: next, carried: block };
    for (const c of items) say(installMsg.carriedHook(hook, c.manager, c.from, c.how.kind === 'call'));
  }
  for (const l of setup.left) say(installMsg.hookNotCarried(l.hook, l.manager, l.why));
  // A hook file is carried when it is called, or when simple-git-hooks' config gave its command; husky 4's stand for its config.
  const carried = new Set(setup.carried.filter((c) => c.how.kind === 'call' || c.manager === 'simple-git-hooks').map((c) => c.hook));
  return gitOwnHooks(today.dir).filter((h) => !carried.has(h) && !setup.husky4Files.includes(h));
}

/** The hook files: gate-ladder's line added or put in place of an older one (or of a bare lint-staged line), each said. */
function writeHooks(place: InstallPlace, opts: InstallOptions, preCommit: PreCommitPlan | undefined, husky8: boolean): void {
  const { root, packageDir, runnerDir, pm, state } = place;
  const hooks: Hook[] = ['pre-push', ...(opts.preCommit ? (['pre-commit'] as const) : [])];
  for (const hook of hooks) {
    const file = join(root, '.husky', hook);
    const line = hookLine(hook, pm, runnerDir, packageDir);
    const exists = existsSync(file);
    const text = exists ? readFileSync(file, 'utf8') : '';
    const lines = text.split('\n');
    const lintStaged = hook === 'pre-commit' ? lines.findIndex((l) => lintStagedLine(l)) : -1;
    const found = lintStaged >= 0 ? lintStagedLine(lines[lintStaged]!) : undefined;
    // A bare line, or one whose every argument the lintStaged tier already runs lint-staged with, gives way to gate-ladder's.
    const replaceLintStaged =
      found !== undefined &&
      preCommit?.lintStagedTier === true &&
      (found.bare || (found.left.length === 0 && sameLintStaged(found.options, preCommit.lintStaged)));
    const carry = found !== undefined && !found.bare ? { field: lintStagedField(found.options), left: found.left } : undefined;
    const twice = () => installMsg.lintStagedTwice(lines[lintStaged]!.trim(), preCommit?.lintStagedTier === true, carry);
    if (lines.some((l) => l.trim() === line) && !replaceLintStaged) {
      if (lintStaged >= 0) say(twice());
      continue;
    }
    mkdirSync(dirname(file), { recursive: true });
    const ours = (l: string) => oldHookLines(hook, runnerDir, packageDir).includes(l.trim());
    const old = lines.findIndex(ours);
    // What uninstall gives back: the file as it was, less any line an earlier gate-ladder wrote.
    const mine = old >= 0 ? lines.filter((l) => !ours(l)).join('\n') : text;
    const entry: HookState = state.hooks[hook] ?? { created: !exists, line, before: exists && mine.trim() !== '' ? mine : null };
    let next: string;
    if (replaceLintStaged) {
      entry.replaced = lines[lintStaged]!;
      lines[lintStaged] = line;
      next = (old >= 0 && old !== lintStaged ? lines.filter((_, i) => i !== old) : lines).join('\n');
      say(installMsg.replacedLintStaged(hook, entry.replaced.trim()));
      if (carry !== undefined) say(installMsg.replacedLintStagedArgs(carry.field));
    } else if (old >= 0) {
      lines[old] = line;
      next = lines.join('\n');
    } else if (hook === 'pre-push' && hasOwnLines(text)) {
      // The project's own lines: gate-ladder's goes before them, so an `exit 0` or a line that reads the refs there cannot
      // skip it. (In pre-commit, gate-ladder judges what the project's lines, a fixer among them, leave staged: it stays last.)
      next = beforeOwnLines(text, line);
      say(installMsg.lineFirst());
    } else {
      // A new hook of husky 8 starts as `husky add` starts one, so it runs through husky.sh as the project's others do.
      const head = husky8 && !exists ? `${HUSKY8_HEAD}\n` : '';
      next = `${head}${text}${text && !text.endsWith('\n') ? '\n' : ''}${line}\n`;
    }
    writeFileSync(file, next, { mode: 0o755 });
    state.hooks[hook] = { ...entry, line, after: next };
    say(`gate-ladder: .husky/${hook} runs \`${shown(hookCommand(hook, runnerDir))}\` (when node_modules has it)`);
    if (lintStaged >= 0 && !replaceLintStaged) say(twice());
  }
  if (preCommit && !preCommit.anyTier) say(installMsg.noPreCommitTier());
}

/**
 * `prepare` runs husky (added, or put together with the project's own: `composePrepare`), and a husky that
 * `prepare` cannot find is said. `simple`: the project's simple-git-hooks config, read or JavaScript.
 */
function addPrepare(place: InstallPlace, husky8: boolean, simple?: 'read' | 'javascript'): void {
  const { root, packageDir, pkg, pm, state } = place;
  const pkgFile = join(pkg, 'package.json');
  const pkgBefore = existsSync(pkgFile) ? readFileSync(pkgFile, 'utf8') : null;
  // husky must start at the root (it looks for .git there): from a package's folder, `cd ..` first, as husky's own docs say.
  const runHusky = huskyPrepare(packageDir, husky8);
  // npm puts the .bin of the package and of every folder above it on a script's PATH; `prepare` finds husky
  // there, where pnpm (and yarn's pnp) put only the project's own dependencies, and husky 4 has no `husky`.
  const binDirs = [packageDir, ...packageDir.split('/').map((_, i, parts) => parts.slice(0, parts.length - 1 - i).join('/'))];
  const huskyThere = binDirs.some((d) => existsSync(join(root, d, 'node_modules', '.bin', 'husky')));
  const prepareNow = readScripts(pkg).prepare;
  if (!huskyThere && !(prepareNow !== undefined && runsHusky(prepareNow))) {
    // A `prepare` that cannot find husky fails every `npm install` (exit 127): left as it is, and why said.
    const file = packageDir === '' ? 'package.json' : `${packageDir}/package.json`;
    const major = huskyMajor(root, binDirs);
    say(
      installMsg.prepareLeft(
        file,
        runHusky,
        major !== undefined && major < 9
          ? `node_modules has husky ${major}, which has no \`husky\` command`
          : 'node_modules/.bin has no husky',
        pmSays.addDev(pm, major !== undefined && major < 9 ? 'husky@9' : 'husky'),
        pmSays.exec(pm, 'gate-ladder install'),
      ),
    );
    return;
  }
  let composed: { before: string; after: string } | undefined;
  let simpleWas: 'dropped' | 'first' | undefined;
  if (
    editPackageJson(pkg, (pkgJson) => {
      const scripts = (pkgJson.scripts ??= {}) as Record<string, string>;
      if (scripts.prepare === undefined) {
        scripts.prepare = runHusky;
        return true;
      }
      if (runsHusky(scripts.prepare)) return false;
      const made = composePrepare(scripts.prepare, runHusky, packageDir, simple);
      composed = { before: scripts.prepare, after: made.after };
      simpleWas = made.simple;
      scripts.prepare = composed.after;
      return true;
    })
  ) {
    if (composed) state.composedPrepare = composed;
    else state.addedPrepare = true;
    state.packageJson = { before: state.packageJson?.before ?? pkgBefore ?? '', after: readFileSync(pkgFile, 'utf8') };
    if (packageDir !== '') state.packageDir = packageDir;
    const file = packageDir === '' ? 'package.json' : `${packageDir}/package.json`;
    say(
      composed === undefined
        ? installMsg.addedPrepare(pmSays.install(pm), file, runHusky)
        : simpleWas === 'dropped'
          ? installMsg.simpleDropped(composed.before, composed.after, file, pmSays.exec(pm, 'gate-ladder uninstall'))
          : simpleWas === 'first'
            ? installMsg.simpleFirst(composed.before, composed.after, file)
            : installMsg.composedPrepare(composed.before, composed.after, pmSays.install(pm), file),
    );
  }
  // The project's own `prepare` ran husky already, but no husky is there to run.
  if (!huskyThere) say(installMsg.huskyNotOnPath(pmSays.addDev(pm, 'husky'), pmSays.install(pm)));
}

/** The major version of the husky node_modules holds in the package's folder or one above it (husky 4 has no `husky` command). */
function huskyMajor(root: string, dirs: readonly string[]): number | undefined {
  for (const d of dirs) {
    try {
      const v = (JSON.parse(readFileSync(join(root, d, 'node_modules', 'husky', 'package.json'), 'utf8')) as { version?: string }).version;
      const major = Number(v?.split('.')[0]);
      if (Number.isInteger(major)) return major;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/**
 * node_modules, where gate-ladder and its hook's runner live, ignored by git: in a repository without
 * package.json (Python, Go) nothing may ignore it yet, and `git add -A` would commit it. When git does
 * not (`git check-ignore`), the line is added to .gitignore with `--gitignore` or `--yes`, asked on a
 * terminal (default yes), else the step said. A line already there is never added twice; the file's
 * last line keeps its newline or its lack of one.
 */
async function ignoreNodeModules(place: InstallPlace, opts: InstallOptions): Promise<void> {
  const { root, runnerDir, pm, state } = place;
  const rel = runnerDir === '' ? 'node_modules' : `${runnerDir}/node_modules`;
  let link = false;
  let there = false;
  try {
    const st = lstatSync(join(root, rel));
    there = true;
    link = st.isSymbolicLink();
  } catch {
    // not installed here yet: asked as a folder
  }
  // git reads the path's type from the work tree: a folder's pattern (`node_modules/`) does not match a link.
  const asked = git(root, ['check-ignore', '-q', '--', there ? rel : `${rel}/`]);
  if (asked.code !== 1) return; // 0: ignored; anything else: git cannot say (a path beyond a link), so nothing is offered
  const line = link ? 'node_modules' : 'node_modules/';
  const file = join(root, '.gitignore');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (text.split(/\r?\n/).some((l) => l.trim() === line)) {
    say(installMsg.gitignoreLineInEffect(line));
    return;
  }
  let add = opts.gitignore === true || opts.yes === true;
  if (!add && process.stdin.isTTY === true && process.stdout.isTTY === true) add = await askYes(installMsg.gitignoreAsk(rel, line));
  if (!add) {
    say(installMsg.gitignoreStep(rel, line, pmSays.exec(pm, 'gate-ladder install --gitignore')));
    return;
  }
  writeFileSync(file, text === '' ? `${line}\n` : text.endsWith('\n') ? `${text}${line}\n` : `${text}\n${line}`);
  state.addedGitignore = line;
  say(installMsg.gitignoreAdded(rel, line));
}

/** A yes-or-no question on the terminal; an empty answer is yes. */
async function askYes(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`${question} [Y/n] `)).trim().toLowerCase();
    return answer === '' || answer === 'y' || answer === 'yes';
  } finally {
    rl.close();
  }
}

/** Whether the existing config has a lintStaged tier, and any tier for pre-commit (unknown when it does not load: assumed yes). */
async function preCommitTiers(root: string): Promise<PreCommitPlan> {
  // In a worker with the time limit, as every other command loads it: a config that loops must not hang install.
  const { loadConfigLimited } = await import('../config/load-worker.js');
  const loaded = await loadConfigLimited(root);
  if (loaded.kind !== 'ok') return { lintStagedTier: false, anyTier: true };
  const tiers = loaded.config.tiers.filter((t) => t.hooks.includes('pre-commit'));
  const lintStaged = tiers.find((t) => t.lintStaged !== undefined)?.lintStaged;
  return { lintStagedTier: lintStaged !== undefined, anyTier: tiers.length > 0, ...(lintStaged !== undefined && { lintStaged }) };
}
