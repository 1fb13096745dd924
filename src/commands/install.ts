import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SEARCH_PLACES } from '../config/load.js';
import { git, repoInfo } from '../git/git.js';
import { installMsg } from '../util/messages.js';
import { shown } from '../util/escape.js';
import { poolLines } from './gc.js';

/** What install changed, so uninstall can undo exactly that. Kept in the git dir, never committed. */
interface InstallState {
  version: 1;
  hooksPath: string | null;
  createdHuskyDir: boolean;
  hooks: Record<string, { created: boolean; line: string }>;
  addedPrepare: boolean;
  /** package.json before and after install, so uninstall restores it byte for byte when untouched. */
  packageJson?: { before: string; after: string };
  createdConfig: { file: string; sha: string } | null;
}

export interface InstallOptions {
  cwd: string;
  preCommit?: boolean;
  /** Replace a core.hooksPath that another tool set. */
  force?: boolean;
}

/**
 * The runner, started by node itself: no npx (about a Node start-up of its own), and no
 * `node_modules/.bin/gate-ladder` whose `#!/usr/bin/env node` adds an exec of env. With
 * --preserve-symlinks-main, node skips resolving the real path of the script (a walk of
 * every folder above it, about half a millisecond of every push). Safe where node_modules/gate-ladder
 * is a link (pnpm, npm link, workspaces): the script it starts requires only node's own modules and
 * files beside it, and the parts that import packages are ES modules, which node resolves from their
 * real path.
 */
export const HOOK_LINE: Record<string, string> = {
  'pre-push': 'node --preserve-symlinks-main node_modules/gate-ladder/dist/cli.cjs run pre-push "$@"',
  'pre-commit': 'node --preserve-symlinks-main node_modules/gate-ladder/dist/cli.cjs run pre-commit',
};

/** Lines earlier versions wrote; install replaces them in place. */
const OLD_HOOK_LINES: Record<string, readonly string[]> = {
  'pre-push': ['gate-ladder run pre-push "$@"', 'node node_modules/gate-ladder/dist/cli.cjs run pre-push "$@"'],
  'pre-commit': ['gate-ladder run pre-commit', 'node node_modules/gate-ladder/dist/cli.cjs run pre-commit'],
};

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

/** A starter ladder guessed from package.json scripts. */
export function starterConfig(scripts: Record<string, string>): string {
  const tiers: string[] = [];
  const cheap = ['typecheck', 'lint', 'test:unit'].filter((s) => scripts[s] !== undefined);
  for (const s of cheap) {
    const name = `t1-${s.replace(/[^\w-]/g, '-')}`;
    tiers.push(`    { name: '${name}', run: 'npm run ${s}', timeout: 300, skipWhenTestAdjacent: ${s === 'test:unit'} },`);
  }
  const full = scripts.test !== undefined && !/no test specified/.test(scripts.test);
  tiers.push(`    { name: 't2-tests', run: 'npm test', timeout: 900 },${full ? '' : ' // no "test" script found: edit this command'}`);
  return [
    "import { defineConfig } from 'gate-ladder';",
    '',
    '// Tiers run cheapest first; the first `caught` (a test failed) or `error` (the harness broke) blocks the push.',
    '// See `npx gate-ladder --help` and the README for every field.',
    'export default defineConfig({',
    '  tiers: [',
    ...tiers,
    '  ],',
    '});',
    '',
  ].join('\n');
}

export async function installCommand(opts: InstallOptions): Promise<number> {
  const info = repoInfo(opts.cwd);
  if (info === null) {
    process.stderr.write(`gate-ladder: ${shown(opts.cwd)} is not inside a git work tree. Run install from your repository.\n`);
    return 2;
  }
  const { root } = info;
  const path = statePath(info.commonDir);
  const previous = readState(path);
  const state: InstallState = previous ?? {
    version: 1,
    hooksPath: getHooksPath(root),
    createdHuskyDir: !existsSync(join(root, '.husky')),
    hooks: {},
    addedPrepare: false,
    createdConfig: null,
  };

  // Another hook manager's folder: replacing it would silently stop that tool's hooks.
  const current = getHooksPath(root, false);
  if (current !== null && current !== '' && !isHuskyPath(current, root) && !opts.force) {
    process.stderr.write(`${installMsg.foreignHooksPath(current, HOOK_LINE['pre-push']!)}\n`);
    return 2;
  }

  // husky sets core.hooksPath to .husky/_ and writes its wrappers there (they are git-ignored).
  const { default: husky } = await import('husky');
  const here = process.cwd();
  process.chdir(root);
  const refusal = husky('.husky');
  process.chdir(here);
  if (refusal) {
    process.stderr.write(`gate-ladder: husky could not set up the hooks: ${shown(refusal)}\n`);
    return 2;
  }

  const hooks = ['pre-push', ...(opts.preCommit ? ['pre-commit'] : [])];
  for (const hook of hooks) {
    const file = join(root, '.husky', hook);
    const line = HOOK_LINE[hook]!;
    const exists = existsSync(file);
    const text = exists ? readFileSync(file, 'utf8') : '';
    const lines = text.split('\n');
    if (lines.some((l) => l.trim() === line)) continue;
    mkdirSync(dirname(file), { recursive: true });
    const old = lines.findIndex((l) => OLD_HOOK_LINES[hook]?.includes(l.trim()));
    if (old >= 0) {
      lines[old] = line;
      writeFileSync(file, lines.join('\n'), { mode: 0o755 });
      state.hooks[hook] = { created: state.hooks[hook]?.created ?? false, line };
    } else {
      writeFileSync(file, `${text}${text && !text.endsWith('\n') ? '\n' : ''}${line}\n`, { mode: 0o755 });
      state.hooks[hook] ??= { created: !exists, line };
    }
    say(`gate-ladder: .husky/${hook} runs \`${line}\``);
  }

  const pkgFile = join(root, 'package.json');
  const pkgBefore = existsSync(pkgFile) ? readFileSync(pkgFile, 'utf8') : null;
  if (editPackageJson(root, (pkg) => {
    const scripts = (pkg.scripts ??= {}) as Record<string, string>;
    if (scripts.prepare !== undefined) return false;
    scripts.prepare = 'husky';
    return true;
  })) {
    state.addedPrepare = true;
    state.packageJson = { before: pkgBefore ?? '', after: readFileSync(pkgFile, 'utf8') };
    say('gate-ladder: package.json: added "prepare": "husky" so a fresh clone gets the hooks on `npm install`');
  }

  const hasConfig = SEARCH_PLACES.some((p) => p !== 'package.json' && existsSync(join(root, p))) || packageHasKey(root);
  if (!hasConfig) {
    const scripts = readScripts(root);
    const text = starterConfig(scripts);
    writeFileSync(join(root, 'gate-ladder.config.ts'), text);
    state.createdConfig = { file: 'gate-ladder.config.ts', sha: sha(text) };
    say('gate-ladder: wrote gate-ladder.config.ts; check its tiers, then `npx gate-ladder run --dry-run`');
  }

  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`);
  say(previous ? 'gate-ladder: install is up to date.' : 'gate-ladder: installed. `npx gate-ladder uninstall` undoes it.');
  return 0;
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

export async function uninstallCommand(opts: { cwd: string }): Promise<number> {
  const info = repoInfo(opts.cwd);
  if (info === null) {
    process.stderr.write(`gate-ladder: ${shown(opts.cwd)} is not inside a git work tree.\n`);
    return 2;
  }
  const { root } = info;
  const path = statePath(info.commonDir);
  const state = readState(path);
  if (state === null) {
    say('gate-ladder: nothing to uninstall (no record of an install in this repository).');
    return 0;
  }
  for (const [hook, { created, line }] of Object.entries(state.hooks)) {
    const file = join(root, '.husky', hook);
    if (!existsSync(file)) continue;
    const kept = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== line).join('\n');
    if (created && kept.trim() === '') rmSync(file);
    else writeFileSync(file, kept);
  }
  if (state.hooksPath === null) git(root, ['config', '--local', '--unset', 'core.hooksPath']);
  else git(root, ['config', '--local', 'core.hooksPath', state.hooksPath]);
  if (state.hooksPath !== '.husky/_') rmSync(join(root, '.husky', '_'), { recursive: true, force: true });
  const husky = join(root, '.husky');
  if (state.createdHuskyDir && existsSync(husky) && readdirSync(husky).length === 0) rmSync(husky, { recursive: true });
  const pkgFile = join(root, 'package.json');
  if (state.packageJson && existsSync(pkgFile) && readFileSync(pkgFile, 'utf8') === state.packageJson.after) {
    writeFileSync(pkgFile, state.packageJson.before);
  } else if (state.addedPrepare) {
    editPackageJson(root, (pkg) => {
      const scripts = pkg.scripts as Record<string, string> | undefined;
      if (scripts?.prepare !== 'husky') return false;
      delete scripts.prepare;
      if (Object.keys(scripts).length === 0) delete pkg.scripts;
      return true;
    });
  }
  if (state.createdConfig) {
    const file = join(root, state.createdConfig.file);
    if (existsSync(file) && sha(readFileSync(file, 'utf8')) === state.createdConfig.sha) rmSync(file);
    else if (existsSync(file)) say(`gate-ladder: kept ${state.createdConfig.file}: it was edited since install.`);
  }
  rmSync(path);
  for (const line of poolLines(root, info.commonDir)) say(line);
  say('gate-ladder: uninstalled; the hooks, package.json and config are as they were before install.');
  return 0;
}
