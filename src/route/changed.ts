import { posix } from 'node:path';
import { ChangeList, type ChangedPath, type Changes } from '../git/change-list.js';
import { shellWord } from '../util/shell-words.js';
import { type PathTest, compileGlob } from '../util/glob.js';

/**
 * `{changed}` in a tier's `run`: the pushed range's changed paths, each one argument, so a cheap tier
 * can run only what the diff touches (`vitest related --run {changed}`). `{changed:GLOB}` keeps the
 * paths GLOB matches (the config's glob semantics: util/glob.ts). Pure.
 */

/** The environment variable every command tier gets: the same paths, one a line (an environment cannot hold a NUL). */
export const CHANGED_ENV = 'GATE_LADDER_CHANGED';

/**
 * The most the variable holds (Linux refuses to start a process with one environment string over
 * 128 KiB): a longer list leaves it unset, and the script is to check everything.
 */
export const CHANGED_ENV_MAX = 100_000;

/** One `{changed}` or `{changed:GLOB}` in a piece of text. */
interface Found {
  start: number;
  end: number;
  glob: string | undefined;
}

const OPEN = '{changed';

/** The placeholders of `text`, in order. A `{changed:` whose braces never close is left as text. */
function find(text: string): Found[] {
  const out: Found[] = [];
  let i = text.indexOf(OPEN);
  while (i >= 0) {
    const after = i + OPEN.length;
    let end = -1;
    let glob: string | undefined;
    if (text[after] === '}') end = after + 1;
    else if (text[after] === ':') {
      // The glob may hold braces of its own (`src/**/*.{ts,tsx}`): the placeholder ends at the brace that closes it.
      let depth = 0;
      for (let j = after + 1; j < text.length; j++) {
        if (text[j] === '{') depth++;
        else if (text[j] === '}') {
          if (depth === 0) {
            end = j + 1;
            glob = text.slice(after + 1, j);
            break;
          }
          depth--;
        }
      }
    }
    if (end > 0 && glob !== '') {
      out.push({ start: i, end, glob });
      i = text.indexOf(OPEN, end);
    } else i = text.indexOf(OPEN, after);
  }
  return out;
}

/** Whether a tier's command asks for the changed paths. */
export function usesChanged(run: string | readonly string[]): boolean {
  return typeof run === 'string' ? find(run).length > 0 : run.some((w) => find(w).length > 0);
}

/** The globs a command's placeholders filter by (`undefined`: every path), in order. */
export function changedGlobs(run: string | readonly string[]): (string | undefined)[] {
  return (typeof run === 'string' ? [run] : run).flatMap((w) => find(w).map((f) => f.glob));
}

/**
 * The paths a change leaves at the judged commit: a deleted path is gone, a rename or copy counts its
 * new path only. In git's order, each once.
 */
export function presentPaths(changes: Changes): string[] {
  const list: readonly ChangedPath[] = changes instanceof ChangeList ? changes.changes() : changes;
  const seen = new Set<string>();
  for (const c of list) if (!c.status.startsWith('D')) seen.add(c.path);
  return [...seen];
}

/**
 * A repository path as the gate's argument: relative to the tier's `cwd` (repository-relative, `.` for
 * the root), and never read as an option: a path starting with `-` gets `./` in front.
 */
export function argPath(path: string, cwd: string): string {
  const base = posix.normalize(cwd.split('\\').join('/'));
  const rel = base === '.' || base === './' ? path : posix.relative(base, path);
  return rel.startsWith('-') ? `./${rel}` : rel;
}

/** What a command becomes for one change: the expanded command, or the glob whose list was empty. */
export type Expansion = { run: string | string[] } | { empty: string | undefined };

/**
 * A tier's command with each placeholder replaced by its paths (`present`: repository-relative, see
 * presentPaths; `cwd`: the tier's). In an array, an element holding a placeholder becomes one element
 * per path (text around the placeholder repeated on each); in a string each path is one shell-quoted
 * word, the words joined by spaces. A placeholder whose list is empty makes the whole command `empty`:
 * a tool handed no paths would check everything, or refuse.
 */
export function expandChanged(
  run: string | readonly string[],
  present: readonly string[],
  cwd: string,
  glob: (g: string) => PathTest = compileGlob,
): Expansion {
  const lists = new Map<string | undefined, string[]>();
  const pathsFor = (g: string | undefined): string[] => {
    let l = lists.get(g);
    if (l === undefined) {
      const keep = g === undefined ? undefined : glob(g);
      l = (keep === undefined ? present : present.filter((p) => keep(p))).map((p) => argPath(p, cwd));
      lists.set(g, l);
    }
    return l;
  };
  for (const g of changedGlobs(run)) if (pathsFor(g).length === 0) return { empty: g };
  if (typeof run === 'string') {
    let out = '';
    let at = 0;
    for (const f of find(run)) {
      out += run.slice(at, f.start) + pathsFor(f.glob).map(shellWord).join(' ');
      at = f.end;
    }
    return { run: out + run.slice(at) };
  }
  const out: string[] = [];
  for (const word of run) {
    const found = find(word);
    const f = found[0];
    if (f === undefined) out.push(word);
    else if (found.length === 1) for (const p of pathsFor(f.glob)) out.push(word.slice(0, f.start) + p + word.slice(f.end));
    else {
      // Several in one element: each stands for its paths joined by spaces, all in that one argument.
      let one = '';
      let at = 0;
      for (const g of found) {
        one += word.slice(at, g.start) + pathsFor(g.glob).join(' ');
        at = g.end;
      }
      out.push(one + word.slice(at));
    }
  }
  return { run: out };
}

/** GATE_LADDER_CHANGED's value for a tier: every present path, relative to its `cwd`, one a line; undefined when too long. */
export function changedEnv(present: readonly string[], cwd: string): string | undefined {
  let size = 0;
  const lines: string[] = [];
  for (const p of present) {
    const a = argPath(p, cwd);
    size += Buffer.byteLength(a) + 1;
    if (size > CHANGED_ENV_MAX) return undefined;
    lines.push(a);
  }
  return lines.join('\n');
}
