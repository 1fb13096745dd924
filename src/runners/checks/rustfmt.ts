/**
 * rustfmt's check (`cargo fmt --check`, `cargo fmt -- --check`, `rustfmt --check`), read as a check, as
 * prettier's and biome's are. Exit 1 for both: files not formatted (a `Diff in /abs/src/lib.rs:8:`
 * block each, its lines coloured) and rustfmt's own failure (a file it cannot parse: `error: expected
 * expression, found `}`` with ` --> src/lib.rs:3:1` under it; cargo's: no Cargo.toml, an unknown
 * option). A diff is a finding (a catch naming the files); an `error` line, whatever else it printed,
 * an error: rustfmt did not check every file. Pure.
 */
import { lastLine, quoteLine } from '../read.js';
import { type Checked, defineRunner } from '../record.js';

const DIFF = /^Diff in (.+?):(\d+):$/;
/** rustfmt's own errors (`error: ...`, `error[E0...]: ...`) and cargo fmt's (`\`cargo metadata\` exited with an error: ...`). */
const ERROR = /^error(?:\[\w+\])?: |^`cargo metadata` exited with an error: /;

function check(tool: string, lines: readonly string[], code: number): Checked {
  const at = lines.findIndex((l) => ERROR.test(l));
  // Each file once, at its first diff.
  const first = new Map<string, number>();
  for (const l of lines) {
    const m = DIFF.exec(l);
    if (m && !first.has(m[1]!)) first.set(m[1]!, Number(m[2]));
  }
  const files = [...first];
  if (at === -1 && files.length > 0) {
    const named = files.slice(0, 3).map(([file, line]) => quoteLine(`${file}:${line}`));
    const more = files.length > 3 ? `, and ${files.length - 3} more` : '';
    return {
      verdict: 'caught',
      reason: `${tool}: ${files.length} file${files.length === 1 ? '' : 's'} not formatted: ${named.join(', ')}${more} (\`cargo fmt\` formats them)`,
    };
  }
  const place = at === -1 ? undefined : /^\s*--> (\S+)$/.exec(lines[at + 1] ?? '')?.[1];
  const line = at === -1 ? lastLine(lines) : place !== undefined ? `${place}: ${lines[at]!}` : lines[at]!;
  return {
    verdict: 'error',
    reason: `exit ${code}: ${tool} could not check the formatting: ${line ? quoteLine(line) : '(no output)'}; fix the file it names (code rustfmt cannot parse), Cargo.toml or the tier's command, then push again`,
  };
}

export const record = defineRunner({
  name: 'rustfmt',
  exits: { 1: 'rustfmt found files not formatted, or could not check (its output says which)' },
  check,
});
