/**
 * The project's own tools run on the starter config install writes, so its first push's lint tier does
 * not fail on gate-ladder's file: its prettier, its biome, its eslint or xo.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { existsSync, readFileSync, readdirSync } from '../util/node.js';
import { type PrettierFacts, type ProjectLinter, usesBiome, usesPrettier } from './starter.js';

/**
 * Formats `file` with the project's prettier (node_modules/.bin/prettier in the package's folder or at
 * the root), as its own config says: true when it did, the reason when it could not, undefined when
 * the project does not format with prettier (`usesPrettier`: a prettier that another tool brought into
 * node_modules/.bin would write its style, not the project's).
 */
export function formatWithPrettier(root: string, packageDir: string, file: string): true | string | undefined {
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
export function fixWithBiome(root: string, packageDir: string, file: string): true | string | undefined {
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
export function prettierFacts(root: string, packageDir: string): PrettierFacts {
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

/** What the project's linter made of the starter config after `--fix`. */
export type LintOutcome =
  | { kind: 'clean'; changed: boolean }
  | { kind: 'flagged'; count: number; first: string }
  | { kind: 'failed'; why: string };

/**
 * Runs the project's eslint or xo with `--fix` on `file` (the starter config at the repository root), as
 * its lint tier would read it, so the first push's lint tier does not fail on gate-ladder's own file.
 * Undefined when it does not lint the file: no such linter installed, eslint 8 without `--ext .ts`
 * (its `eslint .` reads .js files only), a file its config does not match or ignores.
 */
export function fixWithLinter(root: string, file: string, found: ProjectLinter): LintOutcome | undefined {
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
