/**
 * Checks on git's text (object ids, ref names, lines of a config file) written as loops rather than
 * regular expressions: a regular expression is compiled the first time it runs (about 20 µs apiece
 * here) and again to machine code the second time, and a push runs each of these a few times in a
 * process that lives for milliseconds. Pure.
 */

/** A full object id as git prints it: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits. */
export function isObjectId(s: string): boolean {
  if (s.length !== 40 && s.length !== 64) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** The all-zero id git sends for a ref that does not exist on one side: one or more `0`s. */
export function isZeroId(s: string): boolean {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== 48) return false;
  return true;
}

/**
 * Whether a ref name is one git could have written under refs/: `refs/` and at least one more
 * character, none of them a control character, space, DEL, `~ ^ : ? * [` or `\`; no `..`, `//`, `/.`,
 * no component ending in `.lock`, no trailing `/`.
 */
export function isRefName(ref: string): boolean {
  if (!ref.startsWith('refs/') || ref.length === 5) return false;
  for (let i = 5; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f || '~^:?*[\\'.includes(ref[i]!)) return false;
  }
  return !(ref.includes('..') || ref.includes('//') || ref.includes('/.') || ref.includes('.lock/') || ref.endsWith('.lock') || ref.endsWith('/'));
}

/** JavaScript's `\s`: white space and line terminators (what `trimStart` removes). */
function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

const skipSpace = (text: string, i: number) => {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
};

/** `word` (lower-case ASCII) at `i` in `text`, in any case of its ASCII letters. */
function wordAt(text: string, i: number, word: string): boolean {
  if (i + word.length > text.length) return false;
  for (let j = 0; j < word.length; j++) {
    let c = text.charCodeAt(i + j);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== word.charCodeAt(j)) return false;
  }
  return true;
}

/**
 * Whether git config text has a line that starts, after any white space, with `key` (in any case),
 * followed, when `value` is given, by `=` and `value`, white space allowed around the `=`: what
 * `/^\s*key/im` and `/^\s*key\s*=\s*value/im` match (`\s` spans line ends there, and so it does here).
 */
export function configLine(text: string, key: string, value?: string): boolean {
  for (let start = 0; start <= text.length; start++) {
    if (start > 0) {
      const c = text.charCodeAt(start - 1);
      if (c !== 10 && c !== 13 && c !== 0x2028 && c !== 0x2029) continue;
    }
    const at = skipSpace(text, start);
    if (!wordAt(text, at, key)) continue;
    if (value === undefined) return true;
    const eq = skipSpace(text, at + key.length);
    if (text.charCodeAt(eq) === 61 && wordAt(text, skipSpace(text, eq + 1), value)) return true;
  }
  return false;
}
