/**
 * The steps of a run's judgement, shared by `gate-ladder run` (commands/run.ts: the hook and the
 * manual run, whose `judge` lists them in order) and `gate-ladder ci` (commands/ci.ts): the config
 * loaded once (`configLoader`), what is judged under which config (`planWithConfigs`), the run's
 * shared state (`startRun`), then per target (`judgeTarget`): its config → its plan → the tree
 * cache → where gates run → the ladder → the verdict. What is said goes through a reporter (reporter.ts).
 */
import { readFileSync } from 'node:fs';
import { type Interruption, trapInterrupt } from '../util/interrupt.js';
import { backupStashes, guardStashes } from '../lint-staged/stash.js';
import { cachedRows, recordTreeCache, treeCacheStep } from './tree-cache.js';
import { shouldCalibrate } from '../route/calibrate.js';
import { type CachedLoad, configHash, loadConfigCached } from '../config/config-cache.js';
import { EXIT } from '../config/defaults.js';
import { type GateExit, type GateIo, runGate } from '../gates/gate.js';
import {
  EMPTY_TREE,
  type RepoInfo,
  commitTree,
  git,
  stashList,
  writeTree,
  hasTrackedChanges,
  hasUnstagedChanges,
  remoteFor,
  defaultBase,
  textAt,
  uncomparedIn,
  workTreeState,
} from '../git/git.js';
import { type GitFacts, commitIn, diffIn, mergeBaseIn } from '../git/facts.js';
import { decodeText } from '../util/cache-files.js';
import { newRunId } from '../util/hash.js';
import { type Where, chooseIsolation, hiddenReason, placement } from './isolation.js';
import { type LadderInput, type LadderOutcome, runLadder } from './ladder.js';
import { appendRows, ledgerGuard, ledgerPathFor } from '../ledger/ledger.js';
import { commitMsg, configMsg, faultMsg, msg, runMsg } from '../util/messages.js';
import { watchLauncher } from '../util/launcher.js';
import { gateTracker, gatesDir } from '../gates/gate-records.js';
import { parsePushRefs, pushKind } from '../git/push-refs.js';
import { type ConfigChoice, configAtTree } from '../config/config-at.js';
import { writeErr } from '../util/stderr.js';
import { safeGateOutput } from '../gates/gate-output.js';
import { gateColourWanted } from '../util/colour.js';
import { detectPackageManager, pmSays } from '../runners/package-manager.js';
import { debugFor } from '../util/debug.js';
import type { ScopeMatcher } from '../util/glob.js';
import { scopeMatcher, route, skipTiers } from '../route/route.js';
import { reportDeps } from '../verdict/tier-report-io.js';
import { type StagedTarget, stagedTarget } from '../git/staged.js';
import { type RefPlan, type Target, planPush, rangeGit } from '../git/targets.js';
import type { HookName, OutputMode, Plan, PlanOrder, ResolvedConfig, ResolvedTier, RunnerInfo, Verdict } from '../types.js';
import { logsDir, openGateLog } from '../gates/gate-log.js';
import type { TierPrediction } from '../ledger/predict.js';
import { loadOrderStats } from '../ledger/order-index.js';
import { orderPlan, ordersPlans, roundP } from '../route/order-plan.js';
import { detectAtCommit } from '../runners/detect-io.js';
import type { Reporter } from './reporter.js';

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
  /** Pre-push stdin, when the caller has read it already. */
  stdin?: string;
  /** Ignore the tree cache (run every planned gate, record nothing in it) and load the config afresh. */
  noCache?: boolean;
  /** A manual run's name for its range (ledger `ref`, messages); default the `--head` revision. */
  ref?: string;
  /** Judged for a CI job (`gate-ladder ci`): verdicts say "check failed", never "push blocked", and offer no bypass. */
  ci?: boolean;
  /** `run --output`: how gates' output is shown for this run, over GATE_LADDER_OUTPUT and the config's `output`. */
  output?: OutputMode;
  /**
   * The caller exits as soon as this returns, unless something is still under way (the bin, see
   * early-exit.ts): the Ctrl-C handlers are left for the exit to drop, since removing them costs
   * about 0.07 ms (when it does not exit after all, they are unref'd and hold nothing open).
   */
  exitsAfter?: boolean;
}

export { EXIT };

/** One judged range, as `--json` prints it (and `gate-ladder ci` reads it). */
export interface TargetReport {
  ref: string;
  head: string;
  base: string;
  files: number;
  plan: { tier: string; run: boolean; reason?: string; runner?: RunnerInfo; command?: string | string[]; p?: number }[];
  verdict?: Verdict;
  results?: LadderOutcome['results'];
  skipped?: string;
  /** Where the gates ran (a lint-staged tier always runs in place). */
  isolation?: Where;
  /** Config `order: 'predicted'` or `select`: the order run, why, each tier's prediction and its evidence, what selection skipped. */
  order?: {
    order: 'fixed' | 'predicted';
    why: string;
    tiers: string[];
    predictions?: TierPrediction[];
    select?: NonNullable<PlanOrder['selected']>;
    select_off?: string;
  };
  /** The config it was judged under: its file, whose it is, and how the working tree's stands against it when not used. */
  config?: { file: string | null; source: ConfigChoice['source']; working_tree?: 'differs' | 'missing' };
}

const err = (line: string) => writeErr(`${line}\n`);
const sayCache = debugFor('cache');
const sayIsolation = debugFor('isolation');

/** The switches a push can carry (flags cannot pass through `git push`): tiers to skip, and the tree cache off. */
export function envSwitches(env: NodeJS.ProcessEnv): { skip: string[]; noCache: boolean } {
  const skip = (env.GATE_LADDER_SKIP ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const noCache = env.GATE_LADDER_NO_CACHE !== undefined && env.GATE_LADDER_NO_CACHE !== '' && env.GATE_LADDER_NO_CACHE !== '0';
  return { skip, noCache };
}

/** What a run judged: its exit code and, once it got as far as a plan, each target and the ledger. */
export interface Judged {
  code: number;
  targets?: TargetReport[];
  ledger?: string;
}

export type ConfigLoader = ReturnType<typeof configLoader>;

/**
 * The config, loaded once: by gatherGitFacts while git lists a range's changes (its scope then
 * routes the listing as git writes it), or after. `fresh` (`--no-cache`, GATE_LADDER_NO_CACHE) loads it afresh.
 */
export function configLoader(noCache: boolean) {
  let configLoad: { root: string; load: Promise<CachedLoad> } | undefined;
  const loadAt = (at: RepoInfo) =>
    (configLoad?.root === at.root ? configLoad : (configLoad = { root: at.root, load: loadConfigCached(at.root, at.commonDir, noCache) }))
      .load;
  let early: { scope: readonly string[]; match: ScopeMatcher } | undefined;
  const scopeAt = async (at: RepoInfo) => {
    const l = await loadAt(at);
    if (l.kind !== 'ok') return undefined;
    early = { scope: l.config.scope, match: scopeMatcher(l.config.scope, l.scopePlan) };
    return early.match;
  };
  const matchers = new Map<CachedLoad, ScopeMatcher>();
  const matchFor = (l: CachedLoad & { kind: 'ok' }) => {
    let m = matchers.get(l);
    if (m === undefined) matchers.set(l, (m = early?.scope === l.config.scope ? early.match : scopeMatcher(l.config.scope, l.scopePlan)));
    return m;
  };
  return { loadAt, scopeAt, matchFor };
}

/** What every target of a run shares: the facts, the configs, the switches, the reporter, Ctrl-C, the ledger guard, where gates run. */
export interface Run {
  opts: RunOptions;
  facts: GitFacts;
  hook: HookName;
  reporter: Reporter;
  switches: { skip: string[]; noCache: boolean };
  noCache: boolean;
  working: CachedLoad;
  choices: Map<string, ConfigChoice>;
  matchFor: ConfigLoader['matchFor'];
  exec: (command: string) => string;
  /** GATE_LADDER_SKIP names that are no tier of the judged config: said once each. */
  warnedSkip: Set<string>;
  /** A ledger that cannot be written (a folder, a FIFO, a full disk) costs the record, never the verdict: said once. */
  record: ReturnType<typeof ledgerGuard>;
  interrupt: Interruption;
  isolation: ReturnType<typeof isolationFor>;
  /** Watches the git process that started the hook, from the first gate on. */
  watch: () => void;
  /** Why the run stopped when the hook's git process went away. */
  abandoned: string | undefined;
  unwatch: (() => void) | undefined;
}

/** The run's shared state, before its first target: Ctrl-C trapped, the ledger guarded, isolation ready to be asked. */
export function startRun(
  facts: GitFacts,
  opts: RunOptions,
  reporter: Reporter,
  configs: ConfigLoader,
  working: CachedLoad,
  choices: Map<string, ConfigChoice>,
): Run {
  const hook: HookName = opts.hook ?? 'manual';
  const switches = envSwitches(process.env);
  const run: Run = {
    opts,
    facts,
    hook,
    reporter,
    switches,
    noCache: opts.noCache === true || switches.noCache,
    working,
    choices,
    matchFor: configs.matchFor,
    exec: execFor(facts.repo.root),
    warnedSkip: new Set<string>(),
    record: ledgerGuard(reporter.problem),
    // Ctrl-C stops the running gate's tree; the ladder records, removes its worktree and exits. A second one exits at once.
    interrupt: trapInterrupt(() => process.exit(EXIT.interrupted)),
    isolation: isolationFor(facts, hook),
    abandoned: undefined,
    unwatch: undefined,
    // A hook whose git process is gone (killed) judges a push that no longer exists: it stops as if interrupted.
    // (Watched from the first gate on: a push whose tree already passed starts no timer for it.)
    watch: () => {
      if (opts.hook === undefined || run.unwatch) return;
      run.unwatch = watchLauncher((name, pid) => {
        run.abandoned = faultMsg.abandoned(name, pid);
        run.interrupt.fire();
      });
    },
  };
  return run;
}

/** After the last target: the launcher no longer watched, Ctrl-C given back (unless the process exits now). */
export function finishRun(run: Run): void {
  run.unwatch?.();
  if (!run.opts.exitsAfter) run.interrupt.dispose();
}

/** One target judged: its report, its exit code, the ledger it wrote to, and whether the run was interrupted there. */
export interface TargetJudged {
  report: TargetReport;
  code: number;
  ledger?: string;
  interrupted?: true;
}

/** A target that is judged under an `ok` config: the load, whose it is, and the note the report carries. */
interface Under {
  choice: ConfigChoice;
  loaded: CachedLoad & { kind: 'ok' };
  note: NonNullable<TargetReport['config']>;
  ledger: string;
}

/** One target, judged: a range git could not list or a ref with nothing to test is said and reported; else its config, its plan, then its gates. */
export async function judgeTarget(run: Run, p: RefPlan): Promise<TargetJudged> {
  if (p.kind === 'skip') {
    run.reporter.nothingToTest(p.ref, p.why);
    return { code: EXIT.pass, report: { ref: p.ref, head: '', base: '', files: 0, plan: [], skipped: p.why } };
  }
  if (p.kind === 'error') {
    run.reporter.problem(msg.rangeError(p.ref, p.reason, run.reporter.voice));
    return { code: EXIT.error, report: { ref: p.ref, head: p.head, base: '', files: 0, plan: [], verdict: 'error' } };
  }
  const under = configFor(run, p);
  if ('report' in under) return under;
  const planned = await planTarget(run, p, under);
  const judged = await judgePlan(run, p, under, planned);
  return { ...judged, report: planned.report, ledger: under.ledger };
}

/** The config this target is judged under: its commit's own (a manual run: the working tree's); none or an invalid one ends it here. */
function configFor(run: Run, p: Target): Under | TargetJudged {
  const choice = run.choices.get(p.head) ?? { load: run.working, source: 'working-tree' };
  const loaded = choice.load;
  const note = {
    file: loaded.kind === 'none' ? null : loaded.file,
    source: choice.source,
    ...(choice.workingTree && { working_tree: choice.workingTree }),
  };
  if (loaded.kind === 'none') {
    run.reporter.noConfig(run.exec);
    return { code: EXIT.pass, report: { ref: p.ref, head: p.head, base: p.base, files: 0, plan: [], skipped: 'no config', config: note } };
  }
  if (loaded.kind !== 'ok') {
    run.reporter.problem(
      choice.source === 'commit'
        ? configMsg.invalidCommitted(p.ref, p.head, loaded.problems, run.hook)
        : msg.invalidConfig(loaded.problems, run.hook, run.exec),
    );
    return { code: EXIT.error, report: { ref: p.ref, head: p.head, base: p.base, files: 0, plan: [], verdict: 'error', config: note } };
  }
  const info = run.facts.repo;
  return { choice, loaded, note, ledger: ledgerPathFor(info.root, info.commonDir, loaded.config.ledger) };
}

/** The target's plan (t0-scope, GATE_LADDER_SKIP), its report, and the lines that name it. */
async function planTarget(run: Run, p: Target, under: Under): Promise<Planned> {
  const config = under.loaded.config;
  const unknown = run.switches.skip.filter((name) => !config.tiers.some((t) => t.name === name) && !run.warnedSkip.has(name));
  for (const name of unknown) run.warnedSkip.add(name);
  run.reporter.unknownSkip(
    unknown,
    config.tiers.map((t) => t.name),
  );
  const routed = skipTiers(route(p.changes, config.tiers, run.matchFor(under.loaded), run.hook), run.switches.skip, 'GATE_LADDER_SKIP');
  // Decided here, before the order: a calibration run keeps the listed order and is never thinned by `select`.
  const calibration = shouldCalibrate(config, run.hook, run.opts.calibrate === true, Math.random);
  // config `order: 'predicted'` / `select`: the ledger's history of these paths, from the index beside it (ledger/order-index.ts).
  const plan = ordersPlans(config)
    ? orderPlan(routed, config, loadOrderStats(under.ledger).stats, { ci: run.opts.ci === true, calibration })
    : routed;
  // Which runner profile reads each running tier, from the judged commit's package.json: said by --dry-run and --json.
  const runners = run.reporter.wantsRunners
    ? await runnersAt(
        run.facts.repo.root,
        p.head,
        plan.tiers.filter((t) => t.run).map((t) => t.tier),
      )
    : undefined;
  const report: TargetReport = {
    ref: p.ref,
    head: p.head,
    base: p.base,
    files: plan.fileCount,
    plan: plan.tiers.map((t) => ({
      tier: t.tier.name,
      run: t.run,
      ...(t.reason && { reason: t.reason }),
      ...(runners?.has(t.tier.name) && { runner: runners.get(t.tier.name)! }),
      ...(t.command !== undefined && { command: t.command }),
      ...(t.p !== undefined && { p: roundP(t.p) }),
    })),
    ...(plan.order && { order: orderReport(plan) }),
    config: under.note,
  };
  run.reporter.target(p, plan.fileCount, under.choice, under.loaded.file, run.hook);
  return { plan, report, runners, calibration };
}

/** `--json`'s account of the order: the order run, why, and each tier's prediction and evidence. */
function orderReport(plan: Plan): NonNullable<TargetReport['order']> {
  const o = plan.order!;
  return {
    order: o.order,
    why: o.why,
    tiers: plan.tiers.filter((t) => t.run).map((t) => t.tier.name),
    ...(o.predictions && { predictions: o.predictions.map((x) => ({ ...x, p: roundP(x.p) })) }),
    ...(o.selected && { select: o.selected }),
    ...(o.selectOff !== undefined && { select_off: o.selectOff }),
  };
}

/** A target's plan, its report (filled in as it is judged) and the runner profiles shown with the plan. */
interface Planned {
  plan: Plan;
  report: TargetReport;
  runners: Map<string, RunnerInfo> | undefined;
  calibration: boolean;
}

/**
 * A planned target: nothing to judge (an empty change, a dry run, no tier running), the tree cache's
 * pass, or its gates run. Returns its exit code (the report is filled in).
 */
async function judgePlan(
  run: Run,
  p: Target,
  under: Under,
  { plan, report, runners, calibration }: Planned,
): Promise<{ code: number; interrupted?: true }> {
  const config = under.loaded.config;
  const { opts, hook, reporter } = run;
  // An empty change: its tree is its base's, already there; nothing to judge (unless the config says run anyway).
  if (plan.fileCount === 0 && !config.runOnEmpty) {
    reporter.emptyDiff(p.ref);
    report.verdict = 'pass';
    return { code: EXIT.pass };
  }
  // ── tree cache: has this tree passed this plan under this config before? ──
  const cache = treeCacheStep({
    enabled: config.cache && !run.noCache && hook !== 'pre-commit',
    read: !calibration,
    facts: run.facts,
    head: p.head,
    configHash: under.loaded.hash ?? configHash(config),
    plan,
  });
  sayCache?.(
    `tree cache for ${p.ref}: ${cache === undefined ? 'not used' : cache.hit ? `hit (tree ${cache.tree}, run ${[...new Set(Object.values(cache.hit))].join(', ')})` : `miss (tree ${cache.tree})`}`,
  );
  if (opts.dryRun) {
    reporter.plan(plan, runners, cache?.hit && Object.values(cache.hit));
    return { code: EXIT.pass };
  }
  reporter.skips(plan);
  if (plan.order) reporter.order(plan);
  if (!plan.tiers.some((t) => t.run)) {
    reporter.noTiers();
    report.verdict = 'pass';
    return { code: EXIT.pass };
  }
  if (calibration && !opts.calibrate) reporter.calibrating(config.calibrate);
  const staged = 'parent' in p ? (p as StagedTarget) : undefined;
  const input = {
    plan,
    runId: newRunId(),
    hook,
    patch: p.head,
    base: staged ? staged.parent : p.base === EMPTY_TREE ? null : p.base,
    ...(!staged && { ref: p.ref }),
    cwd: run.facts.repo.root,
    ...(calibration && { calibration: true }),
    ...(p.note && { note: p.note }),
  };
  // ── tree cache hit: a row per planned tier, no gate runs ──
  // (before choosing where gates run: looking at the work tree costs two git processes)
  if (cache?.hit) {
    const { results, rows } = cachedRows({ ...input, isolation: 'none' }, cache.hit, new Date());
    run.record(() => appendRows(under.ledger, rows));
    report.verdict = 'pass';
    report.results = results;
    reporter.cached(
      p.ref,
      results.map((r) => r.tier),
      cache.tree,
      Object.values(cache.hit),
      hook,
    );
    return { code: EXIT.pass };
  }
  const outcome = await runGates(run, p, under, input, report);
  report.verdict = outcome.verdict;
  report.results = outcome.results;
  // ── tree cache: remember a tree on which every planned tier passed ──
  if (cache) recordTreeCache(cache, plan, p.head, outcome, run.interrupt.fired);
  return verdictOf(run, p, under, outcome);
}

/** Where the gates run (in place or a worktree), then the ladder, the worktree given back and lint-staged's backups checked after. */
async function runGates(
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
  let placed = placement(info.root, where, rev, process.env, pool);
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
    placed = placement(info.root, where, rev, process.env, pool);
    return now;
  };
  const backups = plan.tiers.some((t) => t.run && t.tier.lintStaged) ? lintStagedBackups(info.root) : undefined;
  const testReports = reportDeps(
    under.ledger,
    process.env,
    hook === 'manual' ? undefined : { root: info.root, treeish: p.head },
    facts.trees,
  );
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
      reports: { ...testReports, record: (rec, cwd) => run.record(async () => testReports.record(rec, cwd)) },
      // Piped gate output is escaped on its way (colours kept): gates/gate-output.ts.
      echo: (chunk) => writeErr(safeGateOutput(chunk)),
      colour: () => gateColourWanted(process.env),
      tracker: gateTracker(gatesDir(info.commonDir)),
      // Whether a missing script was there before the range: the patch removed it (verdict/fault.ts).
      ...(input.base != null && { atBase: (path: string) => textAt(info.root, input.base!, path) }),
    });
  } finally {
    placed.dispose();
    backups?.after();
  }
}

/** The values GATE_LADDER_OUTPUT and `run --output` take. */
export const OUTPUT_MODES: readonly OutputMode[] = ['summary', 'all', 'failures'];

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
function verdictOf(run: Run, p: Target, under: Under, outcome: LadderOutcome): { code: number; interrupted?: true } {
  if (run.interrupt.fired) {
    run.reporter.problem(run.abandoned ?? msg.interrupted());
    return { code: EXIT.interrupted, interrupted: true };
  }
  const stopped = outcome.stoppedBy;
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

/** git's pre-push stdin: the ref lines of the push. */
export function readStdin(): string {
  try {
    // A ref name may hold bytes that are not UTF-8: kept as themselves, shown as \xNN (util/cache-files.ts).
    return decodeText(readFileSync(0));
  } catch {
    return '';
  }
}

/**
 * What this run judges, and under which config: every pushed ref under its commit's own config, the
 * staged tree under the staged config, `--base/--head` under the working tree's (today's). An exit
 * code, after saying why, when there is nothing to judge or no config to judge under.
 */
export async function planWithConfigs(
  facts: GitFacts,
  opts: RunOptions,
  hook: HookName,
  working: CachedLoad,
  reporter: Reporter,
): Promise<{ plans: RefPlan[]; choices: Map<string, ConfigChoice> } | number> {
  const info = facts.repo;
  const choices = new Map<string, ConfigChoice>();
  const choose = async (head: string, tree: string | undefined) => {
    if (!choices.has(head)) choices.set(head, await configAtTree(info, head, working, tree));
  };
  let plans: RefPlan[];
  if (hook === 'manual') {
    if (working.kind === 'none') return noConfig(info.root, reporter);
    if (working.kind === 'invalid') {
      reporter.problem(msg.invalidConfig(working.problems, hook, execFor(info.root)));
      return EXIT.error;
    }
    const manual = manualTarget(facts, opts, working.config);
    if (typeof manual === 'string') {
      reporter.problem(manual);
      return EXIT.error;
    }
    reporter.todaysConfig(working.file);
    return { plans: [manual], choices };
  }
  if (hook === 'pre-commit') {
    const staged = stagedTarget(info.root);
    // The staged target's head is the index's tree.
    if (staged.kind === 'test') await choose(staged.head, staged.head);
    plans = [staged];
  } else {
    const { refs, bad } = parsePushRefs(opts.stdin ?? readStdin());
    if (bad.length > 0) {
      reporter.problem(msg.badStdin(bad));
      return EXIT.error;
    }
    for (const ref of refs) {
      if (pushKind(ref) === 'delete' || ref.localSha === ref.remoteSha) continue;
      const head = commitIn(facts, ref.localSha);
      if (head !== null) await choose(head, facts.trees.get(head));
    }
    // A new branch's base may come from its commit's config (`base`).
    const base = (head: string) => {
      const l = choices.get(head)?.load;
      return l?.kind === 'ok' ? l.config.base : undefined;
    };
    plans = planPush(refs, { remote: remoteFor(info.root, opts.remote ?? 'origin'), base }, rangeGit(facts));
  }
  // No config anywhere: said once, and allowed, as before any commit carried one.
  if ([...choices.values()].every((c) => c.load.kind === 'none') && (choices.size > 0 || working.kind === 'none'))
    return noConfig(info.root, reporter);
  return { plans, choices };
}

/** How the project runs gate-ladder's bin (`npx gate-ladder`, `pnpm exec gate-ladder`, ...), for the messages. */
const execFor = (root: string) => (command: string) => pmSays.exec(detectPackageManager(root), command);

function noConfig(root: string, reporter: Reporter): number {
  reporter.problem(msg.noConfig(execFor(root)));
  return EXIT.pass;
}

/**
 * Where a target's gates run. The work tree is inspected only when a gate is about to run, once, by
 * git: for pre-commit, unstaged changes mean the index is not what is on disk; otherwise one `git
 * status` says whether tracked files differ or another commit is checked out. A tree git calls clean
 * is then checked for the entries git status does not compare (`git ls-files -v`, run meanwhile).
 */
function isolationFor(facts: GitFacts, hook: HookName) {
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

/** The runner profile of each tier, read at `rev` (a commit, or the staged tree). */
async function runnersAt(root: string, rev: string, tiers: readonly ResolvedTier[]): Promise<Map<string, RunnerInfo>> {
  const out = new Map<string, RunnerInfo>();
  for (const t of tiers) {
    if (t.lintStaged) continue;
    const d = await detectAtCommit(t, root, rev);
    const why =
      d.missingScript !== undefined && d.runner !== undefined ? `${d.why}; but package.json has no script "${d.missingScript}"` : d.why;
    out.set(t.name, { ...(d.runner && { runner: d.runner }), why });
  }
  return out;
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

/** Whether any commit exists (HEAD may be unborn while other branches have some). */
function hasCommits(root: string): boolean {
  const r = git(root, ['rev-list', '-n', '1', '--all']);
  return !r.ok || r.stdout.trim() !== '';
}

/** `--base A --head B`: the seed's manual and CI form. Returns a message when it cannot. */
function manualTarget(facts: GitFacts, opts: RunOptions, config: ResolvedConfig): Target | string {
  const root = facts.repo.root;
  const headRev = opts.head ?? 'HEAD';
  const head = commitIn(facts, headRev);
  if (head === null) return headRev === 'HEAD' && !hasCommits(root) ? msg.noCommits() : msg.badRev(headRev);
  const baseRev = opts.base ?? config.base ?? defaultBase(root, 'origin') ?? undefined;
  if (baseRev === undefined) return msg.needBase();
  const baseSha = commitIn(facts, baseRev);
  if (baseSha === null) return msg.badRev(baseRev);
  const base = mergeBaseIn(facts, baseSha, head) ?? baseSha;
  const baseName = { rev: baseRev, mergeBase: base !== baseSha };
  return { kind: 'test', ref: opts.ref ?? headRev, head, base, changes: diffIn(facts, base, head), baseName };
}
