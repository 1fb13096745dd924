/**
 * A catch's failed tests as the gate's output names them, whoever ran them: one choice, made here. A
 * workspaces run's are each caught workspace's, read from its part of the output by its own runner from
 * its folder, in the order the run printed them; else the runner the tier names or runs (under tox or
 * nox, the runner of the command it said failed); else, for a script that runs its tests itself, the
 * runner whose summary counted the failures. With how many failed in all, which the list (at most
 * MAX_FAILURES_READ) may not hold. Pure: what reading them needs of the files (go's package
 * folders from go.mod, whether a file cargo names is there) is handed in; the runners' records must be
 * loaded (runners/index.ts `loadRecords`).
 */
import { posix } from 'node:path';
import type { RunnerName } from '../config/runner-names.js';
import type { TestFailure } from '../evidence/junit.js';
import { runnerRecord } from '../runners/index.js';
import { type FailureContext, MAX_FAILURES_READ, failedTestsRead, outputLines } from './runner-output.js';
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

/** A catch's failed tests as its output names them, and how many failed in all. */
export interface OutputFailures {
  /** At most MAX_FAILURES_READ, in the order printed. */
  failures: TestFailure[];
  /**
   * How many tests failed: each reader's count, the larger of its runner's summary (`300 failing`) and the
   * failed tests its output names (a summary a runner did not print, or one that counts less), summed over
   * a workspaces run's caught workspaces. More than `failures` when the list was cut, or when the output
   * kept (its last 64 kB and the lines its runner's reading needs) names fewer than the summary counts.
   */
  total: number;
}

/** The failed tests a caught gate's output names, and how many failed in all. Pure. */
export function failuresInOutput(at: OutputFailuresInput): OutputFailures {
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
    const { failures, named } = failedTestsRead(r, text, ctx);
    const counted = runnerRecord(r).profile?.read(outputLines(text)).summary?.failed ?? 0;
    return { failures, total: Math.max(named, counted) };
  };
  const workspaces = output.detection.workspaces;
  if (workspaces) {
    const parts = caughtWorkspaces(workspaces, at.tail, at.exitCode ?? 1, at.caught, tier.timeout, output, tier.runner).map((w) =>
      read(w.runner, w.text, posix.join(tier.cwd, w.dir)),
    );
    return {
      failures: parts.flatMap((p) => p.failures).slice(0, MAX_FAILURES_READ),
      total: parts.reduce((n, p) => n + p.total, 0),
    };
  }
  // A script that runs its tests itself: the runner whose summary counted the failures reads them.
  const runner = at.runner ?? failedSummary(outputLines(at.tail))?.runner;
  // `cd backend && go test ./...`: the runner names files from the folder it moved to.
  return runner ? read(runner, at.tail, posix.join(tier.cwd, output.detection.runDir ?? '.')) : { failures: [], total: 0 };
}
