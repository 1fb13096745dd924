import { existsSync, readFileSync } from '../util/node.js';
import { join } from 'node:path';

/** The package managers whose commands gate-ladder speaks. */
export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** Lockfiles, in the order they decide (a repository with two trusts the first). */
const LOCKFILES: readonly (readonly [string, PackageManager])[] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

/**
 * The project's package manager: package.json's `packageManager` field (corepack's `pnpm@9.1.0`),
 * else its lockfile, else npm. Pure: `has` says whether a file exists at the root, `packageManager`
 * is the field's value.
 */
export function pickPackageManager(packageManager: unknown, has: (file: string) => boolean): PackageManager {
  if (typeof packageManager === 'string') {
    const name = packageManager.split('@')[0];
    if (name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') return name;
  }
  for (const [file, pm] of LOCKFILES) if (has(file)) return pm;
  return 'npm';
}

/** The package manager of the project at `root` (a few stats; read only where a message needs it). */
export function detectPackageManager(root: string): PackageManager {
  let field: unknown;
  try {
    field = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager?: unknown }).packageManager;
  } catch {
    field = undefined;
  }
  return pickPackageManager(field, (file) => existsSync(join(root, file)));
}

/** How each manager says a thing. Pure. */
export const pmSays = {
  /** Runs a package's bin: `npx gate-ladder`, `pnpm exec gate-ladder`, `yarn gate-ladder`, `bunx gate-ladder`. */
  exec: (pm: PackageManager, command: string) =>
    pm === 'pnpm' ? `pnpm exec ${command}` : pm === 'yarn' ? `yarn ${command}` : pm === 'bun' ? `bunx ${command}` : `npx ${command}`,
  /** Runs a package.json script (`bun test` would start bun's own runner, so bun gets `bun run`). */
  script: (pm: PackageManager, script: string) =>
    script === 'test' && pm !== 'bun' ? `${pm} test` : pm === 'yarn' ? `yarn ${script}` : `${pm} run ${script}`,
  /** Installs the project's dependencies. */
  install: (pm: PackageManager) => `${pm} install`,
  /** Adds a dev dependency. */
  addDev: (pm: PackageManager, pkg: string) => (pm === 'npm' ? `npm i -D ${pkg}` : `${pm} add -D ${pkg}`),
};
