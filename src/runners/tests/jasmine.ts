/** jasmine: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import {
  anyOf,
  type FailedTest,
  firstFrame,
  firstMatch,
  firstMessageLine,
  jsErrorLine,
  lastMatch,
  nextLine,
  type Reading,
  type RunnerProfile,
} from '../read.js';
import { defineRunner } from '../record.js';

/**
 * jasmine 5 and 7 (its default console reporter): `N specs, M failures[, K pending specs]`, or `No specs
 * found` (exit 2, "Incomplete"). jasmine exits 3 for failed specs, 1 when a spec file or its config
 * cannot load (the error alone, no summary), 2 for an incomplete run (no specs, a focused `fit`), 4
 * when `process.exit` is called mid-run (nothing more is printed). A `Suite error:` (a describe body
 * that throws, an `afterAll` that fails, a file that cannot load under `--parallel`) is counted among
 * the failures though no spec failed; a failing `beforeAll` fails its specs ("Not run because a
 * beforeAll function failed"), counted as failed as jest counts them. An uncaught exception or
 * unhandled rejection while a spec runs is that spec's failure, as mocha has it.
 */
const JASMINE_SUITE_ERROR = /^Suite error: /;
/** Its summary: `3 specs, 2 failures, 1 pending spec`. */
const JASMINE_SUMMARY = /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?/;

/**
 * jasmine's failed specs: each `N) full name` under `Failures:` (its suites' and its own descriptions
 * joined by spaces, as jasmine prints them), the line below `Message:`, and the first frame under `Stack:`
 * in the project's code (jasmine's own frames print as `<Jasmine>`). A `Suite error:` is no spec.
 */
function jasmineFailures(lines: readonly string[]): FailedTest[] {
  const from = lines.findIndex((l) => /^Failures:\s*$/.test(l));
  if (from === -1) return [];
  const out: FailedTest[] = [];
  const heads: number[] = [];
  for (let i = from + 1; i < lines.length; i++) if (/^\d+\) \S/.test(lines[i]!)) heads.push(i);
  for (const [k, h] of heads.entries()) {
    const end = heads[k + 1] ?? lines.length;
    const name = lines[h]!.replace(/^\d+\)\s/, '').trim();
    if (JASMINE_SUITE_ERROR.test(name)) continue;
    const said = lines.findIndex((l, i) => i > h && i < end && /^\s*Message:\s*$/.test(l));
    const message = said === -1 ? undefined : nextLine(lines, said);
    const frame = firstFrame(lines, h + 1, end);
    out.push({ title: [name], ...(frame && { file: frame.file, line: frame.line }), message: firstMessageLine(message ?? 'failed') });
  }
  return out;
}

const jasmine: RunnerProfile = {
  failures: jasmineFailures,
  // A suite error is counted among the failures: each is told apart by its line in the details above the counts.
  // Its summary too: a workspaces run prints one per workspace, the early ones long before the output's last 64 kB.
  keep: anyOf(JASMINE_SUITE_ERROR, JASMINE_SUMMARY),
  needsSummary: true,
  read(lines) {
    const out: Reading = {};
    const s = lastMatch(lines, JASMINE_SUMMARY);
    const suiteErrors: number[] = [];
    lines.forEach((l, i) => {
      if (JASMINE_SUITE_ERROR.test(l)) suiteErrors.push(i);
    });
    if (s) {
      const failed = Math.max(0, Number(s.m[2]) - suiteErrors.length);
      const skipped = Number(s.m[3] ?? 0);
      const total = Number(s.m[1]);
      out.summary = { line: s.line, failed, passed: Math.max(0, total - failed - skipped), total, skipped };
    }
    const none = firstMatch(lines, /^No specs found$/);
    if (none) out.noTests = { line: none.line };
    if (suiteErrors.length > 0) {
      // Its message: the line after "Message:" (`Error: teardown broke`, `Error loading /x/a.spec.js: Cannot find module './nope'`).
      const at = suiteErrors[0]!;
      const message = firstMatch(lines.slice(at + 1, at + 4), /^\s+Message:$/);
      const why = message ? nextLine(lines, at + 1 + message.index) : undefined;
      out.cannotRun = {
        what: 'an error outside any spec (a describe body that throws, an afterAll that fails, a spec file that cannot load)',
        line: why ?? lines[at]!,
      };
    }
    const incomplete = firstMatch(lines, /^Incomplete: (?!No specs found)/);
    if (incomplete)
      out.failedBesides = {
        what: /fit\(\) or fdescribe\(\)/.test(incomplete.line)
          ? 'a focused spec (fit or fdescribe) makes the run incomplete (make it it or describe again)'
          : 'the run is incomplete',
        line: incomplete.line,
      };
    if (!s && !none) {
      const usage = firstMatch(lines, /^Unknown options?: /);
      const err = usage ? undefined : jsErrorLine(lines);
      if (usage) out.cannotRun = { what: 'a jasmine usage error', line: usage.line };
      else if (err) out.cannotRun = { what: 'jasmine could not load a spec file, a helper or its config', line: err };
    }
    return out;
  },
};

export const record = defineRunner({
  name: 'jasmine',
  exits: {
    1: 'jasmine could not load a spec file, a helper or its config, or was given an unknown option',
    2: 'jasmine called the run incomplete (no specs found, or a focused fit/fdescribe)',
    4: 'jasmine exited early: process.exit was called while the specs ran',
  },
  ambiguousExit: 'jasmine exits 3 for failed specs and for an error outside any spec (a describe body, an afterAll)',
  junitHint: "a JUnit reporter for jasmine (jasmine-reporters' JUnitXmlReporter) writing PATH",
  profile: jasmine,
});
