import { existsSync, readFileSync } from '../util/node.js';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { SEARCH_PLACES } from './defaults.js';
import type { ConfigLoad } from './load.js';
import { shownLines } from '../util/escape.js';
import { hash, newRunId } from '../util/hash.js';
import { configMsg } from './messages.js';
import { processesMarked } from '../util/proc.js';
import { signalQuietly } from '../util/spawn.js';
import { writeErr } from '../util/stderr.js';

/**
 * Loading the config with a time limit. A config is a program: it may never settle (`export default
 * new Promise(() => {})`, a top-level await that never resolves), end the process (`process.exit(0)`),
 * or loop forever. In the hook's own thread the first two let the push through with no gate run and
 * the last hangs it. So the config loads in a worker thread: a worker that ends without an answer,
 * or does not answer within the limit (it is then terminated, loop or not), is an `invalid` load
 * naming the file, which blocks the push. Only a config-cache miss pays for the worker (about 30 ms).
 *
 * A config whose own files import `node:fs` may read files the cache cannot see (fs-reads.ts): the
 * load says so (`readsFiles`), and the config cache then does not keep it.
 *
 * A config holding a function (a lint-staged `config` can) cannot be copied out of the worker; once
 * the worker has shown it loads within the limit, it is loaded again in this thread.
 *
 * What a config prints while it loads (a `console.log`) goes to stderr, its control characters
 * escaped: stdout is a command's answer (`run --json`, `report --json`), which it would corrupt.
 *
 * One limit per run, not per load: a push loads the working tree's config and the pushed commit's,
 * and a config that never ends must block it once, within the limit. The time spent loading adds up;
 * a config whose text already failed to load in time is not loaded again, and once the limit is used
 * up no other load starts. Nothing a config started outlives its load: every process it starts
 * carries GATE_LADDER_CONFIG_LOAD (the load's token) in its environment, and when the load ends, in
 * time or not, each process carrying it is killed (Linux: found in /proc, as gates' are).
 */

export const DEFAULT_LIMIT_S = 30;
const KEY = 'gateLadderConfigLoad';
const TOKEN = 'gateLadderConfigToken';
/** Carried by every process a config starts while it loads (colon-separated tokens, outermost first). */
export const CONFIG_MARKER = 'GATE_LADDER_CONFIG_LOAD';

/** Milliseconds this process has spent loading configs, against the one limit. */
let spentMs = 0;
/** Hashes of config texts that did not finish loading in time in this run: not loaded again. */
const timedOut = new Set<string>();

type Loaded = ConfigLoad & { deps?: string[]; readsFiles?: boolean };
type Answer = { result: Loaded } | { uncloneable: true } | { ended: 'exit'; code: number };

/** The limit in seconds: GATE_LADDER_CONFIG_TIMEOUT when it is a positive number, else 30. */
export function loadLimit(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.GATE_LADDER_CONFIG_TIMEOUT);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_LIMIT_S;
}

/** The file cosmiconfig would pick, relative to the root, for messages about a load that never answered. */
function likelyFile(root: string): string {
  return SEARCH_PLACES.find((p) => existsSync(join(root, p))) ?? 'the config';
}

/** The hash of the config file's text, to know a config that did not load in time when it comes again (a commit's copy). */
function textKey(root: string, file: string): string | undefined {
  try {
    return hash(readFileSync(join(root, file), 'utf8'));
  } catch {
    return undefined;
  }
}

const tooLong = (limitS: number) =>
  `did not finish loading within ${limitS} s (an endless loop, or work that never ends?); no gate ran. A config must only describe the ladder. GATE_LADDER_CONFIG_TIMEOUT=<seconds> sets the limit`;

/** Loads the repo's config as `loadConfig` does, in a worker, within what is left of `limitS` seconds for this run. Never throws. */
export async function loadConfigLimited(root: string, limitS = loadLimit()): Promise<Loaded> {
  const file = likelyFile(root);
  const key = textKey(root, file);
  if (key !== undefined && timedOut.has(key)) return { kind: 'invalid', file, problems: [`${file}: ${tooLong(limitS)}`] };
  const left = limitS * 1000 - spentMs;
  if (left <= 0) return { kind: 'invalid', file, problems: [`${file}: ${configMsg.loadTimeSpent(limitS)}`] };
  const token = `${process.pid}.${newRunId()}`;
  const started = Date.now();
  const answer = await inWorker(root, left, token);
  spentMs += Date.now() - started;
  stopStarted(token);
  if ('timedOut' in answer) {
    if (key !== undefined) timedOut.add(key);
    return { kind: 'invalid', file, problems: [`${file}: ${tooLong(limitS)}`] };
  }
  if ('problem' in answer) {
    return { kind: 'invalid', file, problems: [`${file}: ${answer.problem}`] };
  }
  if ('ended' in answer) {
    const file = likelyFile(root);
    return {
      kind: 'invalid',
      file,
      problems: [`${file}: ended the process while loading (process.exit(${answer.code})); a config must only describe the ladder`],
    };
  }
  if ('uncloneable' in answer) {
    const { loadConfig } = await import('./load.js');
    const here = await marked(token, () => stdoutToStderr(() => loadConfig(root)));
    return here;
  }
  return answer.result;
}

/** Runs `load` with whatever it writes to stdout sent to stderr, escaped (a config loaded in this thread). */
async function stdoutToStderr<T>(load: () => Promise<T>): Promise<T> {
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    writeErr(shownLines(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')));
    return true;
  }) as typeof process.stdout.write;
  try {
    return await load();
  } finally {
    process.stdout.write = write;
  }
}

/** Kills every process the load `token` names started (what a config left running: a server, a `sleep`). */
function stopStarted(token: string): void {
  for (const pid of processesMarked(CONFIG_MARKER, token)) signalQuietly(pid, 'SIGKILL');
}

/** The marker joined to the one this process already carries (a config loaded under a gate that runs gate-ladder). */
const markerValue = (token: string) => (process.env[CONFIG_MARKER] ? `${process.env[CONFIG_MARKER]}:${token}` : token);

/** Runs `load` in this thread with the marker set, so what it starts carries it; then stops what it left. */
async function marked<T>(token: string, load: () => Promise<T>): Promise<T> {
  const before = process.env[CONFIG_MARKER];
  process.env[CONFIG_MARKER] = markerValue(token);
  try {
    return await load();
  } finally {
    if (before === undefined) delete process.env[CONFIG_MARKER];
    else process.env[CONFIG_MARKER] = before;
    stopStarted(token);
  }
}

function inWorker(root: string, limitMs: number, token: string): Promise<Answer | { problem: string } | { timedOut: true }> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (a: Answer | { problem: string } | { timedOut: true }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Whatever the config left running (a timer, a server) ends with its thread; the answer waits
      // for its end, so it starts no process after the ones it left are stopped.
      worker.terminate().then(
        () => resolve(a),
        () => resolve(a),
      );
    };
    let worker: Worker;
    try {
      worker = new Worker(new URL(import.meta.url), {
        workerData: { [KEY]: root, [TOKEN]: markerValue(token) },
        stdout: true,
        stderr: true,
      });
    } catch (err) {
      resolve({ problem: `could not be loaded: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    for (const stream of [worker.stdout, worker.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => writeErr(shownLines(text)));
    }
    const timer = setTimeout(() => settle({ timedOut: true }), limitMs);
    worker.once('message', (a: Answer) => settle(a));
    worker.once('error', (err) => settle({ problem: `could not be loaded: ${err.message.split('\n')[0]}` }));
    worker.once('exit', () =>
      settle({
        problem:
          'never finished loading: it (or its default export) is a promise that never settles, e.g. a top-level await that never resolves; no gate ran',
      }),
    );
  });
}

/** The worker's side: load, then answer once; ending the thread without an answer is what the main side reports. */
async function serve(root: string, marker: string): Promise<void> {
  const port = parentPort!;
  // The worker's environment is its own copy: every process the config starts carries the marker.
  process.env[CONFIG_MARKER] = marker;
  const exit = process.exit.bind(process);
  // process.exit in a worker ends only the worker: say so first, so it is not mistaken for a promise that never settled.
  process.exit = ((code?: number | string | null) => {
    port.postMessage({ ended: 'exit', code: Number(code ?? process.exitCode ?? 0) } satisfies Answer);
    return exit(code as number | undefined);
  }) as typeof process.exit;
  // Loaded here only: the hook's own thread never loads cosmiconfig, jiti or zod for the config.
  const { loadConfig } = await import('./load.js');
  const { raw: _raw, ...result } = await loadConfig(root);
  try {
    port.postMessage({ result } satisfies Answer);
  } catch {
    port.postMessage({ uncloneable: true } satisfies Answer);
  }
}

if (!isMainThread && typeof (workerData as Record<string, unknown> | null)?.[KEY] === 'string') {
  void serve((workerData as Record<string, string>)[KEY]!, (workerData as Record<string, string>)[TOKEN]!);
}
