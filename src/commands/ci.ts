/**
 * `gate-ladder ci`: one command for a CI step. The range from the CI's environment (GitHub's event
 * payload, GitLab's variables, else --base/--head) → every commit of it present in the clone → the
 * ladder, as `run --base --head` runs it (calibrating at the configured rate) → annotations for the
 * failed tests (GitHub) → the verdicts and the ledger's figures appended to the step summary → the
 * exit code `run` gives (0 pass, 1 caught, 2 error).
 */
import { plainJson } from '../util/escape.js';
import { resultForMachines } from '../verdict/output-summary.js';
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, writeSync } from '../util/node.js';
import { ciTarget, type CiEvent, type CiRange } from '../run/ci-target.js';
import { githubAnnotations, annotationsFor } from '../report/ci-annotations.js';
import { ciSummary } from '../report/ci-summary.js';
import { reportFold } from '../report/figures.js';
import { isShallow, refusedRepo, repoInfo } from '../git/git.js';
import { type GitFacts, commitIn, gatherGitFacts, repoOnly } from '../git/facts.js';
import { revQuery } from '../git/rev-query.js';
import { forEachTeamRow } from '../ledger/team.js';
import { ciMsg } from '../report/messages.js';
import { msg } from '../run/messages.js';
import { writeErr } from '../util/stderr.js';
import { EXIT } from '../config/defaults.js';
import { type Judged, judge } from './run.js';
import type { TierFigures } from '../report/model.js';

export interface CiOptions {
  cwd: string;
  base?: string;
  head?: string;
  json?: boolean;
  calibrate?: boolean;
  noCache?: boolean;
  /** Append the markdown summary here; default $GITHUB_STEP_SUMMARY when set. */
  summary?: string;
}

const err = (line: string) => writeErr(`${line}\n`);

export async function ciCommand(opts: CiOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // ── what to judge: the CI's event, its variables, or the flags ──
  const target = ciTarget(env, readEvent(env), {
    ...(opts.base !== undefined && { base: opts.base }),
    ...(opts.head !== undefined && { head: opts.head }),
  });
  if (target.kind === 'problem') {
    err(ciMsg.problem(target.message));
    return done(opts, { exit: EXIT.error, ci: target });
  }
  if (target.kind === 'nothing') {
    if (!opts.json) err(ciMsg.nothing(target.why));
    return done(opts, { exit: EXIT.pass, ci: target });
  }
  // ── the git facts of the range, gathered once for the whole job (run's judge reads them too) ──
  const range = { ...(target.base !== undefined && { base: target.base }), head: target.head };
  const facts = await ciFacts(opts.cwd, range);
  if (facts === null) {
    err(msg.notRepo(opts.cwd, refusedRepo(opts.cwd)));
    return done(opts, { exit: EXIT.error, ci: target });
  }
  // ── every commit of the range in this clone (a CI checkout is shallow by default) ──
  const missing = missingCommit(facts, target);
  if (missing !== undefined) {
    err(missing);
    return done(opts, { exit: EXIT.error, ci: target });
  }
  if (!opts.json) err(ciMsg.judging(target.how, target.base, target.head));

  // ── the ladder, as `run --base --head` runs it ──
  const judged = await judge(
    {
      cwd: opts.cwd,
      ...range,
      ref: target.ref,
      ci: true,
      json: opts.json === true,
      calibrate: opts.calibrate === true,
      ...(opts.noCache && { noCache: true }),
    },
    facts,
  );
  const results = (judged.targets ?? []).flatMap((t) => t.results ?? []);

  // ── annotations: GitHub reads workflow commands from the step's stdout ──
  if (target.ci === 'github' && !opts.json) {
    const { lines, left } = githubAnnotations(results);
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
    if (left > 0) err(ciMsg.annotationsLeft(left, lines.length));
  }

  // ── the step summary: appended, as GitHub expects of $GITHUB_STEP_SUMMARY ──
  const summaryFile = opts.summary ?? (env.GITHUB_STEP_SUMMARY || undefined);
  let summary: string | null = null;
  if (summaryFile !== undefined && judged.targets !== undefined) {
    const figures = judged.ledger ? await ledgerFigures(judged.ledger, judged) : [];
    const text = ciSummary({ exit: judged.code, how: target.how, targets: judged.targets, figures });
    const problem = appendRegular(summaryFile, text);
    if (problem === undefined) {
      summary = summaryFile;
      if (!opts.json) err(ciMsg.summaryWritten(summaryFile));
    } else err(ciMsg.summaryUnwritable(summaryFile, problem));
  }

  if (judged.code !== EXIT.pass && judged.code !== EXIT.interrupted && target.base !== undefined && !opts.json)
    err(ciMsg.reproduce(target.base, target.head));
  return done(opts, { exit: judged.code, ci: target, judged, annotations: annotationsFor(results), summary });
}

/** GitHub's event payload, when this is GitHub Actions (GITHUB_EVENT_PATH): parsed, or why not. */
function readEvent(env: NodeJS.ProcessEnv): CiEvent {
  const path = env.GITHUB_ACTIONS === 'true' ? env.GITHUB_EVENT_PATH : undefined;
  if (!path) return { kind: 'none' };
  try {
    return { kind: 'ok', payload: JSON.parse(readFileSync(path, 'utf8')) as unknown };
  } catch (e) {
    return { kind: 'unreadable', path, why: e instanceof Error ? e.message.split('\n')[0]! : String(e) };
  }
}

/**
 * The git facts `run --base --head` gathers for this range, so that the job asks once; `null` outside a
 * repository. A bypassed job (GATE_LADDER=0, said by judge) judges nothing: only where the repository is.
 */
async function ciFacts(cwd: string, range: { base?: string; head: string }): Promise<GitFacts | null> {
  if (process.env.GATE_LADDER === '0') {
    const info = repoInfo(cwd);
    return info === null ? null : repoOnly(info);
  }
  return gatherGitFacts(cwd, revQuery(range));
}

/** The line that says which commit of the range this clone lacks, and the fix; undefined when it has both. */
function missingCommit(facts: GitFacts, t: CiRange): string | undefined {
  const revs = [
    ['head', t.head],
    ['base', t.base],
  ] as const;
  for (const [what, rev] of revs) {
    if (rev === undefined || commitIn(facts, rev) !== null) continue;
    return ciMsg.missing(what, rev, t.ci, isShallow(facts.repo.root), what === 'base' && t.baseIsBranch === true);
  }
  return undefined;
}

/** The ledger's figures for the tiers this job planned (this clone's rows and the team's synced ones). */
async function ledgerFigures(ledger: string, judged: Judged): Promise<TierFigures[]> {
  const tiers = [...new Set((judged.targets ?? []).flatMap((t) => t.plan.map((p) => p.tier)))];
  const fold = reportFold({ tiers });
  try {
    await forEachTeamRow(ledger, false, { rows: 0, skipped: 0 }, fold.add);
  } catch {
    return [];
  }
  return fold.finish(0).tiers;
}

interface Outcome {
  exit: number;
  ci: ReturnType<typeof ciTarget>;
  judged?: Judged;
  annotations?: ReturnType<typeof annotationsFor>;
  summary?: string | null;
}

/** `--json`: the range found, the verdicts, the annotations and the exit code, on stdout. */
function done(opts: CiOptions, o: Outcome): number {
  if (opts.json) {
    const doc = {
      exit: o.exit,
      ci: o.ci,
      ledger: o.judged?.ledger ?? null,
      targets: o.judged?.targets ?? [],
      annotations: o.annotations ?? [],
      summary: o.summary ?? null,
    };
    // For a machine: each result's summary and log instead of its raw output, no terminal control code anywhere.
    const targets = doc.targets.map((t) => (t.results ? { ...t, results: t.results.map(resultForMachines) } : t));
    process.stdout.write(`${JSON.stringify(plainJson({ ...doc, targets }), null, 2)}\n`);
  }
  return o.exit;
}

const NOT_REGULAR = ciMsg.summaryNotRegular();

/**
 * Appends `text` to a regular file (made when missing); the problem otherwise, as data. A FIFO with no
 * reader would hold the job until killed, so the file is opened without blocking and anything but a
 * regular file is refused.
 */
function appendRegular(file: string, text: string): string | undefined {
  let fd: number;
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    if (st !== undefined && !st.isFile()) return NOT_REGULAR;
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENXIO' ? NOT_REGULAR : e instanceof Error ? e.message : String(e);
  }
  try {
    if (!fstatSync(fd).isFile()) return NOT_REGULAR;
    const data = Buffer.from(text);
    for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    closeSync(fd);
  }
}
