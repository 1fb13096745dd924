import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { TAIL_BYTES } from '../config/defaults.js';
import { signalQuietly, startWithFd } from '../util/spawn-fd.js';
import type { ResolvedTier } from '../types.js';

/** What happened to a gate's process, before any verdict. Always filled in. */
export interface GateExit {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  interrupted: boolean;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  spawnError?: string;
  /** Exit 127 from a shell whose output we did not keep: the command's first word, when it is on no PATH entry. */
  notFound?: string;
  seconds: number;
  tail: string;
}

export interface GateIo {
  /**
   * Receives the gate's output as it arrives, and a tail is kept. Absent: the gate writes straight to our
   * stderr (fd 2), as a plain hook would: no pipe to read (about 7 ms less per gate on a 2-core VM),
   * and a test runner sees the terminal, so it keeps its colours and progress output.
   */
  write?: (chunk: Buffer) => void;
  /** Resolves when the user interrupts (Ctrl-C); the gate's tree is then killed. */
  interrupt?: Promise<void>;
}

const KILL_GRACE_MS = 2000;

/** Keeps the last `max` bytes written to it. */
class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly max: number) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.max) this.size -= this.chunks.shift()!.length;
  }
  text(): string {
    if (this.size === 0) return '';
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.max)).toString('utf8');
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid !== undefined) signalQuietly(-pid, signal);
}

/** Milliseconds on a monotonic clock (the first `performance.now()` loads perf_hooks: about 1.5 ms). */
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Runs one gate in its own process group, streaming output and keeping a tail.
 * A timeout or an interrupt kills the whole tree: the test runner's grandchildren included.
 */
export function runGate(tier: ResolvedTier, root: string, env: NodeJS.ProcessEnv, io: GateIo): Promise<GateExit> {
  const started = nowMs();
  const cwd = resolve(root, tier.cwd);
  const tail = new Tail(TAIL_BYTES);
  const [file, args] = typeof tier.run === 'string' ? ['/bin/sh', ['-c', tier.run]] : [tier.run[0]!, tier.run.slice(1)];
  return new Promise((done) => {
    let timedOut = false;
    let interrupted = false;
    let finished = false;
    let pid: number | undefined;
    const stop = (signal: NodeJS.Signals) => {
      killGroup(pid, signal);
      setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    let timer: NodeJS.Timeout | undefined;
    /**
     * The timeout and the interrupt, set once the gate has started: the gate's first moments overlap
     * with this work (a process's first setTimeout costs about 0.3 ms) instead of waiting for it.
     */
    const watch = () => {
      if (finished) return;
      timer = setTimeout(() => {
        timedOut = true;
        stop('SIGTERM');
      }, tier.timeout * 1000);
      io.interrupt?.then(() => {
        if (finished) return;
        interrupted = true;
        stop('SIGINT');
      });
    };
    let pipeWait: NodeJS.Timeout | undefined;
    const finish = (exit: Omit<GateExit, 'seconds' | 'tail' | 'timedOut' | 'interrupted'>) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // A pending wait would hold the process open after the last gate.
      clearTimeout(pipeWait);
      // Whatever the gate left running in its group does not outlive it.
      killGroup(pid, 'SIGKILL');
      const seconds = Math.round(nowMs() - started) / 1000;
      const missing = !write && exit.exitCode === 127 && typeof tier.run === 'string' ? notOnPath(tier.run, cwd, env) : undefined;
      done({ ...exit, timedOut, interrupted, seconds, tail: tail.text(), ...(missing && { notFound: missing }) });
    };
    const spawnFailed = (err: NodeJS.ErrnoException) =>
      finish({ exitCode: null, signal: null, spawnError: err.code === 'ENOENT' ? `command not found: ${file}` : err.message });
    const write = io.write;
    // Output straight to fd 2: started without child_process where Node allows it (spawn-fd.ts).
    const direct = write ? undefined : startWithFd({ file, args, cwd, env, stdout: 2, stderr: 2, detached: true });
    if (direct !== undefined) {
      if ('error' in direct) spawnFailed(direct.error);
      else {
        pid = direct.pid;
        void direct.exited.then(finish);
        watch();
      }
      return;
    }
    const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', write ? 'pipe' : 2, write ? 'pipe' : 2] });
    pid = child.pid;
    const onData = (chunk: Buffer) => {
      tail.push(chunk);
      write?.(chunk);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', spawnFailed);
    // Piped output is complete once both pipes close; inherited output needs no wait.
    let closed = write ? 0 : 2;
    let exited: { exitCode: number | null; signal: string | null } | undefined;
    const onClose = () => {
      closed += 1;
      if (closed === 2 && exited) finish(exited);
    };
    child.stdout?.once('close', onClose);
    child.stderr?.once('close', onClose);
    child.on('exit', (code, signal) => {
      exited = { exitCode: code, signal };
      if (closed === 2) finish(exited);
      // Never wait on pipes held open by a grandchild.
      else pipeWait = setTimeout(() => finish(exited!), 200);
    });
    watch();
  });
}

/** Builtins and keywords of a POSIX shell: never looked up on PATH. (Made on the first exit 127, not by every push.) */
let shellWords: Set<string> | undefined;
const isShellWord = (word: string) =>
  (shellWords ??= new Set(
    'exit return exec eval set unset export readonly shift trap wait cd command type read echo printf test times ulimit umask alias unalias getopts hash jobs fg bg kill pwd local source if then else elif fi for while until do done case esac'.split(' '),
  )).has(word);

/**
 * For a shell command that exited 127 while its output went straight to the terminal: the command's
 * first word when no PATH entry (or, for a path, the file system) has it as an executable; otherwise
 * the 127 came from deeper inside, and the shell's own message above says what.
 */
function notOnPath(command: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const word = /^\s*([\w.+/-]+)(?:\s|$)/.exec(command)?.[1];
  if (word === undefined || isShellWord(word) || /^\w+=/.test(command.trim())) return undefined;
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (word.includes('/')) return executable(resolve(cwd, word)) ? undefined : word;
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  return dirs.some((d) => executable(join(resolve(cwd, d), word))) ? undefined : word;
}
