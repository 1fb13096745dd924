/**
 * The steps of a run's judgement, shared by `gate-ladder run` (commands/run.ts: the hook and the
 * manual run, whose `judge` lists them in order) and `gate-ladder ci` (commands/ci.ts): the config
 * loaded once (`configLoader`), what is judged under which config (`planWithConfigs`), the run's
 * shared state (`startRun`), then per target (`judgeTarget`): its config → its plan → the tree
 * cache → where gates run → the ladder → the verdict. What is said goes through a reporter (reporter.ts).
 */
import { readFileSync } from '../util/node.js';
import { trapInterrupt } from './interrupt.js';
import { cachedRows, recordTreeCache, treeCacheStep } from './tree-cache.js';
import { shouldCalibrate } from '../route/calibrate.js';
import { type CachedLoad, configHash, loadConfigCached } from '../config/config-cache.js';
import { EMPTY_TREE, type RepoInfo, git, remoteFor, defaultBase } from '../git/git.js';
import { type GitFacts, commitIn, diffIn, mergeBaseIn } from '../git/facts.js';
import { decodeText } from '../util/cache-files.js';
import { newRunId } from '../util/hash.js';
import { appendRows, ledgerGuard, ledgerPathFor } from '../ledger/ledger.js';
import { configMsg } from '../config/messages.js';
import { faultMsg } from '../ledger/messages.js';
import { msg } from './messages.js';
import { watchLauncher } from './launcher.js';
import { parsePushRefs, pushKind } from '../git/push-refs.js';
import { type ConfigChoice, configAtTree } from '../config/config-at.js';
import { detectPackageManager, pmSays } from '../runners/package-manager.js';
import { debugFor } from '../util/debug.js';
import type { ScopeMatcher } from '../util/glob.js';
import { scopeMatcher, route, skipTiers, type Plan } from '../route/route.js';
import { type StagedTarget, stagedTarget } from '../git/staged.js';
import { type RefPlan, type Target, planPush, rangeGit } from '../git/targets.js';
import type { HookName } from '../types.js';
import type { ResolvedConfig, ResolvedTier } from '../config/resolved.js';
import type { RunnerInfo } from '../gates/result.js';
import { sig } from '../report/seconds.js';
import type { Reporter } from './reporter.js';
import { EXIT, type Run, type RunOptions, type TargetJudged, type TargetReport, type Under } from './run-state.js';

export {
  EXIT,
  OUTPUT_MODES,
  envSwitches,
  type Judged,
  type Run,
  type RunOptions,
  type TargetJudged,
  type TargetReport,
} from './run-state.js';

const sayCache = debugFor('cache');

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

/**
 * While git lists a new range's changes this process only waits: what the run loads next is loaded
 * then, not after. Detection and the runner records for a run that shows them (`--dry-run`, `--json`),
 * the gates' machinery for a run whose gates may run (unless the tree cache answers, they do). Not
 * awaited: the later `await import()` gets the same module, and reports a failed load itself.
 */
export function loadWhileListing(opts: RunOptions, reporter: Reporter): void {
  const later = () => undefined;
  if (reporter.wantsRunners) import('../runners/detect-io.js').catch(later);
  if (opts.dryRun !== true) import('./gates-step.js').catch(later);
}

/** The run's shared state, before its first target: Ctrl-C trapped, the ledger guarded, isolation ready to be asked. */
export function startRun(
  facts: GitFacts,
  opts: RunOptions,
  reporter: Reporter,
  configs: ConfigLoader,
  working: CachedLoad,
  choices: Map<string, ConfigChoice>,
  /** GATE_LADDER_SKIP and GATE_LADDER_NO_CACHE, as the run read them first (`envSwitches`). */
  switches: Run['switches'],
): Run {
  const hook: HookName = opts.hook ?? 'manual';
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
    return {
      code: EXIT.pass,
      report: { ref: p.ref, head: p.head, base: p.base, files: 0, plan: [], skipped: 'no config', config: note },
    };
  }
  if (loaded.kind !== 'ok') {
    run.reporter.problem(
      choice.source === 'commit'
        ? configMsg.invalidCommitted(p.ref, p.head, loaded.problems, run.hook)
        : msg.invalidConfig(loaded.problems, run.hook, run.exec),
    );
    return {
      code: EXIT.error,
      report: { ref: p.ref, head: p.head, base: p.base, files: 0, plan: [], verdict: 'error', config: note },
    };
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
  const plan =
    config.order === 'predicted' || config.select !== undefined
      ? await orderedPlan(routed, config, under.ledger, { ci: run.opts.ci === true, calibration })
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
      ...(t.p !== undefined && { p: sig(t.p) }),
    })),
    ...(plan.order && { order: orderReport(plan) }),
    config: under.note,
  };
  run.reporter.target(p, plan.fileCount, under.choice, under.loaded.file, run.hook);
  return { plan, report, runners, calibration };
}

/** The plan in the predicted order (and thinned by `select`): the prediction and the ledger's index loaded only for such a config. */
async function orderedPlan(
  routed: Plan,
  config: ResolvedConfig,
  ledger: string,
  ctx: { ci: boolean; calibration: boolean },
): Promise<Plan> {
  const [{ orderPlan }, { loadOrderStats }] = await Promise.all([import('../route/order-plan.js'), import('../ledger/order-index.js')]);
  return orderPlan(routed, config, loadOrderStats(ledger).stats, ctx);
}

/** `--json`'s account of the order: the order run, why, and each tier's prediction and evidence. */
function orderReport(plan: Plan): NonNullable<TargetReport['order']> {
  const o = plan.order!;
  return {
    order: o.order,
    why: o.why,
    tiers: plan.tiers.filter((t) => t.run).map((t) => t.tier.name),
    ...(o.predictions && { predictions: o.predictions.map((x) => ({ ...x, p: sig(x.p) })) }),
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
  // The gates' machinery is loaded only here, when a gate is about to run (gates-step.ts).
  const gates = await import('./gates-step.js');
  const outcome = await gates.runGates(run, p, under, input, report);
  report.verdict = outcome.verdict;
  report.results = outcome.results;
  // ── tree cache: remember a tree on which every planned tier passed ──
  if (cache) recordTreeCache(cache, plan, p.head, outcome, run.interrupt.fired);
  return gates.verdictOf(run, p, under, outcome);
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

/** The runner profile of each tier, read at `rev` (a commit, or the staged tree). */
async function runnersAt(root: string, rev: string, tiers: readonly ResolvedTier[]): Promise<Map<string, RunnerInfo>> {
  // Detection and the runner records are loaded only for a run that shows them (--dry-run, --json).
  const { detectAtCommit } = await import('../runners/detect-io.js');
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
