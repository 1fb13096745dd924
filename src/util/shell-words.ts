/**
 * Words for /bin/sh, the one place they are quoted: the `{changed}` paths of a tier's command
 * (route/changed.ts), the runner's path in the hook line (install/hook-line.ts), a path in a command a
 * message tells the user to run (run/messages.ts). POSIX single quotes, a quote written as `'\''`:
 * nothing inside is expanded, and the text is byte for byte what earlier versions wrote (a hook line
 * install wrote before is found again by its text). Pure.
 *
 * shell-quote's `quote` (bundled for splitting commands: runners/detect.ts) is not used here: it
 * backslash-escapes `@`, `:` and `,` and switches to double quotes around a `'`, so hook lines written
 * before would no longer match, and it has no way to hand over a byte that is not UTF-8.
 */
import { isRawByteAt } from './escape.js';

/** A word needing no quotes: letters, digits and `_ . / @ + -`, not starting with `-` (never read as an option). */
const PLAIN = /^[\w./@+-]+$/;

/** `text` in single quotes, whatever it holds (a quote as `'\''`). */
export function shellQuoted(text: string): string {
  return `'${text.split("'").join("'\\''")}'`;
}

/**
 * One argument for /bin/sh: a plain word as it is, anything else single-quoted. A name that is not
 * UTF-8 (its bytes kept by util/cache-files.ts `decodeText` as U+DC80..U+DCFF) gets those bytes from
 * `printf` with octal escapes, since a command's text reaches the shell as UTF-8: the command is handed
 * the file's real name, not one with U+FFFD in it.
 */
export function shellWord(word: string): string {
  if (PLAIN.test(word) && !word.startsWith('-')) return word;
  let out = '';
  let from = 0;
  for (let i = 0; i < word.length; i++) {
    if (!isRawByteAt(word, i)) continue;
    let bytes = '';
    const at = i;
    for (; i < word.length && isRawByteAt(word, i); i++) bytes += `\\${(word.charCodeAt(i) & 0xff).toString(8)}`;
    if (at > from) out += shellQuoted(word.slice(from, at));
    out += `"$(printf '${bytes}')"`;
    from = i;
    i--;
  }
  return from === 0 ? shellQuoted(word) : from < word.length ? out + shellQuoted(word.slice(from)) : out;
}
