/**
 * What install reads of the project: the repository root's test files and texts, package.json's
 * scripts and keys (and its edit, indentation kept), lint-staged's config, the package's folder and
 * where node_modules holds gate-ladder, the commands on PATH.
 */
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from '../util/node.js';
import type { RootFacts } from './starter.js';

/** Root files whose text says how tests run without a package.json script (and the Makefiles make reads). */
export const ROOT_TEXTS = /^(?:pyproject\.toml|tox\.ini|setup\.cfg|requirements[\w.-]*\.txt|GNUmakefile|makefile|Makefile)$/;

/** What the repository root says about tests that are not a package.json script: for `rootTests` in starter.ts. */
export function rootFacts(root: string): RootFacts {
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
export function onPath(name: string): boolean {
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

/** Package.json text with its own indentation kept. */
export function editPackageJson(root: string, edit: (pkg: Record<string, unknown>) => boolean): boolean {
  const file = join(root, 'package.json');
  if (!existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  const pkg = JSON.parse(text) as Record<string, unknown>;
  if (!edit(pkg)) return false;
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  writeFileSync(file, `${JSON.stringify(pkg, null, indent)}${text.endsWith('\n') ? '\n' : ''}`);
  return true;
}

/** lint-staged's own config files, or a "lint-staged" key in package.json. */
export function lintStagedConfigured(root: string): boolean {
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

/** `path` relative to `root` when it is inside it, else as it is. */
export function relativeOrAbsolute(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? path : rel.split(sep).join('/');
}

/**
 * The folder of the package.json nearest to `cwd`, from `cwd` up to the repository root, relative to the
 * root with `/` ('' for the root itself, or when no folder on the way has one).
 */
export function packageFolder(cwd: string, root: string): string {
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
export function installedAt(root: string, packageDir: string): string {
  const parts = packageDir === '' ? [] : packageDir.split('/');
  for (let n = parts.length; n >= 0; n--) {
    const dir = parts.slice(0, n).join('/');
    if (existsSync(join(root, dir, 'node_modules', 'gate-ladder', 'package.json'))) return dir;
  }
  return packageDir;
}

export function readScripts(root: string): Record<string, string> {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    return pkg.scripts ?? {};
  } catch {
    return {};
  }
}

export function packageHasKey(root: string): boolean {
  try {
    return 'gate-ladder' in (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as object);
  } catch {
    return false;
  }
}

/** Whether package.json lists husky among its own dependencies (else it is there only as gate-ladder's). */
export function dependsOnHusky(pkgFile: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as Record<string, Record<string, string> | undefined>;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => pkg[k]?.husky !== undefined);
  } catch {
    return false;
  }
}
