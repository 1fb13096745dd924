/**
 * Symlinks a judged or replayed patch adds that lead out of the work tree. A patch that adds
 * `nm -> /home/me/repo/node_modules` (or `up -> ../..`) and a test that writes `nm/x` would write into
 * the user's real files from inside a slot; git apply and git checkout write such links without a
 * word. Checked in the slot once the patch is there (applied to the index, or its commit checked out),
 * before any gate runs: a link whose target is absolute, climbs above the work tree's root with `..`,
 * or gets there through another tracked symlink (`ext -> /usr/lib`, then `p -> ext/x`), refuses the patch.
 */
import { readlinkSync } from '../util/node.js';
import { join } from 'node:path';
import { git } from './git.js';

/** A tracked symlink: its path in the work tree and its target as written. */
export interface TreeLink {
  path: string;
  target: string;
}

/** A link that leads out, and the tracked symlink it went through on the way, if any. */
export interface LinkOut extends TreeLink {
  via?: string;
}

/** How many links one resolution may follow, as the kernel's limit (40): more is a loop, which leads nowhere. */
const MAX_HOPS = 40;

/**
 * The paths whose new mode is a symlink (120000: added, or changed to a link or to another target) in
 * `git diff-index --raw -z --no-renames` output (`:old new sha sha X\0path\0`). Pure.
 */
export function linkRecordsZ(z: string): string[] {
  const parts = z.split('\0');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const m = /^:\d{6} (\d{6}) [0-9a-f]+ [0-9a-f]+ ([A-Z])\d*$/.exec(parts[i]!);
    if (m === null) continue;
    const path = parts[++i];
    if (m[1] === '120000' && m[2] !== 'D' && path) out.push(path);
  }
  return out;
}

/** The symlinks of `git ls-files -s -z` output (`120000 sha stage\tpath\0`). Pure. */
export function indexLinksZ(z: string): string[] {
  const out: string[] = [];
  for (const record of z.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab > 0 && record.startsWith('120000 ')) out.push(record.slice(tab + 1));
  }
  return out;
}

/**
 * Where `link` leads, followed within the work tree: `out` when its target is absolute, when `..` climbs
 * above the root, or when a tracked symlink it passes through (`linkAt` gives a tracked symlink's
 * target, undefined for anything else) does; `via` names that symlink. A loop leads nowhere: not out. Pure.
 */
export function leadsOut(link: TreeLink, linkAt: (path: string) => string | undefined): { out: boolean; via?: string } {
  if (link.target.startsWith('/')) return { out: true };
  const stack: string[] = [];
  let queue = [...link.path.split('/').slice(0, -1), ...link.target.split('/')];
  let via: string | undefined;
  for (let hops = 0; queue.length > 0; ) {
    const part = queue.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (stack.length === 0) return { out: true, ...(via !== undefined && { via }) };
      stack.pop();
      continue;
    }
    stack.push(part);
    const here = stack.join('/');
    const target = linkAt(here);
    if (target === undefined) continue;
    if (++hops > MAX_HOPS) return { out: false };
    if (here !== link.path) via = here;
    if (target.startsWith('/')) return { out: true, ...(via !== undefined && { via }) };
    stack.pop();
    queue = [...target.split('/'), ...queue];
  }
  return { out: false };
}

/** The first of `added` that leads out of the work tree (leadsOut), or undefined. Pure. */
export function firstLinkOut(added: readonly TreeLink[], linkAt: (path: string) => string | undefined): LinkOut | undefined {
  for (const link of added) {
    const r = leadsOut(link, linkAt);
    if (r.out) return { ...link, ...(r.via !== undefined && { via: r.via }) };
  }
  return undefined;
}

/**
 * The first symlink the patch in the slot `dir` adds or re-points (its index against `base`) that leads
 * out of the work tree; undefined when none does; `null` when git could not list them (the caller
 * refuses: what it cannot check, it does not run).
 */
export function patchLinkOut(dir: string, base: string): LinkOut | undefined | null {
  const diff = git(dir, ['diff-index', '--cached', '--raw', '-z', '--no-renames', base], { scrub: true });
  if (!diff.ok) return null;
  const added = linkRecordsZ(diff.stdout);
  if (added.length === 0) return undefined;
  const listed = git(dir, ['ls-files', '-s', '-z'], { scrub: true });
  if (!listed.ok) return null;
  const tracked = new Set(indexLinksZ(listed.stdout));
  const targetOf = (path: string) => {
    try {
      return readlinkSync(join(dir, path), 'utf8');
    } catch {
      return undefined;
    }
  };
  return firstLinkOut(
    added.map((path) => ({ path, target: targetOf(path) ?? '' })),
    (path) => (tracked.has(path) ? targetOf(path) : undefined),
  );
}
