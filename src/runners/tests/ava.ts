/** ava: what gate-ladder knows of it (see record.ts), and how its output is read. Pure. */
import { shown } from '../../util/escape.js';
import {
  ANY_ERROR,
  anyOf,
  type FailedTest,
  firstFrame,
  firstMatch,
  firstMessageLine,
  jsErrorLine,
  lastMatch,
  type Reading,
  type RunnerProfile,
  tapFailures,
} from '../read.js';
import { defineRunner } from '../record.js';

/**
 * ava 6, its default reporter: a line per test (`✔ adds`, `✘ [fail]: adds ...`), then after a `─` rule
 * the summary (`2 tests failed`, `1 hook failed`, `3 tests passed`, `1 test skipped`, `1 uncaught
 * exception`, ...). ava exits 1 for a failed test and for everything else, so only the summary tells.
 * A failed hook counts as a failure, as mocha counts one (its file's tests stay unrun). An uncaught
 * exception or unhandled rejection `in <file>` is outside any test: the file cannot load (a missing
 * module, a syntax error) or code threw after its test ended. `process.exit` in a test, ava's own
 * timeout, a worker that died and a file without tests (`No tests found in`) are no test failing.
 * `N tests passed` is printed only when nothing failed; otherwise the `✔` lines are the passes.
 */
const AVA_COUNT =
  /^\s*(\d+) (tests? failed|hooks? failed|tests? passed|known failures?|tests? skipped|tests? todo|unhandled rejections?|uncaught exceptions?|tests? remained pending after a timeout)\b/;
const AVA_KINDS: readonly [RegExp, string][] = [
  [/^tests? failed/, 'failed'],
  [/^hooks? failed/, 'hooks'],
  [/^tests? passed/, 'passed'],
  [/^known/, 'known'],
  [/^tests? skipped/, 'skipped'],
  [/^tests? todo/, 'todo'],
  [/^unhandled/, 'rejections'],
  [/^uncaught/, 'exceptions'],
  [/^tests? remained/, 'pending'],
];

/** Every line of ava's own that the reading looks for outside its summary starts with a cross (`✘ Exiting due to process.exit()`, `✘ No tests found in`). */
const AVA_CROSS = /^\s*✘ /;
/** The rule above its summary. */
const AVA_RULE = /^\s*─\s*$/;
const AVA_UNCAUGHT = /^\s*(Uncaught exception|Unhandled rejection) in (\S.*?)\s*$/;

/** What stopped ava outside any test, in the order it matters: the first line that says so. */
function avaOutsideTests(lines: readonly string[], pending: string | undefined): { what: string; line: string } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const m = AVA_UNCAUGHT.exec(lines[i]!);
    if (!m) continue;
    // The error is printed below, before the next test or file line.
    let end = i + 1;
    while (end < lines.length && end < i + 40 && !/^\s*(?:[✘✔─]|Uncaught exception in |Unhandled rejection in )/.test(lines[end]!)) end++;
    const why = jsErrorLine(lines.slice(i + 1, end));
    return { what: `an ${m[1]!.toLowerCase()} in ${shown(m[2]!)}, outside any test`, line: why ?? lines[i]! };
  }
  const rules: readonly [RegExp, string][] = [
    [
      /^\s*✘ Exiting due to process\.exit\(\) when running /,
      "process.exit was called (in a test, or by the file itself), so ava stopped before the file's tests finished",
    ],
    [/^\s*✘ Timed out while running tests/, "ava's timeout ended the run: a test never finished (ava --timeout, 10 s by default)"],
    [/^\s*✘ .* exited due to (?:SIG[A-Z0-9]+|an error:)/, "a test file's process died"],
    [/^\s*✘ Internal error/, 'ava failed internally'],
    [/^\s*✘ Error in shared worker/, 'an ava shared worker failed'],
    [/^\s*✘ .* exited with a non-zero exit code: \d+$/, 'a test file exited outside any test'],
    [/^\s*✘ \d+ tests? remaining in /, 'tests of a file never ran'],
  ];
  for (const [re, what] of rules) {
    const hit = firstMatch(lines, re);
    if (hit) return { what, line: re.source.includes('Timed out') && pending ? pending : hit.line };
  }
  return undefined;
}

/** `ava --tap`: `# tests`, `# pass`, `# skip`, `# fail`; a crash is a `not ok` of its own (a file that exited, no tests found). */
function avaTap(lines: readonly string[]): Reading {
  const out: Reading = {};
  const num = (k: string) => lastMatch(lines, new RegExp(`^# ${k} (\\d+)$`));
  const tests = num('tests');
  const crash = firstMatch(
    lines,
    /^not ok \d+ - (?:.* exited (?:with a non-zero exit code: \d+|due to SIG[A-Z0-9]+)|No tests found in |Line numbers for )|^# \d+ tests? remaining in /,
  );
  let failed = 0;
  let firstFailed: string | undefined;
  let todo = 0;
  // An uncaught exception's own `not ok`, named by its error: `Error: Cannot find module './nope'`.
  let thrown: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const m = /^not ok \d+ - (.*?)(?: # (TODO|SKIP)\b.*)?$/.exec(lines[i]!);
    if (!m) continue;
    if (m[2] === 'TODO') {
      todo++;
      continue;
    }
    if (/ exited (?:with a non-zero exit code: \d+|due to SIG[A-Z0-9]+)$|^No tests found in |^Line numbers for /.test(m[1]!)) continue;
    // Beside a crash, an uncaught exception is a `not ok` too: only ava's own test failures (an
    // assertion, or an error thrown in a test, both AssertionError) count then.
    const yaml = lines.slice(i + 1, i + 6);
    const name = yaml
      .find((y) => /^\s+name: /.test(y))
      ?.trim()
      .slice('name: '.length);
    if (!crash || name === 'AssertionError') {
      failed++;
      firstFailed ??= lines[i]!;
    } else {
      const message = yaml
        .find((y) => /^\s+message: \S/.test(y) && !/: [|>]-?$/.test(y))
        ?.trim()
        .slice('message: '.length);
      thrown ??= ANY_ERROR.test(m[1]!) ? m[1]! : name && message ? `${name}: ${message} (${m[1]!})` : lines[i]!;
    }
  }
  if (tests) {
    const passed = Number(num('pass')?.m[1] ?? 0);
    const skipped = Number(num('skip')?.m[1] ?? 0) + todo;
    // `# fail` counts the crashes too: beside one, the first failed test is the line to quote.
    const failLine = crash ? firstFailed : num('fail')?.line;
    out.summary = { line: failed > 0 && failLine ? failLine : tests.line, failed, passed, total: failed + passed + skipped, skipped };
  } else {
    // ava stopped before its summary (its TAP reporter throws on process.exit in a test and on a timeout).
    const err = jsErrorLine(lines);
    if (err) out.cannotRun = { what: 'ava stopped before its summary', line: err };
  }
  if (crash) {
    const none = /No tests found in |Line numbers for /.test(crash.line);
    if (none && (out.summary?.total ?? 0) === 0) out.noTests = { line: crash.line };
    else
      out.cannotRun = {
        what: none ? 'a test file declares no test (ava fails the run for it)' : 'a test file failed outside any test',
        line: (none ? undefined : thrown) ?? crash.line,
      };
  }
  return out;
}

/**
 * ava's failed tests. Its default reporter: each `✘ [fail]: title` line (`file › title` with several
 * files), then below the `─` rule a block per failure opened by its title: the place is the block's
 * `file:line` header (an assertion's) or the first frame in the project's code (a thrown error's), the
 * message the block's first line that is neither (`Difference (- actual, + expected):`, `Error thrown in test:`).
 * `--tap`: its `not ok` lines.
 */
function avaFailures(lines: readonly string[]): FailedTest[] {
  if (firstMatch(lines, /^TAP version \d+$/)) return tapFailures(lines);
  const marked = lines.flatMap((l) => {
    const m = /^\s*✘ \[fail\]: (.+)$/.exec(l);
    return m ? [m[1]!] : [];
  });
  const rule = lines.findIndex((l) => /^\s*─\s*$/.test(l));
  const heads: { at: number; title: string }[] = [];
  for (let i = rule + 1; rule !== -1 && i < lines.length; i++) {
    const t = lines[i]!.trim();
    if (t !== '' && /^ {2}\S/.test(lines[i]!) && marked.some((m) => m === t || m.startsWith(`${t} `)) && lines[i + 1]?.trim() === '')
      heads.push({ at: i, title: t });
  }
  const out: FailedTest[] = [];
  for (const [k, h] of heads.entries()) {
    let end = heads[k + 1]?.at ?? lines.length;
    const close = lines.findIndex((l, i) => i > h.at && /^\s*─\s*$/.test(l));
    if (close !== -1 && close < end) end = close;
    const block = lines.slice(h.at + 1, end);
    const header = block.map((l) => /^\s*(\S+\.[cm]?[jt]sx?):(\d+)$/.exec(l)).find(Boolean);
    const frame = header ? undefined : firstFrame(lines, h.at + 1, end);
    // A thrown error's own line (`Error: boom`) says more than ava's `Error thrown in test:` above it.
    const thrown = header ? undefined : block.find((l) => ANY_ERROR.test(l));
    const message = thrown ?? block.find((l) => l.trim() !== '' && !/^\s*(\S+):(\d+)$/.test(l) && !/^\s*\d+: /.test(l));
    out.push({
      title: h.title.split(' › ').filter((t, i, all) => !(i === 0 && all.length > 1 && /\.[cm]?[jt]sx?$/.test(t))),
      ...(header ? { file: header[1]!, line: Number(header[2]) } : frame && { file: frame.file, line: frame.line }),
      message: firstMessageLine((message ?? 'failed').replace(/:$/, '')),
    });
  }
  return out;
}

const ava: RunnerProfile = {
  failures: avaFailures,
  // Its summary too (the rule above it, its counts, the passes it counts when a test failed): a workspaces run prints one per workspace, the early ones long before the output's last 64 kB.
  keep: anyOf(AVA_CROSS, AVA_UNCAUGHT, AVA_RULE, AVA_COUNT, /^\s*✔ /),
  // ava prints its summary whenever a run ends (process.exit in a test is its own failure, exit 1).
  needsSummary: true,
  read(lines) {
    if (firstMatch(lines, /^TAP version \d+$/)) return avaTap(lines);
    const out: Reading = {};
    let rule = -1;
    for (let i = lines.length - 1; i >= 0; i--) {
      if (AVA_RULE.test(lines[i]!)) {
        rule = i;
        break;
      }
    }
    const counts = new Map<string, { n: number; line: string }>();
    for (let i = rule === -1 ? lines.length : rule + 1; i < lines.length; i++) {
      const m = AVA_COUNT.exec(lines[i]!);
      const kind = m && AVA_KINDS.find(([re]) => re.test(m[2]!))?.[1];
      if (kind) counts.set(kind, { n: Number(m[1]), line: lines[i]! });
    }
    const n = (k: string) => counts.get(k)?.n ?? 0;
    const said =
      counts.get('failed') ??
      counts.get('hooks') ??
      counts.get('passed') ??
      counts.get('known') ??
      counts.get('skipped') ??
      counts.get('todo');
    if (said) {
      const failed = n('failed') + n('hooks');
      // `N tests passed` is left out when anything failed: the `✔` lines are the passes then (known failures among them).
      const passed = counts.has('passed') ? n('passed') + n('known') : lines.filter((l) => /^\s*✔ /.test(l)).length;
      const skipped = n('skipped') + n('todo');
      out.summary = { line: said.line, failed, passed, total: failed + passed + skipped, skipped };
    }
    const noFiles = firstMatch(
      lines,
      /^\s*✘ (?:Couldn.t find any (?:files to test|matching tests)|Based on your configuration, \d+ test files? (?:was|were) found, but did not match the filters)/,
    );
    if (noFiles) out.noTests = { line: noFiles.line };
    const empty = firstMatch(lines, /^\s*✘ (?:No tests found in |Line numbers for .* did not match any tests)/);
    if (empty && (out.summary?.total ?? 0) === 0) out.noTests ??= { line: empty.line };
    else if (empty) out.cannotRun = { what: 'a test file declares no test (ava fails the run for it)', line: empty.line };
    const outside = avaOutsideTests(lines, counts.get('pending')?.line);
    if (outside) out.cannotRun = outside;
    else if (!out.summary && !out.noTests && !out.cannotRun) {
      // ava stopped before any test: a config it cannot use, a bad flag value (`✘ The --concurrency or -c flag must be ...`).
      const stop = firstMatch(lines, /^\s*✘ (?!\[)\S/)?.line ?? jsErrorLine(lines);
      if (stop) out.cannotRun = { what: 'ava could not start', line: stop };
    }
    return out;
  },
};

export const record = defineRunner({
  name: 'ava',
  ambiguousExit: 'ava exits 1 for failed tests and for a test file that cannot load, no tests, or an uncaught exception',
  junitHint: 'a TAP-to-JUnit converter over ava --tap, writing PATH',
  profile: ava,
});
