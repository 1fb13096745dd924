/**
 * biome `check`, `lint`, `format` and `ci`, read as a check (biome 2). It exits 1 for findings and for
 * its own failures alike, so the diagnostics decide: each starts with a header, `path:line:col
 * category ━━━` (a format finding names the file alone), then `×` for an error or `!` for a warning.
 * A finding is one of `lint/...`, `assist/...` or `format`; a configuration that does not parse or is
 * invalid (`× Biome exited because the configuration resulted in errors.`), a file it cannot read or no
 * files processed are errors. Pure.
 */
import { lastLine, quoteLine } from '../read.js';
import { type Checked, defineRunner } from '../record.js';

const HEADER = /^(\S+?)(?::(\d+):(\d+))? ((?:lint|assist)\/\S+|format|[\w/]+)(?:\s+[A-Z]+)*\s+━+$/;
const FINDING = /^(?:lint|assist)\/|^format$/;

function check(tool: string, lines: readonly string[], code: number): Checked {
  let firstError: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const m = HEADER.exec(lines[i]!);
    if (!m) continue;
    const marker =
      lines
        .slice(i + 1, i + 4)
        .find((l) => l.trim() !== '')
        ?.trim() ?? '';
    if (!marker.startsWith('×')) continue;
    const where = `${m[1]}${m[2] ? `:${m[2]}:${m[3]}` : ''}`;
    if (FINDING.test(m[4]!))
      return { verdict: 'caught', reason: `${tool}: ${quoteLine(`${where} ${m[4]}: ${marker.replace(/^×\s*/, '')}`)}` };
    firstError ??= m[2] ? `${where} ${m[4]}: ${marker.replace(/^×\s*/, '')}` : marker.replace(/^×\s*/, '');
  }
  const line = firstError ?? lastLine(lines);
  return {
    verdict: 'error',
    reason: `exit ${code}: ${tool} could not check the code as configured: ${line ? quoteLine(line) : '(no output)'}; fix its config (biome.json) or the tier's command, then push again`,
  };
}

export const record = defineRunner({
  name: 'biome',
  exits: { 1: 'biome found errors, or could not check (its diagnostics say which)' },
  check,
});
