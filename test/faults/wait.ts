/** Event and deadline waits for the fault tests: never a fixed sleep. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cleanEnv } from '../helpers/repo.js';

/** Polls `check` every 20 ms until it returns something other than undefined/false, or `ms` pass (then throws, saying `what`). */
export async function waitFor<T>(what: string, check: () => T | undefined | false, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`gave up after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Running (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return false;
  }
}

/** A pid a test script wrote to `file`, once it is there and whole. */
export const pidIn = (file: string) => () => {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  return text.endsWith('\n') ? Number(text.trim()) : undefined;
};

/** Kills `pid` (and its group, when it leads one), ignoring what is gone already. */
export function killQuietly(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 1) return;
  for (const p of [-pid, pid]) {
    try {
      process.kill(p, signal);
    } catch {
      // gone
    }
  }
}

/** A process started in the background, its output collected as it arrives. */
export interface Background {
  pid: number;
  out: () => string;
  /** Resolves with the exit code (null after a signal) once it has exited (its output may still be on its way). */
  done: Promise<number | null>;
  /** Resolves once its pipes are closed too: its output is whole. */
  closed: Promise<void>;
  exited: () => boolean;
}

export function background(cmd: string, args: readonly string[], cwd: string, env: Record<string, string> = {}, input = ''): Background {
  const child = spawn(cmd, args, { cwd, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let exited = false;
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  child.stdin.end(input);
  const done = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { pid: child.pid!, out: () => out, done, closed, exited: () => exited };
}

/** The parent of `pid`, from /proc. */
export function parentOf(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}
