/**
 * A target's gates run: where (in place or a slot of the worktree pool), the ladder, and the verdict
 * said. Loaded by steps.ts only when a gate is about to run, so a push the tree cache passes, a dry
 * run or an empty change never loads the gates, the runner records, the verdict readers or the pool.
 */
import {
  commitTree,
  stashList,
  writeTree,
  hasTrackedChanges,
  hasUnstagedChanges,
  filesAt,
  textAt,
  uncomparedIn,
  workTreeState,
} from '../git/git.js';
import { type GitFacts, commitIn } from '../git/facts.js';
import type { StagedTarget } from '../git/staged.js';
import type { Target } from '../git/targets.js';
import { appendRows } from '../ledger/ledger.js';
import { type GateExit, type GateIo, runGate } from '../gates/gate.js';
import { gateTracker, gatesDir } from '../gates/gate-records.js';
import { logsDir, openGateLog } from '../gates/gate-log.js';
import { safeGateOutput } from '../gates/gate-output.js';
import { backupStashes, guardStashes } from '../lint-staged/stash.js';
import { commitMsg } from '../lint-staged/messages.js';
import { resultSummary } from '../verdict/output-summary.js';
import { detectCached } from '../runners/detect-cache.js';
import { gateColourWanted } from '../util/colour.js';
import { debugFor } from '../util/debug.js';
import type { Interruption } from './interrupt.js';
import { writeErr } from '../util/stderr.js';
import type { HookName, OutputMode } from '../types.js';
import type { GateResult } from '../gates/result.js';
import type { ResolvedConfig, ResolvedTier } from '../config/resolved.js';
import { type Where, chooseIsolation, hiddenReason, loadPool, placement } from './isolation.js';
import { type LadderInput, type LadderOutcome, runLadder } from './ladder.js';
import { msg, runMsg } from './messages.js';
import { EXIT, OUTPUT_MODES, type Run, type TargetReport, type Under } from './run-state.js';

const err = (line: string) => writeErr(`${line}\n`);
const sayIsolation = debugFor('isolation');

/** Where the gates run (in place or a worktree), then the ladder, the worktree given back and lint-staged's backups checked after. */
export async function runGates(
  run: Run,
  p: Target,
  under: Under,
  input: Omit<LadderInput, 'isolation'>,
  report: TargetReport,
): Promise<LadderOutcome> {
  const { facts, hook, reporter, interrupt } = run;
  const info = facts.repo;
  const config = under.loaded.config;
  const plan = input.plan;
  const staged = 'parent' in p ? (p as StagedTarget) : undefined;
  const running = plan.tiers.filter((t) => t.run).map((t) => t.tier);
  run.isolation ??= isolationFor(facts, hook);
  const { where, why } = await run.isolation(p, running, config);
  const output = outputFor(run, config);
  sayIsolation?.(
    `${p.ref}: ${where === 'worktree' ? `in a worktree (${why ?? `isolation: '${config.isolation}'`})` : `in place (${inPlaceWhy(running, config)})`}`,
  );
  report.isolation = where;
  if (where === 'worktree' && why)
    reporter.isolated(
      p.head,
      why,
      running.some((t) => t.lintStaged),
    );
  // A worktree checks out a commit: for the staged tree, an unreferenced one made on demand.
  let judged = p.head;
  const rev = staged ? () => commitTree(info.root, judged, staged.parent) : () => p.head;
  const ladderInput = { ...input, isolation: where } satisfies LadderInput;
  const pool = { commonDir: info.commonDir, ...(reporter.log && { log: reporter.log }) };
  const slots = where === 'worktree' ? await loadPool() : undefined;
  let placed = placement(info.root, where, rev, process.env, pool, slots);
  // A lint-staged tier may re-stage files: the tiers after it judge the tree that will be committed.
  const restaged = (tier: ResolvedTier): string | undefined => {
    if (!staged || !tier.lintStaged) return undefined;
    const tree = writeTree(info.root);
    const now = tree.ok ? tree.stdout.trim() : judged;
    if (now === judged) return undefined;
    reporter.restaged(judged, now);
    judged = now;
    report.head = now;
    placed.dispose();
    placed = placement(info.root, where, rev, process.env, pool, slots);
    return now;
  };
  const backups = plan.tiers.some((t) => t.run && t.tier.lintStaged) ? lintStagedBackups(info.root) : undefined;
  // Report files, per-test history and freezes: their code loads only when a tier that runs names a report.
  const testReports = plan.tiers.some((t) => t.run && t.tier.report !== undefined)
    ? (await import('../verdict/tier-report-io.js')).reportDeps(
        under.ledger,
        process.env,
        hook === 'manual' ? undefined : { root: info.root, treeish: p.head },
        facts.trees,
      )
    : undefined;
  run.watch();
  try {
    return await runLadder(ladderInput, {
      runGate: (tier, cwd, env, io) => (tier.lintStaged ? lintStagedTier(tier, cwd, env, io, interrupt) : runGate(tier, cwd, env, io)),
      afterTier: restaged,
      appendRows: (rows) => run.record(() => appendRows(under.ledger, rows)),
      now: () => new Date(),
      log: reporter.log ?? (() => {}),
      ...(output === 'failures' && { hold: true }),
      ...(output === 'summary' && { openLog: (tier: ResolvedTier) => openGateLog(logsDir(info.commonDir), tier.name) }),
      env: process.env,
      interrupt: interrupt.promise,
      place: (tier) => placed.place(tier),
      // A push or a commit: the freezes committed with it, not the working tree's file.
      ...(testReports && { reports: { ...testReports, record: (rec, cwd) => run.record(async () => testReports.record(rec, cwd)) } }),
      // Piped gate output is escaped on its way (colours kept): gates/gate-output.ts.
      echo: (chunk) => writeErr(safeGateOutput(chunk)),
      colour: () => gateColourWanted(process.env),
      tracker: gateTracker(gatesDir(info.commonDir), info.root),
      // Each tier's detection kept between runs while its command and package.json stay as they were.
      detect: (tier, cwd) => detectCached(tier, cwd, info.commonDir),
      // Whether a missing script was there before the range: the patch removed it (verdict/fault.ts).
      ...(input.base != null && { atBase: (path: string) => textAt(info.root, input.base!, path) }),
      // A failed test's file the judged commit lacks: in place, the gates saw the checkout's untracked files too.
      notInCommit: (paths) => {
        const got = filesAt(info.root, judged, paths);
        return got === undefined ? [] : paths.filter((f) => got.get(f) === null);
      },
    });
  } finally {
    placed.dispose();
    backups?.after();
  }
}

/**
 * How this run shows gates' output: `run --output`, else GATE_LADDER_OUTPUT (a push cannot pass a flag), else the
 * config's `output`, except that a CI job streams everything for `summary` (its job log is the full log, and a
 * file under a CI clone's git dir is gone with the job) unless the flag or the variable asks for `summary`.
 */
function outputFor(run: Run, config: ResolvedConfig): OutputMode {
  if (run.opts.output) return run.opts.output;
  const env = process.env.GATE_LADDER_OUTPUT?.trim();
  if (env !== undefined && env !== '') {
    if ((OUTPUT_MODES as readonly string[]).includes(env)) return env as OutputMode;
    if (!run.warnedSkip.has('\0output')) {
      run.warnedSkip.add('\0output');
      run.reporter.problem(runMsg.envOutputUnknown(env, OUTPUT_MODES));
    }
  }
  return run.opts.ci && config.output === 'summary' ? 'all' : config.output;
}

/** Why gates run in the working tree itself, for GATE_LADDER_DEBUG. */
function inPlaceWhy(running: readonly ResolvedTier[], config: ResolvedConfig): string {
  if (running.every((t) => t.lintStaged)) return 'only lint-staged tiers run: they run in the working tree';
  if (config.isolation !== 'auto') return `isolation: '${config.isolation}'`;
  return 'the working tree is the commit judged, with no uncommitted change';
}

/** The ladder's outcome in the report, then said: passed, caught (red), could not give a verdict (yellow), or interrupted. */
export function verdictOf(run: Run, p: Target, under: Under, outcome: LadderOutcome): { code: number; interrupted?: true } {
  if (run.interrupt.fired) {
    run.reporter.problem(run.abandoned ?? msg.interrupted());
    return { code: EXIT.interrupted, interrupted: true };
  }
  const stopped = outcome.stoppedBy;
  if (stopped !== undefined) stopped.screen = screenOf(stopped);
  if (stopped === undefined) {
    run.reporter.passed(p.ref, outcome.results.length, sum(outcome.results.map((r) => r.seconds)));
    return { code: EXIT.pass };
  }
  if (stopped.verdict === 'caught') {
    run.reporter.caught(p.ref, stopped);
    return { code: EXIT.caught };
  }
  run.reporter.error(p.ref, stopped, under.loaded.file);
  return { code: EXIT.error };
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/**
 * Where a target's gates run. The work tree is inspected only when a gate is about to run, once, by
 * git: for pre-commit, unstaged changes mean the index is not what is on disk; otherwise one `git
 * status` says whether tracked files differ or another commit is checked out. A tree git calls clean
 * is then checked for the entries git status does not compare (`git ls-files -v`, run meanwhile).
 */
export function isolationFor(facts: GitFacts, hook: HookName) {
  const root = facts.repo.root;
  let dirty: boolean | undefined;
  let headSha: string | null | undefined;
  // Why the work tree cannot stand for the commit although git calls it clean (asked once, only then).
  let hidden: Promise<string | undefined> | undefined;
  const hiddenWhy = () => (hidden ??= uncomparedIn(root).then(hiddenReason));
  return async (p: Target, tiers: ResolvedTier[], config: ResolvedConfig): Promise<{ where: Where; why?: string }> => {
    if (tiers.every((t) => t.lintStaged)) return { where: 'none' };
    if (config.isolation !== 'auto')
      return { where: chooseIsolation(config.isolation, { dirty: false, atTarget: true }), why: `isolation: '${config.isolation}'` };
    if (hook === 'pre-commit') {
      // ls-files runs while git diff does.
      if (dirty === undefined) {
        const asked = hiddenWhy();
        dirty = hasUnstagedChanges(root);
        await asked;
      }
      const why = dirty ? undefined : await hiddenWhy();
      if (why !== undefined) return { where: 'worktree', why };
      return { where: chooseIsolation('auto', { dirty, atTarget: true }), why: 'unstaged changes are not part of the commit' };
    }
    const elsewhere = `the checked-out commit is not ${p.ref}`;
    if (dirty === undefined) {
      // ls-files runs while git status does: a clean tree at the commit needs both.
      hiddenWhy();
      // One `git status` answers both; should it fail, the two plain calls say why.
      const state = workTreeState(root);
      dirty = state ? !state.clean : hasTrackedChanges(root);
      headSha = state ? state.head : commitIn(facts, 'HEAD');
    }
    // git status is blind to skip-worktree and assume-unchanged paths: its clean answer must not run gates on them.
    const why = !dirty && headSha === p.head ? await hiddenWhy() : undefined;
    if (why !== undefined) return { where: 'worktree', why };
    const where = chooseIsolation('auto', { dirty, atTarget: headSha === p.head });
    return { where, why: dirty ? 'the working tree has uncommitted changes' : elsewhere };
  };
}

/**
 * A lint-staged tier runs through lint-staged's API (loaded only then). While it runs, a second Ctrl-C
 * does not exit: lint-staged is stopping its tasks and will restore the unstaged changes it hid, and
 * leaving before that would leave them only in its backup stash.
 */
async function lintStagedTier(
  tier: ResolvedTier,
  cwd: string,
  env: NodeJS.ProcessEnv,
  io: GateIo,
  interrupt: Interruption,
): Promise<GateExit> {
  const { runLintStaged } = await import('../lint-staged/tier.js');
  let said = false;
  const release = interrupt.hold(() => {
    if (!said) err(commitMsg.restoring());
    said = true;
  });
  try {
    return await runLintStaged(tier, cwd, env, io);
  } finally {
    release();
  }
}

/**
 * lint-staged's backup stashes: one left by a killed run is named before the run, and one this run
 * left (a restore that did not finish) after it, with the command that brings the changes back.
 */
function lintStagedBackups(root: string): { after: () => void } {
  const list = stashList(root);
  const before = backupStashes(list);
  for (const s of before) err(commitMsg.leftoverBackup(s.name));
  for (const s of guardStashes(list)) err(commitMsg.leftoverGuard(s.name, s.sha));
  const known = new Set(before.map((s) => s.sha));
  return {
    after: () => {
      for (const s of backupStashes(stashList(root))) if (!known.has(s.sha)) err(commitMsg.restoreFailed(s.name));
    },
  };
}

/** The lines of a blocked tier's output worth its one screen, when its output went to a log (config `output: 'summary'`). */
function screenOf(r: GateResult): GateResult['screen'] {
  if (r.outputLines === undefined || r.outputLines === 0) return undefined;
  const summary = resultSummary(r);
  return { lines: summary.lines, shown: summary.shown };
}
