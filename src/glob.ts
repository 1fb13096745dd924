import picomatch from 'picomatch';

/** Tests one path (as git prints it: relative, `/`-separated, no `.` or `..` segments). */
export type PathTest = (path: string) => boolean;

const SPECIAL = /[*?[\]{}()!+@\\]/;
const literal = (s: string) => s !== '' && !SPECIAL.test(s);
const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The common glob shapes as plain string tests: `**∕name`, `**∕dir∕**`, `**∕prefix*`, `**∕*infix*`,
 * `**∕*suffix`, `dir∕**`, `*suffix`, `prefix*`, `*infix*` and exact paths, plus one `{a,b}` group of such.
 * They give picomatch's answers (with `dot: true`) on git's paths, about twenty times faster, and a
 * push that only uses them never loads picomatch. Anything else returns `undefined`. Pure.
 */
export function shortcut(glob: string): PathTest | undefined {
  const brace = /^([^{}]*)\{([^{}]*)\}([^{}]*)$/.exec(glob);
  if (brace) {
    const [, pre, body, post] = brace as unknown as [string, string, string, string];
    if (body.includes('..')) return undefined;
    const tests = body.split(',').map((alt) => (alt === '' ? undefined : simple(`${pre}${alt}${post}`)));
    if (tests.length < 2 || tests.some((t) => t === undefined)) return undefined;
    const all = tests as PathTest[];
    return (path) => all.some((t) => t(path));
  }
  return simple(glob);
}

function simple(glob: string): PathTest | undefined {
  if (glob.startsWith('**/')) {
    const rest = glob.slice(3);
    if (rest.endsWith('/**')) {
      const dir = rest.slice(0, -3);
      if (!literal(dir)) return undefined;
      const head = `${dir}/`;
      const mid = `/${dir}/`;
      const tail = `/${dir}`;
      return (p) => p === dir || p.startsWith(head) || p.endsWith(tail) || p.includes(mid);
    }
    if (literal(rest)) {
      const tail = `/${rest}`;
      return (p) => p === rest || p.endsWith(tail);
    }
    return baseShape(rest, 'base');
  }
  if (glob.endsWith('/**')) {
    const dir = glob.slice(0, -3);
    if (!literal(dir)) return undefined;
    const head = `${dir}/`;
    return (p) => p === dir || p.startsWith(head);
  }
  if (literal(glob)) return (p) => p === glob;
  // A star pattern without a slash matches top-level paths only.
  return baseShape(glob, 'top');
}

/** `prefix*`, `*infix*` or `*suffix`, on the base name or (top-level patterns) on a path without `/`. */
function baseShape(pattern: string, on: 'base' | 'top'): PathTest | undefined {
  if (pattern.includes('/')) return undefined;
  const part = on === 'base' ? baseOf : (p: string) => (p.includes('/') ? undefined : p);
  if (pattern.length > 2 && pattern.startsWith('*') && pattern.endsWith('*')) {
    const infix = pattern.slice(1, -1);
    return literal(infix) ? (p) => part(p)?.includes(infix) === true : undefined;
  }
  if (pattern.length > 1 && pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    return literal(prefix) ? (p) => part(p)?.startsWith(prefix) === true : undefined;
  }
  if (pattern.length > 1 && pattern.startsWith('*')) {
    const suffix = pattern.slice(1);
    return literal(suffix) ? (p) => part(p)?.endsWith(suffix) === true : undefined;
  }
  return undefined;
}

/** A glob as a path test: a shortcut when there is one, else picomatch (`dot: true`). */
export function compileGlob(glob: string): PathTest {
  return shortcut(glob) ?? picomatch(glob, { dot: true });
}
