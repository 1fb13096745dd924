/**
 * A gate's output on its way to our stderr, made safe the way `shown` makes a file name safe, but as a stream and with the
 * runner's colours kept: colour and style sequences (CSI ... `m`, and the `ESC ( B` of a colour reset) pass, newlines and tabs pass, a
 * carriage return passes only before a newline; every other control character (cursor moves, line
 * erases, window titles, hyperlinks and clipboard writes, bells, backspaces, C1) and every
 * bidirectional-override character is written as its escape (`\x1b`, `\r`, `\u202e`), so a gate cannot
 * move the cursor, rewrite lines already printed, or reorder what follows. Pure: bytes in, bytes out.
 *
 * Every gate's output on a push, a commit, a manual run or a seed comes through here. Chunks are
 * filtered one by one: a sequence cut between two reads is escaped, never passed in part.
 */
const ESC = 0x1b;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** A run of one control byte (not ESC nor CR) at least this long is written once, with its length: `\x00{65536}`. */
const RUN_MIN = 16;
const RUN_BLOCK = 4096;
/** A block of each byte value met in a run, made on first use. */
const fills: (Buffer | undefined)[] = [];

/**
 * Bytes of `chunk` to write: unchanged (the same Buffer) when nothing in it needs an escape. One pass,
 * into one buffer (an escape is at most 4 bytes for each byte it replaces), so any bytes pass at pipe
 * speed; a run of one control byte (a megabyte of NULs) is written as one escape and its length.
 */
export function safeGateOutput(chunk: Buffer): Buffer {
  let out: Buffer | undefined;
  let len = 0;
  let from = 0;
  /** Copies what passed since the last escape, then `\x` or `\u` and `digits` hex digits of `code`. */
  /** Copies the bytes since the last escape up to `at` (a short span byte by byte: cheaper than a native call). */
  const upTo = (at: number) => {
    out ??= Buffer.allocUnsafe(chunk.length * 4 + 32);
    if (at - from > 32) len += chunk.copy(out, len, from, at);
    else for (let k = from; k < at; k++) out[len++] = chunk[k]!;
  };
  const escape = (at: number, u: boolean, code: number, next: number) => {
    upTo(at);
    out = out!;
    out[len++] = 0x5c;
    out[len++] = u ? 0x75 : 0x78;
    for (let shift = u ? 12 : 4; shift >= 0; shift -= 4) out[len++] = HEX[(code >> shift) & 15]!;
    from = next;
  };
  /** A single-byte escape at `at`, and the run of the same byte after it, written once with its length when long. */
  const single = (at: number, b: number): number => {
    let end = at + 1;
    if (b !== 0x0d && b !== ESC && chunk[at + RUN_MIN - 1] === b && chunk[at + 1] === b) {
      // Whole blocks compared natively against a block of the same byte, then byte by byte.
      const block = (fills[b] ??= Buffer.alloc(RUN_BLOCK, b));
      while (end + RUN_BLOCK <= chunk.length && chunk.compare(block, 0, RUN_BLOCK, end, end + RUN_BLOCK) === 0) end += RUN_BLOCK;
      while (end < chunk.length && chunk[end] === b) end++;
    }
    if (end - at < RUN_MIN) end = at + 1;
    if (b === 0x0d) {
      upTo(at);
      out![len++] = 0x5c;
      out![len++] = 0x72;
    } else escape(at, false, b, end);
    if (end - at > 1) len += out!.write(`{${end - at}}`, len, 'latin1');
    from = end;
    return end - 1;
  };
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i]!;
    if (b >= 0x20 && b < 0x7f) continue;
    if (b === 0x0a || b === 0x09) continue;
    if (b === 0x0d) {
      if (chunk[i + 1] !== 0x0a) i = single(i, b);
      continue;
    }
    if (b === ESC) {
      const end = sgrEnd(chunk, i);
      if (end > 0) i = end - 1;
      else i = single(i, b);
      continue;
    }
    if (b < 0x20 || b === 0x7f) {
      i = single(i, b);
      continue;
    }
    // UTF-8: C1 controls are C2 80..9F; the marks, embeddings, overrides and isolates are D8 9C,
    // E2 80 8E..8F, E2 80 AA..AE and E2 81 A6..A9.
    const b1 = chunk[i + 1];
    const b2 = chunk[i + 2];
    if (b === 0xc2 && b1 !== undefined && b1 >= 0x80 && b1 <= 0x9f) {
      escape(i, true, b1, i + 2);
      i += 1;
    } else if (b === 0xd8 && b1 === 0x9c) {
      escape(i, true, 0x061c, i + 2);
      i += 1;
    } else if (b === 0xe2 && b1 === 0x80 && b2 !== undefined && (b2 === 0x8e || b2 === 0x8f || (b2 >= 0xaa && b2 <= 0xae))) {
      escape(i, true, 0x2000 + (b2 - 0x80), i + 3);
      i += 2;
    } else if (b === 0xe2 && b1 === 0x81 && b2 !== undefined && b2 >= 0xa6 && b2 <= 0xa9) {
      escape(i, true, 0x2000 + (b2 - 0xa6 + 0x66), i + 3);
      i += 2;
    }
  }
  if (out === undefined) return chunk;
  len += chunk.copy(out, len, from);
  return out.subarray(0, len);
}

/**
 * The end (exclusive) of a colour sequence `ESC [ digits;: m` starting at `at`, or of `ESC ( B` (US-ASCII
 * as the character set, which `tput sgr0` writes with its colour reset: rustfmt's diffs), else 0.
 */
function sgrEnd(chunk: Buffer, at: number): number {
  if (chunk[at + 1] === 0x28 && chunk[at + 2] === 0x42) return at + 3;
  if (chunk[at + 1] !== 0x5b) return 0;
  for (let j = at + 2; j < chunk.length && j < at + 64; j++) {
    const c = chunk[j]!;
    if (c === 0x6d) return j + 1;
    if (!((c >= 0x30 && c <= 0x39) || c === 0x3b || c === 0x3a)) return 0;
  }
  return 0;
}
