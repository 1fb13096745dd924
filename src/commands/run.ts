import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { cachedRows, recordTreeCache, treeCacheStep } from '../cache.js';
import { type CachedLoad, configHash, loadConfigCached } from '../config-cache.js';
import { EXIT } from '../defaults.js';
import { runGate } from '../gate.js';
import { diffPaths, mergeBase, remoteHead, resolveCommit } from '../git.js';
import { primeRepo } from '../git-prime.js';
import { newRunId } from '../hash.js';
import { type LadderInput, type LadderOutcome, runLadder } from '../ladder.js';
import { appendRows, defaultLedgerPath } from '../ledger.js';
import { msg, planLines } from '../messages.js';
import { parsePushRefs } from '../push-refs.js';
import { revQuery } from '../rev-query.js';
import { writeErr } from '../stderr.js';
import { scopeMatcher, route } from '../route.js';
import { type RefPlan, type Target, planPush } from '../targets.js';
import type { HookName, ResolvedConfig, Verdict } from '../types.js';

export interface RunOptions {
  cwd: string;
  /** `pre-push` reads git's stdin ref lines; absent means a manual run. */
  hook?: 'pre-push' | 'pre-commit';
  /** Remote name, as git passes it to pre-push. */
  remote?: string;
  base?: string;
  head?: string;
  dryRun?: boolean;
  json?: boolean;
  calibrate?: boolean;
  /** Ignore the tree cache: run every planned gate, and record nothing in it. */
  noCache?: boolean;
  /** Pre-push stdin, when the caller has read it already. */
  stdin?: string;
}

export { EXIT };

interface TargetReport {
  ref: string;
  head: string;
  base: string;
  files: number;
  plan: { tier: string; run: boolean; reason?: string }[];
  verdict?: Verdict;
  results?: LadderOutcome['results'];
  skipped?: string;
}

const err = (line: string) => writeErr(`${line}\n`);

/** The hook and manual entry point: refs → ranges → route → gates → rows → exit code. */
export async function runCommand(opts: RunOptions): Promise<number> {
  if (process.env.GATE_LADDER === '0') {
    if (!opts.json) err(msg.bypassed());
    return EXIT.pass;
  }
  const stdin = opts.hook === 'pre-push' ? (opts.stdin ?? readStdin()) : undefined;
  // One git call answers the repo paths and every revision the run will ask about.
  const info = await primeRepo(opts.cwd, revQuery(opts, stdin));
  if (info === null) {
    err(msg.notRepo(opts.cwd));
    return EXIT.error;
  }
  const loaded: CachedLoad = await loadConfigCached(info.root, info.commonDir);
  if (loaded.kind === 'none') {
    err(msg.noConfig());
    return EXIT.pass;
  }
  if (loaded.kind === 'invalid') {
    err(msg.invalidConfig(loaded.problems));
    return EXIT.error;
  }
  const config = loaded.config;
  const hook: HookName = opts.hook ?? 'manual';

  let plans: RefPlan[];
  if (opts.hook === 'pre-push') {
    const { refs, bad } = parsePushRefs(stdin ?? '');
    if (bad.length > 0) err(msg.badStdin(bad));
    plans = planPush(refs, { cwd: info.root, remote: opts.remote ?? 'origin', ...(config.base && { base: config.base }) });
  } else {
    const manual = manualTarget(info.root, opts, config);
    if (typeof manual === 'string') {
      err(manual);
      return EXIT.error;
    }
    plans = [manual];
  }

  const ledger = config.ledger
    ? isAbsolute(config.ledger) ? config.ledger : join(info.root, config.ledger)
    : defaultLedgerPath(info.commonDir);
  const match = scopeMatcher(config.scope);
  const interrupt = interruption();
  const reports: TargetReport[] = [];
  let code: number = EXIT.pass;

  for (const p of plans) {
    if (p.kind === 'skip') {
      if (!opts.json) err(msg.nothingToTest(p.ref, p.why));
      reports.push({ ref: p.ref, head: '', base: '', files: 0, plan: [], skipped: p.why });
      continue;
    }
    if (p.kind === 'error') {
      err(msg.rangeError(p.ref, p.reason));
      reports.push({ ref: p.ref, head: p.head, base: '', files: 0, plan: [], verdict: 'error' });
      code = Math.max(code, EXIT.error);
      continue;
    }
    const plan = route(p.changes, config.tiers, match, hook);
    const report: TargetReport = {
      ref: p.ref,
      head: p.head,
      base: p.base,
      files: plan.files.length,
      plan: plan.tiers.map((t) => ({ tier: t.tier.name, run: t.run, ...(t.reason && { reason: t.reason }) })),
    };
    reports.push(report);
    if (!opts.json) {
      err(msg.target(p.ref, p.head, p.base, plan.files.length));
      if (p.sameAs) err(msg.sameAs(p.sameAs));
    }
    // ── tree cache (src/cache.ts): has this tree passed this plan under this config before? ──
    const cache = treeCacheStep({
      enabled: config.cache && !opts.noCache,
      read: !opts.calibrate,
      commonDir: info.commonDir,
      root: info.root,
      head: p.head,
      configHash: loaded.hash ?? configHash(config),
      plan,
    });
    // ─────────────────────────────────────────────────────────────────────────────────────────────
    if (opts.dryRun) {
      if (!opts.json) for (const line of planLines(plan)) err(line);
      if (cache?.hit && !opts.json) err(msg.wouldReuse(Object.values(cache.hit)));
      continue;
    }
    for (const t of plan.tiers) if (t.skip === 'scope' && !opts.json) err(msg.routed(t.tier.name, t.reason ?? ''));
    if (!plan.tiers.some((t) => t.run)) {
      if (!opts.json) err(msg.noTiers());
      report.verdict = 'pass';
      continue;
    }
    const ladderInput = {
      plan,
      runId: newRunId(),
      hook,
      patch: p.head,
      base: p.base,
      ref: p.ref,
      cwd: info.root,
      isolation: 'none',
      ...(opts.calibrate && { calibration: true }),
      ...(p.note && { note: p.note }),
    } satisfies LadderInput;
    // ── tree cache hit: a row per planned tier, no gate runs ──────────────────────────────────
    if (cache?.hit) {
      const { results, rows } = cachedRows(ladderInput, cache.hit, new Date());
      appendRows(ledger, rows);
      report.verdict = 'pass';
      report.results = results;
      if (!opts.json) err(msg.cachedPass(p.ref, results.map((r) => r.tier), cache.tree, Object.values(cache.hit)));
      continue;
    }
    // ─────────────────────────────────────────────────────────────────────────────────────────────
    const outcome = await runLadder(
      ladderInput,
      {
        runGate,
        appendRows: (rows) => appendRows(ledger, rows),
        now: () => new Date(),
        log: opts.json ? () => {} : err,
        write: writeErr,
        env: process.env,
        interrupt: interrupt.promise,
      },
    );
    report.verdict = outcome.verdict;
    report.results = outcome.results;
    // ── tree cache: remember a tree on which every planned tier passed ──
    if (cache) recordTreeCache(cache, plan, p.head, outcome, interrupt.fired);
    if (interrupt.fired) {
      err(msg.interrupted());
      code = EXIT.interrupted;
      break;
    }
    const stopped = outcome.stoppedBy;
    if (stopped === undefined) {
      if (!opts.json) err(msg.passed(p.ref, outcome.results.length, sum(outcome.results.map((r) => r.seconds))));
    } else if (stopped.verdict === 'caught') {
      err(msg.caught(p.ref, stopped));
      code = Math.max(code, EXIT.caught);
    } else {
      err(msg.error(p.ref, stopped, loaded.file));
      code = Math.max(code, EXIT.error);
    }
  }
  interrupt.dispose();
  if (opts.json) process.stdout.write(`${JSON.stringify({ exit: code, ledger, targets: reports }, null, 2)}\n`);
  return code;
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/** `--base A --head B`: the seed's manual and CI form. Returns a message when it cannot. */
function manualTarget(root: string, opts: RunOptions, config: ResolvedConfig): Target | string {
  const headRev = opts.head ?? 'HEAD';
  const head = resolveCommit(root, headRev);
  if (head === null) return msg.badRev(headRev);
  const baseRev = opts.base ?? config.base ?? remoteHead(root, 'origin') ?? undefined;
  if (baseRev === undefined) return msg.needBase();
  const baseSha = resolveCommit(root, baseRev);
  if (baseSha === null) return msg.badRev(baseRev);
  const base = mergeBase(root, baseSha, head) ?? baseSha;
  return { kind: 'test', ref: headRev, head, base, changes: diffPaths(root, base, head) };
}

/** Ctrl-C (or SIGTERM) stops the running gate's tree; the ladder then records and exits. */
function interruption(): { promise: Promise<void>; fired: boolean; dispose: () => void } {
  let resolve!: () => void;
  const state = {
    promise: new Promise<void>((r) => (resolve = r)),
    fired: false,
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
  const on = () => {
    state.fired = true;
    resolve();
  };
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return state;
}
