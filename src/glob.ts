import picomatch from 'picomatch';

/** Tests one path (as git prints it: relative, `/`-separated, no `.` or `..` segments). */
export type PathTest = (path: string) => boolean;

const SPECIAL = /[*?[\]{}()!+@\\]/;
const literal = (s: string) => s !== '' && !SPECIAL.test(s);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The common glob shapes as small regular expressions of our own: `**∕name`, `**∕dir∕**`, `**∕prefix*`,
 * `**∕*infix*`, `**∕*suffix`, `dir∕**`, `prefix*`, `*infix*`, `*suffix` and exact paths, and one
 * `{a,b}` group of such. On git's paths they give picomatch's answers (`dot: true`; the unit tests
 * compare them on thousands of paths), they combine into one expression per scope, and a push that
 * uses only them never loads picomatch. Anything else returns `undefined`. Pure.
 */
export function shortcut(glob: string): string | undefined {
  const brace = /^([^{}]*)\{([^{}]*)\}([^{}]*)$/.exec(glob);
  if (brace) {
    const [, pre, body, post] = brace as unknown as [string, string, string, string];
    if (body.includes('..')) return undefined;
    const alts = body.split(',').map((alt) => (alt === '' ? undefined : simple(`${pre}${alt}${post}`)));
    if (alts.length < 2 || alts.some((a) => a === undefined)) return undefined;
    return alts.join('|');
  }
  return simple(glob);
}

function simple(glob: string): string | undefined {
  if (glob.startsWith('**/')) {
    const rest = glob.slice(3);
    if (rest.endsWith('/**')) {
      const dir = rest.slice(0, -3);
      return literal(dir) ? `(?:^|/)${escape(dir)}(?:/|$)` : undefined;
    }
    if (literal(rest)) return `(?:^|/)${escape(rest)}$`;
    const base = baseShape(rest);
    return base === undefined ? undefined : `(?:^|/)${base}`;
  }
  if (glob.endsWith('/**')) {
    const dir = glob.slice(0, -3);
    return literal(dir) ? `^${escape(dir)}(?:/|$)` : undefined;
  }
  if (literal(glob)) return `^${escape(glob)}$`;
  // A star pattern without a slash matches top-level paths only.
  const top = baseShape(glob);
  return top === undefined ? undefined : `^${top}`;
}

/** `prefix*`, `*infix*` or `*suffix` as an expression for one whole path segment (anchored at its end). */
function baseShape(pattern: string): string | undefined {
  if (pattern.includes('/')) return undefined;
  if (pattern.length > 2 && pattern.startsWith('*') && pattern.endsWith('*')) {
    const infix = pattern.slice(1, -1);
    return literal(infix) ? `[^/]*${escape(infix)}[^/]*$` : undefined;
  }
  if (pattern.length > 1 && pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    return literal(prefix) ? `${escape(prefix)}[^/]*$` : undefined;
  }
  if (pattern.length > 1 && pattern.startsWith('*')) {
    const suffix = pattern.slice(1);
    return literal(suffix) ? `[^/]*${escape(suffix)}$` : undefined;
  }
  return undefined;
}

/** A glob as a path test: its shortcut when there is one, else picomatch (`dot: true`). */
export function compileGlob(glob: string): PathTest {
  const source = shortcut(glob);
  if (source === undefined) return picomatch(glob, { dot: true, flags: 's' });
  const re = new RegExp(source);
  return (path) => re.test(path);
}

/**
 * A scope as one function naming the first glob a path matches. The shortcut globs also form one
 * combined expression: most paths match no marker, and one test of it says so for all of them.
 */
export function compileScope(scope: readonly string[]): (path: string) => string | undefined {
  const globs = [...scope];
  const tests = globs.map(compileGlob);
  const sources = globs.map(shortcut);
  const fast = sources.filter((s): s is string => s !== undefined);
  const any = fast.length > 0 ? new RegExp(fast.map((s) => `(?:${s})`).join('|')) : undefined;
  // Globs picomatch has to answer, in scope order; the only candidates when `any` says no.
  const slow = globs.map((g, i) => ({ g, t: tests[i]!, s: sources[i] })).filter((x) => x.s === undefined);
  const n = globs.length;
  return (path) => {
    if (any !== undefined && !any.test(path)) {
      for (const x of slow) if (x.t(path)) return x.g;
      return undefined;
    }
    for (let i = 0; i < n; i++) if (tests[i]!(path)) return globs[i];
    return undefined;
  };
}
