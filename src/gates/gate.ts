import { GATE_MARKER, type GateTracker } from './gate-records.js';
import { accessSync, constants, statSync } from '../util/node.js';
import { delimiter, join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { TAIL_BYTES } from '../config/defaults.js';
import { newRunId } from '../util/hash.js';
import { processesMarked } from '../util/proc.js';
import { type ProcessEnd, type Started, signalQuietly, startProcess } from '../util/spawn.js';
import type { ResolvedTier } from '../config/resolved.js';
import { argvLine, debugFor } from '../util/debug.js';
import { tooLongToStart } from '../util/messages.js';

const sayGate = debugFor('gate');

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
  tracker?: GateTracker;
  /**
   * With `write`: the lines the reading of the output needs wherever they fall (a runner profile's
   * `keep`), kept even when the output is longer than the tail (TAIL_BYTES).
   */
  keep?: (line: string) => boolean;
  /**
   * With `write` and no `keep`: a `keep` loaded when the first output comes (the summary readers of a
   * tier that names no runner, src/verdict/script-output.ts); what comes while it loads waits for it.
   * A gate that prints nothing loads none.
   */
  keepLater?: () => Promise<(line: string) => boolean>;
}

const KILL_GRACE_MS = 2000;
/** After a piped gate exits, how long output still on its way is read before its pipes are closed. */
const PIPE_DRAIN_MS = 200;

/** A line kept out of a long output (see GateIo.keep): where it started in the stream, and its text. */
interface KeptLine {
  at: number;
  text: string;
}

/** At most KEPT_BYTES of lines are kept out of one gate's output (the earliest), each cut to KEPT_LINE_CHARS. */
const KEPT_BYTES = 4 * 1024 * 1024;
const KEPT_LINE_CHARS = 4096;

/**
 * Keeps the last `max` bytes written to it, and, when given `keep`, every line it matches that has
 * fallen out of them: `text()` is those lines (in order) then the last bytes. A runner that prints its
 * summary before the failures' details (mocha's spec reporter) or counts spread over the run (go's and
 * cargo's per-package results) is read right however long the output.
 */
class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes pushed in all, and where the line being scanned started. */
  private total = 0;
  private lineAt = 0;
  private partial = '';
  /** Bytes of the line being scanned that `partial` no longer holds (a very long line is judged by its start). */
  private dropped = 0;
  private readonly decoder = new StringDecoder('utf8');
  private readonly kept: KeptLine[] = [];
  private keptBytes = 0;
  /** Chunks that came while `keepLater` loads, scanned in order once `keep` is here; and that load. */
  private unscanned: Buffer[] = [];
  private loading: Promise<void> | undefined;
  constructor(
    private readonly max: number,
    private keep?: (line: string) => boolean,
    private keepLater?: () => Promise<(line: string) => boolean>,
  ) {}
  push(chunk: Buffer): void {
    if (this.keep) this.scan(chunk);
    else if (this.keepLater) this.hold(chunk);
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.max) this.size -= this.chunks.shift()!.length;
  }
  /** A chunk that came before the loaded `keep`: held, then scanned in order (the first starts the load). */
  private hold(chunk: Buffer): void {
    this.unscanned.push(chunk);
    if (this.loading) return;
    this.loading = this.keepLater!().then(
      (keep) => {
        this.keep = keep;
        for (const c of this.unscanned) this.scan(c);
        this.unscanned = [];
      },
      // Our own code that would not load: nothing more is held, and the verdict's load of the same code says why.
      () => {
        this.keepLater = undefined;
        this.unscanned = [];
      },
    );
  }
  /** Resolves once every chunk pushed so far has been scanned (or `keepLater` failed). */
  settled(): Promise<void> {
    return this.loading ?? Promise.resolve();
  }
  private scan(chunk: Buffer): void {
    // Inside a line already cut to its start, a chunk with no newline is only counted (a gigabyte of NULs is one line).
    if (this.partial.length >= KEPT_LINE_CHARS && chunk.indexOf(0x0a) === -1) {
      this.dropped += chunk.length;
      return;
    }
    const text = this.partial + this.decoder.write(chunk);
    let from = 0;
    let at = this.lineAt;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const line = text.slice(from, nl);
      if (this.keptBytes < KEPT_BYTES && this.keep!(line)) {
        const cut = line.slice(0, KEPT_LINE_CHARS);
        this.kept.push({ at, text: cut });
        this.keptBytes += cut.length + 1;
      }
      at += Buffer.byteLength(line) + this.dropped + 1;
      this.dropped = 0;
      from = nl + 1;
    }
    // A line longer than a kept line can be is judged by its start (jest's --json is one line).
    const rest = text.slice(from);
    this.partial = rest.length > KEPT_LINE_CHARS ? rest.slice(0, KEPT_LINE_CHARS) : rest;
    if (this.partial !== rest) this.dropped += Buffer.byteLength(rest) - Buffer.byteLength(this.partial);
    this.lineAt = at;
  }
  text(): string {
    if (this.size === 0) return '';
    const all = Buffer.concat(this.chunks);
    const start = Math.max(0, all.length - this.max);
    const tail = all.subarray(start).toString('utf8');
    const cut = this.total - (all.length - start);
    const before = this.kept.filter((k) => k.at < cut).map((k) => `${k.text}\n`);
    return before.length > 0 ? `${before.join('')}${tail}` : tail;
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid !== undefined) signalQuietly(-pid, signal);
}

/** Kills the processes that carry a gate's marker: what it left running outside its process group. Linux only (/proc). */
export function killMarked(marker: string, signal: NodeJS.Signals): number {
  let n = 0;
  for (const pid of processesMarked(GATE_MARKER, marker)) if (signalQuietly(pid, signal)) n++;
  return n;
}

/** Milliseconds on a monotonic clock (the first `performance.now()` loads perf_hooks: about 1.5 ms). */
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Why a gate could not start, in words that name what is missing. */
function startError(err: NodeJS.ErrnoException, file: string, args: readonly string[], cwd: string): string {
  if (err.code === 'E2BIG') return tooLongToStart([file, ...args].reduce((n, a) => n + Buffer.byteLength(a) + 1, 0));
  if (err.code !== 'ENOENT') return err.message;
  try {
    if (statSync(cwd).isDirectory()) return `command not found: ${file}`;
    return `the tier's cwd is not a folder: ${cwd}`;
  } catch {
    return `the tier's cwd does not exist: ${cwd}`;
  }
}

/**
 * Runs one gate in its own process group, streaming output and keeping a tail.
 * A timeout or an interrupt kills the whole tree: the test runner's grandchildren included, and
 * what left the group carrying the gate's marker. When the gate exits, what it left in its group is
 * killed and its pipes are closed, so nothing it started can keep the run waiting.
 */
export function runGate(tier: ResolvedTier, root: string, env: NodeJS.ProcessEnv, io: GateIo): Promise<GateExit> {
  const started = nowMs();
  const cwd = resolve(root, tier.cwd);
  const tail = new Tail(TAIL_BYTES, io.write ? io.keep : undefined, io.write ? io.keepLater : undefined);
  const [file, args] = typeof tier.run === 'string' ? ['/bin/sh', ['-c', tier.run]] : [tier.run[0]!, tier.run.slice(1)];
  const token = `${process.pid}.${newRunId()}`;
  const marker = env[GATE_MARKER] ? `${env[GATE_MARKER]}:${token}` : token;
  const write = io.write;
  return new Promise((done) => {
    const how = { timedOut: false, interrupted: false };
    let finished = false;
    // Recorded before the start: after a fork, every page this process touches first is copied.
    const release = io.tracker?.starting({ marker: token, tier: tier.name });
    // Output straight to fd 2 unless the caller reads it.
    sayGate?.(`${tier.name}: ${argvLine(file, args)} (in ${cwd})`);
    const proc = startProcess({
      file,
      args,
      cwd,
      env: { ...env, [GATE_MARKER]: marker },
      stdout: write ? 'pipe' : 2,
      stderr: write ? 'pipe' : 2,
      detached: true,
    });
    const pid = proc.pid;
    const stop = (signal: NodeJS.Signals) => {
      killGroup(pid, signal);
      killMarked(token, signal);
      setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    let timer: NodeJS.Timeout | undefined;
    const finish = (end: ProcessEnd) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // A pending wait would hold the process open after the last gate.
      stopDrain();
      // Whatever the gate left running in its group does not outlive it, nor, after a timeout or an
      // interrupt, what it started outside the group; and nothing it left can keep us waiting on a pipe.
      killGroup(pid, 'SIGKILL');
      if (how.timedOut || how.interrupted) killMarked(token, 'SIGKILL');
      proc.closePipes();
      release?.();
      const seconds = Math.round(nowMs() - started) / 1000;
      void tail
        .settled()
        .then(() =>
          done(gateExit(end, { ...how, seconds, tail: tail.text() }, { tier, file, args, cwd, env, piped: write !== undefined })),
        );
    };
    const stopDrain = whenEnded(proc, tail, write, finish);
    if (pid === undefined) return;
    // The timeout and the interrupt, set once the gate has started: the gate's first moments overlap
    // with this work (a process's first setTimeout costs about 0.3 ms) instead of waiting for it.
    timer = setTimeout(() => {
      how.timedOut = true;
      stop('SIGTERM');
    }, tier.timeout * 1000);
    io.interrupt?.then(() => {
      if (finished) return;
      how.interrupted = true;
      stop('SIGINT');
    });
  });
}

/**
 * Streams the gate's output into its tail (and to `write`), and calls `finish` once it has exited and
 * its pipes have closed: after the exit, what is left of its group dies and output already on its way
 * is read for a moment, then the pipes are closed, even when a process outside the group still holds
 * them. Returns what cancels that moment's wait.
 */
function whenEnded(proc: Started, tail: Tail, write: GateIo['write'], finish: (end: ProcessEnd) => void): () => void {
  const onData = (chunk: Buffer) => {
    tail.push(chunk);
    write?.(chunk);
  };
  proc.stdout?.on('data', onData);
  proc.stderr?.on('data', onData);
  // Piped output is complete once both pipes close; inherited output needs no wait.
  let open = (proc.stdout ? 1 : 0) + (proc.stderr ? 1 : 0);
  let exited: ProcessEnd | undefined;
  let pipeWait: NodeJS.Timeout | undefined;
  const onClose = () => {
    open -= 1;
    if (open === 0 && exited) finish(exited);
  };
  proc.stdout?.once('close', onClose);
  proc.stderr?.once('close', onClose);
  void proc.ended.then((end) => {
    exited = end;
    if ('error' in end || open === 0) {
      finish(end);
      return;
    }
    killGroup(proc.pid, 'SIGKILL');
    pipeWait = setTimeout(() => finish(end), PIPE_DRAIN_MS);
  });
  return () => clearTimeout(pipeWait);
}

/** What the gate did, from how its process ended: a start error in words, or its code or signal (and, for a 127, the command not on PATH). */
function gateExit(
  end: ProcessEnd,
  how: { timedOut: boolean; interrupted: boolean; seconds: number; tail: string },
  start: { tier: ResolvedTier; file: string; args: readonly string[]; cwd: string; env: NodeJS.ProcessEnv; piped: boolean },
): GateExit {
  if ('error' in end) return { exitCode: null, signal: null, ...how, spawnError: startError(end.error, start.file, start.args, start.cwd) };
  const { run } = start.tier;
  const missing = !start.piped && end.exitCode === 127 && typeof run === 'string' ? notOnPath(run, start.cwd, start.env) : undefined;
  return { exitCode: end.exitCode, signal: end.signal, ...how, ...(missing && { notFound: missing }) };
}

/** Builtins and keywords of a POSIX shell: never looked up on PATH. (Made on the first exit 127, not by every push.) */
let shellWords: Set<string> | undefined;
const isShellWord = (word: string) =>
  (shellWords ??= new Set(
    'exit return exec eval set unset export readonly shift trap wait cd command type read echo printf test times ulimit umask alias unalias getopts hash jobs fg bg kill pwd local source if then else elif fi for while until do done case esac'.split(
      ' ',
    ),
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
