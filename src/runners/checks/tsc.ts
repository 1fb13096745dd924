/** tsc: the TypeScript type checker (and vue-tsc, tsgo), read as a check: its diagnostics decide. Pure. */
import { lastLine, quoteLine } from '../read.js';
import { type Checked, defineRunner } from '../record.js';

/** What a TypeScript type check printed: its type errors in source files, and errors of its setup. */
export interface TypeDiagnostics {
  /** `src/a.ts(1,7): error TS2322: ...` (or the `--pretty` form `src/a.ts:1:7 - error TS2322: ...`). */
  typeErrors: string[];
  /** Type errors in installed dependencies' declarations (`node_modules/@types/node/globals.d.ts(585,5)`): versions that disagree, not the code. */
  dependencyErrors: string[];
  /** Errors no source line caused: options and tsconfig (TS5xxx, TS6xxx), no inputs (TS18003), a missing types package (TS2688 without a file). */
  setupErrors: string[];
}

const TS_AT = /^(.+?)(?:\((\d+),(\d+)\):|:(\d+):(\d+) -) error TS(\d+): /;
const TS_BARE = /^error TS\d+: /;

/**
 * tsc's diagnostics, sorted into errors of the code (a catch: the patch does not type-check) and errors
 * of the check's own setup (an error: it could not check), by code and by the file each one names.
 */
export function typeDiagnostics(lines: readonly string[]): TypeDiagnostics {
  const out: TypeDiagnostics = { typeErrors: [], dependencyErrors: [], setupErrors: [] };
  for (const line of lines) {
    if (TS_BARE.test(line)) {
      out.setupErrors.push(line);
      continue;
    }
    const m = TS_AT.exec(line);
    if (!m) continue;
    const code = Number(m[6]);
    const setup = (code >= 5000 && code < 7000) || code === 18003 || /\.json$/.test(m[1]!);
    (setup ? out.setupErrors : /(?:^|[/\\])node_modules[/\\]/.test(m[1]!) ? out.dependencyErrors : out.typeErrors).push(line);
  }
  return out;
}

/**
 * A failed type check (`tsc --noEmit`, `vue-tsc`): type errors in the code are a catch whatever the code
 * (tsc exits 2 when it emits nothing, 1 when it emitted files anyway); an error of its setup (an unknown
 * option, a missing tsconfig, no input files) is an error, since nothing was checked as configured. Pure.
 */
function check(checker: string, lines: readonly string[], code: number): Checked {
  const d = typeDiagnostics(lines);
  const setup = d.setupErrors[0];
  if (setup !== undefined) {
    return {
      verdict: 'error',
      reason: `exit ${code}: ${checker} could not check the code as configured: ${quoteLine(setup)}; fix its tsconfig or the tier's command, then push again`,
    };
  }
  // `--pretty` ends with `Found 3 errors in 2 files.`: the whole count, where a long output's kept tail may hold only the last ones.
  const found = lines.map((l) => /^Found (\d+) errors?\b/.exec(l)).find((m) => m !== null);
  const n = found ? Number(found[1]) : d.typeErrors.length;
  if (d.typeErrors.length > 0)
    return { verdict: 'caught', reason: `${checker}: ${n} type error${n === 1 ? '' : 's'}: ${quoteLine(d.typeErrors[0]!)}` };
  const dep = d.dependencyErrors[0];
  if (dep !== undefined) {
    return {
      verdict: 'error',
      reason: `exit ${code}: ${checker} found type errors only in installed dependencies, whose versions disagree (the code itself type-checks): ${quoteLine(dep)}; align those packages' versions, or set \`skipLibCheck\` in tsconfig, then push again`,
    };
  }
  const last = lastLine(lines);
  return {
    verdict: 'error',
    reason: `exit ${code} without a diagnostic from ${checker}, so no type error shows the code is wrong; last output: ${last ? quoteLine(last) : '(none)'}`,
  };
}

export const record = defineRunner({
  name: 'tsc',
  exits: { 1: 'tsc found errors (and emitted files anyway)', 2: 'tsc found errors and emitted nothing' },
  check,
});
