/**
 * Text that came from outside (a file name, a ref, a test name, a gate's output, a config value)
 * made safe to print: every control character (C0 including newline and tab, DEL, C1) and every
 * bidirectional-override character is shown as an escape (`\n`, `\x1b`, `\u202e`), so nothing read
 * from a file can move the cursor, colour the terminal, reorder what follows, or start a fake
 * `gate-ladder:` line of its own. Everything else, non-ASCII letters included, is unchanged. Pure.
 *
 * One function, used wherever such text is printed (src/util/messages.ts and the few writers
 * outside it). A gate's output that passes through us keeps its colours: `gate-output.ts` escapes the
 * rest as a stream. A gate writing straight to the terminal is not filtered: that is the test runner's
 * own output, as with any hook.
 */
export function shown(text: string): string {
  let out: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const raw = isRawByteAt(text, i);
    if (!raw && !unsafe(c)) continue;
    out = (out ?? '') + text.slice(from, i) + escapeOf(raw ? c & 0xff : c);
    from = i + 1;
  }
  return out === undefined ? text : out + text.slice(from);
}

/**
 * A byte of outside text that was not UTF-8, as util/cache-files.ts `decodeText` keeps it: the code unit
 * RAW_BYTE | byte (U+DC80..U+DCFF, a lone surrogate no valid text holds). Shown as `\xNN`; handed to a
 * gate's shell as that byte (route/changed.ts).
 */
export const RAW_BYTE = 0xdc00;

/** Whether the code unit at `i` of `text` is such a byte: U+DC80..U+DCFF alone, not the second half of a surrogate pair. */
export function isRawByteAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xdc80 || c > 0xdcff) return false;
  const before = i > 0 ? text.charCodeAt(i - 1) : 0;
  return before < 0xd800 || before > 0xdbff;
}

/** C0, DEL, C1, the Arabic letter mark, the left/right marks, embeddings and overrides, isolates. */
function unsafe(c: number): boolean {
  if (c < 0x20) return true;
  if (c < 0x7f) return false;
  if (c <= 0x9f) return true;
  return c === 0x061c || c === 0x200e || c === 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

const NAMED: Record<number, string> = { 9: '\\t', 10: '\\n', 13: '\\r' };

function escapeOf(c: number): string {
  return NAMED[c] ?? (c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`);
}

/**
 * One line of a gate's output for a person's screen (a blocked tier's chosen lines, a failed test's
 * message): its tabs expanded to the next multiple of 8 columns, as the terminal would have shown them
 * (a tab moves no cursor anywhere it should not go, but escaped it reads as `\t`: go's `FAIL\tpkg`),
 * every other control character escaped as `shown` does. Pure.
 */
export function shownOutputLine(line: string): string {
  return shown(expandTabs(line));
}

/** Tabs to spaces, to the next multiple of `stop` columns from the line's start. Pure. */
export function expandTabs(line: string, stop = 8): string {
  if (!line.includes('\t')) return line;
  let out = '';
  let column = 0;
  for (const part of line.split('\n')) {
    if (out !== '') {
      out += '\n';
      column = 0;
    }
    for (const ch of part) {
      const pad = ch === '\t' ? stop - (column % stop) : 0;
      out += pad > 0 ? ' '.repeat(pad) : ch;
      column += pad > 0 ? pad : 1;
    }
  }
  return out;
}

/** Each line of a multi-line text shown on its own (its newlines kept): for blocks of output we quote. */
export function shownLines(text: string): string {
  return text.split('\n').map(shown).join('\n');
}

// CSI sequences (colours, cursor moves), OSC sequences (links, titles), character set designations
// (`ESC ( B`, which `tput sgr0` writes with its colour reset: rustfmt's diffs hold one per line) and lone escapes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[ -/]+[0-~]|\x1b[@-Z\\-_]/g;

/** Removes terminal colour and cursor codes. */
export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

/**
 * Outside text for a machine (a `--json` document, an MCP result): colour and cursor codes removed, every
 * other control character shown as an escape (`shown`), its newlines and tabs kept, as a reader of the
 * decoded string would want them. Pure.
 */
export function plainText(text: string): string {
  return stripAnsi(text)
    .split('\n')
    .map((line) => line.split('\t').map(shown).join('\t'))
    .join('\n');
}

/** A JSON value with every string in it (keys too) made `plainText`: no terminal control code reaches a machine's reader. Pure. */
export function plainJson<T>(value: T): T {
  if (typeof value === 'string') return plainText(value) as T;
  if (Array.isArray(value)) return value.map(plainJson) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [plainText(k), plainJson(v)])) as T;
  return value;
}
