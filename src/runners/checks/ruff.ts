/**
 * `ruff check` and `ruff format --check`, read as a check. ruff's documented exit codes: 0 no
 * violations, 1 violations found (or files that would be reformatted), 2 ruff terminated abnormally
 * (an invalid config or option, an internal error: `ruff failed` and its `Cause:`). A finding is
 * `path:line:col: CODE message` (the concise format) or `CODE message` with ` --> path:line:col` under
 * it (the full format); `Would reformat: path` for format. Not run here (no ruff in this image): read
 * from its documented formats. Pure.
 */
import { lastLine, quoteLine } from '../read.js';
import { type Checked, defineRunner } from '../record.js';

const CONCISE = /^(.+?):(\d+):(\d+): ([A-Z]+\d+) (.*)$/;
const FULL = /^([A-Z]+\d+) (?:\[\*\] )?(.*)$/;
const ARROW = /^\s*--> (.+?:\d+:\d+)$/;
const REFORMAT = /^Would reformat: (.+)$/;

function firstFinding(lines: readonly string[]): string | undefined {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (CONCISE.test(l) || REFORMAT.test(l)) return l;
    const m = FULL.exec(l);
    const at = m ? ARROW.exec(lines[i + 1] ?? '') : null;
    if (m && at) return `${at[1]}: ${m[1]} ${m[2]}`;
  }
  return undefined;
}

function check(tool: string, lines: readonly string[], code: number): Checked {
  const finding = code === 1 ? firstFinding(lines) : undefined;
  if (finding !== undefined) return { verdict: 'caught', reason: `${tool}: ${quoteLine(finding)}` };
  const failed = lines.findIndex((l) => /^ruff failed$|^error: /.test(l));
  const cause = failed === -1 ? undefined : lines.slice(failed + 1).find((l) => /^\s+Cause: /.test(l));
  const line = (failed === -1 ? undefined : (cause ?? lines[failed])) ?? lastLine(lines);
  return {
    verdict: 'error',
    reason: `exit ${code}: ${tool} could not check the code: ${line ? quoteLine(line) : '(no output)'}; fix its config ([tool.ruff] in pyproject.toml, or ruff.toml) or the tier's command, then push again`,
  };
}

export const record = defineRunner({
  name: 'ruff',
  exits: { 1: 'ruff found violations', 2: 'ruff terminated abnormally: an invalid config or option, or an internal error' },
  check,
});
