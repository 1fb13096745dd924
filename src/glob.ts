import picomatch from 'picomatch';

/** Tests one path (as git prints it: relative, `/`-separated, no `.` or `..` segments). */
export type PathTest = (path: string) => boolean;

const SPECIAL = /[*?[\]{}()!+@\\]/;
const literal = (s: string) => s !== '' && !SPECIAL.test(s);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * How a shortcut expression marks the ends of a path. `PATH` tests one path string. `FIELD` finds paths
 * inside git's NUL-separated listing (`--name-status -z`): a path starts after a NUL or at the start,
 * ends before a NUL or at the end, and no segment crosses a NUL; so an expression built for `FIELD`
 * matches inside a field exactly where its `PATH` twin matches that field alone.
 */
export interface Dialect {
  start: string;
  end: string;
  /** One character of a path segment. */
  seg: string;
}
export const PATH: Dialect = { start: '^', end: '$', seg: '[^/]' };
export const FIELD: Dialect = { start: '(?<![^\\0])', end: '(?![^\\0])', seg: '[^/\\0]' };

/** One alternative of a shortcut: where it may begin (any path segment, or the path's start) and the rest. */
interface Part {
  at: 'segment' | 'path';
  body: string;
  /** Text every path it matches contains (its name, prefix, infix or suffix). */
  literal: string;
}

/**
 * The common glob shapes as small regular expressions of our own: `**∕name`, `**∕dir∕**`, `**∕prefix*`,
 * `**∕*infix*`, `**∕*suffix`, `dir∕**`, `prefix*`, `*infix*`, `*suffix` and exact paths, and one
 * `{a,b}` group of such. On git's paths they give picomatch's answers (`dot: true`; the unit tests
 * compare them on thousands of paths), they combine into one expression per scope, and a push that
 * uses only them never loads picomatch. Anything else returns `undefined`. Pure.
 */
export function shortcut(glob: string, d: Dialect = PATH): string | undefined {
  const ps = parts(glob, d);
  return ps && expression(ps, d);
}

/** Parts as one expression in dialect `d` (the one they were built in). */
function expression(ps: readonly Part[], d: Dialect): string {
  return ps.map((p) => `${p.at === 'segment' ? `(?:${d.start}|/)` : d.start}${p.body}`).join('|');
}

/** A shortcut glob's alternatives (one, or one per `{a,b}` member); `undefined` for other globs. */
export function parts(glob: string, d: Dialect = PATH): Part[] | undefined {
  const brace = /^([^{}]*)\{([^{}]*)\}([^{}]*)$/.exec(glob);
  if (brace) {
    const [, pre, body, post] = brace as unknown as [string, string, string, string];
    if (body.includes('..')) return undefined;
    const alts = body.split(',').map((alt) => (alt === '' ? undefined : simple(`${pre}${alt}${post}`, d)));
    if (alts.length < 2 || alts.some((a) => a === undefined)) return undefined;
    return alts as Part[];
  }
  const one = simple(glob, d);
  return one && [one];
}

function simple(glob: string, d: Dialect): Part | undefined {
  const part = (at: Part['at'], shape: Shape | undefined): Part | undefined => (shape === undefined ? undefined : { at, ...shape });
  const whole = (lit: string, end: string): Shape => ({ body: `${escape(lit)}${end}`, literal: lit });
  if (glob.startsWith('**/')) {
    const rest = glob.slice(3);
    if (rest.endsWith('/**')) {
      const dir = rest.slice(0, -3);
      return literal(dir) ? part('segment', whole(dir, `(?:/|${d.end})`)) : undefined;
    }
    if (literal(rest)) return part('segment', whole(rest, d.end));
    return part('segment', baseShape(rest, d));
  }
  if (glob.endsWith('/**')) {
    const dir = glob.slice(0, -3);
    return literal(dir) ? part('path', whole(dir, `(?:/|${d.end})`)) : undefined;
  }
  if (literal(glob)) return part('path', whole(glob, d.end));
  // A star pattern without a slash matches top-level paths only.
  return part('path', baseShape(glob, d));
}

type Shape = Omit<Part, 'at'>;

/** `prefix*`, `*infix*` or `*suffix` as an expression for one whole path segment (anchored at its end). */
function baseShape(pattern: string, d: Dialect): Shape | undefined {
  if (pattern.includes('/')) return undefined;
  const seg = `${d.seg}*`;
  if (pattern.length > 2 && pattern.startsWith('*') && pattern.endsWith('*')) {
    const infix = pattern.slice(1, -1);
    return literal(infix) ? { body: `${seg}${escape(infix)}${seg}${d.end}`, literal: infix } : undefined;
  }
  if (pattern.length > 1 && pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    return literal(prefix) ? { body: `${escape(prefix)}${seg}${d.end}`, literal: prefix } : undefined;
  }
  if (pattern.length > 1 && pattern.startsWith('*')) {
    const suffix = pattern.slice(1);
    return literal(suffix) ? { body: `${seg}${escape(suffix)}${d.end}`, literal: suffix } : undefined;
  }
  return undefined;
}

/**
 * Globs that all have shortcuts, as one global expression over git's NUL-separated listing that finds
 * every place where one of them matches a field. The alternatives are grouped behind what they begin
 * with, consumed rather than looked behind for (a NUL or `/`, or the listing's start), so the engine
 * rejects most positions at their first character: about three times faster than the plain
 * alternation on a 100,000-path listing. A match begins on that NUL or `/` (the field is the one after
 * a NUL, the one containing a `/`), or at 0. `undefined` when a glob has no shortcut.
 */
export function listingScanner(globs: readonly string[]): RegExp | undefined {
  const all = globs.map((g) => parts(g, FIELD));
  if (all.length === 0 || all.some((p) => p === undefined)) return undefined;
  const flat = all.flat() as Part[];
  const group = (at: Part['at'], lead: string) => {
    const bodies = flat.filter((p) => p.at === at).map((p) => p.body);
    return bodies.length > 0 ? [`${lead}(?:${bodies.join('|')})`] : [];
  };
  return new RegExp([...group('segment', '(?:^|[\\0/])'), ...group('path', '(?:^|\\0)')].join('|'), 'g');
}

/** A glob as a path test: its shortcut when there is one, else picomatch (`dot: true`). */
export function compileGlob(glob: string): PathTest {
  const source = shortcut(glob);
  if (source === undefined) return picomatch(glob, { dot: true, flags: 's' });
  const re = new RegExp(source);
  return (path) => re.test(path);
}

/** Names the first scope glob a path matches. */
export interface ScopeMatcher {
  (path: string): string | undefined;
  /**
   * When every glob has a shortcut: `listingScanner`'s expression, to find candidate paths in a whole
   * listing (ChangeList.hits); made on first use.
   */
  scanner: () => RegExp | undefined;
}

/**
 * A scope as one function naming the first glob a path matches. The shortcut globs also form one
 * combined expression: most paths match no marker, and one test of it says so for all of them. The
 * per-glob tests are compiled only when a path gets past it (a push of a few files usually never does).
 */
export function compileScope(scope: readonly string[]): ScopeMatcher {
  const globs = [...scope];
  const shapes = globs.map((g) => parts(g));
  const sources = shapes.map((ps) => ps && expression(ps, PATH));
  const fast = sources.filter((s): s is string => s !== undefined);
  // A path that contains none of the shortcuts' literal texts matches none of them: two dozen
  // `includes` settle most paths before the combined expression is even compiled (about 1.5 ms).
  const literals = [...new Set(shapes.flatMap((ps) => ps?.map((p) => p.literal) ?? []))];
  let anyRe: RegExp | undefined;
  const any = fast.length === 0 ? undefined : { test: (path: string) => literals.some((l) => path.includes(l)) && (anyRe ??= new RegExp(fast.map((s) => `(?:${s})`).join('|'))).test(path) };
  let tests: PathTest[] | undefined;
  // Globs picomatch has to answer, in scope order; the only candidates when `any` says no.
  let slow: { g: string; t: PathTest }[] | undefined;
  const slowOnes = () => (slow ??= globs.flatMap((g, i) => (sources[i] === undefined ? [{ g, t: compileGlob(g) }] : [])));
  const n = globs.length;
  let scanner: RegExp | undefined | null = null;
  const match = ((path: string) => {
    if (any !== undefined && !any.test(path)) {
      for (const x of slowOnes()) if (x.t(path)) return x.g;
      return undefined;
    }
    tests ??= globs.map(compileGlob);
    for (let i = 0; i < n; i++) if (tests[i]!(path)) return globs[i];
    return undefined;
  }) as ScopeMatcher;
  match.scanner = () => {
    if (scanner === null) scanner = fast.length === globs.length ? listingScanner(globs) : undefined;
    return scanner;
  };
  return match;
}
