/**
 * clippy (`cargo clippy`), read as a check, and `cargo check` (checks/cargo-check.ts) with it. Both exit
 * 101 for a lint denied into an error (`-D warnings`, `#![deny(...)]`) and for a compile error: each
 * `error` diagnostic is told apart by what it says of itself (read.ts `rustErrors`): a lint is a
 * finding (a catch, quoting the first: file:line:col, message and lint), anything else (an
 * `error[E0308]`, a syntax error) a compile error: the code does not build, so nothing was checked (an
 * error, blamed on the file it names). cargo's own failure (Cargo.toml that does not parse, an unknown
 * option) is an error too. Warnings alone exit 0: a pass. Pure.
 */
import { lastLine, quoteLine, rustErrorLine, rustErrors } from '../read.js';
import { type Checked, defineRunner } from '../record.js';

/** A failed `cargo clippy` or `cargo check` (`tool`: the record's name). */
export function rustCheck(tool: string, lines: readonly string[], code: number): Checked {
  const errors = rustErrors(lines);
  const manifest = errors.find((e) => e.at !== undefined && /(?:^|\/)Cargo\.toml:/.test(e.at));
  if (manifest)
    return {
      verdict: 'error',
      reason: `exit ${code}: cargo could not read its manifest, so nothing was checked: ${quoteLine(rustErrorLine(manifest))}; fix Cargo.toml, then push again`,
    };
  const compile = errors.find((e) => e.lint === undefined);
  if (compile) return { verdict: 'error', reason: `a compile error, so ${tool} checked nothing: ${quoteLine(rustErrorLine(compile))}` };
  const first = errors[0];
  if (first) {
    const n = errors.length;
    const what = `${first.at !== undefined ? `${first.at}: ` : ''}${first.message} (${first.lint})`;
    return { verdict: 'caught', reason: `${tool}: ${n} finding${n === 1 ? '' : 's'}, the first: ${quoteLine(what)}` };
  }
  const own = lines.find((l) => /^error(?:\[E\d{4}\])?: /.test(l)) ?? lastLine(lines);
  return {
    verdict: 'error',
    reason: `exit ${code} without a diagnostic of the code from ${tool}, so no finding shows the code is wrong: ${own ? quoteLine(own) : '(no output)'}; run the tier's command to see why`,
  };
}

export const record = defineRunner({
  name: 'clippy',
  check: rustCheck,
});
