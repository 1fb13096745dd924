/** The runner behind a tier, read where the gate runs: package.json there is the judged commit's. */
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix, resolve, sep } from 'node:path';
import { git } from '../git/git.js';
import { type Detection, type Makefile, type Scripts, type WorkspaceManager, type Workspaces, detectRunner } from './detect.js';
import { pnpmWorkspacePatterns } from './pnpm-workspaces.js';
import { type WorkspacePackage, orderWorkspaces, workspacePatterns } from './workspaces.js';
import type { ResolvedTier } from '../types.js';

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
  return { dir, name, ...(named !== undefined && typeof pkg.version === 'string' && pkg.version !== '' && { id: `${named}@${pkg.version}` }), scripts };
}

/** How deep below a glob's fixed folders its matches may lie (`**`: a few folders). */
const globDepth = (pattern: string) => (pattern.includes('**') ? 6 : pattern.split('/').length);

/** The fixed folders a workspaces glob starts from (`packages` of `packages/*`). */
function globBase(pattern: string): string {
  const segs = pattern.replace(/^!+/, '').replace(/^\.?\/+/, '').split('/');
  const fixed: string[] = [];
  for (const s of segs) {
    if (/[*?[\]{}()!+@]/.test(s)) break;
    fixed.push(s);
  }
  return fixed.join('/');
}

/**
 * The workspaces declared in `dir`, read from `read` (a file's text or `null`) and `list` (the folders
 * below a folder holding a package.json, to a depth): npm's by package.json's `workspaces`, pnpm's by
 * pnpm-workspace.yaml's `packages`; `null` when it declares none.
 */
function workspacesFrom(read: (path: string) => string | null, list: (base: string, depth: number) => string[], manager: WorkspaceManager = 'npm'): Workspaces {
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
    const yaml = read('pnpm-workspace.yaml');
    patterns = yaml === null ? undefined : pnpmWorkspacePatterns(yaml);
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
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isFile() && e.name === 'package.json' && rel !== '') out.push(rel);
      if (left > 0 && e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(rel === '' ? e.name : `${rel}/${e.name}`, left - 1);
    }
  };
  walk(base, depth);
  return out;
}

/** The workspaces package.json (npm) or pnpm-workspace.yaml (pnpm) in `dir` declares; `null` when it declares none. */
export function readWorkspaces(dir: string, manager: WorkspaceManager = 'npm'): Workspaces {
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
  );
}

/** The names GNU make looks for, in its order. */
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

/** The Makefile make would read in `dir`; `null` when there is none. */
function readMakefile(dir: string): Makefile {
  for (const name of MAKEFILES) {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      // the next name
    }
  }
  return null;
}

/** Detects a tier's runner in the folder it runs in (`root` joined with the tier's `cwd`). */
export function detectTier(tier: ResolvedTier, root: string): Detection {
  const dir = resolve(root, tier.cwd);
  return detectRunner(tier.run, tier.runner, () => readScripts(dir), () => readMakefile(dir), (manager) => readWorkspaces(dir, manager));
}

/**
 * Detects a tier's runner from a commit (or tree) without checking it out: package.json (or the
 * Makefile) is read with `git show`, only when the command names a package manager (or make). For `--dry-run` and `--json` plans.
 */
export function detectAtCommit(tier: ResolvedTier, root: string, rev: string): Detection {
  const at = (name: string) => posix.normalize(posix.join(tier.cwd.split(sep).join('/'), name));
  const show = (name: string) => {
    const r = git(root, ['show', `${rev}:${at(name)}`]);
    return r.ok ? r.stdout : null;
  };
  return detectRunner(
    tier.run,
    tier.runner,
    () => {
      const text = show('package.json');
      return text === null ? null : scriptsOf(text);
    },
    () => {
      for (const name of MAKEFILES) {
        const text = show(name);
        if (text !== null) return text;
      }
      return null;
    },
    (manager) => {
      // The commit's package.json files below the tier's folder, listed once.
      let listed: string[] | undefined;
      const here = at('.');
      const prefix = here === '.' ? '' : `${here}/`;
      return workspacesFrom(show, (base, depth) => {
        if (listed === undefined) {
          const r = git(root, ['ls-tree', '-r', '--name-only', '-z', rev, '--', here]);
          listed = r.ok ? r.stdout.split('\0').filter((p) => p.endsWith('/package.json') && p.startsWith(prefix)).map((p) => p.slice(prefix.length, -'/package.json'.length)) : [];
        }
        const under = base === '' ? '' : `${base}/`;
        return listed.filter((d) => d.startsWith(under) && !d.split('/').includes('node_modules') && d.split('/').length - (base === '' ? 0 : base.split('/').length) <= depth);
      }, manager);
    },
  );
}
