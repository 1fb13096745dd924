import type { GateExit } from '../gates/gate.js';
import type { ReportRead } from '../evidence/junit.js';
import { shown } from '../util/escape.js';
import { type Stopped, lastLine, quoteLine } from '../runners/read.js';
import { base } from '../runners/command-words.js';

export { quoteLine };
import { REPORT_NAMES, REPORT_WRITERS, testMsg as msg } from '../evidence/messages.js';
import type { ReportFormat } from '../types.js';
import type { Detection, WorkspaceRun, WorkspaceRunMember } from '../runners/detect.js';
import { envToolFailure, toxConfigError } from '../runners/env-tools.js';
import { nodeLoadCrash, pythonLoadCrash, pythonModuleMissing, failedSummary } from './script-output.js';
import { type RunnerProfile, managerFailure, outputLines } from './runner-output.js';
import type { Checked } from '../runners/record.js';
import { type PnpmSegment, type PnpmUnsplit, splitPnpm } from '../runners/pnpm-workspaces.js';
import { type WorkspaceSegment, splitWorkspaces } from '../runners/workspaces.js';
import { RUNNER_NAMES, type RunnerName, runnerCaught } from '../config/runner-names.js';
import { runnerRecord } from '../runners/index.js';
import { SCRIPT_SUMMARIES } from '../runners/identities.js';
import type { ResolvedTier } from '../config/resolved.js';
import type { Verdict } from '../ledger/row.js';

export interface Classified {
  verdict: Verdict;
  reason?: string;
  /** The runner's summary (or its unambiguous exit code) proves a test failed. */
  proven?: boolean;
  /** The command cannot run here at all: a missing script, package.json or command (replay: "not applicable"). */
  inapplicable?: boolean;
  /**
   * The error is the run's as a whole, not a file's: coverage below its threshold, no test ran, out of
   * memory, a focused or cancelled run, failures the exit code does not count. No changed file is to
   * blame for it as one that cannot load (fault.ts), however often the output names it.
   */
  runWide?: true;
  /**
   * The command the shell (or node) could not find, when that is the error: `mochaa` of `sh: 1: mochaa:
   * not found`; or the module `python -m` could not find (`flake8`).
   */
  notFound?: string;
  /** The test binary ended mid-run in the code it runs (runners/read.ts `Stopped`): whose fault is told from where (fault.ts). */
  stopped?: Stopped;
  /**
   * The runner whose output decided, when the tier's command names none itself: the one a command tox
   * or nox said failed runs (pytest under `tox`). Its reader names the failed tests.
   */
  runner?: RunnerName;
}

/** What an exit code means whatever the runner, when its record does not say (see the README's table). */
const DEFAULT_EXITS: Readonly<Record<number, string>> = {
  2: 'usage error',
  126: 'command found but not executable',
  127: 'command not found',
  130: 'interrupted (SIGINT)',
  134: 'aborted (SIGABRT): a crash, process.abort(), or node out of memory',
  137: 'killed (SIGKILL), often out of memory',
  139: 'crashed (SIGSEGV, a segmentation fault)',
  143: 'terminated (SIGTERM)',
};

/**
 * What exit `code` means: the runner's record's word for it; else, with `failing` (the run ended on
 * failures, not on no tests) and below 126 (where a shell's signal codes start), a code the runner
 * exits with when tests fail (mocha's count of failed tests: its exit 2 is two failures, not a usage
 * error); else the shared meaning. Pure.
 */
function meaning(code: number, runner: RunnerName | undefined, failing = true): string | undefined {
  const own = runner && runnerRecord(runner).exits?.[code];
  if (own) return own;
  if (failing && runner && code < 126 && runnerCaught(runner)?.includes(code)) return `what ${runner} exits with when tests fail`;
  return DEFAULT_EXITS[code];
}

/**
 * What make said when it failed: the exit code of the recipe line that failed (`make: *** [Makefile:2:
 * test] Error 1`, the innermost make's first), or that it has no rule for a target. Pure.
 */
export function makeFailure(lines: readonly string[]): { code: number } | { noRule: string } | undefined {
  const noRule = lines.find((l) => /^g?make(?:\[\d+\])?: \*\*\* No rule to make target /.test(l));
  if (noRule !== undefined) return { noRule };
  for (const l of lines) {
    const m = /^g?make(?:\[\d+\])?: \*\*\* \[.*\] Error (\d+)/.exec(l);
    if (m) return { code: Number(m[1]) };
  }
  return undefined;
}

/** make's own word that a target it was asked for ran nothing: `make: Nothing to be done for 'test'.`, `make: 'test' is up to date.`. Pure. */
export function makeIdle(lines: readonly string[]): string | undefined {
  return lines.find((l) => /^g?make(?:\[\d+\])?: (?:Nothing to be done for [`'].*'\.|[`'].*' is up to date\.)$/.test(l));
}

/**
 * The line in which a coverage tool that wraps the runner says the run covered less than its threshold:
 * c8's and nyc's `ERROR: Coverage for branches (96.77%) does not meet global threshold (100%)`, which
 * vitest's coverage prints too; coverage.py's `coverage report --fail-under=100` `Coverage failure:
 * total of 50 is less than fail-under=100`. Pure.
 */
export function coverageShortfall(lines: readonly string[]): string | undefined {
  return lines.find((l) =>
    /^ERROR: Coverage for \w+ \([\d.]+%\) does not meet (?:global |"[^"]*" )?threshold \([\d.]+%\)|^Coverage failure: total of [\d.]+ is less than fail-under=/.test(
      l,
    ),
  );
}

/** The next step of a command the shell could not find (`uv run pytest` where uv is not installed). */
const NOT_FOUND_NEXT = '; install it (or fix its name in the tier), or push from a shell whose PATH has it';

/** `sh: 1: pytestt: not found` and the like, from the tail of a shell's output. */
export function notFoundCommand(tail: string): string | undefined {
  const m = /(?:^|\n)(?:\/bin\/)?sh: (?:\d+: )?(?:line \d+: )?([^:\n]+): (?:command )?not found/.exec(tail);
  return m?.[1]?.trim();
}

/** What a gate printed, for the runner's profile and the package manager's failures. */
export interface OutputContext {
  /** How the command was read: its runner (if any) and the words a "not found" may name. */
  detection: Pick<
    Detection,
    | 'runner'
    | 'words'
    | 'missingScript'
    | 'noPackageJson'
    | 'managers'
    | 'placeholderScript'
    | 'besides'
    | 'make'
    | 'workspaces'
    | 'typeCheck'
    | 'manifestDir'
    | 'runDir'
    | 'envTool'
  >;
  /** The tier lists no `caught` of its own: each workspace's runner's codes count (a workspaces run). */
  caughtByRunner?: boolean;
  /** Zero tests is a pass, not an error (the tier's `allowNoTests`). */
  allowNoTests?: boolean;
  /** Read only the package manager's failures, not the runner's summary: a report file decides the rest. */
  reportDecides?: boolean;
  /**
   * A tox or nox run: the runner a command it says failed names, by its words alone
   * (runners/detect.ts `detectRunner`, handed in by the caller, which loads it only for such a run);
   * absent, only the tier's runner reads that command's output.
   */
  runnerOf?: (command: string) => RunnerName | undefined;
}

export interface ClassifyOptions {
  runner?: RunnerName;
  /** Present when the gate's output was kept: it is read, not only the exit code. */
  output?: OutputContext;
}

/**
 * The runners whose records `classify` may read for a gate (runners/index.ts `loadRecords` loads them
 * first): its runner's; for a gate that names none, whose output is read and that failed, those whose
 * summaries a script's output is read for (script-output.ts), none when it passed; the type checker's
 * for a type check (its diagnostics decide, not a summary); every one for a workspaces or tox/nox run,
 * whose parts name their own runners. Pure.
 */
export function recordsRead(
  runner: RunnerName | undefined,
  output: { detection: Pick<Detection, 'workspaces' | 'envTool' | 'typeCheck'> } | undefined,
  exitCode: number | null,
): readonly RunnerName[] {
  const d = output?.detection;
  if (d?.workspaces || d?.envTool !== undefined) return RUNNER_NAMES;
  if (!runner && d?.typeCheck !== undefined) return ['tsc'];
  const own = runner ? [runner] : output && exitCode !== 0 ? SCRIPT_SUMMARIES : [];
  return d?.typeCheck !== undefined ? [...own, 'tsc'] : own;
}

/**
 * Exit code, signal, timeout and (when kept) the output to a verdict. Pure. The records of
 * `recordsRead` must be loaded.
 * Without output to read: `pass` is exit 0, `caught` an exit code the tier lists (default exactly 1),
 * all else `error`. With output: a package manager's or the shell's failure is an `error` whatever the
 * runner; with a runner profile, exit 0 with zero tests is an `error` (unless `allowNoTests`), and a
 * failure exit is `caught` only when the runner's summary proves a test failed.
 */
export function classify(exit: GateExit, caught: readonly number[], timeout: number, opts: RunnerName | ClassifyOptions = {}): Classified {
  const { runner, output } = typeof opts === 'string' ? { runner: opts, output: undefined } : opts;
  if (exit.spawnError !== undefined)
    return { verdict: 'error', reason: exit.spawnError, ...(exit.spawnError.startsWith('command not found') && { inapplicable: true }) };
  if (exit.interrupted) return { verdict: 'error', reason: 'interrupted (Ctrl-C)' };
  if (exit.timedOut) return { verdict: 'error', reason: `timed out after ${timeout} s` };
  if (exit.signal !== null) return { verdict: 'error', reason: `killed by ${exit.signal}` };
  if (exit.exitCode === null) return { verdict: 'error', reason: 'exited without a code' };
  const lines = output ? outputLines(exit.tail) : [];
  const made = output?.detection.make && exit.exitCode === 2 ? makeFailure(lines) : undefined;
  if (made && 'noRule' in made) return { verdict: 'error', reason: `make: ${quoteLine(made.noRule)}`, inapplicable: true };
  // make exits 0 for a target with no recipe (`.PHONY: test` left without its rule) or a file of its name that is up to date: nothing ran.
  const idle = output?.detection.make && exit.exitCode === 0 ? makeIdle(lines) : undefined;
  if (idle && !(runner && runnerRecord(runner).profile?.read(lines).summary)) {
    return {
      verdict: 'error',
      reason: `make ran no command, so no test ran: ${quoteLine(idle)}; give the target a recipe that runs the tests in the Makefile (a .PHONY target without one, or a file of the target's name that is up to date, runs nothing)`,
      inapplicable: true,
    };
  }
  // make exits 2 whatever its recipe's code was: the recipe's own code is the one that says what failed.
  const code = made?.code ?? exit.exitCode;
  if (output?.detection.workspaces && !output.reportDecides)
    return byWorkspaces(output.detection.workspaces, lines, code, caught, timeout, output, runner);
  if (output && code !== 0) {
    const failed = scriptFailure(output.detection, lines) ?? moduleMissing(output.detection.words, lines, runner);
    if (failed) return failed;
  }
  const tool = output?.detection.envTool;
  if (tool && code !== 0 && code < 126 && !output.reportDecides) return byEnvTool(tool, exit, code, lines, caught, timeout, output, runner);
  const record = output && !output.reportDecides && runner ? runnerRecord(runner) : undefined;
  // A linter's, formatter's or type checker's findings are its verdict; its exit 0 is a pass.
  if (record?.check && code !== 0 && code < 126) return checked(record.check(runner!, lines, code), caught, code);
  const profile = record?.profile;
  if (profile) return byProfile(profile, runner!, lines, code, caught, output!.allowNoTests === true, output!.detection.besides);
  if (output?.detection.typeCheck !== undefined && !runner && code !== 0 && code < 126)
    return checked(runnerRecord('tsc').check!(output.detection.typeCheck, lines, code));
  if (output && !output.reportDecides && !runner && code !== 0 && code < 126) {
    const script = byScriptOutput(lines, code);
    if (script) return script;
  }
  const byCode = byExitCode(exit, code, caught, runner, output);
  // A report decides the tests, but an exit it cannot explain keeps the cause the runner printed (pytest's collection error).
  const cause =
    output?.reportDecides && byCode.verdict === 'error' && runner ? runnerRecord(runner).profile?.read(lines).cannotRun : undefined;
  return cause ? { ...byCode, reason: `${cause.what}: ${quoteLine(cause.line)}` } : byCode;
}

/** A package manager's failure to run the script (its own error, npm init's placeholder, a missing script or package.json): an error whatever the runner. */
function scriptFailure(d: OutputContext['detection'], lines: readonly string[]): Classified | undefined {
  const pmName = d.managers[0] ?? 'npm';
  if (d.placeholderScript !== undefined) {
    const script = shown(d.placeholderScript);
    return {
      verdict: 'error',
      reason: `${pmName}: package.json's "${script}" script is npm init's placeholder (\`echo "Error: no test specified" && exit 1\`), which runs no test; put your test command in the "${script}" script`,
      inapplicable: true,
    };
  }
  const pm = managerFailure(lines, new Set(d.words));
  if (pm)
    return {
      verdict: 'error',
      reason: `${pm.what}: ${quoteLine(pm.line)}${pm.notFound !== undefined ? NOT_FOUND_NEXT : ''}`,
      inapplicable: true,
      ...(pm.notFound !== undefined && { notFound: pm.notFound }),
    };
  // A quiet package manager (`npm run -s`) prints nothing of its own failure: package.json says it.
  if (d.missingScript !== undefined)
    return {
      verdict: 'error',
      reason: `${pmName}: missing script "${shown(d.missingScript)}" (package.json here has no such script)`,
      inapplicable: true,
    };
  if (d.noPackageJson) return { verdict: 'error', reason: `${pmName}: no package.json here to run a script from`, inapplicable: true };
  return undefined;
}

/**
 * `python -m X` where that python has no X (pytest, flake8, mypy: run outside the project's
 * virtualenv): python's exit 1 before X ran, an error whatever the tier counts as caught. Not when the
 * tier's runner printed its summary (a test that runs python so saw the line). Pure.
 */
function moduleMissing(words: readonly string[], lines: readonly string[], runner: RunnerName | undefined): Classified | undefined {
  const missing = pythonModuleMissing(lines, new Set(words));
  const profile = runner ? runnerRecord(runner).profile : undefined;
  if (!missing || profile?.read(lines).summary) return undefined;
  const { module, install } = missing;
  return {
    verdict: 'error',
    reason: `this python cannot import ${module}, so ${profile ? 'no test ran' : `${module} did not run`} (install ${install} for that python, or push where the project's virtualenv that has it is active): ${quoteLine(missing.line)}`,
    inapplicable: true,
    notFound: module,
  };
}

/** The exit code alone: 0 passes, a code the tier counts is caught, 127 is a command not found, the rest an error that says what the code means. */
function byExitCode(
  exit: GateExit,
  code: number,
  caught: readonly number[],
  runner: RunnerName | undefined,
  output: OutputContext | undefined,
): Classified {
  if (code === 0) return { verdict: 'pass' };
  if (caught.includes(code)) return { verdict: 'caught' };
  if (code === 127) {
    const cmd = exit.notFound ?? notFoundCommand(exit.tail);
    return {
      verdict: 'error',
      reason: `${cmd ? `command not found: ${cmd}` : 'exit 127: command not found'}${NOT_FOUND_NEXT}`,
      inapplicable: true,
      ...(cmd && { notFound: cmd }),
    };
  }
  if (isNoTestsCode(runner, code) && output?.allowNoTests)
    return { verdict: 'pass', reason: `exit ${code}: no tests ran (allowed by \`allowNoTests\`)` };
  const known = meaning(code, runner);
  // No runner read the output (none detected: a workspace run, a script of several runners): say how to make the code count.
  const next =
    runner || code >= 126
      ? ''
      : `; if exit ${code} means a test failed, add it to the tier's \`caught\`, or set the tier's \`runner\` so its output is read`;
  return {
    verdict: 'error',
    reason: `${known ? `exit ${code}: ${known}` : `exit ${code}, which this tier does not count as a test failure`}${next}`,
  };
}

/**
 * A failure exit of a command whose runner is not known (a script that runs its tests itself): a
 * runner's summary counting failed tests is a catch whatever the code (mocha's programmatic
 * `process.exit(failures)` exits 55 for 55 failures); node or python dying while loading code, before
 * any such summary, is an error. Else undefined: the exit code decides. Pure.
 */
function byScriptOutput(lines: readonly string[], code: number): Classified | undefined {
  const failed = failedSummary(lines);
  if (failed) return { verdict: 'caught', reason: `${failed.runner}: ${quoteLine(failed.line)}`, proven: true };
  const crash = nodeLoadCrash(lines) ?? pythonLoadCrash(lines);
  if (!crash) return undefined;
  const at = crash.where ? ` in ${quoteLine(crash.where)}` : '';
  return {
    verdict: 'error',
    reason: `exit ${code}: ${crash.language} could not load the code${at}, so no test ran to give a verdict: ${quoteLine(crash.line)}; fix the file (or the import) and push again`,
  };
}

/**
 * A check's reading as a verdict: a finding is a proven catch when the tier counts its exit code as one
 * (`caught`, default [1]); else an error that says so.
 */
function checked(c: Checked, caught?: readonly number[], code?: number): Classified {
  if (c.verdict === 'error') return c;
  if (caught && code !== undefined && !caught.includes(code))
    return {
      verdict: 'error',
      reason: `exit ${code}, which this tier does not count as a finding (\`caught\`: ${caught.join(', ') || 'none'}), though ${c.reason}; if exit ${code} means a finding, add it to the tier's \`caught\``,
    };
  return { ...c, proven: true };
}

/**
 * A failed tox or nox run: exit 1 whatever failed, so the command it says failed is read, with its own
 * exit code and its runner (the tier's, else the one that command names). An environment that could not
 * be made, or a failure that names no command, is no test failing: an error. Pure.
 */
function byEnvTool(
  tool: string,
  exit: GateExit,
  code: number,
  lines: readonly string[],
  caught: readonly number[],
  timeout: number,
  output: OutputContext,
  runner: RunnerName | undefined,
): Classified {
  const failure = envToolFailure(lines);
  if (failure && 'setup' in failure) {
    return {
      verdict: 'error',
      reason: `${tool} could not make the test environment, so no test ran: ${quoteLine(failure.setup)}; run \`${tool}\` to see why (a dependency that does not install, a Python it cannot find)`,
      inapplicable: true,
    };
  }
  if (!failure) {
    const failed = failedSummary(lines);
    if (failed) return { verdict: 'caught', reason: `${failed.runner}: ${quoteLine(failed.line)}`, proven: true };
    // Its config names the file a push may have broken (fault.ts blames it when the push changed it).
    const config = tool === 'tox' ? toxConfigError(lines) : undefined;
    if (config)
      return {
        verdict: 'error',
        reason: `tox could not read its config (tox.ini, or its section of setup.cfg or pyproject.toml), so no test ran: ${quoteLine(config)}; fix the config, or run \`tox\` to see why`,
      };
    const last = lastLine(lines);
    return {
      verdict: 'error',
      reason: `exit ${code}: ${tool} failed and its output names no command that failed nor a test failing, so no test is known to have failed; last output: ${last ? quoteLine(last) : '(none)'}; run \`${tool}\` to see why`,
    };
  }
  // Its runner from its words alone: this reading is pure, so no package.json is read (a script it names, `npm test`, reads as one without).
  const inner = runner ?? output.runnerOf?.(failure.command);
  // The words of the command it ran count as the tier's (a module `python -m` could not find is one).
  const detection = { ...output.detection, words: [...output.detection.words, ...failure.command.split(/\s+/).map(base)] };
  delete detection.envTool;
  const c = classify({ ...exit, exitCode: failure.code }, caught, timeout, {
    ...(inner && { runner: inner }),
    output: { ...output, detection },
  });
  const ran = `${tool} ran ${quoteLine(failure.command)} (exit ${failure.code})`;
  return { ...c, reason: c.reason ? `${ran}: ${c.reason}` : ran, ...(inner && { runner: inner }) };
}

/** One workspace's verdict, with its name. */
interface WorkspacePiece {
  name: string;
  member: WorkspaceRunMember;
  /** Its part of the output. */
  text: readonly string[];
  c: Classified;
}

/**
 * A workspaces run (npm's `--workspaces`, pnpm's `-r` or `--filter`), read workspace by workspace: each
 * one's output (cut by npm's banners or pnpm's line prefixes) through its own runner's profile, with its
 * own exit code (npm's or pnpm's error block for it). A test failure a runner proves in any workspace is
 * `caught`; else any workspace that could not run (or ran no test) makes it an `error`; all passed is a
 * `pass`. Each reason names the workspace. Pure.
 */
function byWorkspaces(
  run: WorkspaceRun,
  lines: readonly string[],
  code: number,
  caught: readonly number[],
  timeout: number,
  output: OutputContext,
  configured: RunnerName | undefined,
): Classified {
  const split = splitRun(run, lines, code);
  if ('why' in split) return unsplitVerdict(run, split, code, output);
  const { pieces, stopped } = workspacePieces(run, split, code, caught, timeout, output, configured);
  return workspacesVerdict(run, pieces, stopped, split, code, output);
}

/** Each workspace's verdict (with its part of the output), and the packages pnpm stopped at the first failure. */
function workspacePieces(
  run: WorkspaceRun,
  split: Map<string, PnpmSegment | WorkspaceSegment>,
  code: number,
  caught: readonly number[],
  timeout: number,
  output: OutputContext,
  configured: RunnerName | undefined,
): { pieces: WorkspacePiece[]; stopped: string[] } {
  const pieces: WorkspacePiece[] = [];
  const stopped: string[] = [];
  for (const m of run.members) {
    const seg = split.get(m.name);
    if (run.manager === 'pnpm') {
      // pnpm runs the packages its filter selects that have the script: the others print nothing.
      if (seg === undefined || !seg.ran) continue;
      if ('stopped' in seg && seg.stopped) {
        stopped.push(m.name);
        continue;
      }
    } else if (m.script === undefined) {
      if (run.ifPresent) continue;
      // npm 10.9 and 11 fail the run for it; earlier ones did only when no workspace had the script.
      if (seg!.failed || code !== 0)
        pieces.push({
          name: m.name,
          member: m,
          text: seg!.lines,
          c: {
            verdict: 'error',
            reason: `it has no "${shown(run.event)}" script, and npm fails the run for it: add one to its package.json, or run npm with --if-present to skip it`,
            inapplicable: true,
          },
        });
      continue;
    }
    pieces.push({ name: m.name, member: m, text: seg!.lines, c: memberVerdict(run, m, seg!, caught, timeout, output, configured) });
  }
  return { pieces, stopped };
}

/** A workspace a workspaces run caught a failed test in: its folder (relative to the tier's), its runner, and its part of the output. */
export interface CaughtWorkspace {
  dir: string;
  runner: RunnerName;
  text: string;
}

/**
 * The workspaces of a workspaces run whose own verdict is `caught` (read as classify reads them), each
 * with its runner (`configured`, else the one its script starts) and its part of the output: where a
 * catch's failed tests are read, each workspace's through its own runner. A workspace that could not
 * run is left out, as is one of no known runner. Pure.
 */
export function caughtWorkspaces(
  run: WorkspaceRun,
  text: string,
  code: number,
  caught: readonly number[],
  timeout: number,
  output: OutputContext,
  configured?: RunnerName,
): CaughtWorkspace[] {
  const split = splitRun(run, outputLines(text), code);
  if ('why' in split) return [];
  const out: CaughtWorkspace[] = [];
  for (const p of workspacePieces(run, split, code, caught, timeout, output, configured).pieces) {
    const runner = configured ?? p.member.detection?.runner;
    if (p.c.verdict === 'caught' && runner !== undefined) out.push({ dir: p.member.dir, runner, text: p.text.join('\n') });
  }
  return out;
}

/** The run's output cut workspace by workspace (npm's banners, pnpm's line prefixes), or why it cannot be. */
function splitRun(run: WorkspaceRun, lines: readonly string[], code: number): Map<string, PnpmSegment | WorkspaceSegment> | PnpmUnsplit {
  if (run.manager === 'pnpm')
    return run.unprefixed !== undefined ? { why: run.unprefixed } : splitPnpm(lines, run.event, run.members, code);
  return splitWorkspaces(
    lines,
    run.event,
    run.members.map((m) => ({
      name: m.name,
      ...(m.id !== undefined && { id: m.id }),
      hasScript: m.script !== undefined,
      ...(m.script !== undefined && { script: m.script }),
    })),
  );
}

/** A run whose output cannot be cut by workspace: pnpm ran no script, or the exit code alone decides, with the way to read it by workspace. */
function unsplitVerdict(run: WorkspaceRun, split: PnpmUnsplit, code: number, output: OutputContext): Classified {
  const ranNone = split.ranNone;
  if (ranNone !== undefined) {
    const none = `pnpm ran no "${shown(run.event)}" script: ${quoteLine(ranNone)}`;
    if (output.allowNoTests) return { verdict: 'pass', reason: `${none} (allowed by \`allowNoTests\`)` };
    return {
      verdict: 'error',
      reason: `${none}; check the --filter, or add the script to the packages (set \`allowNoTests: true\` on the tier if that is expected)`,
      inapplicable: true,
    };
  }
  const next =
    run.manager === 'pnpm'
      ? 'drop the option so pnpm prefixes each line with its package, or give each package a tier of its own'
      : 'drop --silent so npm prints its banners, or give each workspace a tier of its own';
  if (code === 0) return { verdict: 'pass', reason: `exit 0, not read workspace by workspace: ${split.why}; ${next}` };
  return { verdict: 'error', reason: `exit ${code}, and no workspace is known to have failed a test: ${split.why}; ${next}` };
}

/** One workspace that ran: its part of the output through its runner, with its own exit code; an error says how to run it alone. */
function memberVerdict(
  run: WorkspaceRun,
  m: WorkspaceRunMember,
  seg: PnpmSegment | WorkspaceSegment,
  caught: readonly number[],
  timeout: number,
  output: OutputContext,
  configured: RunnerName | undefined,
): Classified {
  const event = shown(run.event);
  const alone =
    run.manager === 'pnpm'
      ? `\`pnpm --filter ${shown(m.name)} ${event}\` runs it alone`
      : `\`npm run ${event} -w ${shown(m.name)}\` runs it alone`;
  if (!seg.ran) {
    return {
      verdict: 'error',
      reason: `npm printed no \`> ${shown(m.id ?? m.name)} ${event}\` banner for it, so its script is not known to have run${seg.failed ? `: ${quoteLine(seg.failed.line)}` : ''}; ${alone}`,
    };
  }
  const runner = configured ?? m.detection?.runner;
  const codes = output.caughtByRunner && runner ? (runnerCaught(runner) ?? caught) : caught;
  const f = seg.failed;
  const exit: GateExit = {
    exitCode: f?.signal !== undefined ? null : f ? (f.code ?? 1) : 0,
    signal: f?.signal ?? null,
    timedOut: false,
    interrupted: false,
    seconds: 0,
    tail: seg.lines.join('\n'),
  };
  const detection = m.detection ?? { managers: [run.manager], words: [] };
  const c = classify(exit, codes, timeout, {
    ...(runner && { runner }),
    output: { detection, ...(output.allowNoTests && { allowNoTests: true }) },
  });
  return c.verdict === 'error' ? { ...c, reason: `${c.reason ?? 'an error'}; ${alone}` } : c;
}

/** The workspaces' verdicts as one: a proven catch anywhere, else any error, else a catch, else no test ran, else a pass. */
function workspacesVerdict(
  run: WorkspaceRun,
  pieces: readonly WorkspacePiece[],
  stopped: readonly string[],
  split: Map<string, PnpmSegment | WorkspaceSegment>,
  code: number,
  output: OutputContext,
): Classified {
  const pm = run.manager;
  const named = (p: WorkspacePiece, fallback: string) => `workspace ${shown(p.name)}: ${p.c.reason ?? fallback}`;
  const errors = pieces.filter((p) => p.c.verdict === 'error');
  const caughts = pieces.filter((p) => p.c.verdict === 'caught');
  const proven = caughts.filter((p) => p.c.proven);
  const failedExit = (p: { name: string }) => `exit ${split.get(p.name)?.failed?.code ?? code}`;
  if (proven.length > 0) {
    const besides = errors.length > 0 ? `; besides, ${errors.map((p) => named(p, 'an error')).join('; ')}` : '';
    const cut = stopped.length > 0 ? `; pnpm stopped ${stopped.map((n) => shown(n)).join(', ')} at the first failure` : '';
    return { verdict: 'caught', proven: true, reason: `${proven.map((p) => named(p, failedExit(p))).join('; ')}${besides}${cut}` };
  }
  if (errors.length > 0) {
    return {
      verdict: 'error',
      reason: errors.map((p) => named(p, 'an error')).join('; '),
      ...(errors.length === pieces.length && errors.every((p) => p.c.inapplicable) && { inapplicable: true }),
    };
  }
  if (caughts.length > 0) return { verdict: 'caught', reason: caughts.map((p) => named(p, failedExit(p))).join('; ') };
  if (pieces.length === 0) {
    const none = `no workspace of the run has a "${shown(run.event)}" script, so ${pm} ran no test`;
    if (output.allowNoTests) return { verdict: 'pass', reason: `${none} (allowed by \`allowNoTests\`)` };
    return {
      verdict: 'error',
      reason: `${none}; add the script to the workspaces, or set \`allowNoTests: true\` on the tier if that is expected`,
    };
  }
  if (code !== 0)
    return {
      verdict: 'error',
      reason: `exit ${code}, though every workspace's output reads as passed (${pieces.map((p) => shown(p.name)).join(', ')}): ${pm} failed outside them; run the tier's command to see why`,
    };
  const notes = pieces.filter((p) => p.c.reason !== undefined).map((p) => named(p, ''));
  return { verdict: 'pass', ...(notes.length > 0 && { reason: notes.join('; ') }) };
}

const isNoTestsCode = (runner: RunnerName | undefined, code: number) =>
  runner !== undefined && runnerRecord(runner).noTestsExits?.includes(code) === true;

/** `a jest`, `a unittest`, `an ava`. */
const aRunner = (runner: RunnerName) => `${/^[aeio]/.test(runner) ? 'an' : 'a'} ${runner}`;

/** A runner's output read through its profile. Pure. */
function byProfile(
  profile: RunnerProfile,
  runner: RunnerName,
  lines: readonly string[],
  code: number,
  caught: readonly number[],
  allowNoTests: boolean,
  besides: readonly string[] = [],
): Classified {
  const r = profile.read(lines);
  const s = r.summary;
  // Every test skipped is no test run: nothing was checked.
  const allSkipped = s && s.total > 0 && s.failed === 0 && s.skipped === s.total;
  const none = r.noTests ?? (s && s.total === 0 ? { line: s.line } : allSkipped ? { line: s.line, skipped: true } : undefined);
  // `failedExits`: codes that mean a failed test only when the summary counts one (unittest's 5 from Python 3.12).
  if (s && s.failed > 0 && (caught.includes(code) || profile.failedExits?.includes(code) === true || code === 0)) {
    // Exit 0 with failures counted: the runner and its summary disagree.
    if (code === 0) return { verdict: 'error', reason: `exit 0 but ${runner} reports failed tests: ${quoteLine(s.line)}`, runWide: true };
    return { verdict: 'caught', reason: `${runner}: ${quoteLine(s.line)}`, proven: true };
  }
  if (r.cannotRun)
    return {
      verdict: 'error',
      reason: `${r.cannotRun.what}: ${quoteLine(r.cannotRun.line)}${r.cannotRun.next !== undefined ? `; ${r.cannotRun.next}` : ''}`,
      ...(r.cannotRun.notFound !== undefined && { notFound: r.cannotRun.notFound, inapplicable: true }),
      ...(r.cannotRun.stopped !== undefined && { stopped: r.cannotRun.stopped }),
    };
  if (none) return noTestsRan(r, none, runner, code, allowNoTests);
  if (code === 0) {
    const needsSummary = typeof profile.needsSummary === 'function' ? profile.needsSummary(lines) : profile.needsSummary === true;
    if (s || !needsSummary) return { verdict: 'pass', ...(s && r.passUnseen !== undefined && { reason: r.passUnseen }) };
    const last = lastLine(lines);
    return {
      verdict: 'error',
      runWide: true,
      reason: `exit 0 without ${aRunner(runner)} summary, so nothing shows the tests ran to the end (${profile.cutShort?.cause ?? 'a test that called process.exit, or a reporter that prints no counts'}); last output: ${last ? quoteLine(last) : '(none)'}; ${profile.cutShort?.next ?? profile.reporterHint ?? `use a reporter that prints ${runner}'s summary, or give the tier a JUnit \`report\``}`,
    };
  }
  // The failure code proves a failed test only where the output cannot say otherwise: no summary (a quiet
  // flag, no terminal output), and not a run cut short mid-line (os._exit(1) in a test). A summary that
  // counts no failed test says the exit came from something else (coverage below its threshold).
  if (profile.exitProves && caught.includes(code) && !s && !(typeof profile.needsSummary === 'function' && profile.needsSummary(lines)))
    return { verdict: 'caught', proven: true };
  return notProven(profile, r, runner, lines, code, caught, besides);
}

/** No test ran (none found, or every one skipped): a pass only under `allowNoTests`. */
function noTestsRan(
  r: ReturnType<RunnerProfile['read']>,
  none: { line: string; skipped?: boolean },
  runner: RunnerName,
  code: number,
  allowNoTests: boolean,
): Classified {
  const s = r.summary;
  // A file without tests beside others that ran (vitest's "No test suite found in file"): say so, not "no tests ran".
  const what = none.skipped
    ? 'no tests ran (every test was skipped)'
    : r.noTests && s && s.total > 0
      ? `a test file holds no tests (${s.total} others ran)`
      : 'no tests ran';
  if (allowNoTests) return { verdict: 'pass', reason: `${what} (allowed by \`allowNoTests\`): ${quoteLine(none.line)}` };
  // No test ran, so none failed: a code the runner also exits with on failures says nothing here.
  const why = code !== 0 ? meaning(code, runner, false) : undefined;
  return {
    verdict: 'error',
    reason: `${what}${why ? ` (exit ${code}: ${why})` : ''}: ${quoteLine(none.line)}; if that is expected, set \`allowNoTests: true\` on the tier`,
    runWide: true,
  };
}

/** A failure exit the summary does not prove a test failure: what else it was (memory, a failure besides the tests, coverage, a command beside the runner). */
function notProven(
  profile: RunnerProfile,
  r: ReturnType<RunnerProfile['read']>,
  runner: RunnerName,
  lines: readonly string[],
  code: number,
  caught: readonly number[],
  besides: readonly string[],
): Classified {
  const s = r.summary;
  const known = meaning(code, runner);
  const oom = lines.find((l) => /JavaScript heap out of memory|^FATAL ERROR: /.test(l));
  if (oom)
    return {
      verdict: 'error',
      runWide: true,
      reason: `exit ${code}: ${/out of memory/.test(oom) ? 'out of memory' : 'node died of a fatal error'}: ${quoteLine(oom)}`,
    };
  if (s && s.failed > 0) {
    // Failures counted, but the exit code is not one the tier counts as a test failure: something else broke too.
    return {
      verdict: 'error',
      runWide: true,
      reason: `exit ${code}${known ? ` (${known})` : ''}, which this tier does not count as a test failure (\`caught\`: ${caught.join(', ') || 'none'}), though ${runner} counts failed tests: ${quoteLine(s.line)}; if exit ${code} means a test failed, add it to the tier's \`caught\``,
    };
  }
  if (r.failedBesides) {
    // No test failed, so this is no catch; nor is the patch proven right.
    return {
      verdict: 'error',
      runWide: true,
      reason: `exit ${code}: ${runner} says ${r.failedBesides.what}: ${quoteLine(r.failedBesides.line)}; no test failed${s ? ` (${quoteLine(s.line)})` : ''}${r.failedBesides.next ? `: ${r.failedBesides.next}` : ''}`,
    };
  }
  const shortfall = coverageShortfall(lines);
  if (shortfall) {
    // A coverage tool around the runner (`c8 --100 node --test`, `nyc mocha`, vitest's coverage) failed the run: the same.
    return {
      verdict: 'error',
      runWide: true,
      reason: `exit ${code}: coverage is below its threshold: ${quoteLine(shortfall)}; no test failed${s ? ` (${quoteLine(s.line)})` : ''}: cover the new code with a test, or give coverage a tier of its own`,
    };
  }
  if (s) {
    // `node --test && tsc`: the tests passed, so what failed is likely a command beside them, whose failure the tier cannot tell from a broken harness.
    const others =
      besides.length > 0
        ? `; the command runs more than ${runner} (${besides
            .slice(0, 3)
            .map((c) => quoteLine(c))
            .join(
              ', ',
            )}${besides.length > 3 ? ', ...' : ''}): if one of those failed, give it a tier of its own, so its failure is read as one`
        : '';
    return {
      verdict: 'error',
      reason: `exit ${code} but ${runner} reports no failed test: ${quoteLine(s.line)}${known ? ` (${known})` : ''}${others}`,
    };
  }
  const last = lastLine(lines);
  // Output that stops mid-line (pytest's progress dots): the process ended in a test, as at exit 0.
  const cut = typeof profile.needsSummary === 'function' && profile.cutShort && profile.needsSummary(lines) ? profile.cutShort : undefined;
  return {
    verdict: 'error',
    reason: `exit ${code}${known ? ` (${known})` : ''} without ${aRunner(runner)} summary, so no test is known to have failed${cut ? ` (the run was cut short: ${cut.cause})` : ''}; last output: ${last ? quoteLine(last) : '(none)'}${cut ? `; ${cut.next}` : profile.reporterHint ? `; if that is a reporter gate-ladder cannot read, ${profile.reporterHint}` : ''}`,
  };
}

export interface ReportVerdict extends Classified {
  /** Ids of failed or errored test cases (empty unless the report was read). */
  failed: string[];
  /** The report is this run's and agrees with the exit code, so its outcomes may enter the history. */
  trusted: boolean;
}

/**
 * Exit code plus the tier's report (JUnit, or the `format` it is written in) to a verdict. Pure.
 * A harness error by exit code stays an error. A test-failure exit code is `caught` only when the
 * report lists a failed test; no report, an unreadable or stale one, or zero cases make it an `error`.
 * Exit 0 with failures in the report is an `error`: the runner and its report disagree. Each reason
 * names the report by its format (`no \`go test -json\` report at ...`).
 */
export function judgeReport(
  base: Classified,
  exitCode: number | null,
  report: ReportRead,
  where: string,
  runner?: RunnerName,
  allowNoTests = false,
  format: ReportFormat = 'junit',
): ReportVerdict {
  if (base.verdict === 'error') return { ...base, failed: [], trusted: false };
  const code = exitCode ?? 0;
  const name = REPORT_NAMES[format];
  if (report.kind !== 'ok') {
    const what =
      report.kind === 'missing'
        ? msg.reportMissing(where, name)
        : report.kind === 'stale'
          ? msg.reportStale(where, report.written, name)
          : msg.reportUnreadable(where, report.why, name);
    if (base.verdict === 'pass') return { verdict: 'pass', reason: msg.reportNotRecorded(what), failed: [], trusted: false };
    const how = format === 'junit' ? runner && runnerRecord(runner).junitHint : REPORT_WRITERS[format];
    const hint = report.kind === 'missing' && how ? msg.reportHint(how, format === 'junit' ? 'junit' : 'report') : '';
    return { verdict: 'error', reason: msg.reportCannotTell(code, what, hint), failed: [], trusted: false };
  }
  const failed = report.cases.filter((c) => c.outcome === 'fail').map((c) => c.id);
  const broken = report.broken ?? [];
  if (failed.length === 0 && broken.length > 0)
    return { verdict: 'error', reason: msg.reportBroken(code, where, broken), failed, trusted: false };
  if (report.cases.length === 0) {
    if (base.verdict === 'pass') {
      if (allowNoTests) return { verdict: 'pass', reason: msg.reportEmpty(where, name), failed, trusted: true };
      return { verdict: 'error', reason: msg.reportEmptyNoTests(where), failed, trusted: true };
    }
    return { verdict: 'error', reason: msg.reportEmptyButFailed(code, where, name), failed, trusted: true };
  }
  if (base.verdict === 'pass') {
    if (failed.length === 0) return { verdict: 'pass', failed, trusted: true };
    return { verdict: 'error', reason: msg.reportDisagrees(where, failed, name), failed, trusted: false };
  }
  if (failed.length === 0) return { verdict: 'error', reason: msg.reportAllPassed(code, where, name), failed, trusted: true };
  return { verdict: 'caught', failed, trusted: true, proven: true };
}

/** For a tier without a report: a catch from a runner whose exit code cannot tell failure from harness. */
export function ambiguityNotes(tier: ResolvedTier, verdict: Verdict, runner: ResolvedTier['runner'] = tier.runner): string[] {
  const why = runner && runnerRecord(runner).ambiguousExit;
  return verdict === 'caught' && why ? [msg.ambiguous(tier.name, why)] : [];
}
