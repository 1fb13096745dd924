/** What one gate run comes to: the record run/ladder.ts fills in for each tier it runs, and which runner read its output. */
import type { RunnerName } from '../config/runner-names.js';
import type { TestFailure, TestOutcome } from '../evidence/junit.js';
import type { ErrorCause, Verdict } from '../ledger/row.js';

/** Which runner profile read a gate's output, and why (the config's `runner`, or what the command runs). */
export interface RunnerInfo {
  runner?: RunnerName;
  why: string;
}

/** The record one gate run produces. Always filled in; only the CLI turns it into an exit code. */
export interface GateResult {
  tier: string;
  verdict: Verdict;
  exitCode: number | null;
  signal: string | null;
  seconds: number;
  timedOut: boolean;
  /** Why the verdict is `error` (or a note on `caught`), in words. */
  reason?: string;
  /** Last part of the gate's output, for messages. */
  tail: string;
  /** `output: 'summary'`: the file holding the gate's whole output (under the git dir). */
  log?: string;
  /** `output: 'summary'`: how many lines the gate printed (the log's lines). */
  outputLines?: number;
  /** The log holds only the output's first this many bytes (gates/gate-log.ts LOG_MAX_BYTES). */
  logCut?: number;
  /** A blocked tier under `output: 'summary'`: the lines of its output worth one screen (escaped when shown), and how many lines they stand for. */
  screen?: { lines: string[]; shown: number };
  /** Frozen tests whose failures were forgiven, if any. */
  frozen?: string[];
  /** Per-test outcomes from a JUnit report, if the tier has one. */
  tests?: TestOutcome[];
  /** Ids of the tests the report lists as failed or errored (frozen ones included). */
  failed?: string[];
  /** The failed tests that made a `caught` verdict (frozen ones left out), with where and what their JUnit report says: for CI annotations. */
  failures?: TestFailure[];
  /** More tests failed than `failures` lists (read from the output, at most 50 are): how many, as the runner's summary counts them. */
  failuresTotal?: number;
  /** Extra lines for the user: frozen failures forgiven, expired freezes, a missing report. */
  notes?: string[];
  /** The runner profile that read the output, and why. */
  runner?: RunnerInfo;
  /** The command could not run at this commit (missing script, package.json or command). */
  inapplicable?: boolean;
  /** An `error`'s cause (verdict/fault.ts): the patch's when the failing file or removed script is one it changed. */
  cause?: ErrorCause;
  /** The changed file that cannot load, or the package.json that lost the tier's script (`cause: 'patch'`). */
  causeFile?: string;
  /** With `causeFile`: the line of it the runner's message names. */
  causeLine?: number;
  /** The npm script the patch removed, when that is the error. */
  causeScript?: string;
  /** With `causeFile` (a package.json): the command not found that its scripts name since the patch. */
  causeCommand?: string;
  /** The test binary ended mid-run in the code it runs (`cause: 'patch'`; `causeFile`, when known, the changed file there). */
  causeStopped?: true;
  /** Ids several test cases of the report shared (the report named no file). */
  dup?: string[];
  /** The first attempt, when the tier was retried (`retries`). */
  retried?: { verdict: Verdict; failed?: string[]; seconds: number };
}
