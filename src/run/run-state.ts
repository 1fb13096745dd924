/**
 * What the steps of a run share (steps.ts, and gates-step.ts, loaded only when a gate runs): the run's
 * options, its state, a target's report and the config it is judged under.
 */
import { EXIT } from '../config/defaults.js';
import type { CachedLoad } from '../config/config-cache.js';
import type { ConfigChoice } from '../config/config-at.js';
import type { GitFacts } from '../git/facts.js';
import type { Target } from '../git/targets.js';
import type { ledgerGuard } from '../ledger/ledger.js';
import type { TierPrediction } from '../ledger/predict.js';
import type { Interruption } from './interrupt.js';
import type { ScopeMatcher } from '../util/glob.js';
import { writeErr } from '../util/stderr.js';
import type { HookName, OutputMode } from '../types.js';
import type { PlanOrder } from '../route/route.js';
import type { ResolvedConfig, ResolvedTier } from '../config/resolved.js';
import type { RunnerInfo } from '../gates/result.js';
import type { Verdict } from '../ledger/row.js';
import type { Where } from './isolation.js';
import type { LadderOutcome } from './ladder.js';
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

/** Where a target's gates run, and why (gates-step.ts `isolationFor`). */
export type Isolation = (p: Target, tiers: ResolvedTier[], config: ResolvedConfig) => Promise<{ where: Where; why?: string }>;

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

const _err = (line: string) => writeErr(`${line}\n`);

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
  matchFor: (l: CachedLoad & { kind: 'ok' }) => ScopeMatcher;
  exec: (command: string) => string;
  /** GATE_LADDER_SKIP names that are no tier of the judged config: said once each. */
  warnedSkip: Set<string>;
  /** A ledger that cannot be written (a folder, a FIFO, a full disk) costs the record, never the verdict: said once. */
  record: ReturnType<typeof ledgerGuard>;
  interrupt: Interruption;
  /** Where gates run, decided once per run when a gate is about to run (gates-step.ts). */
  isolation?: Isolation;
  /** Watches the git process that started the hook, from the first gate on. */
  watch: () => void;
  /** Why the run stopped when the hook's git process went away. */
  abandoned: string | undefined;
  unwatch: (() => void) | undefined;
}

/** One target judged: its report, its exit code, the ledger it wrote to, and whether the run was interrupted there. */
export interface TargetJudged {
  report: TargetReport;
  code: number;
  ledger?: string;
  interrupted?: true;
}

/** A target that is judged under an `ok` config: the load, whose it is, and the note the report carries. */
export interface Under {
  choice: ConfigChoice;
  loaded: CachedLoad & { kind: 'ok' };
  note: NonNullable<TargetReport['config']>;
  ledger: string;
}

/** The values GATE_LADDER_OUTPUT and `run --output` take. */
export const OUTPUT_MODES: readonly OutputMode[] = ['summary', 'all', 'failures'];
