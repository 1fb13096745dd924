/**
 * A run's whole judgement, shared by `gate-ladder run` (commands/run.ts: the hook and the manual run)
 * and `gate-ladder ci` (commands/ci.ts), read top to bottom: the git facts, gathered once → the
 * config → what is judged, under which config → per target: route → tree cache → where gates run →
 * the ladder → rows → the exit code.
 */
import { readFileSync } from 'node:fs';
import { type Interruption, trapInterrupt } from '../util/interrupt.js';
import { backupStashes, guardStashes } from './lint-staged-stash.js';
import { cachedRows, recordTreeCache, treeCacheStep } from './tree-cache.js';
import { shouldCalibrate } from './calibrate.js';
import { type CachedLoad, configHash, loadConfigCached } from '../config/config-cache.js';
import { EXIT } from '../config/defaults.js';
import { type GateExit, type GateIo, runGate } from './gate.js';
import { EMPTY_TREE, type RepoInfo, commitTree, git, stashList, writeTree, hasTrackedChanges, hasUnstagedChanges, remoteFor, remoteHead, textAt, uncomparedIn, workTreeState } from '../git/git.js';
import { type GitFacts, commitIn, diffIn, gatherGitFacts, mergeBaseIn } from '../git/facts.js';
import { newRunId } from '../util/hash.js';
import { type Where, chooseIsolation, hiddenReason, placement } from './isolation.js';
import { type LadderInput, type LadderOutcome, runLadder } from './ladder.js';
import { appendRows, ledgerGuard, ledgerPathFor } from '../ledger/ledger.js';
import { type Voice, commitMsg, configMsg, faultMsg, msg, planLines, runMsg } from '../util/messages.js';
import { watchLauncher } from '../util/launcher.js';
import { gateTracker, gatesDir, stopLeftovers } from './gate-records.js';
import { parsePushRefs, pushKind } from '../git/push-refs.js';
import { type ConfigChoice, configAtTree } from '../config/config-at.js';
import { revQuery } from '../git/rev-query.js';
import { writeErr, writeOut } from '../util/stderr.js';
import { safeGateOutput } from '../util/gate-output.js';
import { colourWanted, gateColourWanted, paint } from '../util/colour.js';
import { detectPackageManager, pmSays } from '../util/package-manager.js';
import type { ScopeMatcher } from '../util/glob.js';
import { scopeMatcher, route, skipTiers } from './route.js';
import { reportDeps } from './tier-report-io.js';
import { type StagedTarget, stagedTarget } from '../git/staged.js';
import { type RefPlan, type Target, planPush, rangeGit } from '../git/targets.js';
import type { HookName, ResolvedConfig, ResolvedTier, RunnerInfo, Verdict } from '../types.js';
import { detectAtCommit } from './detect-io.js';

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
  plan: { tier: string; run: boolean; reason?: string; runner?: RunnerInfo; command?: string | string[] }[];
  verdict?: Verdict;
  results?: LadderOutcome['results'];
  skipped?: string;
  /** Where the gates ran (a lint-staged tier always runs in place). */
  isolation?: Where;
  /** The config it was judged under: its file, whose it is, and how the working tree's stands against it when not used. */
  config?: { file: string | null; source: ConfigChoice['source']; working_tree?: 'differs' | 'missing' };
}

const err = (line: string) => writeErr(`${line}\n`);
const out = (line: string) => writeOut(`${line}\n`);

/** The switches a push can carry (flags cannot pass through `git push`): tiers to skip, and the tree cache off. */
function envSwitches(env: NodeJS.ProcessEnv): { skip: string[]; noCache: boolean } {
  const skip = (env.GATE_LADDER_SKIP ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const noCache = env.GATE_LADDER_NO_CACHE !== undefined && env.GATE_LADDER_NO_CACHE !== '' && env.GATE_LADDER_NO_CACHE !== '0';
  return { skip, noCache };
}

/** The block a blocked run ends with: red for a catch, yellow for an error, plain when not a terminal. */
function block(text: string, colour: 'red' | 'yellow'): string {
  // process.stderr (and node's tty module) is built only here, on a blocked run: never on a passing push.
  const on = colourWanted(process.env, () => process.stderr.isTTY === true);
  return `\n${paint(text, colour, on)}`;
}

/** What a run judged: its exit code and, once it got as far as a plan, each target and the ledger. */
export interface Judged {
  code: number;
  targets?: TargetReport[];
  ledger?: string;
}

/**
 * `run`'s whole judgement, printed as it goes but for `--json`: shared with `gate-ladder ci`, which
 * gathers the git facts itself (to check the range's commits first) and passes them as `gathered`.
 */
export async function judge(opts: RunOptions, gathered?: GitFacts): Promise<Judged> {
  if (process.env.GATE_LADDER === '0') {
    if (!opts.json) err(msg.bypassed());
    return { code: EXIT.pass };
  }
  const stdin = opts.hook === 'pre-push' ? (opts.stdin ?? readStdin()) : undefined;
  // `--no-cache` cannot be passed through `git push`: GATE_LADDER_NO_CACHE=1 does the same for one push.
  // Either one also loads the config afresh (what the config cache cannot see is read again).
  const switches = envSwitches(process.env);
  const noCache = opts.noCache === true || switches.noCache;
  // The config, loaded once: by gatherGitFacts while git lists a range's changes (its scope then
  // routes the listing as git writes it), or after.
  let configLoad: { root: string; load: Promise<CachedLoad> } | undefined;
  const loadAt = (at: RepoInfo) =>
    (configLoad?.root === at.root ? configLoad : (configLoad = { root: at.root, load: loadConfigCached(at.root, at.commonDir, noCache) })).load;
  let early: { scope: readonly string[]; match: ScopeMatcher } | undefined;
  const scopeAt = async (at: RepoInfo) => {
    const l = await loadAt(at);
    if (l.kind !== 'ok') return undefined;
    early = { scope: l.config.scope, match: scopeMatcher(l.config.scope, l.scopePlan) };
    return early.match;
  };
  // ── the run's git facts, gathered once (one rev-parse and a diff per new range at most; no git
  // process for a range seen before) and passed down from here: to planning, each commit's config,
  // the tree cache, isolation and the per-test records ──
  const facts = gathered ?? (await gatherGitFacts(opts.cwd, revQuery(opts, stdin), scopeAt));
  if (facts === null) {
    err(msg.notRepo(opts.cwd));
    return { code: EXIT.error };
  }
  const info = facts.repo;
  // Gates a run killed outright (kill -9) left running are stopped, and said to be.
  stopLeftovers(info.commonDir, err);
  // The working tree's config: today's, for a manual run; for a push or a commit, the fast path when
  // the tested commit's own config is the same (config-at.ts).
  const working: CachedLoad = await loadAt(info);
  const exec = execFor(info.root);
  const hook: HookName = opts.hook ?? 'manual';
  if (!opts.json && !opts.dryRun && switches.noCache) err(runMsg.noCache());
  // GATE_LADDER_SKIP names that are no tier of the judged config: said once each.
  const warnedSkip = new Set<string>();
  // A dry run's plan is the command's answer: stdout. Everything else is said on stderr (git shows it during a push).
  const tell = opts.dryRun ? out : err;
  const voice: Voice = opts.ci ? 'ci' : hook;

  const planned = await planWithConfigs(facts, { ...opts, ...(stdin !== undefined && { stdin }) }, hook, working);
  if (typeof planned === 'number') return { code: planned };
  const { plans, choices } = planned;
  const isolation = isolationFor(facts, hook);
  const matchers = new Map<CachedLoad, ScopeMatcher>();
  const matchFor = (l: CachedLoad & { kind: 'ok' }) => {
    let m = matchers.get(l);
    if (m === undefined) matchers.set(l, (m = early?.scope === l.config.scope ? early.match : scopeMatcher(l.config.scope, l.scopePlan)));
    return m;
  };
  let ledgerShown: string | undefined;
  // A ledger that cannot be written (a folder, a FIFO, a full disk) costs the record, never the verdict: said once.
  const record = ledgerGuard(err);
  // Ctrl-C stops the running gate's tree; the ladder records, removes its worktree and exits. A second one exits at once.
  const interrupt = trapInterrupt(() => process.exit(EXIT.interrupted));
  // A hook whose git process is gone (killed) judges a push that no longer exists: it stops as if interrupted.
  // (Watched from the first gate on: a push whose tree already passed starts no timer for it.)
  let abandoned: string | undefined;
  let unwatch: (() => void) | undefined;
  const watch = () => {
    if (opts.hook === undefined || unwatch) return;
    unwatch = watchLauncher((name, pid) => {
      abandoned = faultMsg.abandoned(name, pid);
      interrupt.fire();
    });
  };
  const reports: TargetReport[] = [];
  let code: number = EXIT.pass;

  for (const p of plans) {
    if (p.kind === 'skip') {
      if (!opts.json) tell(msg.nothingToTest(p.ref, p.why));
      reports.push({ ref: p.ref, head: '', base: '', files: 0, plan: [], skipped: p.why });
      continue;
    }
    if (p.kind === 'error') {
      err(msg.rangeError(p.ref, p.reason, voice));
      reports.push({ ref: p.ref, head: p.head, base: '', files: 0, plan: [], verdict: 'error' });
      code = Math.max(code, EXIT.error);
      continue;
    }
    // ── the config this target is judged under: its commit's own (a manual run: the working tree's) ──
    const choice = choices.get(p.head) ?? { load: working, source: 'working-tree' };
    const loaded = choice.load;
    const configNote = { file: loaded.kind === 'none' ? null : loaded.file, source: choice.source, ...(choice.workingTree && { working_tree: choice.workingTree }) };
    if (loaded.kind !== 'ok') {
      if (loaded.kind === 'none') {
        if (!opts.json) err(msg.noConfig(exec));
        reports.push({ ref: p.ref, head: p.head, base: p.base, files: 0, plan: [], skipped: 'no config', config: configNote });
        continue;
      }
      err(choice.source === 'commit' ? configMsg.invalidCommitted(p.ref, p.head, loaded.problems, hook) : msg.invalidConfig(loaded.problems, hook, exec));
      reports.push({ ref: p.ref, head: p.head, base: p.base, files: 0, plan: [], verdict: 'error', config: configNote });
      code = Math.max(code, EXIT.error);
      continue;
    }
    const config = loaded.config;
    const ledger = ledgerPathFor(info.root, info.commonDir, config.ledger);
    ledgerShown ??= ledger;
    // ─────────────────────────────────────────────────────────────────────────────────────────────
    if (!opts.json && !opts.dryRun) {
      const unknown = switches.skip.filter((name) => !config.tiers.some((t) => t.name === name) && !warnedSkip.has(name));
      for (const name of unknown) warnedSkip.add(name);
      if (unknown.length > 0) err(runMsg.envSkipUnknown(unknown, config.tiers.map((t) => t.name)));
    }
    const plan = skipTiers(route(p.changes, config.tiers, matchFor(loaded), hook), switches.skip, 'GATE_LADDER_SKIP');
    // Which runner profile reads each running tier, from the judged commit's package.json: said by --dry-run and --json.
    const runners = opts.dryRun || opts.json ? await runnersAt(info.root, p.head, plan.tiers.filter((t) => t.run).map((t) => t.tier)) : undefined;
    const report: TargetReport = {
      ref: p.ref,
      head: p.head,
      base: p.base,
      files: plan.fileCount,
      plan: plan.tiers.map((t) => ({ tier: t.tier.name, run: t.run, ...(t.reason && { reason: t.reason }), ...(runners?.has(t.tier.name) && { runner: runners.get(t.tier.name)! }), ...(t.command !== undefined && { command: t.command }) })),
      config: configNote,
    };
    reports.push(report);
    if (!opts.json) {
      tell(msg.target(p.ref, p.head, p.base === EMPTY_TREE ? undefined : p.base, plan.fileCount));
      if (p.sameAs) tell(msg.sameAs(p.sameAs));
      if (choice.workingTree) tell(configMsg.workingTreeIgnored(p.ref, p.head, loaded.file, choice.workingTree, hook));
      else if (choice.source === 'working-tree' && hook !== 'manual') tell(configMsg.noCommittedConfig(p.ref, p.head, loaded.file, hook));
    }
    // An empty change: its tree is its base's, already there; nothing to judge (unless the config says run anyway).
    if (plan.fileCount === 0 && !config.runOnEmpty) {
      if (!opts.json) tell(runMsg.emptyDiff(p.ref));
      report.verdict = 'pass';
      continue;
    }
    const calibration = shouldCalibrate(config, hook, opts.calibrate === true, Math.random);
    // ── tree cache (src/cache.ts): has this tree passed this plan under this config before? ──
    const cache = treeCacheStep({
      enabled: config.cache && !noCache && hook !== 'pre-commit',
      read: !calibration,
      facts,
      head: p.head,
      configHash: loaded.hash ?? configHash(config),
      plan,
    });
    // ─────────────────────────────────────────────────────────────────────────────────────────────
    if (opts.dryRun) {
      if (!opts.json) for (const line of planLines(plan, runners)) out(line);
      if (cache?.hit && !opts.json) out(msg.wouldReuse(Object.values(cache.hit)));
      continue;
    }
    for (const t of plan.tiers) if (t.skip === 'scope' && !opts.json) err(msg.routed(t.tier.name, t.reason ?? ''));
    for (const t of plan.tiers) if (t.skip === 'changed' && !opts.json) err(msg.noChanged(t.tier.name, t.reason ?? ''));
    const byEnv = plan.tiers.filter((t) => t.skip === 'env').map((t) => t.tier.name);
    if (byEnv.length > 0 && !opts.json) err(runMsg.envSkipped(byEnv));
    if (!plan.tiers.some((t) => t.run)) {
      if (!opts.json) err(msg.noTiers());
      report.verdict = 'pass';
      continue;
    }
    if (calibration && !opts.calibrate && !opts.json) err(msg.calibrating(config.calibrate));
    const staged = 'parent' in p ? (p as StagedTarget) : undefined;
    const run = {
      plan,
      runId: newRunId(),
      hook,
      patch: p.head,
      base: staged ? staged.parent : p.base === EMPTY_TREE ? null : p.base,
      ...(!staged && { ref: p.ref }),
      cwd: info.root,
      ...(calibration && { calibration: true }),
      ...(p.note && { note: p.note }),
    };
    // ── tree cache hit: a row per planned tier, no gate runs ──────────────────────────────────
    // (before choosing where gates run: looking at the work tree costs two git processes)
    if (cache?.hit) {
      const { results, rows } = cachedRows({ ...run, isolation: 'none' }, cache.hit, new Date());
      record(() => appendRows(ledger, rows));
      report.verdict = 'pass';
      report.results = results;
      if (!opts.json) err(msg.cachedPass(p.ref, results.map((r) => r.tier), cache.tree, Object.values(cache.hit), hook));
      continue;
    }
    // ─────────────────────────────────────────────────────────────────────────────────────────────
    const running = plan.tiers.filter((t) => t.run).map((t) => t.tier);
    const { where, why } = await isolation(p, running, config);
    report.isolation = where;
    if (where === 'worktree' && why && !opts.json) err(msg.isolated(p.head, why, running.some((t) => t.lintStaged)));
    // A worktree checks out a commit: for the staged tree, an unreferenced one made on demand.
    let judged = p.head;
    const rev = staged ? () => commitTree(info.root, judged, staged.parent) : () => p.head;
    const ladderInput = { ...run, isolation: where } satisfies LadderInput;
    let placed = placement(info.root, where, rev, process.env, { commonDir: info.commonDir, ...(!opts.json && { log: err }) });
    // A lint-staged tier may re-stage files: the tiers after it judge the tree that will be committed.
    const restaged = (tier: ResolvedTier): string | undefined => {
      if (!staged || !tier.lintStaged) return undefined;
      const tree = writeTree(info.root);
      const now = tree.ok ? tree.stdout.trim() : judged;
      if (now === judged) return undefined;
      if (!opts.json) err(commitMsg.restaged(judged, now));
      judged = now;
      report.head = now;
      placed.dispose();
      placed = placement(info.root, where, rev, process.env, { commonDir: info.commonDir, ...(!opts.json && { log: err }) });
      return now;
    };
    const backups = plan.tiers.some((t) => t.run && t.tier.lintStaged) ? lintStagedBackups(info.root) : undefined;
    const testReports = reportDeps(ledger, process.env, hook === 'manual' ? undefined : { root: info.root, treeish: p.head }, facts.trees);
    let outcome: LadderOutcome;
    watch();
    try {
      outcome = await runLadder(
        ladderInput,
        {
          runGate: (tier, cwd, env, io) => (tier.lintStaged ? lintStagedTier(tier, cwd, env, io, interrupt) : runGate(tier, cwd, env, io)),
          afterTier: restaged,
          appendRows: (rows) => record(() => appendRows(ledger, rows)),
          now: () => new Date(),
          log: opts.json ? () => {} : err,
          ...(config.output === 'failures' && { hold: true }),
          env: process.env,
          interrupt: interrupt.promise,
          place: (tier) => placed.place(tier),
          // A push or a commit: the freezes committed with it, not the working tree's file.
          reports: { ...testReports, record: (rec, cwd) => record(async () => testReports.record(rec, cwd)) },
          // Piped gate output is escaped on its way (colours kept): util/gate-output.ts.
          echo: (chunk) => writeErr(safeGateOutput(chunk)),
          colour: () => gateColourWanted(process.env),
          tracker: gateTracker(gatesDir(info.commonDir)),
          // Whether a missing script was there before the range: the patch removed it (ladder/fault.ts).
          ...(run.base !== null && { atBase: (path: string) => textAt(info.root, run.base!, path) }),
        },
      );
    } finally {
      placed.dispose();
      backups?.after();
    }
    report.verdict = outcome.verdict;
    report.results = outcome.results;
    // ── tree cache: remember a tree on which every planned tier passed ──
    if (cache) recordTreeCache(cache, plan, p.head, outcome, interrupt.fired);
    if (interrupt.fired) {
      err(abandoned ?? msg.interrupted());
      code = EXIT.interrupted;
      break;
    }
    const stopped = outcome.stoppedBy;
    if (stopped === undefined) {
      if (!opts.json) err(msg.passed(p.ref, outcome.results.length, sum(outcome.results.map((r) => r.seconds))));
    } else if (stopped.verdict === 'caught') {
      err(block(msg.caught(p.ref, stopped, voice), 'red'));
      code = Math.max(code, EXIT.caught);
    } else {
      err(block(msg.error(p.ref, stopped, loaded.file, voice), 'yellow'));
      code = Math.max(code, EXIT.error);
    }
  }
  unwatch?.();
  if (!opts.exitsAfter) interrupt.dispose();
  const ledger = ledgerShown ?? ledgerPathFor(info.root, info.commonDir, working.kind === 'ok' ? working.config.ledger : undefined);
  return { code, targets: reports, ledger };
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

/**
 * What this run judges, and under which config: every pushed ref under its commit's own config, the
 * staged tree under the staged config, `--base/--head` under the working tree's (today's). An exit
 * code, after saying why, when there is nothing to judge or no config to judge under.
 */
async function planWithConfigs(
  facts: GitFacts,
  opts: RunOptions,
  hook: HookName,
  working: CachedLoad,
): Promise<{ plans: RefPlan[]; choices: Map<string, ConfigChoice> } | number> {
  const info = facts.repo;
  const choices = new Map<string, ConfigChoice>();
  const choose = async (head: string, tree: string | undefined) => {
    if (!choices.has(head)) choices.set(head, await configAtTree(info, head, working, tree));
  };
  let plans: RefPlan[];
  if (hook === 'manual') {
    if (working.kind === 'none') return noConfig(info.root);
    if (working.kind === 'invalid') {
      err(msg.invalidConfig(working.problems, hook, execFor(info.root)));
      return EXIT.error;
    }
    const manual = manualTarget(facts, opts, working.config);
    if (typeof manual === 'string') {
      err(manual);
      return EXIT.error;
    }
    if (!opts.json) (opts.dryRun ? out : err)(configMsg.todays(working.file));
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
      err(msg.badStdin(bad));
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
  if ([...choices.values()].every((c) => c.load.kind === 'none') && (choices.size > 0 || working.kind === 'none')) return noConfig(info.root);
  return { plans, choices };
}

/** How the project runs gate-ladder's bin (`npx gate-ladder`, `pnpm exec gate-ladder`, ...), for the messages. */
const execFor = (root: string) => (command: string) => pmSays.exec(detectPackageManager(root), command);

function noConfig(root: string): number {
  err(msg.noConfig(execFor(root)));
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
    if (config.isolation !== 'auto') return { where: chooseIsolation(config.isolation, { dirty: false, atTarget: true }), why: `isolation: '${config.isolation}'` };
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
    const why = d.missingScript !== undefined && d.runner !== undefined ? `${d.why}; but package.json has no script "${d.missingScript}"` : d.why;
    out.set(t.name, { ...(d.runner && { runner: d.runner }), why });
  }
  return out;
}

/**
 * A lint-staged tier runs through lint-staged's API (loaded only then). While it runs, a second Ctrl-C
 * does not exit: lint-staged is stopping its tasks and will restore the unstaged changes it hid, and
 * leaving before that would leave them only in its backup stash.
 */
async function lintStagedTier(tier: ResolvedTier, cwd: string, env: NodeJS.ProcessEnv, io: GateIo, interrupt: Interruption): Promise<GateExit> {
  const { runLintStaged } = await import('./lint-staged.js');
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
  const baseRev = opts.base ?? config.base ?? remoteHead(root, 'origin') ?? undefined;
  if (baseRev === undefined) return msg.needBase();
  const baseSha = commitIn(facts, baseRev);
  if (baseSha === null) return msg.badRev(baseRev);
  const base = mergeBaseIn(facts, baseSha, head) ?? baseSha;
  return { kind: 'test', ref: opts.ref ?? headRev, head, base, changes: diffIn(facts, base, head) };
}
