import { readFileSync } from 'node:fs';
import { trapInterrupt } from '../util/interrupt.js';
import { cachedRows, recordTreeCache, treeCacheStep } from '../ladder/tree-cache.js';
import { shouldCalibrate } from '../ladder/calibrate.js';
import { type CachedLoad, configHash, loadConfigCached } from '../config/config-cache.js';
import { EXIT } from '../config/defaults.js';
import { type GateExit, type GateIo, runGate } from '../ladder/gate.js';
import { EMPTY_TREE, type RepoInfo, commitTree, git, diffList, hasTrackedChanges, hasUnstagedChanges, mergeBase, remoteHead, resolveCommit, workTreeState } from '../git/git.js';
import { primedFor } from '../git/memo.js';
import { primeRepo } from '../git/prime.js';
import { newRunId } from '../util/hash.js';
import { quickIndexMatches, quickWorkTree } from '../git/index-check.js';
import { type Where, chooseIsolation, placement } from '../ladder/isolation.js';
import { type LadderInput, type LadderOutcome, runLadder } from '../ladder/ladder.js';
import { appendRows, ledgerPathFor } from '../ledger/ledger.js';
import { msg, planLines, runMsg } from '../util/messages.js';
import { parsePushRefs } from '../git/push-refs.js';
import { revQuery } from '../git/rev-query.js';
import { writeErr, writeOut } from '../util/stderr.js';
import { colourWanted, paint } from '../util/colour.js';
import { detectPackageManager, pmSays } from '../util/package-manager.js';
import { wroteToStream } from '../util/early-exit.js';
import { tookPath } from '../util/hot-path.js';
import type { ScopeMatcher } from '../util/glob.js';
import { scopeMatcher, route, skipTiers } from '../ladder/route.js';
import { reportDeps } from '../ladder/tier-report-io.js';
import { type StagedTarget, stagedTarget } from '../git/staged.js';
import { type RefPlan, type Target, planPush, rangeGit } from '../git/targets.js';
import type { HookName, ResolvedConfig, ResolvedTier, Verdict } from '../types.js';

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
  /** Ignore the tree cache: run every planned gate, and record nothing in it. */
  noCache?: boolean;
  /**
   * The caller exits as soon as this returns, unless something is still under way (the bin, see
   * early-exit.ts): the Ctrl-C handlers are left for the exit to drop, since removing them costs
   * about 0.07 ms (when it does not exit after all, they are unref'd and hold nothing open).
   */
  exitsAfter?: boolean;
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
  /** Where the gates ran (a lint-staged tier always runs in place). */
  isolation?: Where;
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

/** The hook and manual entry point: refs → ranges → route → gates → rows → exit code. */
export async function runCommand(opts: RunOptions): Promise<number> {
  if (process.env.GATE_LADDER === '0') {
    if (!opts.json) err(msg.bypassed());
    return EXIT.pass;
  }
  const stdin = opts.hook === 'pre-push' ? (opts.stdin ?? readStdin()) : undefined;
  // The config, loaded once: by primeRepo while git lists a range's changes (its scope then routes
  // the listing as git writes it), or after.
  let configLoad: { root: string; load: Promise<CachedLoad> } | undefined;
  const loadAt = (at: RepoInfo) =>
    (configLoad?.root === at.root ? configLoad : (configLoad = { root: at.root, load: loadConfigCached(at.root, at.commonDir) })).load;
  let early: { scope: readonly string[]; match: ScopeMatcher } | undefined;
  const scopeAt = async (at: RepoInfo) => {
    const l = await loadAt(at);
    if (l.kind !== 'ok') return undefined;
    early = { scope: l.config.scope, match: scopeMatcher(l.config.scope, l.scopePlan) };
    return early.match;
  };
  // One git call answers the repo paths and every revision the run will ask about.
  const info = await primeRepo(opts.cwd, revQuery(opts, stdin), scopeAt);
  if (info === null) {
    err(msg.notRepo(opts.cwd));
    return EXIT.error;
  }
  const loaded: CachedLoad = await loadAt(info);
  const exec = (command: string) => pmSays.exec(detectPackageManager(info.root), command);
  if (loaded.kind === 'none') {
    err(msg.noConfig(exec));
    return EXIT.pass;
  }
  if (loaded.kind === 'invalid') {
    err(msg.invalidConfig(loaded.problems, opts.hook ?? 'manual', exec));
    return EXIT.error;
  }
  const config = loaded.config;
  const hook: HookName = opts.hook ?? 'manual';
  const switches = envSwitches(process.env);
  const noCache = opts.noCache === true || switches.noCache;
  if (!opts.json && !opts.dryRun) {
    if (switches.noCache) err(runMsg.noCache());
    const unknown = switches.skip.filter((name) => !config.tiers.some((t) => t.name === name));
    if (unknown.length > 0) err(runMsg.envSkipUnknown(unknown, config.tiers.map((t) => t.name)));
  }
  // A dry run's plan is the command's answer: stdout. Everything else is said on stderr (git shows it during a push).
  const tell = opts.dryRun ? out : err;

  const plans = planTargets(info.root, { ...opts, ...(stdin !== undefined && { stdin }) }, config);
  if (typeof plans === 'string') {
    err(plans);
    return EXIT.error;
  }
  const isolation = isolationFor(info, hook, config);

  const ledger = ledgerPathFor(info.root, info.commonDir, config.ledger);
  const match = early?.scope === config.scope ? early.match : scopeMatcher(config.scope, loaded.scopePlan);
  // Ctrl-C stops the running gate's tree; the ladder records, removes its worktree and exits. A second one exits at once.
  const interrupt = trapInterrupt(() => process.exit(EXIT.interrupted));
  const reports: TargetReport[] = [];
  let code: number = EXIT.pass;

  for (const p of plans) {
    if (p.kind === 'skip') {
      if (!opts.json) tell(msg.nothingToTest(p.ref, p.why));
      reports.push({ ref: p.ref, head: '', base: '', files: 0, plan: [], skipped: p.why });
      continue;
    }
    if (p.kind === 'error') {
      err(msg.rangeError(p.ref, p.reason, hook));
      reports.push({ ref: p.ref, head: p.head, base: '', files: 0, plan: [], verdict: 'error' });
      code = Math.max(code, EXIT.error);
      continue;
    }
    const plan = skipTiers(route(p.changes, config.tiers, match, hook), switches.skip, 'GATE_LADDER_SKIP');
    const report: TargetReport = {
      ref: p.ref,
      head: p.head,
      base: p.base,
      files: plan.fileCount,
      plan: plan.tiers.map((t) => ({ tier: t.tier.name, run: t.run, ...(t.reason && { reason: t.reason }) })),
    };
    reports.push(report);
    if (!opts.json) {
      tell(msg.target(p.ref, p.head, p.base, plan.fileCount));
      if (p.sameAs) tell(msg.sameAs(p.sameAs));
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
      commonDir: info.commonDir,
      root: info.root,
      gitDir: info.gitDir,
      head: p.head,
      configHash: loaded.hash ?? configHash(config),
      plan,
    });
    // ─────────────────────────────────────────────────────────────────────────────────────────────
    if (opts.dryRun) {
      tookPath('dry-run');
      if (!opts.json) for (const line of planLines(plan)) out(line);
      if (cache?.hit && !opts.json) out(msg.wouldReuse(Object.values(cache.hit)));
      continue;
    }
    for (const t of plan.tiers) if (t.skip === 'scope' && !opts.json) err(msg.routed(t.tier.name, t.reason ?? ''));
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
      tookPath('tree-cached');
      const { results, rows } = cachedRows({ ...run, isolation: 'none' }, cache.hit, new Date());
      appendRows(ledger, rows);
      report.verdict = 'pass';
      report.results = results;
      if (!opts.json) err(msg.cachedPass(p.ref, results.map((r) => r.tier), cache.tree, Object.values(cache.hit), hook));
      continue;
    }
    // ─────────────────────────────────────────────────────────────────────────────────────────────
    // The pushed commit's tree, when already known (no git process): lets the index answer for `git status`.
    const tree = cache?.tree ?? primedFor(info.root)?.tree.get(p.head);
    const running = plan.tiers.filter((t) => t.run).map((t) => t.tier);
    const { where, why } = isolation(p, running, tree);
    report.isolation = where;
    if (where === 'worktree' && why && !opts.json) err(msg.isolated(p.head, why, running.some((t) => t.lintStaged)));
    // A worktree checks out a commit: for the staged tree, an unreferenced one made on demand.
    const rev = staged ? () => commitTree(info.root, staged.head, staged.parent) : () => p.head;
    const ladderInput = { ...run, isolation: where } satisfies LadderInput;
    const placed = placement(info.root, where, rev, process.env);
    let outcome: LadderOutcome;
    try {
      outcome = await runLadder(
        ladderInput,
        {
          runGate: gateOrLintStaged,
          appendRows: (rows) => appendRows(ledger, rows),
          now: () => new Date(),
          log: opts.json ? () => {} : err,
          ...(config.output === 'failures' && { hold: true }),
          env: process.env,
          interrupt: interrupt.promise,
          place: placed.place,
          reports: reportDeps(ledger),
        },
      );
    } finally {
      placed.dispose();
    }
    report.verdict = outcome.verdict;
    report.results = outcome.results;
    tookPath(outcome.verdict);
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
      err(block(msg.caught(p.ref, stopped, hook), 'red'));
      code = Math.max(code, EXIT.caught);
    } else {
      err(block(msg.error(p.ref, stopped, loaded.file, hook), 'yellow'));
      code = Math.max(code, EXIT.error);
    }
  }
  if (!opts.exitsAfter) interrupt.dispose();
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ exit: code, ledger, targets: reports }, null, 2)}\n`);
    wroteToStream();
  }
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

/** What this run judges: every pushed ref, the staged tree, or `--base/--head`. A string is an error message. */
function planTargets(root: string, opts: RunOptions, config: ResolvedConfig): RefPlan[] | string {
  if (opts.hook === 'pre-push') {
    const { refs, bad } = parsePushRefs(opts.stdin ?? readStdin());
    if (bad.length > 0) return msg.badStdin(bad);
    return planPush(refs, { remote: opts.remote ?? 'origin', ...(config.base && { base: config.base }) }, rangeGit(root));
  }
  if (opts.hook === 'pre-commit') return [stagedTarget(root)];
  const manual = manualTarget(root, opts, config);
  return typeof manual === 'string' ? manual : [manual];
}

/**
 * Where a target's gates run. The work tree is inspected only when a gate is about to run, first from
 * the files git keeps (index-check.ts: HEAD, the index and lstat, no process), then, when those cannot
 * tell, once with git: for pre-commit, unstaged changes mean the index is not what is on disk;
 * otherwise, uncommitted changes or another commit checked out mean the pushed commit is not.
 */
function isolationFor(info: RepoInfo, hook: HookName, config: ResolvedConfig) {
  const root = info.root;
  let dirty: boolean | undefined;
  let headSha: string | null | undefined;
  return (p: Target, tiers: ResolvedTier[], tree: string | undefined): { where: Where; why?: string } => {
    if (tiers.every((t) => t.lintStaged)) return { where: 'none' };
    if (config.isolation !== 'auto') return { where: chooseIsolation(config.isolation, { dirty: false, atTarget: true }), why: `isolation: '${config.isolation}'` };
    if (hook === 'pre-commit') {
      // The staged target's head is the index's tree: its length says SHA-1 or SHA-256.
      dirty ??= quickIndexMatches(info, p.head.length / 2) ? false : hasUnstagedChanges(root);
      return { where: chooseIsolation('auto', { dirty, atTarget: true }), why: 'unstaged changes are not part of the commit' };
    }
    const elsewhere = `the checked-out commit is not ${p.ref}`;
    if (dirty === undefined) {
      const quick = quickWorkTree(info, p.head, tree);
      if (quick === 'elsewhere') return { where: chooseIsolation('auto', { dirty: false, atTarget: false }), why: elsewhere };
      if (quick === 'clean-at-head') return { where: chooseIsolation('auto', { dirty: false, atTarget: true }) };
      // One `git status` answers both; should it fail, the two plain calls say why.
      const state = workTreeState(root);
      dirty = state ? !state.clean : hasTrackedChanges(root);
      headSha = state ? state.head : resolveCommit(root, 'HEAD');
    }
    const where = chooseIsolation('auto', { dirty, atTarget: headSha === p.head });
    return { where, why: dirty ? 'the working tree has uncommitted changes' : elsewhere };
  };
}

/** A lint-staged tier runs through lint-staged's API (loaded only then); every other tier is a process. */
async function gateOrLintStaged(tier: ResolvedTier, cwd: string, env: NodeJS.ProcessEnv, io: GateIo): Promise<GateExit> {
  if (!tier.lintStaged) return runGate(tier, cwd, env, io);
  const { runLintStaged } = await import('../ladder/lint-staged.js');
  return runLintStaged(tier, cwd, env, io);
}

/** Whether any commit exists (HEAD may be unborn while other branches have some). */
function hasCommits(root: string): boolean {
  const r = git(root, ['rev-list', '-n', '1', '--all']);
  return !r.ok || r.stdout.trim() !== '';
}

/** `--base A --head B`: the seed's manual and CI form. Returns a message when it cannot. */
function manualTarget(root: string, opts: RunOptions, config: ResolvedConfig): Target | string {
  const headRev = opts.head ?? 'HEAD';
  const head = resolveCommit(root, headRev);
  if (head === null) return headRev === 'HEAD' && !hasCommits(root) ? msg.noCommits() : msg.badRev(headRev);
  const baseRev = opts.base ?? config.base ?? remoteHead(root, 'origin') ?? undefined;
  if (baseRev === undefined) return msg.needBase();
  const baseSha = resolveCommit(root, baseRev);
  if (baseSha === null) return msg.badRev(baseRev);
  const base = mergeBase(root, baseSha, head) ?? baseSha;
  return { kind: 'test', ref: headRev, head, base, changes: diffList(root, base, head) };
}
