import { readFileSync, readdirSync, readlinkSync } from './node.js';

/**
 * What the operating system says about other processes, read from Linux's /proc (where there is
 * none, every answer is "unknown": undefined or an empty list, and callers fall back to less).
 */

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * When process `pid` started (clock ticks since boot, as text): with the pid, it names one process,
 * however often pids are reused. Undefined when it is gone or the OS does not say.
 */
export function startTime(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

let own: string | null | undefined;
/** This process's start time (read once). */
export function ownStartTime(): string | undefined {
  if (own === undefined) own = startTime(process.pid) ?? null;
  return own ?? undefined;
}

/** Whether process `pid` was started with `name` holding `token` among its colon-separated parts (see processesMarked). */
export function isMarked(pid: number, name: string, token: string): boolean {
  let env: string;
  try {
    env = readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return false;
  }
  if (!env.includes(token)) return false;
  const prefix = `${name}=`;
  const entry = env.split('\0').find((e) => e.startsWith(prefix));
  return entry?.slice(prefix.length).split(':').includes(token) === true;
}

/** The process's parent, process group and state letter (`Z`: exited, not yet reaped). */
export function procStat(pid: number): { ppid: number; pgid: number; state: string } | undefined {
  const f = statFields(pid);
  return f && { state: f[0]!, ppid: Number(f[1]), pgid: Number(f[2]) };
}

/** The process's command name (`git`, `node`, ...). */
export function commandName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'latin1').trim();
  } catch {
    return undefined;
  }
}

/** Whether `pid` is running (a zombie is not), and, when `start` is given, is still the process that started then. */
export function isAlive(pid: number, start?: string): boolean {
  const f = statFields(pid);
  if (f === undefined) {
    if (existsProc()) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  return f[0] !== 'Z' && (start === undefined || f[19] === start);
}

let hasProc: boolean | undefined;
const existsProc = () => (hasProc ??= statFields(process.pid) !== undefined);

/** Every pid /proc lists (none without /proc). */
function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((n) => n.charCodeAt(0) >= 48 && n.charCodeAt(0) <= 57)
      .map(Number);
  } catch {
    return [];
  }
}

/** Processes whose process group is `pgid` (zombies left out). */
export function groupMembers(pgid: number): number[] {
  return allPids().filter((pid) => {
    const s = procStat(pid);
    return s !== undefined && s.pgid === pgid && s.state !== 'Z';
  });
}

/**
 * Processes whose environment (as they were started) has variable `name` holding `token` among its
 * colon-separated parts: what a process started below a gate inherits, even after it left the gate's
 * process group and session (`setsid`). Only processes of our own user can be read; one started with
 * a cleaned environment is not found.
 */
export function processesMarked(name: string, token: string): number[] {
  return allPids().filter((pid) => pid !== process.pid && isMarked(pid, name, token));
}

let host: string | null | undefined;
/** This machine's name (Linux: /proc/sys/kernel/hostname; loading node:os for it costs more); undefined when unknown. */
export function hostName(): string | undefined {
  if (host === undefined) {
    try {
      host = readFileSync('/proc/sys/kernel/hostname', 'latin1').trim() || null;
    } catch {
      host = null;
    }
  }
  return host ?? undefined;
}

/**
 * Processes named `name` (their command name, as `commandName` reads it) that run in `dir` or a folder
 * below it: what a run killed outright left working there. None without /proc.
 */
export function processesIn(dir: string, name: string): number[] {
  return allPids().filter((pid) => {
    if (pid === process.pid || commandName(pid) !== name) return false;
    let cwd: string;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      return false;
    }
    return cwd === dir || cwd.startsWith(`${dir}/`);
  });
}
