/**
 * GitHub Actions annotations for `gate-ladder ci`: one `::error` workflow command per failed test a
 * JUnit report names (at its file and line when known), or one per tier that stopped without naming
 * a test. GitLab has no annotation command in a job's log, so it gets none. Pure.
 */
import { shownLines } from '../util/escape.js';
import { ciMsg } from './messages.js';
import type { GateResult } from '../gates/result.js';

export interface Annotation {
  file?: string;
  line?: number;
  title: string;
  message: string;
}

/** GitHub shows at most 10 error annotations a step (actions/toolkit docs/problem-matchers.md). */
export const GITHUB_ANNOTATIONS_PER_STEP = 10;

/** A message longer than this is cut: the annotation links to the log, which has it all. */
const MAX_MESSAGE = 2000;

type Judged = Pick<
  GateResult,
  | 'tier'
  | 'verdict'
  | 'exitCode'
  | 'reason'
  | 'failures'
  | 'cause'
  | 'causeFile'
  | 'causeLine'
  | 'causeScript'
  | 'causeCommand'
  | 'causeStopped'
>;

/** The annotations a job's results call for: each failed test, else the tier that stopped. Pure. */
export function annotationsFor(results: readonly Judged[]): Annotation[] {
  const out: Annotation[] = [];
  for (const r of results) {
    if (r.verdict === 'pass') continue;
    if (r.verdict === 'caught' && r.failures && r.failures.length > 0) {
      for (const f of r.failures)
        out.push({
          ...(f.file && { file: f.file }),
          ...(f.file && f.line !== undefined && { line: f.line }),
          title: `${r.tier}: ${f.title}`,
          message: f.message,
        });
      continue;
    }
    if (r.verdict === 'error' && r.cause === 'patch' && r.causeFile !== undefined) {
      // The patch broke the harness (a file it changed cannot load, a script it removed): annotate that file, as a failed test's.
      out.push({
        file: r.causeFile,
        ...(r.causeLine !== undefined && { line: r.causeLine }),
        ...ciMsg.patchErrorAnnotation(r.tier, r.causeFile, r.reason, r.causeScript, r.causeCommand, r.causeStopped),
      });
      continue;
    }
    out.push(r.verdict === 'caught' ? ciMsg.caughtAnnotation(r.tier, r.exitCode, r.reason) : ciMsg.errorAnnotation(r.tier, r.reason));
  }
  return out;
}

/** `%`, CR and LF, escaped as the runner reads a command's message (@actions/core `escapeData`). */
export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A property value also may not hold `:` or `,`, which end it (@actions/core `escapeProperty`). */
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One `::error file=…,line=…,title=…::message` line; other control characters are shown as escapes. Pure. */
export function githubCommand(a: Annotation): string {
  const props = [
    ...(a.file !== undefined ? [`file=${escapeProperty(shownLines(a.file))}`] : []),
    ...(a.line !== undefined ? [`line=${a.line}`] : []),
    `title=${escapeProperty(shownLines(a.title))}`,
  ];
  const message = a.message.length > MAX_MESSAGE ? `${a.message.slice(0, MAX_MESSAGE)}…` : a.message;
  return `::error ${props.join(',')}::${escapeData(shownLines(message.replace(/\r\n/g, '\n')))}`;
}

/** The command lines for at most `limit` annotations, and how many were left out. Pure. */
export function githubAnnotations(results: readonly Judged[], limit = GITHUB_ANNOTATIONS_PER_STEP): { lines: string[]; left: number } {
  const all = annotationsFor(results);
  return { lines: all.slice(0, limit).map(githubCommand), left: Math.max(0, all.length - limit) };
}
