/** The runner behind a tier, read where the gate runs: package.json there is the judged commit's. */
import type { Dirent } from 'node:fs';
import { readFileSync, readdirSync } from '../util/node.js';
import { join, posix, resolve, sep } from 'node:path';
import { git } from '../git/git.js';
import { type Detection, type MakeDryRun, type Scripts, type WorkspaceManager, type Workspaces, detectRunner } from './detect.js';
import { pnpmWorkspacePatterns } from './pnpm-workspaces.js';
import { type WorkspacePackage, orderWorkspaces, workspacePatterns } from './workspaces.js';
import type { ResolvedTier } from '../config/resolved.js';

/** package.json's scripts in `dir`; `null` when there is no readable package.json. */
export function readScripts(dir: string): Scripts {
  let text: string;
  try {
    text = readFileSync(join(dir, 'package.json'), 'utf8');
  } catch {
    return null;
  }
  return scriptsOf(text);
}

/** The string-valued scripts of package.json's text; `null` when it is not JSON. */
function scriptsOf(text: string): Scripts {
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown } | null)?.scripts;
    if (scripts === null || typeof scripts !== 'object') return {};
    return Object.fromEntries(Object.entries(scripts).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  } catch {
    return null;
  }
}

/** A package.json's text as a workspace (`dir` relative to the root's folder); undefined when it is not JSON. */
function workspaceOf(dir: string, text: string): WorkspacePackage | undefined {
  let pkg: { name?: unknown; version?: unknown };
  try {
    pkg = (JSON.parse(text) ?? {}) as typeof pkg;
  } catch {
    return undefined;
  }
  const scripts = scriptsOf(text) ?? {};
  const named = typeof pkg.name === 'string' && pkg.name !== '' ? pkg.name : undefined;
  // npm names a workspace without a name by its folder, and `name@version` (its banner's) only with both.
  const name = named ?? posix.basename(dir);
  return {
    dir,
    name,
    ...(named !== undefined && typeof pkg.version === 'string' && pkg.version !== '' && { id: `${named}@${pkg.version}` }),
    scripts,
  };
}

/** How deep below a glob's fixed folders its matches may lie (`**`: a few folders). */
const globDepth = (pattern: string) => (pattern.includes('**') ? 6 : pattern.split('/').length);

/** The fixed folders a workspaces glob starts from (`packages` of `packages/*`). */
function globBase(pattern: string): string {
  const segs = pattern
    .replace(/^!+/, '')
    .replace(/^\.?\/+/, '')
    .split('/');
  const fixed: string[] = [];
  for (const s of segs) {
    if (/[*?[\]{}()!+@]/.test(s)) break;
    fixed.push(s);
  }
  return fixed.join('/');
}

/** The yaml package's `parse`, once loaded (see withYaml); `undefined` until then. */
type YamlParse = ((text: string) => unknown) | undefined;

/**
 * The workspaces declared in `dir`, read from `read` (a file's text or `null`) and `list` (the folders
 * below a folder holding a package.json, to a depth): npm's by package.json's `workspaces`, pnpm's by
 * pnpm-workspace.yaml's `packages` (read by `yaml`; without it, `wantYaml` is called and the answer
 * is `null`); `null` when it declares none.
 */
function workspacesFrom(
  read: (path: string) => string | null,
  list: (base: string, depth: number) => string[],
  manager: WorkspaceManager,
  yaml: YamlParse,
  wantYaml: () => void,
): Workspaces {
  const text = read('package.json');
  if (text === null) return null;
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return null;
  }
  let patterns: string[] | undefined;
  if (manager === 'pnpm') {
    const text = read('pnpm-workspace.yaml');
    if (text !== null && yaml === undefined) {
      wantYaml();
      return null;
    }
    patterns = text === null ? undefined : pnpmWorkspacePatterns(parsedOrNull(yaml!, text));
  } else patterns = workspacePatterns(pkg);
  const root = workspaceOf('.', text);
  if (patterns === undefined || root === undefined) return null;
  const dirs = new Set<string>();
  for (const p of patterns) {
    if (p.startsWith('!')) continue;
    const q = p.replace(/^\.?\/+/, '').replace(/\/+$/, '');
    const b = globBase(q);
    for (const d of list(b, globDepth(q) - (b === '' ? 0 : b.split('/').length))) dirs.add(d);
  }
  const found: WorkspacePackage[] = [];
  for (const d of orderWorkspaces(patterns, [...dirs])) {
    const t = read(`${d}/package.json`);
    const w = t === null ? undefined : workspaceOf(d, t);
    if (w) found.push(w);
  }
  return { root, list: found };
}

/** Folders (relative to `dir`, with `/`) below `base` holding a package.json, to `depth` levels; not into node_modules or dot folders. */
function packageDirs(dir: string, base: string, depth: number): string[] {
  const out: string[] = [];
  const walk = (rel: string, left: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isFile() && e.name === 'package.json' && rel !== '') out.push(rel);
      if (left > 0 && e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.'))
        walk(rel === '' ? e.name : `${rel}/${e.name}`, left - 1);
    }
  };
  walk(base, depth);
  return out;
}

/** YAML that does not parse declares nothing. */
function parsedOrNull(yaml: (text: string) => unknown, text: string): unknown {
  try {
    return yaml(text);
  } catch {
    return null;
  }
}

/** The workspaces package.json (npm) or pnpm-workspace.yaml (pnpm) in `dir` declares; `null` when it declares none. */
export function readWorkspaces(dir: string, manager: WorkspaceManager = 'npm'): Promise<Workspaces> {
  return withYaml((yaml, want) => workspacesIn(dir, manager, yaml, want));
}

function workspacesIn(dir: string, manager: WorkspaceManager, yaml: YamlParse, wantYaml: () => void): Workspaces {
  return workspacesFrom(
    (path) => {
      try {
        return readFileSync(join(dir, path), 'utf8');
      } catch {
        return null;
      }
    },
    (base, depth) => packageDirs(dir, base, depth),
    manager,
    yaml,
    wantYaml,
  );
}

/**
 * Runs `detect` without the yaml package; only when it asked for a pnpm-workspace.yaml to be read
 * is the package loaded (a lazy import: most pushes never need it) and `detect` run again with it.
 */
async function withYaml<T>(detect: (yaml: YamlParse, wantYaml: () => void) => T): Promise<T> {
  let wanted = false;
  const first = detect(undefined, () => {
    wanted = true;
  });
  if (!wanted) return first;
  const mod = await import('yaml');
  // A CommonJS package: bundled into a split chunk (dist/), its exports sit on `default` only, as node
  // would give them without its named-export detection; the tsc build (unit tests) gets both.
  const parse = mod.parse ?? (mod as unknown as { default: typeof mod }).default.parse;
  return detect(
    (text) => parse(text),
    () => {},
  );
}

/** The names GNU make looks for, in its order. */
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

/** How long make may take to say what it would run (`$(shell ...)` lines and sub-makes do run under -n). */
const MAKE_DRY_RUN_MS = 10_000;

/**
 * What a make command would run: `make -n` with the command's own arguments (`args`, after `make`),
 * in `dir`; with `makefile`, that text is the Makefile (read from a commit, given on stdin). make
 * prints each recipe line it would run, its prerequisites' and sub-makes' included, variables
 * expanded, and runs nothing but `$(shell ...)` and `$(MAKE)` lines (the latter with -n again). Its
 * own notes (`make: Nothing to be done`) are left out. Why not, when make is missing, fails or
 * takes longer than MAKE_DRY_RUN_MS.
 */
export function makeDryRun(dir: string, args: readonly string[], makefile?: string): MakeDryRun {
  const env: NodeJS.ProcessEnv = { ...process.env, GATE_LADDER: '0' };
  // Flags of a make this run was started from would pass on to this one (a -j job server, -k, ...).
  for (const v of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEFILES', 'GNUMAKEFLAGS']) delete env[v];
  const r = process
    .getBuiltinModule('node:child_process')
    .spawnSync('make', ['-n', '--no-print-directory', ...(makefile !== undefined ? ['-f', '-'] : []), ...args], {
      cwd: dir,
      env,
      input: makefile ?? '',
      encoding: 'utf8',
      timeout: MAKE_DRY_RUN_MS,
      killSignal: 'SIGKILL',
      maxBuffer: 8 * 1024 * 1024,
    });
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return { unread: 'make is not installed here' };
  if (code === 'ETIMEDOUT') return { unread: `make -n took longer than ${MAKE_DRY_RUN_MS / 1000} s` };
  if (r.error) return { unread: r.error.message };
  if (r.status !== 0) return { unread: `make -n failed: ${r.stderr.trim().split('\n').pop() || `exit ${r.status}`}` };
  // A recipe line continued with a backslash is printed as written: one command.
  return {
    recipe: r.stdout
      .replace(/[ \t]*\\\n[ \t]*/g, ' ')
      .split('\n')
      .filter((l) => l.trim() !== '' && !/^g?make(?:\[\d+\])?: /.test(l)),
  };
}

/** The same question asked once for each set of arguments. */
function askedOnce(make: (args: readonly string[]) => MakeDryRun): (args: readonly string[]) => MakeDryRun {
  const seen = new Map<string, MakeDryRun>();
  return (args) => {
    const key = JSON.stringify(args);
    if (!seen.has(key)) seen.set(key, make(args));
    return seen.get(key)!;
  };
}

/** Detects a tier's runner in the folder it runs in (`root` joined with the tier's `cwd`). */
export async function detectTier(tier: ResolvedTier, root: string): Promise<Detection> {
  return (await detectTierReading(tier, root)).detection;
}

/**
 * detectTier, and whether it read nothing but package.json in the tier's folder (no `make -n`, no
 * workspace's package.json, no pnpm-workspace.yaml): such a detection follows from the tier and that
 * file's text alone, and may be kept (detect-cache.ts).
 */
export async function detectTierReading(tier: ResolvedTier, root: string): Promise<{ detection: Detection; scriptsOnly: boolean }> {
  const dir = resolve(root, tier.cwd);
  let scriptsOnly = true;
  const make = askedOnce((args) => {
    scriptsOnly = false;
    return makeDryRun(dir, args);
  });
  const detection = await withYaml((yaml, want) =>
    detectRunner(
      tier.run,
      tier.runner,
      () => readScripts(dir),
      make,
      (manager) => {
        scriptsOnly = false;
        return workspacesIn(dir, manager, yaml, want);
      },
    ),
  );
  return { detection, scriptsOnly };
}

/**
 * Detects a tier's runner from a commit (or tree) without checking it out: package.json (or the
 * Makefile, handed to `make -n` on stdin) is read with `git show`, only when the command names a
 * package manager (or make). For `--dry-run` and `--json` plans.
 */
export function detectAtCommit(tier: ResolvedTier, root: string, rev: string): Promise<Detection> {
  const at = (name: string) => posix.normalize(posix.join(tier.cwd.split(sep).join('/'), name));
  const show = (name: string) => {
    const r = git(root, ['show', `${rev}:${at(name)}`]);
    return r.ok ? r.stdout : null;
  };
  const make = askedOnce((args) => {
    // Another folder or Makefile than the tier's: not readable at this commit without a checkout.
    if (args.some((w) => /^(?:-C|-f|--directory|--file|--makefile)/.test(w)))
      return { unread: 'the command names another folder or Makefile' };
    const text = MAKEFILES.map(show).find((t) => t !== null);
    return text == null ? { unread: 'no Makefile at this commit' } : makeDryRun(resolve(root, tier.cwd), args, text);
  });
  // The commit's package.json files below the tier's folder, listed once.
  let listed: string[] | undefined;
  const here = at('.');
  const prefix = here === '.' ? '' : `${here}/`;
  const list = (base: string, depth: number) => {
    if (listed === undefined) {
      const r = git(root, ['ls-tree', '-r', '--name-only', '-z', rev, '--', here]);
      listed = r.ok
        ? r.stdout
            .split('\0')
            .filter((p) => p.endsWith('/package.json') && p.startsWith(prefix))
            .map((p) => p.slice(prefix.length, -'/package.json'.length))
        : [];
    }
    const under = base === '' ? '' : `${base}/`;
    return listed.filter(
      (d) =>
        d.startsWith(under) &&
        !d.split('/').includes('node_modules') &&
        d.split('/').length - (base === '' ? 0 : base.split('/').length) <= depth,
    );
  };
  const scripts = () => {
    const text = show('package.json');
    return text === null ? null : scriptsOf(text);
  };
  return withYaml((yaml, want) =>
    detectRunner(tier.run, tier.runner, scripts, make, (manager) => workspacesFrom(show, list, manager, yaml, want)),
  );
}
