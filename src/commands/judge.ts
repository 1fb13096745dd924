/**
 * `gate-ladder judge`: candidate patches (patch files, standard input, a commit, the working tree's
 * change) judged as a push would judge them, without a push: each in a slot of the worktree pool at its
 * base, under the config committed at that base, through replay's machinery for one patch
 * (replay/patch.ts) with hook `judge`. The answer goes to stdout (text, or one JSON object); the MCP
 * server (mcp.ts) asks the same `judgePatches` and gets the same object.
 */
import { EXIT } from '../config/defaults.js';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from '../util/node.js';
import { availableParallelism, tmpdir } from '../util/node.js';
import { basename, join, resolve } from 'node:path';
import { runGate } from '../gates/gate.js';
import { logsDir, openGateLog } from '../gates/gate-log.js';
import { resultSummary } from '../verdict/output-summary.js';
import { plainJson, plainText } from '../util/escape.js';
import type { LadderDeps } from '../run/ladder.js';
import { gateTracker, gatesDir, stopLeftovers } from '../gates/gate-records.js';
import { scopeMatcher } from '../route/route.js';
import { reportDeps } from '../verdict/tier-report-io.js';
import { isolateTier, probeNetworkIsolation } from '../replay/isolate.js';
import { type ReplayPatch, patchFileId } from '../replay/inputs.js';
import { configHash } from '../replay/key.js';
import { APPLY_TIER, type PatchOutcome, type ReplayContext, replayPatch } from '../replay/patch.js';
import { runPool } from '../replay/pool.js';
import { configAtTree } from '../config/config-at.js';
import { loadConfigCached } from '../config/config-cache.js';
import { EMPTY_TREE, type RepoInfo, refusedRepo, repoInfo, resolveCommit } from '../git/git.js';
import { worktreeSnapshot } from '../git/worktree-snapshot.js';
import { appendRows, ledgerPathFor } from '../ledger/ledger.js';
import { trapInterrupt } from '../run/interrupt.js';
import { faultMsg } from '../ledger/messages.js';
import { judgeMsg, replayMsg } from '../replay/messages.js';
import { msg } from '../run/messages.js';
import type { ErrorCause, LedgerRow, Verdict } from '../ledger/row.js';
import type { ResolvedConfig, ResolvedTier } from '../config/resolved.js';

export interface JudgeOptions {
  cwd: string;
  /** Patch files; `-` reads standard input. */
  patches?: readonly string[];
  /** Patch texts (the MCP server's `judge_patch`), each with the name its id starts with. */
  texts?: readonly { name: string; text: string }[];
  /** Where patches apply (default HEAD). */
  base?: string;
  /** A commit, judged against its first parent. */
  commit?: string;
  /** The working tree's change against HEAD: what `git add -A` would commit (untracked files too, ignored ones not). */
  worktree?: boolean;
  /** Patches judged at once (default: the number of cores). */
  jobs?: number;
  isolate?: 'network';
}

/** One judged patch, as `judge --json` prints it and `judge_patch` answers. */
export interface PatchAnswer {
  /** The patch's id in the ledger: `<name>@<12 hex of its content>`, or a commit. */
  patch: string;
  label: string;
  base: string;
  verdict: Verdict;
  /** The tier that decided a `caught` or an `error` (`(apply)`: the patch did not apply); null on a pass. */
  tier: string | null;
  reason: string | null;
  /** The failed tests of the deciding tier: id always; title, file, line and message where its JUnit report (or the runner) gives them. */
  failed_tests: { id: string; title?: string; file?: string; line?: number; message?: string }[];
  /** How many tests the deciding tier failed in all (its runner's count), and whether `failed_tests` lists fewer (at most 50 are read from an output). */
  failed_tests_total: number;
  failed_tests_truncated: boolean;
  /** Each tier reached, in the order it ran. */
  tiers: { tier: string; verdict: Verdict; seconds: number; reason?: string }[];
  /** Tiers that did not run for this change, and why (t0-scope, hooks). */
  skipped: { tier: string; reason: string }[];
  /** On an `error`: `patch` (a file it changed cannot load, it removed the tier's script, it does not apply) or `harness`. */
  error_cause?: ErrorCause;
  error_file?: string;
  /** With `error_file`: the line of it the runner's message names. */
  error_line?: number;
  applied: boolean;
  /**
   * The deciding tier's output on one screen (at most 40 lines: the runner's summary, each failure's first
   * lines; colours stripped, control characters escaped), and the log holding all of it.
   */
  summary?: string[];
  log?: string;
  config: { file: string; source: 'commit' | 'working-tree' };
  ledger: { file: string; rows: { run: string; tier: string }[] };
  seconds: number;
  next: string;
}

export type JudgeOutcome =
  | { kind: 'judged'; code: number; answers: PatchAnswer[] }
  /** Nothing was judged: the message says why (exit 0 for nothing to judge, 2 for trouble). */
  | { kind: 'problem'; code: number; message: string }
  | { kind: 'interrupted'; code: number; answers: PatchAnswer[] };

// Exit codes (config/defaults.ts EXIT): the worst verdict of the patches (0 pass, 1 caught, 2 error), 2 for trouble before any gate, 130 interrupted.

const err = (line: string) => process.stderr.write(`${line}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);

/** The CLI: judge, then the answer on stdout (`--json`: one object; several patches: `{ exit, verdict, patches }`). */
export async function judgeCommand(opts: JudgeOptions & { json?: boolean }): Promise<number> {
  const outcome = await judgePatches(opts, err);
  if (outcome.kind === 'problem') {
    err(outcome.message);
    if (opts.json) out(JSON.stringify(plainJson({ exit: outcome.code, judged: false, message: outcome.message }), null, 2));
    return outcome.code;
  }
  if (outcome.kind === 'interrupted') err(judgeMsg.interrupted());
  if (opts.json) out(JSON.stringify(judgeDocument(outcome.code, outcome.answers), null, 2));
  else for (const a of outcome.answers) for (const line of answerLines(a)) out(line);
  return outcome.code;
}

/** The JSON answer: one patch's object with its exit code, or for several `{ exit, verdict, patches }`. */
export function judgeDocument(code: number, answers: readonly PatchAnswer[]): Record<string, unknown> {
  // For a machine: no terminal control code anywhere (a test's name or message may hold colours).
  if (answers.length === 1) return plainJson({ exit: code, ...verdictFirst(answers[0]!) });
  return plainJson({ exit: code, verdict: worst(answers.map((a) => a.verdict)), patches: answers.map(verdictFirst) });
}

/** The same answer with its verdict, deciding tier and reason as its first fields: what a reader looks at first. */
function verdictFirst(a: PatchAnswer): PatchAnswer {
  const { verdict, tier, reason, ...rest } = a;
  return { verdict, tier, reason, ...rest };
}

/**
 * The judgement, said on `say` (stderr) as it goes and returned: the patches named, each applied in a
 * slot at its base and run through the ladder under the config committed at that base, a row per tier
 * reached in the ledger with hook `judge`. Prints nothing on stdout (the MCP server's stdout is its protocol).
 */
export async function judgePatches(opts: JudgeOptions, say: (line: string) => void): Promise<JudgeOutcome> {
  const problem = (message: string, code: number = EXIT.error): JudgeOutcome => ({ kind: 'problem', code, message });
  if (opts.jobs !== undefined && !(Number.isInteger(opts.jobs) && opts.jobs > 0)) return problem(replayMsg.badJobs(String(opts.jobs)));
  if (process.env.GATE_LADDER === '0') return problem(msg.bypassed(), EXIT.pass);
  const info = repoInfo(opts.cwd);
  if (info === null) return problem(msg.notRepo(opts.cwd, refusedRepo(opts.cwd)));
  const temp = mkdtempSync(join(tmpdir(), 'gl-judge-'));
  try {
    const patches = patchesOf(opts, info, temp);
    if (typeof patches === 'string') return problem(patches);
    // No change to judge is no failure (as a push with nothing to test): exit 0, and said.
    if (!Array.isArray(patches)) return problem(patches.empty, EXIT.pass);
    const ctxs = await contexts(patches, info, opts, say);
    if (typeof ctxs === 'string') return problem(ctxs);
    let gate: LadderDeps['runGate'] = runGate;
    if (opts.isolate === 'network') {
      const probe = probeNetworkIsolation();
      if (!probe.ok) return problem(judgeMsg.noIsolation(probe.reason));
      gate = (tier, cwd, env, io) => runGate(isolateTier(tier, probe.prefix), cwd, env, io);
    }
    stopLeftovers(info.commonDir, say);
    const jobs = Math.max(1, Math.min(opts.jobs ?? availableParallelism(), patches.length));
    say(judgeMsg.start(patches.length, jobs, opts.isolate === 'network'));
    // A second Ctrl-C exits at once; the worktrees' exit hook still removes them.
    const interrupt = trapInterrupt(() => process.exit(EXIT.interrupted));
    const outcomes = new Map<ReplayPatch, PatchOutcome>();
    let failure: { err: unknown } | undefined;
    try {
      await runPool(
        patches,
        jobs,
        async (patch) => {
          const ctx = ctxs.get(patch.base)!;
          outcomes.set(
            patch,
            await replayPatch(patch, {
              ...ctx.replay,
              interrupted: () => interrupt.fired,
              deps: { ...ctx.replay.deps, runGate: gate, interrupt: interrupt.promise },
            }),
          );
        },
        () => interrupt.fired,
      );
    } catch (e) {
      failure = { err: e };
    } finally {
      interrupt.dispose();
    }
    const answers = patches.flatMap((p) => {
      const o = outcomes.get(p);
      return o === undefined || o.status === 'interrupted' ? [] : [answerOf(o, ctxs.get(p.base)!)];
    });
    if (interrupt.fired) return { kind: 'interrupted', code: EXIT.interrupted, answers };
    if (failure) return problem(judgeMsg.failed(failure.err));
    return { kind: 'judged', code: EXIT[worst(answers.map((a) => a.verdict))], answers };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The patches named, each with its base; a message saying what could not be read. */
function patchesOf(opts: JudgeOptions, info: RepoInfo, temp: string): ReplayPatch[] | string | { empty: string } {
  const problems: string[] = [];
  const patches: ReplayPatch[] = [];
  const files: { name: string; file: string; content: Buffer }[] = [];
  for (const p of opts.patches ?? []) {
    if (p === '-') {
      const content = readStdin();
      const file = join(temp, `stdin-${files.length}.diff`);
      writeFileSync(file, content);
      files.push({ name: 'stdin', file, content });
      continue;
    }
    const file = resolve(opts.cwd, p);
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      // named below
    }
    if (!isFile) problems.push(`--patch ${p}: no such file`);
    else files.push({ name: basename(file), file, content: readFileSync(file) });
  }
  for (const [i, t] of (opts.texts ?? []).entries()) {
    const file = join(temp, `text-${i}.diff`);
    const content = Buffer.from(t.text.endsWith('\n') ? t.text : `${t.text}\n`);
    writeFileSync(file, content);
    files.push({ name: t.name, file, content });
  }
  // An empty patch (`git diff` of a clean tree) changes nothing: nothing to judge, as an empty --worktree; beside others, a mistake.
  const empty = files.filter((f) => f.content.toString('utf8').trim() === '');
  if (empty.length > 0 && empty.length === files.length && opts.commit === undefined && !opts.worktree && problems.length === 0)
    return { empty: judgeMsg.emptyPatch(empty.map((f) => f.name)) };
  for (const f of empty) problems.push(`--patch ${f.name === 'stdin' ? '-' : f.name}: empty (no change to judge)`);
  if (files.length > 0) {
    const base = resolveCommit(info.root, opts.base ?? 'HEAD');
    if (base === null) problems.push(`--base ${opts.base ?? 'HEAD'}: not a commit in this repository`);
    else for (const f of files) patches.push({ kind: 'file', id: patchFileId(f.name, f.content), base, label: f.name, file: f.file });
  }
  if (opts.commit !== undefined) {
    const commit = resolveCommit(info.root, opts.commit);
    if (commit === null) problems.push(`--commit ${opts.commit}: not a commit in this repository`);
    else {
      const parent = resolveCommit(info.root, `${commit}^1`);
      patches.push({ kind: 'commit', id: commit, base: parent ?? EMPTY_TREE, label: `${commit.slice(0, 12)}` });
    }
  }
  if (opts.worktree) {
    const snap = worktreeSnapshot(info.root, info.gitDir);
    if (snap.kind === 'no-head') return judgeMsg.noHead();
    if (snap.kind === 'empty') return { empty: judgeMsg.emptyWorktree() };
    if (snap.kind === 'failed') return judgeMsg.worktreeFailed(snap.why);
    patches.push({ kind: 'commit', id: snap.commit, base: snap.head, label: 'the working tree' });
  }
  if (problems.length > 0) return judgeMsg.badInputs(problems);
  if (patches.length === 0) return judgeMsg.noInput();
  return patches;
}

function readStdin(): Buffer {
  try {
    return readFileSync(0);
  } catch {
    return Buffer.alloc(0);
  }
}

/** What judging at one base needs: its config (the one committed there), ledger and replay context. */
interface BaseContext {
  replay: ReplayContext;
  config: ResolvedConfig;
  configFile: string;
  source: 'commit' | 'working-tree';
  ledger: string;
}

/** One context per base: the config committed there (else the working tree's, said), its ledger, the ladder's dependencies. */
async function contexts(
  patches: readonly ReplayPatch[],
  info: RepoInfo,
  opts: JudgeOptions,
  say: (line: string) => void,
): Promise<Map<string, BaseContext> | string> {
  const working = await loadConfigCached(info.root, info.commonDir);
  const found = new Map<string, BaseContext>();
  for (const base of new Set(patches.map((p) => p.base))) {
    const choice = base === EMPTY_TREE ? { load: working, source: 'working-tree' as const } : await configAtTree(info, base, working);
    const load = choice.load;
    if (load.kind === 'none') return judgeMsg.needConfig();
    if (load.kind !== 'ok') return judgeMsg.invalidConfig(base, load.problems);
    if ('workingTree' in choice && choice.workingTree) say(judgeMsg.configAt(base, load.file, choice.workingTree));
    const config = load.config;
    const ledger = ledgerPathFor(info.root, info.commonDir, config.ledger);
    let warned = false;
    const reports = reportDeps(ledger, process.env, base === EMPTY_TREE ? undefined : { root: info.root, treeish: base });
    found.set(base, {
      config,
      configFile: load.file,
      source: choice.source,
      ledger,
      replay: {
        root: info.root,
        commonDir: info.commonDir,
        config,
        match: scopeMatcher(config.scope),
        configHash: configHash(config, { calibrate: false, ...(opts.isolate && { isolate: opts.isolate }) }),
        calibrate: false,
        ...(opts.isolate && { isolate: opts.isolate }),
        hook: 'judge',
        interrupted: () => false,
        deps: {
          runGate,
          // A ledger that cannot be written costs the record, never the verdict (as on a push): said once.
          appendRows: (rows: LedgerRow[]) => {
            try {
              appendRows(ledger, rows);
            } catch (e) {
              if (!warned) say(faultMsg.ledgerUnwritable(ledger, e instanceof Error ? e.message : String(e)));
              warned = true;
            }
          },
          now: () => new Date(),
          log: () => {},
          // Parallel gates' output would interleave, and stdout is the answer's: each gate's whole output goes to its log.
          openLog: (tier: ResolvedTier) => openGateLog(logsDir(info.commonDir), tier.name),
          env: process.env,
          reports,
          tracker: gateTracker(gatesDir(info.commonDir), info.root),
        },
      },
    });
  }
  return found;
}

/** One outcome as the answer says it. */
function answerOf(o: PatchOutcome, ctx: BaseContext): PatchAnswer {
  const ledger = { file: ctx.ledger, rows: o.rows.map((r) => ({ run: r.run, tier: r.tier })) };
  const config = { file: ctx.configFile, source: ctx.source };
  const common = { patch: o.patch.id, label: o.patch.label, base: o.patch.base, seconds: round(o.seconds), config, ledger };
  if (o.status === 'not-applied') {
    const reason = String(o.rows[0]?.reason ?? o.reason ?? 'does not apply');
    return {
      ...common,
      verdict: 'error',
      tier: APPLY_TIER,
      reason,
      failed_tests: [],
      failed_tests_total: 0,
      failed_tests_truncated: false,
      tiers: [],
      skipped: [],
      // A patch that does not apply, or one refused for what it adds, is the patch's: unless the check itself failed.
      error_cause: o.rows[0]?.error_cause ?? 'patch',
      applied: false,
      next: judgeMsg.next({
        verdict: 'error',
        applied: false,
        refused: o.refused === true,
        ...(o.baseLikely !== undefined && { baseLikely: o.baseLikely }),
        base: o.patch.base,
        configFile: ctx.configFile,
      }),
    };
  }
  const verdict: Verdict = o.status === 'caught' || o.status === 'error' ? o.status : 'pass';
  const stopped = o.stoppedBy;
  const failed = stopped?.failures?.length
    ? stopped.failures.map((f) => ({
        id: f.id,
        title: f.title,
        ...(f.file !== undefined && { file: f.file }),
        ...(f.line !== undefined && { line: f.line }),
        message: f.message,
      }))
    : (stopped?.failed ?? []).map((id) => ({ id }));
  return {
    ...common,
    verdict,
    tier: stopped?.tier ?? null,
    reason: stopped?.reason ?? null,
    failed_tests: failed,
    failed_tests_total: Math.max(failed.length, stopped?.failures?.length ? (stopped.failuresTotal ?? 0) : 0),
    failed_tests_truncated: failed.length < (stopped?.failures?.length ? (stopped.failuresTotal ?? 0) : 0),
    tiers: o.results.map((r) => ({
      tier: r.tier,
      verdict: r.verdict,
      seconds: round(r.seconds),
      ...(r.reason !== undefined && { reason: r.reason }),
    })),
    skipped: (o.plan?.tiers ?? []).filter((t) => !t.run).map((t) => ({ tier: t.tier.name, reason: t.reason ?? t.skip ?? 'not run' })),
    ...(verdict === 'error' && stopped?.cause !== undefined && { error_cause: stopped.cause }),
    ...(verdict === 'error' && stopped?.causeFile !== undefined && { error_file: stopped.causeFile }),
    ...(verdict === 'error' && stopped?.causeLine !== undefined && { error_line: stopped.causeLine }),
    applied: true,
    ...(stopped && stopped.tail !== '' && { summary: resultSummary(stopped).lines.map(plainText) }),
    ...(stopped?.log !== undefined && { log: stopped.log }),
    next: judgeMsg.next({
      verdict,
      applied: true,
      named: failed.length > 0,
      ...(stopped?.cause !== undefined && { cause: stopped.cause }),
      ...(stopped?.causeFile !== undefined && { file: stopped.causeFile }),
      ...(stopped?.causeStopped && { stopped: true }),
      base: o.patch.base,
      configFile: ctx.configFile,
    }),
  };
}

/** The text answer: the verdict first, then the failed tests, the tiers, the next step and the ledger. */
export function answerLines(a: PatchAnswer): string[] {
  const shownTests = a.failed_tests.slice(0, 10);
  return [
    judgeMsg.verdict({
      verdict: a.verdict,
      label: a.label,
      ...(a.tier !== null && { tier: a.tier }),
      ...(a.reason !== null && { reason: a.reason }),
      seconds: a.seconds,
      tiers: a.tiers.length,
    }),
    ...shownTests.map((t) => judgeMsg.failedTest(t)),
    ...(a.failed_tests_total > shownTests.length
      ? [judgeMsg.moreTests(a.failed_tests_total - shownTests.length, a.failed_tests_truncated ? a.failed_tests.length : undefined)]
      : []),
    ...(a.applied ? [judgeMsg.tiers(a.tiers, a.skipped)] : []),
    `  ${a.next}`,
    ...(a.ledger.rows[0] ? [judgeMsg.ledger(a.ledger.file, a.ledger.rows[0].run)] : []),
  ];
}

function worst(verdicts: readonly Verdict[]): Verdict {
  return verdicts.includes('error') ? 'error' : verdicts.includes('caught') ? 'caught' : 'pass';
}

const round = (s: number) => Math.round(s * 1000) / 1000;
