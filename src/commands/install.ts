import { EXIT } from '../config/defaults.js';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from '../util/node.js';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { SEARCH_PLACES } from '../config/load.js';
import type { LintStagedOptions } from '../types.js';
import { type RepoInfo, git, refusedRepo, repoInfo } from '../git/git.js';
import { installMsg } from '../install/messages.js';
import { msg } from '../run/messages.js';
import { shown } from '../util/escape.js';
import { poolLines } from './gc.js';
import { poolDir } from '../slots/worktree-pool.js';
import { dataDir, deleteSyncRefs, leftovers, purge, syncRefs } from '../install/leftovers.js';
import { type PackageManager, detectPackageManager, pmSays } from '../runners/package-manager.js';
import { shellQuoted, shellWord } from '../util/shell-words.js';
import {
  type PrettierFacts,
  type ProjectLinter,
  type RootFacts,
  lintStagedField,
  lintStagedLine,
  sameLintStaged,
  projectLinter,
  starterConfig,
  usesBiome,
  usesPrettier,
} from '../install/starter.js';
import { CARRIED_END, GIT_HOOKS, type HookSetup, carriedBlock, hookSetup, withoutCarried } from '../install/hook-managers.js';
import { readHookFacts } from '../install/hook-managers-io.js';
import { readWorkspaces } from '../runners/detect-io.js';

type Hook = 'pre-push' | 'pre-commit';

/** What install did to one hook file. */
interface HookState {
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
interface InstallState {
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

const RUNNER = 'node_modules/gate-ladder/dist/cli.cjs';

/**
 * Formats `file` with the project's prettier (node_modules/.bin/prettier in the package's folder or at
 * the root), as its own config says: true when it did, the reason when it could not, undefined when
 * the project does not format with prettier (`usesPrettier`: a prettier that another tool brought into
 * node_modules/.bin would write its style, not the project's).
 */
function formatWithPrettier(root: string, packageDir: string, file: string): true | string | undefined {
  if (!usesPrettier(prettierFacts(root, packageDir))) return undefined;
  const bin = [join(root, packageDir, 'node_modules', '.bin', 'prettier'), join(root, 'node_modules', '.bin', 'prettier')].find((b) =>
    existsSync(b),
  );
  if (bin === undefined) return undefined;
  const r = spawnSync(bin, ['--write', file], { cwd: root, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status === 0) return true;
  return (r.error?.message ?? `${r.stderr ?? ''}`.trim().split('\n')[0]) || `exit ${r.status ?? r.signal}`;
}

/**
 * Runs the project's biome (`biome check --write`: its safe fixes and its formatter, never `--unsafe`) on
 * `file`, so its lint tier's `biome check` does not fail on gate-ladder's own file: true when the file
 * passes after it, the first thing biome still reports when not, undefined when the project does not use
 * biome (a biome.json(c), or @biomejs/biome among its own dependencies) or has none installed.
 */
function fixWithBiome(root: string, packageDir: string, file: string): true | string | undefined {
  if (!usesBiome(prettierFacts(root, packageDir))) return undefined;
  const bin = [join(root, packageDir, 'node_modules', '.bin', 'biome'), join(root, 'node_modules', '.bin', 'biome')].find((b) =>
    existsSync(b),
  );
  if (bin === undefined) return undefined;
  const r = spawnSync(bin, ['check', '--write', file], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (r.status === 0) return true;
  const first = `${r.stderr ?? ''}\n${r.stdout ?? ''}`
    .split('\n')
    .map((l) => l.replace(/[\s━]+$/, '').trim())
    .find((l) => l !== '');
  return (r.error?.message ?? first) || `exit ${r.status ?? r.signal}`;
}

/** The files in the root and the package's folder, and their package.json (and package.yaml): what says the project formats with prettier. */
function prettierFacts(root: string, packageDir: string): PrettierFacts {
  const dirs = [...new Set([root, join(root, packageDir)])];
  const files = dirs.flatMap((d) => {
    try {
      return readdirSync(d);
    } catch {
      return [];
    }
  });
  const read = (f: string) => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return undefined;
    }
  };
  const packageJsons = dirs.flatMap((d) => {
    try {
      return [JSON.parse(read(join(d, 'package.json')) ?? 'null') as unknown];
    } catch {
      return [];
    }
  });
  const packageYaml = dirs.map((d) => read(join(d, 'package.yaml'))).find((t) => t !== undefined);
  return { files, packageJsons, ...(packageYaml !== undefined && { packageYaml }) };
}

/** Root files whose text says how tests run without a package.json script (and the Makefiles make reads). */
const ROOT_TEXTS = /^(?:pyproject\.toml|tox\.ini|setup\.cfg|requirements[\w.-]*\.txt|GNUmakefile|makefile|Makefile)$/;

/** What the repository root says about tests that are not a package.json script: for `rootTests` in starter.ts. */
function rootFacts(root: string): RootFacts {
  const list = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  };
  const files = list(root).map((e) => e.name);
  const texts: Record<string, string> = {};
  for (const f of files.filter((n) => ROOT_TEXTS.test(n))) {
    try {
      if (statSync(join(root, f)).size <= 1024 * 1024) texts[f] = readFileSync(join(root, f), 'utf8');
    } catch {
      // Unreadable: as if absent.
    }
  }
  // tests/ and test/, three levels deep and at most 2,000 names: enough to see a test_*.py, not a walk of a big tree.
  const testFiles: string[] = [];
  const walk = (rel: string, depth: number) => {
    for (const e of list(join(root, rel))) {
      if (testFiles.length >= 2000) return;
      const path = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (depth < 3 && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(path, depth + 1);
      } else testFiles.push(path);
    }
  };
  for (const d of ['tests', 'test']) if (files.includes(d)) walk(d, 1);
  const python = onPath('python3') ? 'python3' : onPath('python') ? 'python' : undefined;
  return { files, testFiles, texts, ...(python && { python }) };
}

/** Whether an executable of that name is in a PATH folder (what the hook's shell would find). */
function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      const st = statSync(join(dir, name));
      return st.isFile() && (st.mode & 0o111) !== 0;
    } catch {
      return false;
    }
  });
}

/** What the project's linter made of the starter config after `--fix`. */
type LintOutcome =
  | { kind: 'clean'; changed: boolean }
  | { kind: 'flagged'; count: number; first: string }
  | { kind: 'failed'; why: string };

/**
 * Runs the project's eslint or xo with `--fix` on `file` (the starter config at the repository root), as
 * its lint tier would read it, so the first push's lint tier does not fail on gate-ladder's own file.
 * Undefined when it does not lint the file: no such linter installed, eslint 8 without `--ext .ts`
 * (its `eslint .` reads .js files only), a file its config does not match or ignores.
 */
function fixWithLinter(root: string, file: string, found: ProjectLinter): LintOutcome | undefined {
  const modules = join(root, 'node_modules');
  const bin = join(modules, '.bin', found.linter);
  if (!existsSync(bin)) return undefined;
  if (found.linter === 'eslint') {
    let major = Number.NaN;
    try {
      major = Number(
        (JSON.parse(readFileSync(join(modules, 'eslint', 'package.json'), 'utf8')) as { version?: string }).version?.split('.')[0],
      );
    } catch {
      // An eslint without a readable version: read as today's.
    }
    const ext = found.args.findIndex((a) => a === '--ext' || a.startsWith('--ext='));
    const extValue = ext < 0 ? '' : found.args[ext]!.includes('=') ? found.args[ext]! : (found.args[ext + 1] ?? '');
    if (major < 9 && !/\bts\b/.test(extValue)) return undefined;
  }
  const before = readFileSync(file, 'utf8');
  const args = found.linter === 'eslint' ? ['--fix', '--format', 'json', file] : ['--fix', '--reporter=json', file];
  const r = spawnSync(bin, args, {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
  });
  type Message = { severity?: number; message?: string; line?: number; column?: number; ruleId?: string | null };
  let messages: Message[] | undefined;
  try {
    messages = (JSON.parse(r.stdout) as { messages?: Message[] }[]).flatMap((f) => f.messages ?? []);
  } catch {
    // Not its JSON report: it did not get as far as linting.
  }
  if (messages === undefined || (r.status !== 0 && r.status !== 1)) {
    return { kind: 'failed', why: (r.error?.message ?? `${r.stderr ?? ''}`.trim().split('\n')[0]) || `exit ${r.status ?? r.signal}` };
  }
  if (messages.some((m) => m.severity === 1 && /^File ignored\b/.test(m.message ?? ''))) return undefined;
  const errors = messages.filter((m) => m.severity === 2);
  if (errors.length > 0 || r.status === 1) {
    const e = errors[0];
    const first =
      e === undefined ? 'no message' : `${e.line ? `line ${e.line}: ` : ''}${e.message ?? ''}${e.ruleId ? ` (${e.ruleId})` : ''}`;
    return { kind: 'flagged', count: errors.length, first: first.split('\n')[0]! };
  }
  return { kind: 'clean', changed: readFileSync(file, 'utf8') !== before };
}

const runnerPath = (packageDir = '') => (packageDir === '' ? RUNNER : `${packageDir}/${RUNNER}`);

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
function oldHookLines(hook: Hook, runnerDir = '', installIn = runnerDir): string[] {
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

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const say = (line: string) => process.stdout.write(`${line}\n`);

function statePath(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'install.json');
}

function readState(path: string): InstallState | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as InstallState;
  } catch {
    return null;
  }
}

/** core.hooksPath as this repository sets it (`local`), or as git will use it (any scope). */
function getHooksPath(root: string, local = true): string | null {
  const r = git(root, ['config', ...(local ? ['--local'] : []), '--get', 'core.hooksPath']);
  return r.ok ? r.stdout.trim() : null;
}

/** Whether a core.hooksPath value is husky's own folder (`.husky/_`, or `.husky` of husky 4 to 8). */
function isHuskyPath(value: string, root: string): boolean {
  const v = value.replace(/\/+$/, '').replace(/^\.\//, '');
  return v === '.husky/_' || v === '.husky' || v === join(root, '.husky', '_') || v === join(root, '.husky');
}

/** Package.json text with its own indentation kept. */
function editPackageJson(root: string, edit: (pkg: Record<string, unknown>) => boolean): boolean {
  const file = join(root, 'package.json');
  if (!existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  const pkg = JSON.parse(text) as Record<string, unknown>;
  if (!edit(pkg)) return false;
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  writeFileSync(file, `${JSON.stringify(pkg, null, indent)}${text.endsWith('\n') ? '\n' : ''}`);
  return true;
}

/** The two lines husky 8 starts each hook with (`husky add`), so the hook runs through its .husky/_/husky.sh. */
const HUSKY8_HEAD = '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n';

/**
 * husky 8 set up in this repository: core.hooksPath is `.husky` and `.husky/_/husky.sh` is husky 8's
 * (husky 9 leaves a stub there that only prints a deprecation). Installing husky 9 over it would move
 * core.hooksPath to `.husky/_` and replace husky.sh, which the project's own hooks source.
 */
function huskyEight(root: string, hooksPath: string | null): boolean {
  if (hooksPath === null || !['.husky', '.husky/', join(root, '.husky')].includes(hooksPath.trim())) return false;
  const script = join(root, '.husky', '_', 'husky.sh');
  return existsSync(script) && !readFileSync(script, 'utf8').includes('DEPRECATED');
}

/**
 * The `prepare` command that sets husky up: husky 9's `husky`, or husky 8's `husky install`, then
 * `|| true`, as husky's docs give it: an install without dev dependencies (`npm ci --omit=dev`,
 * `NODE_ENV=production`, `pnpm install --prod`) has no husky, and must not fail for it.
 */
const huskyPrepare = (packageDir: string, husky8: boolean, orTrue = true) => {
  const husky = `${husky8 ? 'husky install' : 'husky'}${orTrue ? ' || true' : ''}`;
  return packageDir === ''
    ? husky
    : `cd ${packageDir
        .split('/')
        .map(() => '..')
        .join('/')} && ${husky}`;
};

/** A `prepare` script that already runs husky. */
const runsHusky = (script: string) => /(?:^|[\s;&|(])husky(?:$|[\s;&|)])/.test(script);

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
 * `gate-ladder install`, step by step: where (`installPlace`), another hook manager's folder refused,
 * husky set up (`setUpHusky`), a starter config when there is none (`writeStarterConfig`), the hook
 * lines (`writeHooks`), the `prepare` script (`addPrepare`), then what uninstall will undo, recorded.
 */
export async function installCommand(opts: InstallOptions): Promise<number> {
  const place = installPlace(opts);
  if (typeof place === 'number') return place;
  const { info, root, path, previous, pm, state } = place;
  // Another hook manager's folder: replacing it would silently stop that tool's hooks.
  const current = getHooksPath(root, false);
  if (current !== null && current !== '' && !isHuskyPath(current, root) && !opts.force) {
    process.stderr.write(`${installMsg.foreignHooksPath(current, hookLine('pre-push', pm), (c) => pmSays.exec(pm, c))}\n`);
    return EXIT.error;
  }

  // Hooks git runs today from its own folder (a hook manager's, or written by hand) stop running once core.hooksPath
  // is set: each is carried into the husky hook of its name, and what cannot be is said, with the way to keep it.
  const fresh = current === null || current === '';
  const hooksDir = join(info.commonDir, 'hooks');
  const setup = fresh && !previous ? hookSetup(readHookFacts(root, place.pkg, hooksDir)) : undefined;
  const husky = await setUpHusky(place);
  if (typeof husky === 'number') return husky;
  if (setup !== undefined && !husky.husky8) carryHooks(place, setup);
  const carried = new Set(setup?.carried.filter((c) => c.how.kind === 'call').map((c) => c.hook));
  const husky4Files = setup?.husky4Files ?? [];
  const ignored = fresh && !husky.husky8 ? gitOwnHooks(info.commonDir).filter((h) => !carried.has(h) && !husky4Files.includes(h)) : [];
  const preCommit = await writeStarterConfig(place, opts);
  writeHooks(place, opts, preCommit, husky.husky8);
  addPrepare(place, husky.husky8);
  await ignoreNodeModules(place, opts);

  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`);
  if (ignored.length > 0) say(installMsg.gitHooksIgnored(relativeOrAbsolute(root, hooksDir), ignored));
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
 * file in git's folder called, or husky 4's command written in), before gate-ladder's line, each said;
 * the hooks that cannot be carried said with why. Recorded as each hook file's before and after, so
 * uninstall gives the file back as it was.
 */
function carryHooks(place: InstallPlace, setup: HookSetup): void {
  const { root, state } = place;
  // A hook manager the project names whose hooks this clone never installed (`pre-commit install` not run): nothing to carry.
  if (setup.managers.length > 0)
    say(
      setup.carried.length > 0 || setup.left.length > 0
        ? installMsg.hookSetupFound(setup.managers)
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
}

/** A hook's lines before its own commands: a `#!` line, husky 8's husky.sh lines, blank lines. */
const HOOK_HEAD = (l: string) => l.trim() === '' || l.startsWith('#!') || /^\.\s+"\$\(dirname\b.*husky\.sh"\s*$/.test(l.trim());

/** The lines around gate-ladder's in a pre-push hook with lines of its own: the refs git gives on stdin, kept for both. */
const STDIN_KEEP = `gl_in="$(mktemp)"; trap 'rm -f "$gl_in"' EXIT; cat >"$gl_in"; exec <"$gl_in" # gate-ladder: the refs, for gate-ladder's line and the lines below`;
const STDIN_AGAIN = 'exec <"$gl_in" # gate-ladder: the refs again, for the lines below';

/** Whether a hook's text has commands of the project's own (not only a head, comments, or a carried part of install's). */
function hasOwnLines(text: string): boolean {
  const lines = text.split('\n');
  if (lines.includes(CARRIED_END)) return false;
  return lines.some((l) => !HOOK_HEAD(l) && !l.trim().startsWith('#'));
}

/**
 * The pre-push hook with gate-ladder's `line` put after its head and before its own lines; git's refs
 * on stdin are kept in a temporary file, read by gate-ladder's line and then again by the hook's own
 * lines (a `while read` of theirs, or `git lfs pre-push`, sees them as before).
 */
function beforeOwnLines(text: string, line: string): string {
  const lines = text.split('\n');
  let at = 0;
  while (at < lines.length && HOOK_HEAD(lines[at]!)) at++;
  lines.splice(at, 0, STDIN_KEEP, line, STDIN_AGAIN);
  return lines.join('\n');
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

/** `prepare` runs husky (added, or put before the project's own), and a husky that `prepare` cannot find is said. */
function addPrepare(place: InstallPlace, husky8: boolean): void {
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
  if (
    editPackageJson(pkg, (pkgJson) => {
      const scripts = (pkgJson.scripts ??= {}) as Record<string, string>;
      if (scripts.prepare === undefined) {
        scripts.prepare = runHusky;
        return true;
      }
      if (runsHusky(scripts.prepare)) return false;
      // husky always exits 0 (it prints why it did nothing), and where it is not installed `|| true` goes on, so the
      // project's own prepare still runs (in a subshell from a package's folder, so that it starts where it always did).
      composed = {
        before: scripts.prepare,
        after: packageDir === '' ? `${runHusky} && ${scripts.prepare}` : `(${runHusky}) && ${scripts.prepare}`,
      };
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
      composed
        ? installMsg.composedPrepare(composed.before, composed.after, pmSays.install(pm), file)
        : installMsg.addedPrepare(pmSays.install(pm), file, runHusky),
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

/** lint-staged's own config files, or a "lint-staged" key in package.json. */
function lintStagedConfigured(root: string): boolean {
  const files = [
    '.lintstagedrc',
    '.lintstagedrc.json',
    '.lintstagedrc.yaml',
    '.lintstagedrc.yml',
    '.lintstagedrc.mjs',
    '.lintstagedrc.cjs',
    '.lintstagedrc.js',
    'lint-staged.config.js',
    'lint-staged.config.mjs',
    'lint-staged.config.cjs',
    'lint-staged.config.ts',
    'lint-staged.config.mts',
  ];
  if (files.some((f) => existsSync(join(root, f)))) return true;
  try {
    return 'lint-staged' in (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as object);
  } catch {
    return false;
  }
}

/** Hooks git would run from its own hooks folder: executable files there named as git's hooks (its `.sample` files are not). */
function gitOwnHooks(commonDir: string): string[] {
  const dir = join(commonDir, 'hooks');
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

/** `path` relative to `root` when it is inside it, else as it is. */
function relativeOrAbsolute(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? path : rel.split(sep).join('/');
}

/**
 * The folder of the package.json nearest to `cwd`, from `cwd` up to the repository root, relative to the
 * root with `/` ('' for the root itself, or when no folder on the way has one).
 */
function packageFolder(cwd: string, root: string): string {
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    return '';
  }
  const top = realpathSync(root);
  for (;;) {
    const rel = relative(top, dir);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return '';
    if (existsSync(join(dir, 'package.json'))) return rel.split(sep).join('/');
    if (rel === '') return '';
    dir = dirname(dir);
  }
}

/**
 * The folder, from `packageDir` up to the root, whose node_modules holds gate-ladder (as node resolves
 * it), relative to the root; `packageDir` itself when none does yet (the hook then says to install there).
 */
function installedAt(root: string, packageDir: string): string {
  const parts = packageDir === '' ? [] : packageDir.split('/');
  for (let n = parts.length; n >= 0; n--) {
    const dir = parts.slice(0, n).join('/');
    if (existsSync(join(root, dir, 'node_modules', 'gate-ladder', 'package.json'))) return dir;
  }
  return packageDir;
}

function readScripts(root: string): Record<string, string> {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    return pkg.scripts ?? {};
  } catch {
    return {};
  }
}

function packageHasKey(root: string): boolean {
  try {
    return 'gate-ladder' in (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as object);
  } catch {
    return false;
  }
}

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

/** The hooks in `.husky/` (files named as git's hooks), once gate-ladder's own lines are out of them. */
function projectHuskyHooks(root: string): string[] {
  try {
    return readdirSync(join(root, '.husky'), { withFileTypes: true })
      .filter((e) => GIT_HOOKS.has(e.name) && e.isFile())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Whether package.json lists husky among its own dependencies (else it is there only as gate-ladder's). */
function dependsOnHusky(pkgFile: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as Record<string, Record<string, string> | undefined>;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => pkg[k]?.husky !== undefined);
  } catch {
    return false;
  }
}

/** Puts back each thing install changed (hooks, core.hooksPath, package.json, the starter config): one line each, done or kept. */
function undoInstall(root: string, state: InstallState): { done: string[]; kept: string[] } {
  /** One line per thing install changed: what uninstall made of it. */
  const done: string[] = [];
  const kept: string[] = [];
  for (const [hook, h] of Object.entries(state.hooks)) {
    const file = join(root, '.husky', hook);
    const name = `.husky/${hook}`;
    if (!existsSync(file)) continue;
    const now = readFileSync(file, 'utf8');
    if (h.after !== undefined && now === h.after && h.before !== undefined) {
      if (h.before === null) rmSync(file);
      else writeFileSync(file, h.before);
      done.push(h.before === null ? `${name}: removed (install created it)` : `${name}: restored as it was before install`);
      continue;
    }
    // Edited since install: take out what install carried over and gate-ladder's line (or put back the lint-staged
    // line it replaced), keep the rest.
    const uncarried = h.carried !== undefined ? withoutCarried(now) : undefined;
    const lines = (uncarried ?? now).split('\n');
    const at = h.line === '' ? -1 : lines.findIndex((l) => l.trim() === h.line);
    if (at < 0 && uncarried === undefined) {
      kept.push(`${name}: left as it is (gate-ladder's ${h.line === '' ? 'lines are' : 'line is'} no longer in it)`);
      continue;
    }
    if (at < 0) {
      if (h.created && uncarried!.trim() === '') {
        rmSync(file);
        done.push(`${name}: removed (install created it)`);
      } else {
        writeFileSync(file, uncarried!);
        done.push(`${name}: took out what install carried over; your edits since install are kept`);
      }
      continue;
    }
    if (h.replaced !== undefined) lines[at] = h.replaced;
    else lines.splice(at, 1);
    // The refs' copy around it, when install put its line before the hook's own.
    for (const kept of [STDIN_AGAIN, STDIN_KEEP]) {
      const i = lines.indexOf(kept);
      if (i >= 0) lines.splice(i, 1);
    }
    let rest = lines.join('\n');
    if (h.before !== undefined && h.before !== null && !h.before.endsWith('\n') && h.replaced === undefined && at === lines.length - 1)
      rest = rest.replace(/\n$/, '');
    if (h.created && rest.replace(state.husky8 ? HUSKY8_HEAD : '', '').trim() === '') {
      rmSync(file);
      done.push(`${name}: removed (install created it)`);
    } else {
      writeFileSync(file, rest);
      done.push(
        `${name}: took out gate-ladder's line${h.replaced !== undefined ? ` and put back \`${h.replaced.trim()}\`` : ''}${uncarried !== undefined ? ' and what install carried over' : ''}; your edits since install are kept`,
      );
    }
  }
  const pkgDir = join(root, state.packageDir ?? '');
  const pkgFile = join(pkgDir, 'package.json');
  const pkgName = state.packageDir ? `${state.packageDir}/package.json` : 'package.json';
  // install set husky up (no core.hooksPath before), and .husky/ holds hooks of the project's own that were not there
  // before (added since, a line added to the hook install created, or moved there from git's folder as install
  // advised): unsetting core.hooksPath or `prepare` would silently stop them. Hooks there before install did not run.
  const before = state.huskyHooksBefore ?? Object.keys(state.hooks).filter((h) => typeof state.hooks[h]?.before === 'string');
  const own = state.hooksPath === null ? projectHuskyHooks(root).filter((h) => !before.includes(h)) : [];
  if (own.length > 0) {
    const pm = detectPackageManager(pkgDir);
    kept.push(installMsg.huskyKept(own, pkgName, dependsOnHusky(pkgFile) ? undefined : pmSays.addDev(pm, 'husky')));
  } else undoHusky(root, state, done);
  // With husky kept, package.json stays as it is: install's only edit there is husky's `prepare`.
  if (own.length === 0) {
    if (state.packageJson && existsSync(pkgFile) && readFileSync(pkgFile, 'utf8') === state.packageJson.after) {
      writeFileSync(pkgFile, state.packageJson.before);
      done.push(`${shown(pkgName)}: restored as it was before install`);
    } else if (state.addedPrepare || state.composedPrepare) {
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
        if (scripts?.prepare !== added && scripts?.prepare !== huskyPrepare(state.packageDir ?? '', state.husky8 === true, false))
          return false;
        delete scripts.prepare;
        if (Object.keys(scripts).length === 0) delete pkgJson.scripts;
        return true;
      });
      const name = shown(pkgName);
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
  }
  if (state.createdConfig) {
    const file = join(root, state.createdConfig.file);
    if (existsSync(file) && sha(readFileSync(file, 'utf8')) === state.createdConfig.sha) {
      rmSync(file);
      done.push(`${state.createdConfig.file}: removed (install wrote it)`);
    } else if (existsSync(file))
      kept.push(`${state.createdConfig.file}: kept, it was edited since install (delete it yourself if you no longer want it)`);
  }
  if (state.addedGitignore !== undefined) kept.push(installMsg.gitignoreKept(state.addedGitignore));
  return { done, kept };
}
