import type Picomatch from 'picomatch';

/**
 * picomatch, required on the first glob no shortcut answers: a runtime dependency of the package, not
 * bundled, so that a push whose globs are all shortcuts (the starter config's are) never reads it.
 * node:module through process.getBuiltinModule, not util/node.ts: this module is pure policy, and
 * util/node.ts also holds the file functions.
 */
let loaded: typeof Picomatch | undefined;
const picomatch: typeof Picomatch = ((glob: string, options?: Picomatch.PicomatchOptions) =>
  (loaded ??= process.getBuiltinModule('node:module').createRequire(import.meta.url)('picomatch') as typeof Picomatch)(
    glob,
    options,
  )) as typeof Picomatch;

/** Tests one path (as git prints it: relative, `/`-separated, no `.` or `..` segments). */
export type PathTest = (path: string) => boolean;

// Character tests without regular expressions: each regular expression is compiled on its first use,
// about 20 µs apiece, and a push builds its scope matcher once (the code cache keeps no compiled
// expression).
const SPECIAL = '*?[]{}()!+@\\';
const REGEX_SPECIAL = '.*+?^${}()|[]\\/';
const literal = (s: string) => {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) if (SPECIAL.includes(s[i]!)) return false;
  return true;
};
const escape = (s: string) => {
  let out = '';
  for (let i = 0; i < s.length; i++) out += REGEX_SPECIAL.includes(s[i]!) ? `\\${s[i]}` : s[i];
  return out;
};

/** One alternative of a shortcut: where it may begin (any path segment, or the path's start) and the rest. */
interface Part {
  at: 'segment' | 'path';
  body: string;
  /** Text every path it matches contains (its name, prefix, infix or suffix). */
  literal: string;
}

/**
 * The common glob shapes as small regular expressions of our own: `**∕name`, `**∕dir∕**` (also
 * `**∕*_dir∕**`, `**∕dir_*∕**`, `**∕*dir*∕**`), `**∕prefix*`,
 * `**∕*infix*`, `**∕*suffix`, `dir∕**`, `prefix*`, `*infix*`, `*suffix` and exact paths, and one
 * `{a,b}` group of such. On git's paths they give picomatch's answers (`dot: true`; the unit tests
 * compare them on thousands of paths), they combine into one expression per scope, and a push that
 * uses only them never loads picomatch. Anything else returns `undefined`. Pure.
 */
export function shortcut(glob: string): string | undefined {
  const ps = parts(glob);
  return ps && expression(ps);
}

/** Parts as one expression. */
function expression(ps: readonly Part[]): string {
  return ps.map((p) => `${p.at === 'segment' ? '(?:^|/)' : '^'}${p.body}`).join('|');
}

/** A shortcut glob's alternatives (one, or one per `{a,b}` member); `undefined` for other globs. */
export function parts(glob: string): Part[] | undefined {
  // One `{...}` group, no other brace anywhere.
  const open = glob.indexOf('{');
  const close = glob.indexOf('}');
  if (open >= 0 && close > open && glob.indexOf('{', open + 1) < 0 && glob.indexOf('}', close + 1) < 0) {
    const pre = glob.slice(0, open);
    const body = glob.slice(open + 1, close);
    const post = glob.slice(close + 1);
    if (body.includes('..')) return undefined;
    const alts = body.split(',').map((alt) => (alt === '' ? undefined : simple(`${pre}${alt}${post}`)));
    if (alts.length < 2 || alts.some((a) => a === undefined)) return undefined;
    return alts as Part[];
  }
  const one = simple(glob);
  return one && [one];
}

function simple(glob: string): Part | undefined {
  const part = (at: Part['at'], shape: Shape | undefined): Part | undefined => (shape === undefined ? undefined : { at, ...shape });
  const whole = (lit: string, end: string): Shape => ({ body: `${escape(lit)}${end}`, literal: lit });
  if (glob.startsWith('**/')) {
    const rest = glob.slice(3);
    if (rest.endsWith('/**')) {
      // `**/tests/**`, and a folder named by a star pattern: `**/*_tests/**`, `**/tests_*/**`
      const dir = rest.slice(0, -3);
      return part('segment', literal(dir) ? whole(dir, '(?:/|$)') : baseShape(dir, true));
    }
    if (literal(rest)) return part('segment', whole(rest, '$'));
    return part('segment', baseShape(rest));
  }
  if (glob.endsWith('/**')) {
    const dir = glob.slice(0, -3);
    return literal(dir) ? part('path', whole(dir, '(?:/|$)')) : undefined;
  }
  if (literal(glob)) return part('path', whole(glob, '$'));
  // A star pattern without a slash matches top-level paths only.
  return part('path', baseShape(glob));
}

type Shape = Omit<Part, 'at'>;

/**
 * `prefix*`, `*infix*` or `*suffix` as an expression for one whole path segment, anchored at its end:
 * the path's end, or for a `folder` (`**∕*_tests∕**`) what picomatch requires after it: a slash, or for
 * `*suffix` also the path's end (a path that is just `x_tests` matches `**∕*_tests∕**`, one that is just
 * `tests_x` does not match `**∕tests_*∕**`).
 */
function baseShape(pattern: string, folder = false): Shape | undefined {
  if (pattern.includes('/')) return undefined;
  const seg = '[^/]*';
  const end = folder ? '/' : '$';
  if (pattern.length > 2 && pattern.startsWith('*') && pattern.endsWith('*')) {
    const infix = pattern.slice(1, -1);
    return literal(infix) ? { body: `${seg}${escape(infix)}${seg}${end}`, literal: infix } : undefined;
  }
  if (pattern.length > 1 && pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    return literal(prefix) ? { body: `${escape(prefix)}${seg}${end}`, literal: prefix } : undefined;
  }
  if (pattern.length > 1 && pattern.startsWith('*')) {
    const suffix = pattern.slice(1);
    return literal(suffix) ? { body: `${seg}${escape(suffix)}${folder ? '(?:/|$)' : '$'}`, literal: suffix } : undefined;
  }
  return undefined;
}

/** A glob as a path test: its shortcut when there is one, else picomatch (`dot: true`). */
export function compileGlob(glob: string): PathTest {
  const source = shortcut(glob);
  return source === undefined ? picomatch(glob, { dot: true, flags: 's' }) : sourceTest(source);
}

const sourceTest = (source: string): PathTest => {
  const re = new RegExp(source);
  return (path) => re.test(path);
};

/**
 * Every path a shortcut glob matches contains its literal text (`Part.literal`), so in git's listing
 * only the fields holding one of a scope's literals can match: one global expression of them (each
 * kept only when no other is inside it: `test` stands for `tests` and `.test.`) finds those fields.
 * V8 searches for literal alternatives several times faster than for the globs' own shapes (about
 * 4.5 ms against 25 ms on a 100,000-path listing); the matcher then names each field it stops in.
 */
function literalScanner(literals: readonly string[]): RegExp {
  const kept = literals.filter((l) => !literals.some((o) => o !== l && l.includes(o)));
  return new RegExp(kept.map(escape).join('|'), 'g');
}

/** Names the first scope glob a path matches. */
export interface ScopeMatcher {
  (path: string): string | undefined;
  /**
   * When every glob has a shortcut: `literalScanner`'s expression, to find the fields of a whole
   * listing that may match (ChangeList.hits); made on first use.
   */
  scanner: () => RegExp | undefined;
}

/**
 * What a scope matcher is made from, as plain data: each glob's shortcut expression (null: picomatch
 * answers it) and the shortcuts' literal texts. Kept with a cached config (config-cache.ts), so a
 * push does not work it out again (about 0.1 ms). Pure.
 */
export interface ScopePlan {
  sources: (string | null)[];
  literals: string[];
}

export function planScope(scope: readonly string[]): ScopePlan {
  const shapes = scope.map((g) => parts(g));
  return {
    sources: shapes.map((ps) => (ps ? expression(ps) : null)),
    literals: [...new Set(shapes.flatMap((ps) => ps?.map((p) => p.literal) ?? []))],
  };
}

/** A plan read back from a cache file fits `scope`: one source per glob, strings only. Pure. */
export function isScopePlan(plan: unknown, scope: readonly string[]): plan is ScopePlan {
  if (plan === null || typeof plan !== 'object') return false;
  const { sources, literals } = plan as Partial<ScopePlan>;
  return (
    Array.isArray(sources) &&
    sources.length === scope.length &&
    sources.every((s) => s === null || typeof s === 'string') &&
    Array.isArray(literals) &&
    literals.every((l) => typeof l === 'string')
  );
}

/**
 * A scope as one function naming the first glob a path matches. The shortcut globs also form one
 * combined expression: most paths match no marker, and one test of it says so for all of them. The
 * per-glob tests are compiled only when a path gets past it (a push of a few files usually never does).
 */
export function compileScope(scope: readonly string[], plan: ScopePlan = planScope(scope)): ScopeMatcher {
  const globs = [...scope];
  const { sources, literals } = plan;
  const fast = sources.filter((s): s is string => s !== null);
  // A path that contains none of the shortcuts' literal texts matches none of them: two dozen
  // `includes` settle most paths before the combined expression is even compiled (about 1.5 ms).
  let anyRe: RegExp | undefined;
  const any =
    fast.length === 0
      ? undefined
      : {
          test: (path: string) =>
            literals.some((l) => path.includes(l)) && (anyRe ??= new RegExp(fast.map((s) => `(?:${s})`).join('|'))).test(path),
        };
  let tests: PathTest[] | undefined;
  // Globs picomatch has to answer, in scope order; the only candidates when `any` says no.
  let slow: { g: string; t: PathTest }[] | undefined;
  const slowOnes = () => (slow ??= globs.flatMap((g, i) => (sources[i] === null ? [{ g, t: compileGlob(g) }] : [])));
  const n = globs.length;
  let scanner: RegExp | undefined | null = null;
  const match = ((path: string) => {
    if (any !== undefined && !any.test(path)) {
      for (const x of slowOnes()) if (x.t(path)) return x.g;
      return undefined;
    }
    // The plan already holds each shortcut's expression: only the other globs are worked out here.
    tests ??= globs.map((g, i) => (sources[i] === null ? compileGlob(g) : sourceTest(sources[i]!)));
    for (let i = 0; i < n; i++) if (tests[i]!(path)) return globs[i];
    return undefined;
  }) as ScopeMatcher;
  match.scanner = () => {
    if (scanner === null) scanner = fast.length === globs.length ? literalScanner(literals) : undefined;
    return scanner;
  };
  return match;
}
