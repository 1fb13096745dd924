/**
 * What a run says as it goes, as events: the judgement (judge.ts, commands/run.ts) never asks which
 * voice it speaks in. Three reporters: text (a hook or a manual run: stderr, and stdout for
 * `--dry-run`'s plan), json (`--json`: only what must be seen, the rest is the JSON document the
 * command prints) and ci (`gate-ladder ci`: the text, in the voice of a check, never "push blocked").
 * Every sentence is util/messages.ts's.
 */
import { EMPTY_TREE } from '../git/git.js';
import type { ConfigChoice } from '../config/config-at.js';
import type { Voice } from '../util/messages.js';
import { commitMsg } from '../lint-staged/messages.js';
import { configMsg } from '../config/messages.js';
import { msg, orderLines, outputMsg, planLines, runMsg } from './messages.js';
import { shownOutputLine } from '../util/escape.js';
import { writeErr, writeOut } from '../util/stderr.js';
import { colourWanted, paint } from '../util/colour.js';
import type { HookName } from '../types.js';
import type { GateResult, RunnerInfo } from '../gates/result.js';
import type { Plan } from '../route/route.js';

type Exec = (command: string) => string;

export interface Reporter {
  /** The voice of the verdicts: the hook's, or a CI check's. */
  readonly voice: Voice;
  /** Each running tier's runner profile belongs in what is shown (`--dry-run`'s plan, the JSON). */
  readonly wantsRunners: boolean;
  /** The ladder's and the worktree pool's progress lines; undefined when they are not shown. */
  readonly log: ((line: string) => void) | undefined;
  /** `--json`: the problems said on stderr, for the document of a run that ends before it judges anything (a config that does not load, a bad revision). */
  readonly said?: readonly string[];
  /** A line that is always said, on stderr: a refusal, a fault, a gate left running stopped, a ledger that cannot be written. */
  problem(line: string): void;
  bypassed(): void;
  /** GATE_LADDER_NO_CACHE was set for this push. */
  noCacheSwitch(): void;
  /** A manual run judges under the working tree's config. */
  todaysConfig(file: string): void;
  nothingToTest(ref: string, why: string): void;
  /** GATE_LADDER_SKIP names that are no tier of the judged config (each said once by the caller). */
  unknownSkip(names: readonly string[], known: readonly string[]): void;
  /** A target has no config to judge it under. */
  noConfig(exec: Exec): void;
  /** A target, planned: its range, the refs it stands for, and the config it is judged under. */
  target(
    t: { ref: string; head: string; base: string; sameAs?: readonly string[]; baseName?: { rev: string; mergeBase: boolean } },
    files: number,
    choice: ConfigChoice,
    file: string,
    hook: HookName,
  ): void;
  emptyDiff(ref: string): void;
  /** `--dry-run` of a manual run with uncommitted work: what it judged (commits) and that the work is not in it. */
  uncommitted(paths: number): void;
  /** `--dry-run`: the plan and why, and whether the tree cache would answer. */
  plan(plan: Plan, runners: ReadonlyMap<string, RunnerInfo> | undefined, reuse: readonly string[] | undefined): void;
  /** Tiers t0-scope, a `changed` list with nothing in it, or GATE_LADDER_SKIP leave out. */
  skips(plan: Plan): void;
  /** Config `order: 'predicted'` or `select`: the order chosen and why, one line per tier, and what selection skipped. */
  order(plan: Plan): void;
  noTiers(): void;
  calibrating(rate: number): void;
  cached(ref: string, tiers: readonly string[], tree: string, runs: readonly string[], hook: HookName): void;
  isolated(head: string, why: string, lintStaged: boolean): void;
  restaged(before: string, after: string): void;
  passed(ref: string, tiers: number, seconds: number): void;
  caught(ref: string, stopped: GateResult): void;
  error(ref: string, stopped: GateResult, configFile: string): void;
}

const err = (line: string) => writeErr(`${line}\n`);
const out = (line: string) => writeOut(`${line}\n`);

/** The block a blocked run ends with: red for a catch, yellow for an error, plain when not a terminal. */
function block(text: string, colour: 'red' | 'yellow'): string {
  // process.stderr (and node's tty module) is built only here, on a blocked run: never on a passing push.
  const on = colourWanted(process.env, () => process.stderr.isTTY === true);
  return `\n${paint(text, colour, on)}`;
}

/**
 * A blocked tier's one screen (config `output: 'summary'`, its output held in a log): the verdict's first line, at
 * most about 40 lines chosen from the output (`screen`, chosen by verdict/output-summary.ts when the tier was
 * blocked), escaped, how many were left out and the log's path, then the failed tests (file:line, test, message),
 * then the verdict's block again, last. Without a log (output shown as it came): the failed tests and the block.
 */
function blockedScreen(text: string, r: GateResult, colour: 'red' | 'yellow'): string {
  const failed = r.verdict === 'caught' ? outputMsg.failedTests(r.failures ?? [], r.failuresTotal) : [];
  if (r.outputLines === undefined || r.outputLines === 0 || r.screen === undefined)
    return failed.length > 0 ? `\n${failed.join('\n')}${block(text, colour)}` : block(text, colour);
  return [
    block(text.split('\n')[0]!, colour),
    ...r.screen.lines.map((l) => `  ${shownOutputLine(l)}`),
    outputMsg.leftOut(r.tier, r.screen.shown, Math.max(r.outputLines, r.screen.shown), r.log, r.logCut),
    ...failed,
    block(text, colour),
  ].join('\n');
}

/** A hook's or a manual run's words. A dry run's plan is the command's answer: stdout; everything else is said on stderr (git shows it during a push). */
export function textReporter(o: { voice: Voice; dryRun?: boolean }): Reporter {
  const tell = o.dryRun ? out : err;
  return {
    voice: o.voice,
    wantsRunners: o.dryRun === true,
    log: err,
    problem: err,
    bypassed: () => err(msg.bypassed()),
    noCacheSwitch: () => {
      if (!o.dryRun) err(runMsg.noCache());
    },
    todaysConfig: (file) => tell(configMsg.todays(file)),
    nothingToTest: (ref, why) => tell(msg.nothingToTest(ref, why)),
    unknownSkip: (names, known) => {
      if (!o.dryRun && names.length > 0) err(runMsg.envSkipUnknown(names, known));
    },
    noConfig: (exec) => err(msg.noConfig(exec)),
    target: (t, files, choice, file, hook) => {
      tell(msg.target(t.ref, t.head, t.base === EMPTY_TREE ? undefined : t.base, files, t.baseName));
      if (t.sameAs) tell(msg.sameAs(t.sameAs));
      if (choice.workingTree) tell(configMsg.workingTreeIgnored(t.ref, t.head, file, choice.workingTree, hook));
      else if (choice.source === 'working-tree' && hook !== 'manual') tell(configMsg.noCommittedConfig(t.ref, t.head, file, hook));
    },
    emptyDiff: (ref) => tell(runMsg.emptyDiff(ref)),
    uncommitted: (paths) => tell(msg.uncommittedNotJudged(paths)),
    plan: (plan, runners, reuse) => {
      for (const line of planLines(plan, runners)) out(line);
      for (const line of orderLines(plan)) out(line);
      if (reuse) out(msg.wouldReuse(reuse));
    },
    skips: (plan) => {
      for (const t of plan.tiers) if (t.skip === 'scope') err(msg.routed(t.tier.name, t.reason ?? ''));
      for (const t of plan.tiers) if (t.skip === 'changed') err(msg.noChanged(t.tier.name, t.reason ?? ''));
      for (const t of plan.tiers) if (t.skip === 'paths') err(msg.noPaths(t.tier.name, t.reason ?? ''));
      const byEnv = plan.tiers.filter((t) => t.skip === 'env').map((t) => t.tier.name);
      if (byEnv.length > 0) err(runMsg.envSkipped(byEnv));
    },
    order: (plan) => {
      for (const line of orderLines(plan)) err(line);
    },
    noTiers: () => err(msg.noTiers()),
    calibrating: (rate) => err(msg.calibrating(rate)),
    cached: (ref, tiers, tree, runs, hook) => err(msg.cachedPass(ref, tiers, tree, runs, hook)),
    isolated: (head, why, lintStaged) => err(msg.isolated(head, why, lintStaged)),
    restaged: (before, after) => err(commitMsg.restaged(before, after)),
    passed: (ref, tiers, seconds) => err(msg.passed(ref, tiers, seconds)),
    caught: (ref, stopped) => err(blockedScreen(msg.caught(ref, stopped, o.voice), stopped, 'red')),
    error: (ref, stopped, file) => err(blockedScreen(msg.error(ref, stopped, file, o.voice), stopped, 'yellow')),
  };
}

/** `--json`: the document is the answer; on stderr only what must be seen (refusals, faults, a blocked verdict). */
export function jsonReporter(voice: Voice): Reporter {
  const quiet = () => {};
  const said: string[] = [];
  const record = (line: string) => {
    said.push(line);
    err(line);
  };
  return {
    ...textReporter({ voice }),
    said,
    problem: record,
    wantsRunners: true,
    log: undefined,
    bypassed: quiet,
    noCacheSwitch: quiet,
    todaysConfig: quiet,
    nothingToTest: quiet,
    unknownSkip: quiet,
    noConfig: (exec) => record(msg.noConfig(exec)),
    target: quiet,
    emptyDiff: quiet,
    uncommitted: quiet,
    plan: quiet,
    skips: quiet,
    order: quiet,
    noTiers: quiet,
    calibrating: quiet,
    cached: quiet,
    isolated: quiet,
    restaged: quiet,
    passed: quiet,
  };
}

/** A CI job's words: a check that failed, never a push blocked, and no bypass offered. */
export const ciReporter = (o: { dryRun?: boolean } = {}): Reporter => textReporter({ ...o, voice: 'ci' });

/** The reporter a run's options ask for. */
export function reporterFor(opts: { json?: boolean; ci?: boolean; dryRun?: boolean; hook?: HookName }): Reporter {
  const voice: Voice = opts.ci ? 'ci' : (opts.hook ?? 'manual');
  if (opts.json) return jsonReporter(voice);
  return opts.ci ? ciReporter({ ...(opts.dryRun && { dryRun: true }) }) : textReporter({ voice, ...(opts.dryRun && { dryRun: true }) });
}
