/**
 * go vet, read as a check (go 1.19 and later). Exit 2 for its findings (`util/util.go:5:15: fmt.Printf
 * format %s has arg 3 of wrong type int`, below a `# package` line), and exit 2 too for code that does
 * not compile (`vet: bad/bad.go:3:35: invalid operation: ...`), which it cannot check: an error, as a
 * compile error is under go test. A bad flag (exit 2) and a package go cannot load (exit 1: an import
 * cycle, a pattern matching no folder) are errors too. Pure.
 */
import { lastLine, quoteLine } from '../read.js';
import { type Checked, defineRunner } from '../record.js';

const FINDING = /^(?:\.\/)?\S+\.go:\d+:\d+: \S/;
const COMPILE_ERROR = /^vet: (\S+\.go:\d+(?::\d+)?: .*)$/;
const USAGE = /^flag provided but not defined: |^usage: go vet /;

function check(tool: string, lines: readonly string[], code: number): Checked {
  const findings = lines.filter((l) => FINDING.test(l));
  if (findings.length > 0) {
    const n = findings.length;
    return { verdict: 'caught', reason: `${tool}: ${n} finding${n === 1 ? '' : 's'}, the first: ${quoteLine(findings[0]!)}` };
  }
  const compile = lines.map((l) => COMPILE_ERROR.exec(l)).find((m) => m !== null);
  if (compile)
    return {
      verdict: 'error',
      reason: `exit ${code}: a compile error, which ${tool} cannot check past: ${quoteLine(compile[1]!)}; fix the code so that it builds, then push again`,
    };
  const usage = lines.find((l) => USAGE.test(l));
  const line = usage ?? lastLine(lines);
  return {
    verdict: 'error',
    reason: `exit ${code}: ${tool} could not check the code: ${line ? quoteLine(line) : '(no output)'}; ${usage ? "fix the tier's command" : "fix what it names (an import cycle, a missing module, a pattern that matches no package) or the tier's command"}, then push again`,
  };
}

export const record = defineRunner({
  name: 'govet',
  exits: { 1: 'go could not load the packages to vet', 2: 'go vet found problems, could not compile the code, or was given a bad option' },
  check,
});
