/**
 * eslint, read as a check (eslint 9 and 10, its default `stylish` formatter). Exit 1: a rule found a
 * problem (a file's path, then `  2:7  error  message  rule` under it); exit 2: eslint could not lint
 * at all (no eslint.config.*, a config that throws or does not parse, an unknown rule or formatter, no
 * files matching), printed after `Oops! Something went wrong! :(` and `ESLint: <version>`. Pure.
 */
import { lastLine, quoteLine } from '../read.js';
import { type Checked, defineRunner } from '../record.js';

const STYLISH = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.*?)\s{2,}(\S+)\s*$/;
/** stylish's last line: `✖ 3 problems (2 errors, 1 warning)`. */
const TOTAL = /^✖ \d+ problems? \(/;
const VERSION = /^ESLint: \d+\.\d+/;
const TOO_MANY_WARNINGS = /^ESLint found too many warnings/;

/** The first finding: the file above it and its line, rule and message, as `file:line:column rule: message`. */
function firstFinding(lines: readonly string[]): string | undefined {
  let file: string | undefined;
  for (const l of lines) {
    if (/^\S/.test(l) && !TOTAL.test(l)) file = l.trim();
    const m = STYLISH.exec(l);
    if (m && file !== undefined) return `${file}:${m[1]}:${m[2]} ${m[5]}: ${m[4]}`;
  }
  return undefined;
}

/** What eslint printed when it could not lint: the line under `ESLint: <version>`. */
function crashLine(lines: readonly string[]): string | undefined {
  const at = lines.findIndex((l) => VERSION.test(l));
  if (at !== -1) return lines.slice(at + 1).find((l) => l.trim() !== '');
  return undefined;
}

function check(tool: string, lines: readonly string[], code: number): Checked {
  const finding = code === 1 ? firstFinding(lines) : undefined;
  if (finding !== undefined) {
    const total = lines.find((l) => TOTAL.test(l));
    return { verdict: 'caught', reason: `${tool}: ${total ? `${quoteLine(total)}, the first: ` : ''}${quoteLine(finding)}` };
  }
  const tooMany = code === 1 ? lines.find((l) => TOO_MANY_WARNINGS.test(l)) : undefined;
  if (tooMany !== undefined) return { verdict: 'caught', reason: `${tool}: ${quoteLine(tooMany)}` };
  const line = crashLine(lines) ?? lastLine(lines);
  return {
    verdict: 'error',
    reason: `exit ${code}: ${tool} could not lint the code, so nothing was checked: ${line ? quoteLine(line) : '(no output)'}; fix its config (eslint.config.*, and what it imports) or the tier's command, then push again`,
  };
}

export const record = defineRunner({
  name: 'eslint',
  exits: {
    1: 'eslint found problems',
    2: 'eslint could not lint: a missing or broken config, an unknown rule or option, or no files matching',
  },
  check,
});
