/**
 * A gate's output on its way to our stderr, made safe the way `shown` makes a file name safe, but as a stream and with the
 * runner's colours kept: colour and style sequences (CSI ... `m`) pass, newlines and tabs pass, a
 * carriage return passes only before a newline; every other control character (cursor moves, line
 * erases, window titles, hyperlinks and clipboard writes, bells, backspaces, C1) and every
 * bidirectional-override character is written as its escape (`\x1b`, `\r`, `\u202e`), so a gate cannot
 * move the cursor, rewrite lines already printed, or reorder what follows. Pure: bytes in, bytes out.
 *
 * Every gate's output on a push, a commit, a manual run or a seed comes through here. Chunks are
 * filtered one by one: a sequence cut between two reads is escaped, never passed in part.
 */
const ESC = 0x1b;

/** Bytes of `chunk` to write: unchanged (the same Buffer) when nothing in it needs an escape. */
export function safeGateOutput(chunk: Buffer): Buffer {
  let out: Buffer[] | undefined;
  let from = 0;
  const cut = (at: number, escape: string, next: number) => {
    (out ??= []).push(chunk.subarray(from, at), Buffer.from(escape, 'latin1'));
    from = next;
  };
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i]!;
    if (b >= 0x20 && b < 0x7f) continue;
    if (b === 0x0a || b === 0x09) continue;
    if (b === 0x0d) {
      if (chunk[i + 1] !== 0x0a) cut(i, '\\r', i + 1);
      continue;
    }
    if (b === ESC) {
      const end = sgrEnd(chunk, i);
      if (end > 0) i = end - 1;
      else cut(i, '\\x1b', i + 1);
      continue;
    }
    if (b < 0x20 || b === 0x7f) {
      cut(i, `\\x${b.toString(16).padStart(2, '0')}`, i + 1);
      continue;
    }
    // UTF-8: C1 controls are C2 80..9F; the marks, embeddings, overrides and isolates are D8 9C,
    // E2 80 8E..8F, E2 80 AA..AE and E2 81 A6..A9.
    const b1 = chunk[i + 1];
    const b2 = chunk[i + 2];
    if (b === 0xc2 && b1 !== undefined && b1 >= 0x80 && b1 <= 0x9f) cut(i, `\\u00${b1.toString(16)}`, i + 2);
    else if (b === 0xd8 && b1 === 0x9c) cut(i, '\\u061c', i + 2);
    else if (b === 0xe2 && b1 === 0x80 && b2 !== undefined && (b2 === 0x8e || b2 === 0x8f || (b2 >= 0xaa && b2 <= 0xae))) cut(i, `\\u20${(b2 - 0x80).toString(16).padStart(2, '0')}`, i + 3);
    else if (b === 0xe2 && b1 === 0x81 && b2 !== undefined && b2 >= 0xa6 && b2 <= 0xa9) cut(i, `\\u20${(b2 - 0xa6 + 0x66).toString(16)}`, i + 3);
  }
  if (out === undefined) return chunk;
  out.push(chunk.subarray(from));
  return Buffer.concat(out);
}

/** The end (exclusive) of a colour sequence `ESC [ digits;: m` starting at `at`, else 0. */
function sgrEnd(chunk: Buffer, at: number): number {
  if (chunk[at + 1] !== 0x5b) return 0;
  for (let j = at + 2; j < chunk.length && j < at + 64; j++) {
    const c = chunk[j]!;
    if (c === 0x6d) return j + 1;
    if (!((c >= 0x30 && c <= 0x39) || c === 0x3b || c === 0x3a)) return 0;
  }
  return 0;
}
