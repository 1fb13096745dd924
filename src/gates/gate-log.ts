/**
 * The full output of a gate, in a file under the git dir (config `output: 'summary'`):
 * `<git common dir>/gate-ladder/logs/<UTC time>-<tier>.log`, written as the output arrives (a run killed
 * outright still leaves what its gate printed), never inside the working tree. The newest LOGS_KEPT logs
 * are kept; older ones are removed when a new one is opened. A log stops at LOG_MAX_BYTES, saying so at
 * its end. Best effort: a folder that cannot be written costs the log, never the verdict.
 */
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from '../util/node.js';
import { join } from 'node:path';

/** How many logs are kept (the newest). */
export const LOGS_KEPT = 20;
/** The most of one gate's output a log holds. */
export const LOG_MAX_BYTES = 64 * 1024 * 1024;

export function logsDir(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'logs');
}

/** One tier's log, open while its gate runs (both attempts of a retried tier go to the same log). */
export interface GateLog {
  /** Absolute path of the file; undefined when it could not be opened. */
  readonly path: string | undefined;
  write(chunk: Buffer): void;
  /** Lines written so far (a last line without its newline counts). */
  lines(): number;
  /** The bytes the file keeps when output was left out of it (past LOG_MAX_BYTES); undefined when it holds all. */
  cut(): number | undefined;
  close(): void;
}

/** `20261206-082213-123`: sorts by time, safe in a file name. */
function stamp(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${iso.slice(20, 23)}`;
}

/** Opens a new log for `tier` under `dir`, removing the oldest beyond LOGS_KEPT. */
export function openGateLog(dir: string, tier: string, now: Date = new Date()): GateLog {
  const name = `${stamp(now)}-${tier.replace(/[^\w.-]+/g, '_').slice(0, 80)}`;
  let fd: number | undefined;
  let path: string | undefined;
  try {
    mkdirSync(dir, { recursive: true });
    for (let n = 1; fd === undefined && n < 100; n++) {
      const file = join(dir, `${name}${n === 1 ? '' : `-${n}`}.log`);
      try {
        fd = openSync(file, 'wx', 0o600);
        path = file;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    prune(dir);
  } catch {
    // No log: the verdict and the summary do not need it.
  }
  let bytes = 0;
  let newlines = 0;
  let lastNewline = true;
  let dropped = 0;
  return {
    path,
    write(chunk) {
      if (chunk.length === 0) return;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) newlines++;
      lastNewline = chunk[chunk.length - 1] === 0x0a;
      if (fd === undefined) return;
      const room = LOG_MAX_BYTES - bytes;
      const part = chunk.length <= room ? chunk : chunk.subarray(0, Math.max(0, room));
      dropped += chunk.length - part.length;
      if (part.length === 0) return;
      try {
        writeSync(fd, part);
        bytes += part.length;
      } catch {
        closeQuietly(fd);
        fd = undefined;
      }
    },
    lines: () => newlines + (lastNewline ? 0 : 1),
    cut: () => (dropped > 0 ? LOG_MAX_BYTES : undefined),
    close() {
      if (fd === undefined) return;
      try {
        if (dropped > 0)
          writeSync(fd, `\n[gate-ladder: the log stops at ${LOG_MAX_BYTES} bytes; ${dropped} more bytes of output were not kept]\n`);
      } catch {
        // Best effort.
      }
      closeQuietly(fd);
      fd = undefined;
    },
  };
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}

/** Removes the oldest logs beyond LOGS_KEPT (names sort by time). */
function prune(dir: string): void {
  const logs = readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .sort();
  for (const f of logs.slice(0, Math.max(0, logs.length - LOGS_KEPT))) rmSync(join(dir, f), { force: true });
}
