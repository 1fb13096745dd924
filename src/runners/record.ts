/**
 * A runner's record: how the output and exit codes of one test runner, linter or type checker read, in
 * its own file beside this one, loaded only for a tier that runs it (index.ts). How a command is known
 * to be it is in identities.ts. Adding a runner is one such file, its line in index.ts and in
 * identities.ts, and its name (with its default `caught` codes) in config/runner-names.ts (see
 * src/runners/README.md). Pure.
 */
import type { RunnerName } from '../config/runner-names.js';
import type { RunnerProfile } from './read.js';

export interface RunnerRecord<N extends RunnerName = RunnerName> {
  /** The config's `runner` value, and the ledger's. */
  name: N;
  /** What its other exit codes mean, for reasons (the README's table). */
  exits?: Readonly<Record<number, string>>;
  /** Exit codes with which it says it found no test (pytest's 5). */
  noTestsExits?: readonly number[];
  /** Why its failure exit code alone cannot tell a caught patch from a broken harness (a JUnit report can). */
  ambiguousExit?: string;
  /** How it writes a JUnit report to PATH, for the message when a report is missing (a test runner's). */
  junitHint?: string;
  /** How a test runner's output is read: its summary, what could not run, no tests. */
  profile?: RunnerProfile;
  /**
   * How a linter's, formatter's or type checker's failing output is read (exit code 1 to 125): a
   * finding in the code is a catch quoting the first one (file:line and rule); a missing or broken
   * config, or the tool's own crash, is an error quoting the tool's line and saying what to do.
   * `tool`: the command as written (`vue-tsc` for the type checker's record).
   */
  check?: (tool: string, lines: readonly string[], code: number) => Checked;
}

/** What a check's output says: a finding (a catch) or a failure of its setup (an error), in a reason. */
export interface Checked {
  verdict: 'caught' | 'error';
  reason: string;
}

/** A record with its name kept as a literal type: index.ts checks each record sits under its own name. */
export function defineRunner<const N extends RunnerName>(record: RunnerRecord<N>): RunnerRecord<N> {
  return record;
}
