/**
 * A catch's failed tests as the gate's output names them, whoever ran them: one choice, made here. A
 * workspaces run's are each caught workspace's, read from its part of the output by its own runner from
 * its folder, in the order the run printed them; else the runner the tier names or runs (under tox or
 * nox, the runner of the command it said failed); else, for a script that runs its tests itself, the
 * runner whose summary counted the failures. Pure: what reading them needs of the files (go's package
 * folders from go.mod, whether a file cargo names is there) is handed in; the runners' records must be
 * loaded (runners/index.ts `loadRecords`).
 */
import { posix } from 'node:path';
import type { RunnerName } from '../config/runner-names.js';
import type { TestFailure } from '../evidence/junit.js';
import { type FailureContext, MAX_FAILURES_READ, failedTestsOf, outputLines } from './runner-output.js';
import { failedSummary } from './script-output.js';
import { type OutputContext, caughtWorkspaces } from './verdict.js';

export interface OutputFailuresInput {
  /** The tier's folder (relative to the root), its timeout and the runner its config names. */
  tier: { cwd: string; timeout: number; runner?: RunnerName };
  /** Absolute folder the gate ran in. */
  root: string;
  /** What the gate kept of its output, and its exit code. */
  tail: string;
  exitCode: number | null;
  /** The exit codes that mean a failed test. */
  caught: readonly number[];
  output: OutputContext;
  /** The runner that reads the output: the tier's, the detected one, or tox's or nox's inner one. */
  runner?: RunnerName;
  /** go: its packages' folders relative to the root, for a tier folder (runners/go-packages.ts `goPackageDirs` reads go.mod). */
  packageDirs?: (base: string) => (pkg: string) => string | undefined;
  /** cargo: whether a repository-relative file is there. */
  exists?: (file: string) => boolean;
}

/** The failed tests a caught gate's output names (at most MAX_FAILURES_READ), in the order printed. Pure. */
export function failuresInOutput(at: OutputFailuresInput): TestFailure[] {
  const { tier, root, output } = at;
  const manifestDir = output.detection.manifestDir;
  const read = (r: RunnerName, text: string, base: string) => {
    const ctx: FailureContext = {
      root,
      base,
      ...(r === 'go' && at.packageDirs && { packageDir: at.packageDirs(base) }),
      ...((r === 'cargo' || r === 'nextest') && {
        ...(at.exists && { exists: at.exists }),
        ...(manifestDir !== undefined && { manifestDir }),
      }),
    };
    return failedTestsOf(r, text, ctx);
  };
  const workspaces = output.detection.workspaces;
  if (workspaces)
    return caughtWorkspaces(workspaces, at.tail, at.exitCode ?? 1, at.caught, tier.timeout, output, tier.runner)
      .flatMap((w) => read(w.runner, w.text, posix.join(tier.cwd, w.dir)))
      .slice(0, MAX_FAILURES_READ);
  // A script that runs its tests itself: the runner whose summary counted the failures reads them.
  const runner = at.runner ?? failedSummary(outputLines(at.tail))?.runner;
  return runner ? read(runner, at.tail, tier.cwd) : [];
}
