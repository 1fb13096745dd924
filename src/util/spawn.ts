import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * Every process gate-ladder starts in the background (gates, and git writing into a file) starts
 * here, through node:child_process, and is signalled here. Public Node APIs only: an internal
 * binding can change its signature in any release (Node 24 changed the one child_process uses, and
 * the native assertion aborted every push before any message), so none is used anywhere.
 * node:child_process (with node:net beneath it) loads on the first start, through
 * process.getBuiltinModule (public since Node 20.16): a push whose tree already passed never loads it.
 */

export interface StartSpec {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the child's stdout and stderr go: a file descriptor, nowhere, or a pipe we read. Its stdin is /dev/null. */
  stdout: number | 'ignore' | 'pipe';
  stderr: number | 'ignore' | 'pipe';
  /** In its own process group (its pid is the group's id), so the group can be signalled as a tree. */
  detached: boolean;
}

/** How a process ended: its exit, or why it could not start (ENOENT, EACCES, ...). */
export type ProcessEnd = { exitCode: number | null; signal: NodeJS.Signals | null } | { error: NodeJS.ErrnoException };

export interface Started {
  /** Undefined when the process could not start (`ended` then gives the error). */
  pid: number | undefined;
  /** Settles once, on the process's exit or on the error that kept it from starting. Never rejects. */
  ended: Promise<ProcessEnd>;
  stdout: Readable | null;
  stderr: Readable | null;
  /** Closes our ends of its pipes: whatever the process left behind can no longer keep us waiting. */
  closePipes: () => void;
  /** Lets node exit while the process still runs (a browser left open). */
  unref: () => void;
}

/** Starts a process; never throws (a start refused outright, e.g. a NUL in an argument, is an `ended` error too). */
export function startProcess(spec: StartSpec): Started {
  let child: ChildProcess;
  try {
    child = process
      .getBuiltinModule('node:child_process')
      .spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, detached: spec.detached, stdio: ['ignore', spec.stdout, spec.stderr] });
  } catch (err) {
    return {
      pid: undefined,
      ended: Promise.resolve({ error: err as NodeJS.ErrnoException }),
      stdout: null,
      stderr: null,
      closePipes: () => {},
      unref: () => {},
    };
  }
  const ended = new Promise<ProcessEnd>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => resolve({ error }));
    child.once('exit', (exitCode, signal) => resolve({ exitCode, signal }));
  });
  return {
    pid: child.pid,
    ended,
    stdout: child.stdout,
    stderr: child.stderr,
    closePipes: () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
    unref: () => child.unref(),
  };
}

/**
 * Sends `signal` to process `pid` (a negative pid: its process group) if it is still there. After a
 * gate exits, its group is usually empty, and that is not an error.
 */
export function signalQuietly(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `file args` (in `cwd`) if this process is killed outright (`kill -9`, where no handler runs):
 * a shell in a session of its own waits on a pipe from this process, and when the pipe closes it
 * starts the command. A normal exit kills that shell first, so the command runs only after a kill.
 * The command's stderr is this process's. The shell and its pipe do not keep this process alive. Best effort: a shell that cannot start
 * costs only the clean-up it would have done.
 */
export function whenKilled(file: string, args: readonly string[], cwd: string): void {
  let child: ChildProcess;
  try {
    child = process
      .getBuiltinModule('node:child_process')
      .spawn('/bin/sh', ['-c', 'read -r _ || exec "$@"', 'gate-ladder-watch', file, ...args], {
        cwd,
        detached: true,
        stdio: ['pipe', 'ignore', 'inherit'],
      });
  } catch {
    return;
  }
  child.once('error', () => {});
  child.unref();
  // The pipe's end here: a socket, which would hold the event loop open.
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  const pid = child.pid;
  if (pid !== undefined) process.once('exit', () => signalQuietly(pid, 'SIGKILL'));
}
