/**
 * git's index file (`<git dir>/index`, Documentation/gitformat-index.adoc in git's repository), read
 * just far enough to ask "does the work tree match it?" without starting git. Pure: a buffer in,
 * data or `undefined` out, never a throw. `undefined` means "let git answer": every feature this
 * reader does not fully model (conflicts, sparse or split indexes, assume-valid, skip-worktree,
 * intent-to-add, submodules) is refused rather than half-understood.
 */

/** One stage-0 entry: what git recorded from lstat(2) when it last saw the file, 32-bit fields as git stores them. */
export interface IndexEntry {
  path: string;
  /** 0o100644, 0o100755 or 0o120000 (anything else is refused). */
  mode: number;
  ctimeSec: number;
  ctimeNsec: number;
  mtimeSec: number;
  mtimeNsec: number;
  ino: number;
  uid: number;
  gid: number;
  size: number;
}

export interface ParsedIndex {
  entries: IndexEntry[];
  /** The tree the index would write (the cache-tree's root), when git has it valid. */
  tree: string | undefined;
}

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE = 0x3000;
const NAME_MASK = 0x0fff;
/** ctime, mtime, dev, ino, mode, uid, gid, size: ten 32-bit fields before the object id. */
const ENTRY_HEAD = 40;
const EMPTY_BLOB: Record<number, string> = {
  20: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
  32: '473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813',
};

/**
 * The index's entries and root cache-tree, for a repo whose object ids are `hashBytes` long (20 for
 * SHA-1, 32 for SHA-256). `undefined` for an unknown version, more than `maxEntries` entries, an
 * entry git would not compare by stat data alone, a required extension (`link`: split index,
 * `sdir`: sparse index), or anything truncated or malformed. The trailing checksum is not verified
 * (hashing the file would cost more than the check saves); every read is bounds-checked instead.
 */
export function parseIndex(buf: Buffer, hashBytes: number, maxEntries: number): ParsedIndex | undefined {
  const end = buf.length - hashBytes;
  if (end < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  // DataView reads are V8 builtins; Buffer's readUInt32BE is JavaScript, several times slower before
  // the JIT warms up, and a hook reads the index once, cold.
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const version = dv.getUint32(4);
  const count = dv.getUint32(8);
  if (version < 2 || version > 4 || count > maxEntries) return undefined;
  const emptyBlob = EMPTY_BLOB[hashBytes];
  if (emptyBlob === undefined) return undefined;
  const entries: IndexEntry[] = [];
  let off = 12;
  // v4 strips bytes, not characters, from the previous path.
  let prev: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const flagsAt = off + ENTRY_HEAD + hashBytes;
    if (flagsAt + 2 > end) return undefined;
    const flags = dv.getUint16(flagsAt);
    if (flags & (ASSUME_VALID | STAGE)) return undefined;
    let nameAt = flagsAt + 2;
    if (flags & EXTENDED) {
      // Version 2 has no extended flags; every bit git defines there (skip-worktree, intent-to-add) is refused.
      if (version < 3 || nameAt + 2 > end || dv.getUint16(nameAt) !== 0) return undefined;
      nameAt += 2;
    }
    const mode = dv.getUint32(off + 24);
    if (mode !== 0o100644 && mode !== 0o100755 && mode !== 0o120000) return undefined;
    // The name's length is in the flags, unless it is 0xFFF or more: then only its NUL ends it.
    const len = flags & NAME_MASK;
    let path: string | undefined;
    let next: number;
    if (version === 4) {
      // Prefix compression: a varint of bytes to drop from the previous path, then the rest, NUL-terminated.
      const v = readVarint(buf, nameAt, end);
      if (v === undefined || v.value > prev.length) return undefined;
      const keep = prev.length - v.value;
      const nul = len === NAME_MASK ? buf.indexOf(0, v.next) : v.next + len - keep;
      if (nul < v.next || nul >= end || buf[nul] !== 0) return undefined;
      prev = keep === 0 ? buf.subarray(v.next, nul) : Buffer.concat([prev.subarray(0, keep), buf.subarray(v.next, nul)]);
      path = decodePath(prev, 0, prev.length);
      next = nul + 1;
    } else {
      const nul = len === NAME_MASK ? buf.indexOf(0, nameAt + NAME_MASK) : nameAt + len;
      if (nul < nameAt || nul >= end || buf[nul] !== 0) return undefined;
      path = decodePath(buf, nameAt, nul);
      // 1 to 8 NULs pad the entry to a multiple of 8 bytes.
      next = off + ((nul - off + 8) & ~7);
      if (next > end) return undefined;
    }
    if (path === undefined) return undefined;
    const size = dv.getUint32(off + 36);
    // git writes size 0 for an entry that was racily clean when the index was written ("smudged"): it
    // then compares contents, which only git can do.
    if (size === 0 && buf.toString('hex', off + ENTRY_HEAD, off + ENTRY_HEAD + hashBytes) !== emptyBlob) return undefined;
    entries.push({
      path,
      mode,
      ctimeSec: dv.getUint32(off),
      ctimeNsec: dv.getUint32(off + 4),
      mtimeSec: dv.getUint32(off + 8),
      mtimeNsec: dv.getUint32(off + 12),
      ino: dv.getUint32(off + 20),
      uid: dv.getUint32(off + 28),
      gid: dv.getUint32(off + 32),
      size,
    });
    off = next;
  }
  let tree: string | undefined;
  while (off < end) {
    if (off + 8 > end) return undefined;
    const c = buf[off]!;
    // An extension whose name starts with a capital letter may be ignored; any other is required
    // reading (`link`, `sdir`) and changes what the entries mean.
    if (c < 65 || c > 90) return undefined;
    const size = dv.getUint32(off + 4);
    const dataAt = off + 8;
    if (size > end - dataAt) return undefined;
    if (buf.toString('latin1', off, off + 4) === 'TREE') tree = rootTree(buf, dataAt, dataAt + size, hashBytes, count);
    off = dataAt + size;
  }
  return { entries, tree };
}

/**
 * The cache-tree's root: an empty name, `entry_count SP subtrees LF`, then the tree id when the count
 * is not negative (an invalidated node has none). Only a valid root that covers every entry counts.
 */
function rootTree(buf: Buffer, from: number, to: number, hashBytes: number, count: number): string | undefined {
  if (from >= to || buf[from] !== 0) return undefined;
  const lf = buf.indexOf(10, from + 1);
  if (lf < 0 || lf >= to) return undefined;
  // `-?[0-9]+ [0-9]+`, read without a regular expression (each costs a compile on first use).
  const text = buf.toString('latin1', from + 1, lf);
  const sp = text.indexOf(' ');
  const entries = text.slice(0, sp);
  if (sp < 0 || !digits(entries.startsWith('-') ? entries.slice(1) : entries) || !digits(text.slice(sp + 1))) return undefined;
  if (Number(entries) !== count || lf + 1 + hashBytes > to) return undefined;
  return buf.toString('hex', lf + 1, lf + 1 + hashBytes);
}

/** One or more ASCII digits. */
function digits(s: string): boolean {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 48 || s.charCodeAt(i) > 57) return false;
  return true;
}

/** git's offset varint (also used by OFS_DELTA): 7 bits a byte, high bit = more, each continuation adding 1. */
function readVarint(buf: Buffer, at: number, end: number): { value: number; next: number } | undefined {
  if (at >= end) return undefined;
  let c = buf[at++]!;
  let value = c & 127;
  while (c & 128) {
    if (at >= end || value > 0xffffff) return undefined;
    c = buf[at++]!;
    value = ((value + 1) * 128) + (c & 127);
  }
  return { value, next: at };
}

/**
 * A path's bytes as the string node's fs functions take. Non-UTF-8 bytes cannot survive the round
 * trip (the file would be looked up under another name), so such a path is refused, as is an empty
 * one or one with a NUL inside (a garbled entry).
 */
function decodePath(buf: Buffer, from: number, to: number): string | undefined {
  const s = buf.toString('utf8', from, to);
  return s === '' || s.includes('\uFFFD') || s.includes('\0') ? undefined : s;
}

/** Extended flags (version 3 and later): the entry is outside a sparse checkout, or was marked `update-index --skip-worktree`. */
const SKIP_WORKTREE = 0x4000;

/** Entries git does not compare with the work tree, so `git status` says nothing of their files. */
export interface UncomparedEntries {
  /** skip-worktree: outside a sparse checkout (often not on disk at all), or `update-index --skip-worktree`. */
  skipWorktree: number;
  /** assume-valid: `update-index --assume-unchanged`. */
  assumeValid: number;
}

/**
 * How many of the index's entries git would not compare with the work tree, for any number of entries
 * (only each entry's flags and the length of its name are read). `undefined` for a split index (the
 * entries are in another file), an unknown version or anything malformed: the caller asks git. Pure.
 */
export function uncomparedEntries(buf: Buffer, hashBytes: number): UncomparedEntries | undefined {
  const end = buf.length - hashBytes;
  if (end < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const version = dv.getUint32(4);
  const count = dv.getUint32(8);
  if (version < 2 || version > 4) return undefined;
  const out: UncomparedEntries = { skipWorktree: 0, assumeValid: 0 };
  let off = 12;
  for (let i = 0; i < count; i++) {
    const flagsAt = off + ENTRY_HEAD + hashBytes;
    if (flagsAt + 2 > end) return undefined;
    const flags = dv.getUint16(flagsAt);
    if (flags & ASSUME_VALID) out.assumeValid++;
    let nameAt = flagsAt + 2;
    if (flags & EXTENDED) {
      if (version < 3 || nameAt + 2 > end) return undefined;
      if (dv.getUint16(nameAt) & SKIP_WORKTREE) out.skipWorktree++;
      nameAt += 2;
    }
    const len = flags & NAME_MASK;
    if (version === 4) {
      // Past the varint (its value is not needed), then the name's rest to its NUL, byte by byte: a call
      // per entry (readVarint's object, buf.indexOf) costs several times more in a cold process.
      let nul = nameAt;
      while (nul < end && buf[nul]! & 128) nul++;
      nul++;
      while (nul < end && buf[nul] !== 0) nul++;
      if (nul >= end) return undefined;
      off = nul + 1;
    } else {
      const nul = len === NAME_MASK ? buf.indexOf(0, nameAt + NAME_MASK) : nameAt + len;
      if (nul < nameAt || nul >= end || buf[nul] !== 0) return undefined;
      off = off + ((nul - off + 8) & ~7);
      if (off > end) return undefined;
    }
  }
  while (off < end) {
    if (off + 8 > end) return undefined;
    // A split index keeps its entries in a shared index file: only git can count them.
    if (buf.toString('latin1', off, off + 4) === 'link') return undefined;
    const size = dv.getUint32(off + 4);
    if (size > end - off - 8) return undefined;
    off += 8 + size;
  }
  return out;
}
