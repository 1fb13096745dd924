/**
 * prettier `--check` (or `--list-different`), read as a check (prettier 3). Exit 1: files not formatted
 * (`[warn] src/a.js` each, then `[warn] Code style issues found ...`; `-l` prints the paths alone);
 * exit 2: prettier could not check (`[error] ...`: a config that does not parse, a file that does not
 * parse, no files matching). Pure.
 */
import { lastLine, quoteLine } from '../read.js';
import { type Checked, defineRunner } from '../record.js';

const WARN_FILE = /^\[warn\] (?!Code style issues)(\S.*)$/;
const WARN_SUMMARY = /^\[warn\] Code style issues /;
const ERROR = /^\[error\] \S/;

function check(tool: string, lines: readonly string[], code: number): Checked {
  if (code === 1) {
    const file = lines.map((l) => WARN_FILE.exec(l)?.[1]).find((f) => f !== undefined);
    // `--list-different` prints only the paths.
    const listed = file ?? lines.find((l) => l.trim() !== '' && !/^(?:Checking formatting\.\.\.|\[\w+\] )/.test(l));
    if (listed !== undefined) {
      const summary = lines.find((l) => WARN_SUMMARY.test(l));
      return {
        verdict: 'caught',
        reason: `${tool}: ${quoteLine(listed.trim())} is not formatted${summary ? ` (${quoteLine(summary)})` : ''}`,
      };
    }
  }
  const error = lines.find((l) => ERROR.test(l));
  const line = error ?? lastLine(lines);
  return {
    verdict: 'error',
    reason: `exit ${code}: ${tool} could not check the formatting: ${line ? quoteLine(line) : '(no output)'}; fix the file or config it names, or the tier's command, then push again`,
  };
}

export const record = defineRunner({
  name: 'prettier',
  exits: {
    1: 'prettier found files not formatted',
    2: 'prettier could not check: a config or file that does not parse, or no files matching',
  },
  check,
});
