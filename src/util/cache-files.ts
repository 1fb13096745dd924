import { isAscii, isUtf8 } from './node.js';
import { close, mkdirSync, open, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync, writev } from './node.js';
import { basename, dirname, join } from 'node:path';
import { RAW_BYTE } from './escape.js';
import { newRunId } from './hash.js';
import { backgroundWork } from './early-exit.js';

/** Caches live beside the ledger, shared by every worktree of the repo, never committed. */
export function cacheDir(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'cache');
}

/** A JSON file's value; `undefined` when it is missing or unreadable (a cache miss, never an error). */
export function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * Writes a file whole or not at all: a temp file renamed over the target, so a concurrent reader
 * sees the old or the new content and concurrent writers of one name both leave a valid one. Keeps
 * at most `keep` files starting with `prefix` in the folder, removing the oldest. Failures are
 * ignored: a cache that cannot be written costs time, never a verdict.
 */
export function writeFileAtomic(path: string, data: string, opts: { prefix: string; keep: number; maxBytes?: number }): void {
  const dir = dirname(path);
  const tmp = join(dir, `.tmp-${process.pid}-${newRunId()}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
    prune(dir, opts, basename(path));
  } catch {
    unlinkQuiet(tmp);
  }
}

export function writeJsonAtomic(path: string, value: unknown, opts: { prefix: string; keep: number }): void {
  writeFileAtomic(path, `${JSON.stringify(value)}\n`, opts);
}

/**
 * UTF-8 text; ASCII (most of git's output) is decoded as latin1, which skips validation: a 3 MB diff
 * listing decodes several times faster. A byte that is not part of valid UTF-8 (a file name made on a
 * latin1 system) becomes U+DC80 + its value, a lone surrogate no valid text holds, not U+FFFD: the name
 * stays itself, so `{changed}` can hand the gate its exact bytes (util/shell-words.ts `shellWord`) and
 * util/escape.ts shows them as `\xNN`.
 */
export function decodeText(buf: Buffer): string {
  if (isAscii(buf)) return buf.toString('latin1');
  return isUtf8(buf) ? buf.toString('utf8') : decodeKeepingBytes(buf);
}

/** decodeText for a buffer that is not valid UTF-8: the valid sequences decoded, each other byte kept as RAW_BYTE | byte. */
function decodeKeepingBytes(buf: Buffer): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i < buf.length) {
    const n = utf8At(buf, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += buf.toString('utf8', from, i) + String.fromCharCode(RAW_BYTE | buf[i]!);
    from = ++i;
  }
  return out + buf.toString('utf8', from);
}

/** The length of the valid UTF-8 sequence at `i` (no overlong form, surrogate or code point past U+10FFFF), 0 when there is none. */
function utf8At(b: Buffer, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (len === 0 || i + len > b.length) return 0;
  for (let k = 1; k < len; k++) if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  const c1 = b[i + 1]!;
  if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 >= 0xa0) || (c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 >= 0x90)) return 0;
  return len;
}

/** A file's UTF-8 text (ASCII decoded the fast way); `undefined` when it is missing or unreadable. */
export function readText(path: string): string | undefined {
  try {
    return decodeText(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** A name for a file that will become a cache entry through `adoptFile`; undefined when the folder cannot be made. */
export function tempFileIn(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    return join(dir, `.tmp-${process.pid}-${newRunId()}`);
  } catch {
    return undefined;
  }
}

/** A finished temp file (see `tempFileIn`) renamed to its entry's name, with writeFileAtomic's pruning; removed on failure. */
export function adoptFile(tmp: string, path: string, opts: { prefix: string; keep: number; maxBytes?: number }): void {
  try {
    renameSync(tmp, path);
    prune(dirname(path), opts, basename(path));
  } catch {
    unlinkQuiet(tmp);
  }
}

/**
 * writeFileAtomic without waiting: the write runs on libuv's thread pool, beside whatever the run
 * does next (a 3 MB diff listing takes tens of milliseconds to write here). Node waits for it
 * before exiting, and the bin does not exit early meanwhile (early-exit.ts).
 */
export function writeFileAtomicLater(
  path: string,
  data: string | readonly Buffer[],
  opts: { prefix: string; keep: number; maxBytes?: number },
): void {
  const dir = dirname(path);
  const tmp = join(dir, `.tmp-${process.pid}-${newRunId()}`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return;
  }
  // Pieces are written as they are (writev): joining megabytes first costs a copy of them.
  const parts = typeof data === 'string' ? [Buffer.from(data)] : data;
  const settled = backgroundWork();
  const finish = (err: unknown, fd?: number) => {
    const done = () => {
      if (err) unlinkQuiet(tmp);
      else adoptFile(tmp, path, opts);
      settled();
    };
    if (fd === undefined) done();
    else
      close(fd, (closeErr) => {
        err ??= closeErr;
        done();
      });
  };
  open(tmp, 'w', (err, fd) => {
    if (err) return finish(err);
    const rest = (left: readonly Buffer[]): void =>
      writev(fd, left, (e, written) => {
        if (e) return finish(e, fd);
        const more = dropBytes(left, written);
        if (more.length === 0) finish(null, fd);
        else rest(more);
      });
    rest(parts);
  });
}

/** What is left of `parts` after its first `n` bytes. Pure. */
export function dropBytes(parts: readonly Buffer[], n: number): Buffer[] {
  const out: Buffer[] = [];
  for (const p of parts) {
    if (n >= p.length) {
      n -= p.length;
      continue;
    }
    out.push(n > 0 ? p.subarray(n) : p);
    n = 0;
  }
  return out;
}

const STALE_TMP_MS = 60 * 60 * 1000;

/** Keeps the newest `keep` files of a prefix (and, with `maxBytes`, no more than that many bytes of them). */
function prune(dir: string, opts: { prefix: string; keep: number; maxBytes?: number }, fresh: string): void {
  const all = readdirSync(dir);
  // Temp files a run left behind when it was killed (a diff listing can be megabytes).
  for (const n of all)
    if (n.startsWith('.tmp-') && (statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < Date.now() - STALE_TMP_MS)
      unlinkQuiet(join(dir, n));
  const names = all.filter((n) => n.startsWith(opts.prefix) && n !== fresh);
  if (names.length < opts.keep && opts.maxBytes === undefined) return;
  const files = names
    .map((n) => {
      const st = statSync(join(dir, n), { throwIfNoEntry: false });
      return { n, t: st?.mtimeMs ?? 0, size: st?.size ?? 0 };
    })
    .sort((a, b) => b.t - a.t);
  let bytes = statSync(join(dir, fresh), { throwIfNoEntry: false })?.size ?? 0;
  files.forEach((f, i) => {
    bytes += f.size;
    if (i + 1 >= opts.keep || (opts.maxBytes !== undefined && bytes > opts.maxBytes)) unlinkQuiet(join(dir, f.n));
  });
}

/** unlinkSync, not rmSync: rmSync loads node's rimraf, a cost on every push. */
export function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
