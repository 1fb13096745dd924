import { getSystemErrorName } from 'node:util';

/**
 * Starting a process whose output goes to a file descriptor (a gate's to our stderr, git's to a file),
 * without loading node:child_process, and signalling it without an exception.
 *
 * Loading child_process (and the net, stream and event modules it pulls in) and its ChildProcess
 * wrapper cost about 9 ms per hook run on a 2-core VM, measured side by side (docs/performance.md):
 * most of what the runner adds to a push whose tree and commit pair are cached. Node's process_wrap
 * binding, which child_process itself uses, starts the same process. It is an internal API
 * (`process.binding`, DEP0111), so everything here is guarded: where it is missing, refused (the
 * permission model), or would print a deprecation warning (--pending-deprecation), `startWithFd`
 * returns undefined and the caller uses child_process as before.
 */

export interface FdSpawn {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The fds the child's stdout and stderr are given (its stdin is /dev/null). */
  stdout: number | 'ignore';
  stderr: number | 'ignore';
  /** In its own process group, as child_process's `detached: true`. */
  detached: boolean;
}

export type FdStart =
  | { pid: number; exited: Promise<{ exitCode: number | null; signal: string | null }> }
  | { error: NodeJS.ErrnoException };

interface ProcessHandle {
  pid?: number;
  onexit: (exitCode: number, signal: string) => void;
  spawn(options: object): number;
  close(): void;
}

type ProcessCtor = new () => ProcessHandle;

let ctor: ProcessCtor | null | undefined;

function processCtor(): ProcessCtor | null {
  if (process.env.GATE_LADDER_NODE_INTERNALS === '0') return null;
  if (ctor !== undefined) return ctor;
  ctor = null;
  const pending = process.execArgv.includes('--pending-deprecation') || (process.env.NODE_OPTIONS ?? '').includes('--pending-deprecation');
  const binding = (process as unknown as { binding?: (name: string) => { Process?: unknown } }).binding;
  if (pending || typeof binding !== 'function') return ctor;
  try {
    const found = binding('process_wrap').Process;
    if (typeof found === 'function' && typeof (found.prototype as Partial<ProcessHandle>).spawn === 'function') ctor = found as ProcessCtor;
  } catch {
    // refused (e.g. under --permission): child_process it is
  }
  return ctor;
}

/** The gate's signals have the same numbers on every POSIX system (node:os, which lists them, costs 0.6 ms to load). */
const SIGNALS: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * Sends `signal` to process `pid` (a negative pid: its process group), if it is still there. After a
 * gate exits this almost always finds nothing left of its group, and `process.kill` then throws: its
 * first error builds node's table of error names, about 0.7 ms of every push. `process._kill`, which
 * `process.kill` calls, returns the error number instead; where it is missing, `process.kill` it is.
 */
export function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  const raw = (process as unknown as { _kill?: (pid: number, sig: number) => number })._kill;
  const number = SIGNALS[signal];
  if (typeof raw === 'function' && number !== undefined && process.env.GATE_LADDER_NODE_INTERNALS !== '0') {
    raw.call(process, pid, number);
    return;
  }
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

const stdio = (fd: number | 'ignore') => (fd === 'ignore' ? { type: 'ignore' } : { type: 'fd', fd });

/** `KEY=value` pairs as execve wants them; undefined when one cannot be passed (child_process then says why). */
function envPairs(env: NodeJS.ProcessEnv): string[] | undefined {
  const pairs: string[] = [];
  for (const key in env) {
    const value = env[key];
    if (value === undefined) continue;
    const pair = `${key}=${value}`;
    if (pair.includes('\0')) return undefined;
    pairs.push(pair);
  }
  return pairs;
}

/**
 * Starts `file` with `args` (PATH looked up in `env`, as child_process does), or returns undefined when
 * the binding is not usable here. A start that fails (no such file, not executable) is `{ error }`
 * with the same code child_process would give.
 */
export function startWithFd(spec: FdSpawn): FdStart | undefined {
  const Process = processCtor();
  if (Process === null) return undefined;
  const env = envPairs(spec.env);
  if (env === undefined || [spec.file, spec.cwd, ...spec.args].some((s) => s.includes('\0'))) return undefined;
  const handle = new Process();
  let settle!: (exit: { exitCode: number | null; signal: string | null }) => void;
  const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => (settle = resolve));
  handle.onexit = (exitCode, signal) => {
    handle.close();
    settle(signal ? { exitCode: null, signal } : { exitCode, signal: null });
  };
  const err = handle.spawn({
    file: spec.file,
    args: [spec.file, ...spec.args],
    cwd: spec.cwd,
    envPairs: env,
    stdio: [{ type: 'ignore' }, stdio(spec.stdout), stdio(spec.stderr)],
    detached: spec.detached,
    windowsHide: false,
    windowsVerbatimArguments: false,
  });
  if (err !== 0) {
    handle.close();
    const code = getSystemErrorName(err);
    const error: NodeJS.ErrnoException = new Error(`spawn ${spec.file} ${code}`);
    error.code = code;
    error.errno = err;
    return { error };
  }
  return { pid: handle.pid!, exited };
}
