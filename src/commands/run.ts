/**
 * `gate-ladder run`: a push, a commit or a manual run, judged as a list of steps (`judge`, shared
 * with `gate-ladder ci`). Each step is a function of run/steps.ts; what is said goes through a
 * reporter (run/reporter.ts: text, json, ci).
 */
import {
  type Judged,
  type RunOptions,
  EXIT,
  configLoader,
  envSwitches,
  finishRun,
  judgeTarget,
  loadWhileListing,
  planWithConfigs,
  readStdin,
  startRun,
} from '../run/steps.js';
import { type Reporter, reporterFor } from '../run/reporter.js';
import { gatherGitFacts, type GitFacts } from '../git/facts.js';
import { type RepoInfo, refusedRepo, uncommittedPaths } from '../git/git.js';
import { revQuery } from '../git/rev-query.js';
import { ledgerPathFor } from '../ledger/ledger.js';
import { stopLeftovers } from '../gates/gate-records.js';
import { msg } from '../run/messages.js';
import { wroteToStream } from '../util/early-exit.js';
import { plainJson } from '../util/escape.js';

export { EXIT, type Judged, type RunOptions, type TargetReport } from '../run/steps.js';

/** The hook and manual entry point: the judgement, then `--json`'s document on stdout; resolves to the exit code. */
export async function runCommand(opts: RunOptions): Promise<number> {
  const reporter = reporterFor(opts);
  const judged = await judge(opts, undefined, reporter);
  if (opts.json && judged.targets) {
    // For a machine: each result's summary and log instead of its raw output, no terminal control code anywhere.
    // Loaded here only: the runner records it reads are not on a plain push's path.
    const { resultForMachines } = await import('../verdict/output-summary.js');
    const targets = judged.targets.map((t) => (t.results ? { ...t, results: t.results.map(resultForMachines) } : t));
    process.stdout.write(`${JSON.stringify(plainJson({ exit: judged.code, ledger: judged.ledger, targets }), null, 2)}\n`);
    wroteToStream();
  } else if (opts.json) {
    // Ended before judging anything (a config that does not load, a bad revision, not a repository, GATE_LADDER=0): still a document.
    const problems = reporter.said ?? [];
    process.stdout.write(
      `${JSON.stringify(plainJson({ exit: judged.code, targets: [], ...(problems.length > 0 && { problems }) }), null, 2)}\n`,
    );
    wroteToStream();
  }
  return judged.code;
}

/**
 * A run's whole judgement: refs → ranges → route → gates → rows → exit code. `gate-ladder ci` gathers
 * the git facts itself (to check the range's commits first) and passes them as `gathered`.
 */
export async function judge(opts: RunOptions, gathered?: GitFacts, reporter: Reporter = reporterFor(opts)): Promise<Judged> {
  // GATE_LADDER=0: nothing is judged.
  if (process.env.GATE_LADDER === '0') {
    reporter.bypassed();
    return { code: EXIT.pass };
  }
  const stdin = opts.hook === 'pre-push' ? (opts.stdin ?? readStdin()) : undefined;
  // `--no-cache` cannot be passed through `git push`: GATE_LADDER_NO_CACHE=1 does the same for one push.
  // Either one also loads the config afresh (what the config cache cannot see is read again).
  const switches = envSwitches(process.env);
  const configs = configLoader(opts.noCache === true || switches.noCache);
  // The run's git facts, gathered once (one rev-parse and a diff per new range at most; no git process
  // for a range seen before) and passed down from here: to planning, each commit's config, the tree
  // cache, isolation and the per-test records. The config, and what the run loads next, load while git lists a range.
  const whileListing = (at: RepoInfo) => {
    loadWhileListing(opts, reporter);
    return configs.scopeAt(at);
  };
  const facts = gathered ?? (await gatherGitFacts(opts.cwd, revQuery(opts, stdin), whileListing));
  if (facts === null) {
    reporter.problem(msg.notRepo(opts.cwd, refusedRepo(opts.cwd)));
    return { code: EXIT.error };
  }
  const info = facts.repo;
  // Gates a run killed outright (kill -9) left running are stopped, and said to be.
  stopLeftovers(info.commonDir, reporter.problem);
  // The working tree's config: today's, for a manual run; for a push or a commit, the fast path when
  // the tested commit's own config is the same (config-at.ts).
  const working = await configs.loadAt(info);
  if (switches.noCache) reporter.noCacheSwitch();
  // What is judged, and under which config: each pushed ref, the staged tree, or --base/--head.
  const planned = await planWithConfigs(
    facts,
    { ...opts, ...(stdin !== undefined && { stdin }) },
    opts.hook ?? 'manual',
    working,
    reporter,
  );
  if (typeof planned === 'number') return { code: planned };
  // Each target in turn, until one is interrupted.
  const run = startRun(facts, opts, reporter, configs, working, planned.choices, switches);
  const targets = [];
  let code: number = EXIT.pass;
  let ledger: string | undefined;
  for (const p of planned.plans) {
    const judged = await judgeTarget(run, p);
    targets.push(judged.report);
    ledger ??= judged.ledger;
    code = judged.interrupted ? judged.code : Math.max(code, judged.code);
    if (judged.interrupted) break;
  }
  finishRun(run);
  // A manual dry run judges commits: uncommitted work (install's own files, an edit) is not in it, and is said not to be.
  if (opts.dryRun && (opts.hook ?? 'manual') === 'manual' && opts.head === undefined) {
    const paths = uncommittedPaths(info.root);
    if (paths !== undefined && paths > 0) reporter.uncommitted(paths);
  }
  ledger ??= ledgerPathFor(info.root, info.commonDir, working.kind === 'ok' ? working.config.ledger : undefined);
  return { code, targets, ledger };
}
