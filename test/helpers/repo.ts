/**
 * Real repositories for integration tests: a work clone and a bare remote in a temp dir, with the
 * packed gate-ladder installed into node_modules the way a user installs it.
 */
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execaSync } from 'execa';

/** The project's root (the test build lives in build/test/helpers). */
export const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CLI = join(PROJECT, 'dist', 'cli.mjs');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, for messages that may go to either. */
  out: string;
}

/** An environment without anything the calling shell or hook would leak into a test repo. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GIT_') || k === 'GATE_LADDER' || k === 'HUSKY' || k === 'FORCE_COLOR' || k.startsWith('npm_')) continue;
    env[k] = v;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
    NO_COLOR: '1',
    ...extra,
  };
}

export function sh(
  cmd: string,
  args: readonly string[],
  cwd: string,
  opts: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): Run {
  // execa: a clean environment (no inherited one), the exit code as data, never a throw.
  const r = execaSync(cmd, args, {
    cwd,
    env: cleanEnv(opts.env),
    extendEnv: false,
    input: opts.input ?? '',
    timeout: opts.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
    reject: false,
    stripFinalNewline: false,
  });
  const stdout = String(r.stdout ?? '');
  const stderr = String(r.stderr ?? '');
  return { code: r.exitCode ?? null, stdout, stderr, out: stdout + stderr };
}

let installed: string | undefined;

/**
 * The packed gate-ladder installed as a user installs it: `npm i -D gate-ladder`, with lint-staged
 * beside it. scripts/test.mjs installs it once for every test file it runs and names it in
 * GL_TEST_INSTALLED (one pack and install per file would cost a few seconds each); a file run on its
 * own packs once for its process.
 */
export function installedModules(): string {
  if (installed) return installed;
  const shared = process.env.GL_TEST_INSTALLED;
  if (shared !== undefined && existsSync(join(shared, 'gate-ladder', 'package.json'))) return (installed = shared);
  const dir = packInstall();
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return (installed = join(dir, 'node_modules'));
}

/**
 * `npm pack`s a copy of what the package ships, with its pack scripts run as `npm publish` runs them
 * (prepack strips this repository's own `prepare`, so the project's package.json is never rewritten
 * under a test), and installs the tarball into a new temp folder: returned; its `node_modules` is what
 * test repos link. The caller removes it.
 */
export function packInstall(): string {
  if (!existsSync(CLI)) throw new Error('dist/cli.mjs is missing: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'gl-pack-'));
  const stage = join(dir, 'stage');
  mkdirSync(join(stage, 'scripts'), { recursive: true });
  for (const f of ['package.json', 'README.md', 'LICENSE', 'scripts/pack-manifest.mjs']) copyFileSync(join(PROJECT, f), join(stage, f));
  cpSync(join(PROJECT, 'dist'), join(stage, 'dist'), { recursive: true });
  const pack = sh('npm', ['pack', '--silent', '--pack-destination', dir], stage);
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.out}`);
  const tarball = join(dir, pack.stdout.trim().split('\n').pop()!);
  writeFileSync(join(dir, 'package.json'), '{"name":"gl-install","private":true}\n');
  // lint-staged is an optional peer: installed next to gate-ladder, as a user who wants a lint-staged tier would.
  const lintStaged = (JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
    .devDependencies['lint-staged'];
  const inst = sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', tarball, `lint-staged@${lintStaged}`],
    dir,
    {
      timeoutMs: 300_000,
    },
  );
  if (inst.code !== 0) throw new Error(`npm install of the packed tarball failed: ${inst.out}`);
  return dir;
}

/**
 * pnpm's layout: the repo's node_modules holds gate-ladder alone, a link to the installed package;
 * its dependencies (jiti, husky, ...) are found only from the package's real path.
 */
export function linkGateLadderAlone(repo: Repo): void {
  const modules = join(repo.dir, 'node_modules');
  rmSync(modules);
  mkdirSync(modules);
  symlinkSync(join(installedModules(), 'gate-ladder'), join(modules, 'gate-ladder'), 'dir');
}

export interface Repo {
  /** The work clone. */
  dir: string;
  /** The bare remote. */
  remote: string;
  git: (...args: string[]) => Run;
  /** git that must succeed; returns trimmed stdout. */
  gitOk: (...args: string[]) => string;
  write: (path: string, content: string) => void;
  read: (path: string) => string;
  commit: (message: string) => string;
  push: (args?: string[], env?: Record<string, string>) => Run;
  /** The installed CLI, as a user runs it from the repo. */
  cli: (args: string[], opts?: { env?: Record<string, string>; input?: string; timeoutMs?: number }) => Run;
  /** Rows of the repo's default ledger. */
  ledger: () => Record<string, unknown>[];
  ledgerPath: string;
  /** A second clone of the remote (next to this one, removed with it), with gate-ladder installed. */
  clone: (name: string, args?: string[]) => Repo;
}

export interface RepoOptions {
  /** Files to commit as the first commit (pushed to the remote when `pushInitial`). */
  files?: Record<string, string>;
  /** Install gate-ladder's hook with `gate-ladder install` (default true). */
  install?: boolean;
  /** Push the first commit before the test starts (with GATE_LADDER=0), default true. */
  pushInitial?: boolean;
}

const GIT_CONFIG: readonly (readonly [string, string])[] = [
  ['user.name', 'Test'],
  ['user.email', 'test@example.invalid'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['gc.auto', '0'],
  ['core.quotePath', 'false'],
];

/** The helpers for a work clone at `dir` whose remote is `remote`. */
function repoAt(dir: string, remote: string): Repo {
  const git = (...args: string[]) => sh('git', args, dir);
  const gitOk = (...args: string[]) => {
    const r = git(...args);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.out}`);
    return r.stdout.trim();
  };
  const write = (path: string, content: string) => {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    if (path.endsWith('.sh')) chmodSync(file, 0o755);
  };
  const ledgerPath = join(dir, '.git', 'gate-ladder', 'ledger.jsonl');
  const repo: Repo = {
    dir,
    remote,
    git,
    gitOk,
    write,
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    commit: (message) => {
      gitOk('add', '-A');
      gitOk('commit', '-q', '--allow-empty', '-m', message);
      return gitOk('rev-parse', 'HEAD');
    },
    push: (args = ['origin', 'HEAD'], env = {}) => sh('git', ['push', ...args], dir, { env, timeoutMs: 300_000 }),
    cli: (args, o = {}) => sh(process.execPath, [join(dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), ...args], dir, o),
    ledger: () =>
      existsSync(ledgerPath)
        ? readFileSync(ledgerPath, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [],
    ledgerPath,
    clone: (name, args = []) => {
      const to = join(dirname(dir), name);
      const r = sh('git', ['clone', '-q', ...args, `file://${remote}`, to], dirname(dir));
      if (r.code !== 0) throw new Error(`git clone failed: ${r.out}`);
      const c = repoAt(to, remote);
      for (const [k, v] of GIT_CONFIG) c.gitOk('config', k, v);
      symlinkSync(installedModules(), join(to, 'node_modules'), 'dir');
      const i = c.cli(['install']);
      if (i.code !== 0) throw new Error(`gate-ladder install in the clone failed: ${i.out}`);
      return c;
    },
  };
  return repo;
}

const DEFAULT_FILES: Record<string, string> = {
  '.gitignore': 'node_modules\n',
  'package.json': '{\n  "name": "fixture",\n  "private": true,\n  "scripts": {\n    "test": "node check.js"\n  }\n}\n',
};

/**
 * Whether `install` may read a file: those at the top of the repository (package.json, configs,
 * lockfiles, lint-staged's files) and the hooks folder. A plain `install` reads no other file: it loads
 * the config only with `--pre-commit`, which `withRepo` never passes.
 */
const readByInstall = (path: string) => !path.includes('/') || path.startsWith('.husky/');
/** Of gate-ladder's own config files, a plain `install` asks only whether one exists (to write a starter config or not). */
const configFile = (path: string) => /^(gate-ladder\.config\.[cm]?[jt]s|\.gate-ladderrc(\.json|\.ya?ml)?)$/.test(path);

/** Stage one, in `base`: a bare remote and a work clone holding `files`, with gate-ladder installed when `install`. */
function initRepo(base: string, files: Record<string, string>, install: boolean): Repo {
  const dir = join(base, 'work');
  const remote = join(base, 'remote.git');
  const init = sh('git', ['init', '-q', '--bare', '-b', 'main', remote], base);
  if (init.code !== 0) throw new Error(init.out);
  mkdirSync(dir);
  const repo = repoAt(dir, remote);
  repo.gitOk('init', '-q', '-b', 'main');
  for (const [k, v] of GIT_CONFIG) repo.gitOk('config', k, v);
  repo.gitOk('remote', 'add', 'origin', remote);
  symlinkSync(installedModules(), join(dir, 'node_modules'), 'dir');
  for (const [path, content] of Object.entries(files)) repo.write(path, content);
  if (install) {
    const r = repo.cli(['install']);
    if (r.code !== 0) throw new Error(`gate-ladder install failed: ${r.out}`);
  }
  return repo;
}

/** Stage two: the rest of the files, the first commit, and its push when `pushInitial` (the hook bypassed). */
function finishRepo(repo: Repo, files: Record<string, string>, pushInitial: boolean): Repo {
  for (const [path, content] of Object.entries(files)) repo.write(path, content);
  repo.commit('initial');
  if (pushInitial) {
    const r = repo.push(['-q', '--no-verify', 'origin', 'main']);
    if (r.code !== 0) throw new Error(`initial push failed: ${r.out}`);
    repo.gitOk('remote', 'set-head', 'origin', 'main');
  }
  return repo;
}

/** The files of a test's first commit, split into what `install` may read and the rest. */
function filesOf(opts: RepoOptions): { early: Record<string, string>; late: Record<string, string> } {
  const early: Record<string, string> = {};
  const late: Record<string, string> = {};
  for (const [path, content] of Object.entries({ ...DEFAULT_FILES, ...opts.files })) {
    if (configFile(path)) {
      // There for install (empty), written whole after it: tests of one file share their installs.
      early[path] = '';
      late[path] = content;
    } else (readByInstall(path) ? early : late)[path] = content;
  }
  return { early, late };
}

/**
 * Builds, in `base`, what a test starts from: a bare remote and a work clone with the files committed,
 * gate-ladder installed (`install`) and the first commit pushed (`pushInitial`), as a user would.
 */
function buildRepo(base: string, opts: RepoOptions): Repo {
  const { early, late } = filesOf(opts);
  return finishRepo(initRepo(base, early, opts.install !== false), late, opts.pushInitial !== false);
}

/** Files below `dir` (not following links, not into git's object store) that name `text`. */
function filesNaming(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'objects') found.push(...filesNaming(path, text));
    else if (e.isFile() && readFileSync(path, 'latin1').includes(text)) found.push(path);
  }
  return found;
}

/**
 * Starting points already built in this process. Building a repository costs about a dozen processes
 * (the packed CLI's `install` alone is a Node start with yargs, 0.5 to 1 s on this machine); a copy
 * costs a few milliseconds. Two stages are kept: the installed clone before its first commit, by the
 * files `install` may read (most tests of a file share it), and the finished one, by all the options
 * (many tests share that too); and the set-ups `withPrepared` names. A template whose copy would still
 * point at it (a path other than the remote's URL in .git/config; for a set-up, a path outside its
 * clones' .git folders) is not used: those tests build their repositories themselves.
 */
interface Template {
  base: string;
  /** The files that name `base`: rewritten in each copy. */
  pathFiles: string[];
}
const templates = new Map<string, Template | null>();
let templateRoot: string | undefined;
let templateCount = 0;

/** Copies a template's remote and clone into `base` (an empty folder); returns the copy's helpers. */
function copyOf(from: Template, base: string): Repo {
  // verbatimSymlinks: the node_modules link stays the link a user's install makes, not a copy.
  cpSync(from.base, base, { recursive: true, verbatimSymlinks: true });
  for (const f of from.pathFiles) {
    const to = join(base, f.slice(from.base.length));
    writeFileSync(to, readFileSync(to, 'latin1').split(from.base).join(base), 'latin1'); // byte for byte beside the path
  }
  return repoAt(join(base, 'work'), join(base, 'remote.git'));
}

/** The template for `key`, made by `make` in a new folder of the templates' root on first use. */
function templateFor(key: string, make: (base: string) => void, prepared = false): Template | null {
  if (templates.has(key)) return templates.get(key)!;
  if (templateRoot === undefined) {
    const root = mkdtempSync(join(tmpdir(), 'gl-tmpl-'));
    templateRoot = root;
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  }
  const base = join(templateRoot, String(templateCount++));
  mkdirSync(base);
  make(base);
  // The files naming the folder are rewritten in each copy. A starting point of `withRepo`: only the work
  // clone's git config may (the remote's URL). A set-up of `withPrepared`: files in the .git of any clone in it
  // (the URL, `clone: from <url>` in its reflogs, gate-ladder's config cache entries, keyed by the root, so a
  // copy's first run misses them as a new clone's would). The remote never; nor is a clone with worktrees
  // copied (gate-ladder's pool slots are made outside the folder: copies would share them).
  const clones = readdirSync(base).filter((name) => existsSync(join(base, name, '.git')));
  const pathFiles = filesNaming(base, base);
  const ok = prepared
    ? pathFiles.every((f) => clones.some((c) => f.startsWith(join(base, c, '.git') + sep))) &&
      clones.every((c) => !existsSync(join(base, c, '.git', 'worktrees')))
    : pathFiles.every((f) => f === join(base, 'work', '.git', 'config'));
  const made = ok ? { base, pathFiles } : null;
  templates.set(key, made);
  return made;
}

function template(opts: RepoOptions): Template | null {
  const { early, late } = filesOf(opts);
  const install = opts.install !== false;
  const pushInitial = opts.pushInitial !== false;
  const installed = () => templateFor(JSON.stringify(['installed', early, install]), (base) => initRepo(base, early, install));
  return templateFor(JSON.stringify(['pushed', early, late, install, pushInitial]), (base) => {
    const from = installed();
    finishRepo(from === null ? initRepo(base, early, install) : copyOf(from, base), late, pushInitial);
  });
}

/**
 * Like `withRepo`, from a set-up several tests of a file share: `withRepo(opts)` and then `prepare`
 * (clones made with `repo.clone`, commits, pushes, runs: anything inside the test's folder) done once
 * per process under `key` (unique in the file), kept as a template and copied for each test. A copy is
 * what `prepare` would have left: its clones are reached with `cloneOf(repo, name)`. Where a file the
 * set-up wrote names its folder (other than a clone's remote URL, rewritten in each copy), it cannot be
 * copied, and each test prepares its own.
 */
export async function withPrepared<T>(
  opts: RepoOptions,
  key: string,
  prepare: (repo: Repo) => void,
  fn: (repo: Repo) => Promise<T> | T,
): Promise<T> {
  const made = templateFor(
    JSON.stringify(['prepared', key, opts]),
    (base) => {
      const from = template(opts);
      const repo = from === null ? buildRepo(base, opts) : copyOf(from, base);
      if (from !== null) repo.git('update-index', '-q', '--refresh');
      prepare(repo);
    },
    true,
  );
  if (made === null)
    return withRepo(opts, (repo) => {
      prepare(repo);
      return fn(repo);
    });
  const base = mkdtempSync(join(tmpdir(), 'gl-repo-'));
  try {
    const repo = copyOf(made, base);
    // Every clone in the copy: new inodes and change times, as in `withRepo`.
    for (const name of readdirSync(base))
      if (existsSync(join(base, name, '.git'))) sh('git', ['update-index', '-q', '--refresh'], join(base, name));
    return await fn(repo);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** The helpers of the clone `name` that `repo.clone(name)` made (in a copy `withPrepared` gave). */
export function cloneOf(repo: Repo, name: string): Repo {
  return repoAt(join(dirname(repo.dir), name), repo.remote);
}

/** A real repo with a bare remote in a temp dir; removed in `finally`. */
export async function withRepo<T>(opts: RepoOptions, fn: (repo: Repo) => Promise<T> | T): Promise<T> {
  const base = mkdtempSync(join(tmpdir(), 'gl-repo-'));
  if (resolve(base).startsWith(PROJECT)) throw new Error('refusing to make a test repo inside the project');
  try {
    const from = template(opts);
    let repo: Repo;
    if (from === null) repo = buildRepo(base, opts);
    else {
      repo = copyOf(from, base);
      // The copy has new inodes and change times: git (and gate-ladder's index check) would see every
      // file as possibly changed until the index is refreshed, as it is in a clone that was not copied.
      repo.git('update-index', '-q', '--refresh');
    }
    return await fn(repo);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** A tiny project whose "tests" are shell scripts, so verdicts are exact and fast. */
export const LADDER_CONFIG = `export default {
  tiers: [
    { name: 't1-properties', run: 'sh check.sh properties', timeout: 30, skipWhenTestAdjacent: true },
    { name: 't2-fixtures', run: 'sh check.sh fixtures', timeout: 30 },
  ],
};
`;

/** check.sh: fails (exit 1) when src/value.txt says "bug"; exits with $EXIT_CODE from harness.txt if present. */
export const CHECK_SH = `#!/bin/sh
if [ -f harness.txt ]; then exit "$(cat harness.txt)"; fi
if grep -q bug src/value.txt; then echo "$1: assertion failed: value is buggy"; exit 1; fi
echo "$1: ok"
`;

export const LADDER_FILES: Record<string, string> = {
  'gate-ladder.config.ts': LADDER_CONFIG,
  'check.sh': CHECK_SH,
  'src/value.txt': 'good\n',
  'tests/fixture.txt': 'fixture v1\n',
};

/** Normalizes shas, durations and temp paths so output can be compared. */
export function normalize(text: string): string {
  return text
    .replace(/\b[0-9a-f]{40}\b/g, '<sha>')
    .replace(/\b[0-9a-f]{12}\b/g, '<short>')
    .replace(/\d+\.\d+ s\b/g, '<n> s')
    .split(tmpdir())
    .join('/tmp')
    .replace(/\/tmp\/gl-[\w-]+/g, '<tmp>');
}

/**
 * Command lines of the live processes that match `pattern`, read from /proc (no pgrep: a missing
 * tool must not read as "nothing left"). Throws where /proc cannot be read.
 */
export function processesMatching(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue; // exited meanwhile
    }
    if (pattern.test(cmd)) found.push(`${pid} ${cmd}`);
  }
  return found;
}

/**
 * A `sleep` length of this test process's own, so a check for what a test left running never sees
 * another test process's gate: each test file runs on several Nodes at once under .ci/run.
 * `k` (0..7) tells apart the sleeps of one test.
 */
export function ownSleep(k = 0): number {
  return 100_000 + (OWN_SLEEP_BASE % 100_000) * 8 + k;
}
const OWN_SLEEP_BASE = (process.pid * 7919 + Math.floor(Math.random() * 100_000)) >>> 0;

/** The processes matching `pattern` that are still there after `ms` of polling (empty: all gone). */
export function leftAfter(pattern: RegExp, ms = 30_000): string[] {
  const end = Date.now() + ms;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const left = processesMatching(pattern);
    if (left.length === 0 || Date.now() > end) return left;
    Atomics.wait(nap, 0, 0, 25);
  }
}

/**
 * The id gate-ladder gives a node:test case of `file`: Node 23 and later name the file in their
 * JUnit report (`file::title`), earlier ones do not (`title`). The tests' gates run `node` from PATH,
 * the Node under test.
 */
export function nodeTestId(file: string, title: string): string {
  return Number(process.versions.node.split('.')[0]) >= 23 ? `${file}::${title}` : title;
}

let modules: string | undefined;
/**
 * One folder for repos whose tiers run real test runners: this project's dev dependencies (the runners
 * among them, installed once by `npm ci`) linked one by one, and the packed gate-ladder beside them.
 * A repo's node_modules links to it (`useRunnerModules`).
 */
export function runnerModules(): string {
  if (modules) return modules;
  const dir = mkdtempSync(join(tmpdir(), 'gl-runners-'));
  const nm = join(dir, 'node_modules');
  mkdirSync(nm);
  const project = join(PROJECT, 'node_modules');
  for (const name of readdirSync(project)) if (name !== 'gate-ladder') symlinkSync(join(project, name), join(nm, name));
  symlinkSync(join(installedModules(), 'gate-ladder'), join(nm, 'gate-ladder'), 'dir');
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return (modules = nm);
}

/** The repo's node_modules made the runners' folder (runnerModules): its tiers can run jest, vitest, mocha... */
export function useRunnerModules(repo: Repo): void {
  unlinkSync(join(repo.dir, 'node_modules'));
  symlinkSync(runnerModules(), join(repo.dir, 'node_modules'), 'dir');
}

const lintStagedFolders = new Map<string, string>();
/**
 * A project's node_modules as `npm i -D gate-ladder lint-staged@X` lays it out: the packed gate-ladder
 * (a copy, so that the lint-staged it imports is the one beside it) with its dependencies, and another
 * lint-staged, one of this project's dev dependencies that are npm aliases: `lint-staged-17` (17.6.3)
 * copied, so it finds only its own dependencies (tinyexec, picomatch, string-argv, and no `yaml`, which
 * lint-staged 17 no longer brings); `lint-staged-16-2` (16.2.0, on nano-spawn, which leaves a task's spawn error unhandled) linked, its
 * dependencies found where npm put them.
 */
export function lintStagedModules(alias: 'lint-staged-17' | 'lint-staged-16-2', version?: string): string {
  const key = `${alias}@${version ?? ''}`;
  const known = lintStagedFolders.get(key);
  if (known) return known;
  const dir = mkdtempSync(join(tmpdir(), `gl-${alias}-`));
  const nm = join(dir, 'node_modules');
  mkdirSync(nm);
  const from = join(PROJECT, 'node_modules', alias);
  cpSync(join(installedModules(), 'gate-ladder'), join(nm, 'gate-ladder'), { recursive: true, verbatimSymlinks: true });
  for (const dep of ['husky', 'jiti', 'picomatch']) symlinkSync(join(installedModules(), dep), join(nm, dep), 'dir');
  if (alias === 'lint-staged-17') {
    cpSync(from, join(nm, 'lint-staged'), { recursive: true, verbatimSymlinks: true });
    // `version`: the copy says it is another version (a lint-staged gate-ladder was not written for), and is 17's code.
    if (version !== undefined) {
      const file = join(nm, 'lint-staged', 'package.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/"version": "[^"]+"/, `"version": "${version}"`));
    }
    // Where node resolves them from lint-staged-17: its own nested copy, else the hoisted one.
    for (const dep of ['tinyexec', 'string-argv']) {
      const nested = join(from, 'node_modules', dep);
      symlinkSync(existsSync(nested) ? nested : join(PROJECT, 'node_modules', dep), join(nm, dep), 'dir');
    }
  } else symlinkSync(from, join(nm, 'lint-staged'), 'dir');
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  lintStagedFolders.set(key, nm);
  return nm;
}

/** The repo's node_modules made lintStagedModules(alias): its lintStaged tier runs that lint-staged. */
export function useLintStaged(repo: Repo, alias: 'lint-staged-17' | 'lint-staged-16-2', version?: string): void {
  unlinkSync(join(repo.dir, 'node_modules'));
  symlinkSync(lintStagedModules(alias, version), join(repo.dir, 'node_modules'), 'dir');
}
