/**
 * flake8, read as a check (flake8 5 to 7). Exit 1 for findings (`path:line:col: CODE message`) and for
 * its own crash (a traceback: a config value it cannot read); exit 2 for a bad option. E902 (a file it
 * cannot read) is no finding of the code: an error; E999 (a file it cannot parse) is one. Pure.
 */
import { lastLine, quoteLine } from '../read.js';
import { type Checked, defineRunner } from '../record.js';

const FINDING = /^(.+?):(\d+):(\d+): ([A-Z]+\d+) (.*)$/;
const PY_ERROR = /^(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)(?::|$)/;

function check(tool: string, lines: readonly string[], code: number): Checked {
  const findings = lines.map((l) => FINDING.exec(l)).filter((m) => m !== null);
  const first = findings.find((m) => m[4] !== 'E902');
  if (code === 1 && first) {
    const n = findings.length;
    return { verdict: 'caught', reason: `${tool}: ${n} finding${n === 1 ? '' : 's'}, the first: ${quoteLine(first[0])}` };
  }
  const unreadable = findings.find((m) => m[4] === 'E902');
  const crash = [...lines].reverse().find((l) => PY_ERROR.test(l));
  const line = unreadable?.[0] ?? crash ?? lines.find((l) => /^flake8: error: /.test(l)) ?? lastLine(lines);
  return {
    verdict: 'error',
    reason: `exit ${code}: ${tool} could not check the code: ${line ? quoteLine(line) : '(no output)'}; fix its config ([flake8] in setup.cfg, tox.ini or .flake8) or the tier's command, then push again`,
  };
}

export const record = defineRunner({
  name: 'flake8',
  exits: { 1: 'flake8 found problems, or crashed (a traceback)', 2: 'flake8 was given a bad option' },
  check,
});
