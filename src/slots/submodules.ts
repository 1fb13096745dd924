/**
 * Submodules in a pool slot, filled from the checkout's own copies: no network. Each submodule of the
 * judged commit becomes a local clone (git hard-links the objects) of the checkout's submodule,
 * checked out at the commit the superproject records, and cleaned like the slot itself on reuse.
 */
import { existsSync, lstatSync, rmSync } from '../util/node.js';
import { join } from 'node:path';
import { git } from '../git/git.js';

export interface Submodule {
  name: string;
  path: string;
}

/** `git config -z --get-regexp` output of `submodule.<name>.path` keys: name and path of each. Pure. */
export function parseSubmodulePaths(z: string): Submodule[] {
  const out: Submodule[] = [];
  for (const entry of z.split('\0')) {
    const nl = entry.indexOf('\n');
    if (nl < 0) continue;
    const key = entry.slice(0, nl);
    const m = /^submodule\.(.+)\.path$/.exec(key);
    if (m && entry.slice(nl + 1) !== '') out.push({ name: m[1]!, path: entry.slice(nl + 1) });
  }
  return out;
}

/** `git ls-files -s -z` lines of gitlinks (mode 160000): path → recorded commit. Pure. */
export function parseGitlinks(z: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of z.split('\0')) {
    const m = /^160000 ([0-9a-f]{40,64}) \d\t(.+)$/s.exec(entry);
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

const CHECKOUT = ['-c', 'core.hooksPath=/dev/null', '-c', 'advice.detachedHead=false', 'checkout', '-q', '-f', '--detach'];

/** Where the checkout keeps this submodule's repository: its work tree, or its git dir under `modules/`. */
function sourceOf(checkout: string, gitDir: string | undefined, sub: Submodule): string | undefined {
  const work = join(checkout, sub.path);
  if (existsSync(join(work, '.git'))) return work;
  const modules = gitDir && join(gitDir, 'modules', sub.name);
  return modules && existsSync(join(modules, 'HEAD')) ? modules : undefined;
}

function isRepo(dir: string): boolean {
  return lstatSync(join(dir, '.git'), { throwIfNoEntry: false }) !== undefined;
}

/**
 * Fills every submodule of the work tree `dir` (recursively) from `checkout`'s copies; `gitDir` is the
 * checkout's git dir (for `modules/<name>`). Returns the submodule paths filled (relative to `dir`) and
 * a note for each that could not be.
 */
export function fillSubmodules(
  dir: string,
  checkout: string,
  gitDir: string | undefined,
  previous: readonly string[] = [],
): { paths: string[]; notes: string[] } {
  const paths: string[] = [];
  const notes: string[] = [];
  if (!existsSync(join(dir, '.gitmodules'))) return { paths, notes };
  const subs = parseSubmodulePaths(
    git(dir, ['config', '-z', '--file', '.gitmodules', '--get-regexp', '^submodule\\..*\\.path$'], { scrub: true }).stdout,
  );
  if (subs.length === 0) return { paths, notes };
  const links = parseGitlinks(git(dir, ['ls-files', '-s', '-z', '--', ...subs.map((s) => `:(literal)${s.path}`)], { scrub: true }).stdout);
  for (const sub of subs) {
    const sha = links.get(sub.path);
    if (sha === undefined) continue;
    const source = sourceOf(checkout, gitDir, sub);
    const to = join(dir, sub.path);
    if (source === undefined) {
      notes.push(
        `submodule ${sub.path} is not initialised in your checkout, so it is empty here too (\`git submodule update --init\` fills it)`,
      );
      continue;
    }
    let ok = false;
    for (let fresh = !isRepo(to); ; fresh = true) {
      if (fresh) {
        rmSync(to, { recursive: true, force: true });
        if (!git(dir, ['clone', '-q', '--no-checkout', '--', source, to], { scrub: true }).ok) break;
      } else {
        git(to, ['clean', '-ffdxq'], { scrub: true });
        dropSubmodules(to, sha, under(previous, sub.path));
      }
      ok = git(to, [...CHECKOUT, sha], { scrub: true }).ok;
      // A clone made before the checkout's copy had this commit: made again, it has it.
      if (ok || fresh) break;
    }
    if (!ok) {
      rmSync(to, { recursive: true, force: true });
      notes.push(
        `submodule ${sub.path}: commit ${sha.slice(0, 12)} is not in your checkout's copy (${source}), so it is empty here (\`git submodule update\` there fetches it)`,
      );
      continue;
    }
    paths.push(sub.path);
    const nested = fillSubmodules(to, join(checkout, sub.path), undefined, under(previous, sub.path));
    paths.push(...nested.paths.map((p) => `${sub.path}/${p}`));
    notes.push(...nested.notes);
  }
  return { paths, notes };
}

/** The paths of `paths` inside `prefix`, relative to it. Pure. */
export function under(paths: readonly string[], prefix: string): string[] {
  return paths.filter((p) => p.startsWith(`${prefix}/`)).map((p) => p.slice(prefix.length + 1));
}

/** The paths of `paths` not inside another of them. Pure. */
export function outermost(paths: readonly string[]): string[] {
  return paths.filter((p) => !paths.some((q) => p.startsWith(`${q}/`)));
}

/**
 * Before `dir` is checked out at `rev`: removes the clones of earlier submodules that `rev` no longer
 * has at that path (git would leave their files behind). Nested ones are their clone's business.
 */
export function dropSubmodules(dir: string, rev: string, previous: readonly string[]): void {
  const top = outermost(previous);
  if (top.length === 0) return;
  const r = git(dir, ['ls-tree', '-z', rev, '--', ...top], { scrub: true });
  const still = new Set(
    r.stdout
      .split('\0')
      .map((e) => /^160000 commit [0-9a-f]+\t(.+)$/s.exec(e)?.[1])
      .filter((p): p is string => p !== undefined),
  );
  for (const p of top) if (!still.has(p)) rmSync(join(dir, p), { recursive: true, force: true });
}
