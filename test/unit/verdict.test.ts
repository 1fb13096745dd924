import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GateExit } from '../../src/gates/gate.js';
import type { ResolvedTier } from '../../src/config/resolved.js';
import type { RunnerName } from '../../src/types.js';
import { type OutputContext, ambiguityNotes, classify, notFoundCommand, quoteLine } from '../../src/verdict/verdict.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

const exit = (over: Partial<GateExit>): GateExit => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  interrupted: false,
  seconds: 1,
  tail: '',
  ...over,
});

const cases: [string, Partial<GateExit>, number[], RunnerName | undefined, string, string | undefined][] = [
  ['exit 0 passes', { exitCode: 0 }, [1], undefined, 'pass', undefined],
  ['exit 1 is caught by default', { exitCode: 1 }, [1], undefined, 'caught', undefined],
  [
    'exit 2 without a runner says how to count it (npm test --workspaces: mocha exits 2 for two failures)',
    { exitCode: 2 },
    [1],
    undefined,
    'error',
    "exit 2: usage error; if exit 2 means a test failed, add it to the tier's `caught`, or set the tier's `runner` so its output is read",
  ],
  [
    "mocha's exit 2 is two failed tests, not a usage error, when the tier counts only 1",
    { exitCode: 2 },
    [1],
    'mocha',
    'error',
    'exit 2: what mocha exits with when tests fail',
  ],
  // From 126 on a shell's own codes: mocha's count of failures never reads as one.
  ["mocha 126 is the shell's", { exitCode: 126 }, [1], 'mocha', 'error', 'exit 126: command found but not executable'],
  ['pytest 2', { exitCode: 2 }, [1], 'pytest', 'error', 'exit 2: pytest was interrupted or hit collection errors'],
  ['pytest 3', { exitCode: 3 }, [1], 'pytest', 'error', 'exit 3: pytest internal error'],
  ['pytest 4', { exitCode: 4 }, [1], 'pytest', 'error', 'exit 4: pytest usage error (bad option, or a conftest.py that fails to import)'],
  ['pytest 5', { exitCode: 5 }, [1], 'pytest', 'error', 'exit 5: pytest collected no tests'],
  ['pytest 6', { exitCode: 6 }, [1], 'pytest', 'error', 'exit 6: pytest stopped at its --max-warnings (pytest 9.2 and later)'],
  [
    'an unknown code',
    { exitCode: 42 },
    [1],
    undefined,
    'error',
    "exit 42, which this tier does not count as a test failure; if exit 42 means a test failed, add it to the tier's `caught`, or set the tier's `runner` so its output is read",
  ],
  ['a listed code is caught', { exitCode: 101 }, [101], 'cargo', 'caught', undefined],
  ['exit 1 is not caught when the tier lists 101', { exitCode: 1 }, [101], 'cargo', 'error', 'exit 1: cargo usage error'],
  ['nextest 4 is no tests', { exitCode: 4 }, [100], 'nextest', 'error', 'exit 4: nextest found no tests'],
  ['timeout', { exitCode: null, signal: 'SIGTERM', timedOut: true }, [1], undefined, 'error', 'timed out after 30 s'],
  ['a signal', { exitCode: null, signal: 'SIGSEGV' }, [1], undefined, 'error', 'killed by SIGSEGV'],
  ['interrupted', { exitCode: null, signal: 'SIGINT', interrupted: true }, [1], undefined, 'error', 'interrupted (Ctrl-C)'],
  ['spawn failure', { exitCode: null, spawnError: 'command not found: pytestt' }, [1], undefined, 'error', 'command not found: pytestt'],
  [
    'shell 127 names the command',
    { exitCode: 127, tail: 'sh: 1: pytestt: not found\n' },
    [1],
    undefined,
    'error',
    'command not found: pytestt; install it (or fix its name in the tier), or push from a shell whose PATH has it',
  ],
  [
    'shell 127 without a message',
    { exitCode: 127 },
    [1],
    undefined,
    'error',
    'exit 127: command not found; install it (or fix its name in the tier), or push from a shell whose PATH has it',
  ],
  ['126', { exitCode: 126 }, [1], undefined, 'error', 'exit 126: command found but not executable'],
  ['a timeout wins over exit 1', { exitCode: 1, timedOut: true }, [1], undefined, 'error', 'timed out after 30 s'],
];

for (const [title, over, caught, runner, verdict, reason] of cases) {
  test(`classify: ${title}`, () => {
    const c = classify(exit(over), caught, 30, runner);
    assert.is(c.verdict, verdict);
    assert.is(c.reason, reason);
  });
}

test('notFoundCommand reads dash and bash messages', () => {
  assert.is(notFoundCommand('sh: 1: pytestt: not found'), 'pytestt');
  assert.is(notFoundCommand('/bin/sh: line 1: jestt: command not found'), 'jestt');
  assert.is(notFoundCommand('all good'), undefined);
});

// The flags beside the verdict: `inapplicable` (replay: not applicable here) and `proven` (a test failure is shown).
const out = (over: Partial<OutputContext['detection']> = {}, extra: Partial<OutputContext> = {}): OutputContext => ({
  detection: { words: [], managers: ['npm'], ...over },
  ...extra,
});

test('classify: a command that is not found cannot apply here; other spawn failures and exits can', () => {
  assert.equal(classify(exit({ exitCode: null, spawnError: 'command not found: pytestt' }), [1], 30), {
    verdict: 'error',
    reason: 'command not found: pytestt',
    inapplicable: true,
  });
  assert.equal(classify(exit({ exitCode: null, spawnError: 'spawn EACCES, command not found' }), [1], 30), {
    verdict: 'error',
    reason: 'spawn EACCES, command not found',
  });
  assert.equal(classify(exit({ exitCode: 127 }), [1], 30).inapplicable, true);
  assert.equal(classify(exit({ exitCode: null }), [1], 30), { verdict: 'error', reason: 'exited without a code' });
});

test('classify: a missing script or package.json is an error that cannot apply here, named by the package manager', () => {
  const missing = classify(exit({ exitCode: 1 }), [1], 30, { output: out({ missingScript: 'test:quick', managers: ['pnpm'] }) });
  assert.equal([missing.verdict, missing.inapplicable], ['error', true]);
  assert.ok(missing.reason?.startsWith('pnpm: missing script "test:quick"'), missing.reason);
  const noPkg = classify(exit({ exitCode: 1 }), [1], 30, { output: out({ noPackageJson: true, managers: [] }) });
  assert.equal([noPkg.verdict, noPkg.inapplicable], ['error', true]);
  assert.ok(noPkg.reason?.startsWith('npm: no package.json'), noPkg.reason);
  // Exit 0 passes whatever the output says about package managers.
  assert.equal(classify(exit({ exitCode: 0, tail: 'npm error Missing script: "x"\n' }), [1], 30, { output: out({ missingScript: 'x' }) }), {
    verdict: 'pass',
  });
});

test("classify: pnpm's refusal to start is the package manager's error, not a finding of the linter it was to run", () => {
  const tail = ' ERROR  Refusing to run pnpm@10.14.0-0: no signature.\nThis can indicate a tampered download.\n';
  const c = classify(exit({ exitCode: 1, tail }), [1], 30, {
    runner: 'biome',
    output: out({ managers: ['pnpm'], words: ['pnpm', 'lint', 'biome'] }),
  });
  assert.equal([c.verdict, c.inapplicable], ['error', true]);
  assert.ok(c.reason?.startsWith('pnpm stopped before it ran the command'), c.reason);
});

test('classify: the command not found is named apart (the fault reads it); an error of the whole run says it is one', () => {
  const sh = classify(exit({ exitCode: 127, tail: 'sh: 1: jestt: not found\n' }), [1], 30, { output: out({ words: ['npm', 'jestt'] }) });
  assert.equal([sh.verdict, sh.notFound], ['error', 'jestt']);
  assert.is(classify(exit({ exitCode: 127, tail: 'sh: 1: jestt: not found\n' }), [1], 30).notFound, 'jestt');
  const coverage = 'Tests:       1 passed, 1 total\nJest: "global" coverage threshold for lines (90%) not met: 50%\n';
  const c = classify(exit({ exitCode: 1, tail: coverage }), [1], 30, { runner: 'jest', output: out() });
  assert.equal([c.verdict, c.runWide], ['error', true]);
  const none = classify(exit({ exitCode: 1, tail: 'Tests:       0 total\n' }), [1], 30, { runner: 'jest', output: out() });
  assert.equal([none.verdict, none.runWide], ['error', true]);
  // A test file that cannot load is no error of the whole run: the fault may name it.
  const load = classify(exit({ exitCode: 1, tail: 'SyntaxError: /w/src/a.js: Unexpected token (2:0)\n' }), [1], 30, {
    runner: 'jest',
    output: out(),
  });
  assert.equal([load.verdict, load.runWide], ['error', undefined]);
});

test('classify: the runner summary proves a catch; a failure exit that is neither listed nor 0 is no catch even with failures counted', () => {
  const jest = (code: number) =>
    classify(exit({ exitCode: code, tail: 'Tests:       1 failed, 1 passed, 2 total\n' }), [1], 30, {
      runner: 'jest',
      output: out({ runner: 'jest' }),
    });
  assert.equal([jest(1).verdict, jest(1).proven], ['caught', true]);
  assert.is(jest(2).verdict, 'error');
  const pytest = classify(exit({ exitCode: 1 }), [1], 30, { runner: 'pytest', output: out({ runner: 'pytest' }) });
  assert.equal(pytest, { verdict: 'caught', proven: true });
});

test('classify: with a report deciding, pytest 5 and nextest 4 pass when no tests are allowed; other codes do not', () => {
  const judge = (runner: RunnerName, code: number, allowNoTests: boolean) =>
    classify(exit({ exitCode: code }), [1], 30, { runner, output: out({ runner }, { reportDecides: true, allowNoTests }) }).verdict;
  assert.is(judge('pytest', 5, true), 'pass');
  assert.is(judge('nextest', 4, true), 'pass');
  assert.is(judge('pytest', 5, false), 'error');
  assert.is(judge('pytest', 4, true), 'error');
  assert.is(judge('nextest', 5, true), 'error');
  assert.is(judge('jest', 5, true), 'error');
  assert.is(judge('jest', 4, true), 'error');
});

test("classify: no tests ran, with the exit code's meaning when it is not 0", () => {
  const c = classify(exit({ exitCode: 5, tail: '\nno tests ran in 0.01s\n' }), [1], 30, {
    runner: 'pytest',
    output: out({ runner: 'pytest' }),
  });
  assert.ok(c.reason?.startsWith('no tests ran (exit 5: pytest collected no tests): `no tests ran in 0.01s`'), c.reason);
});

test('classify: without a summary, the last line that is not blank is quoted', () => {
  const c = classify(exit({ exitCode: 1, tail: 'Segmentation fault\n   \n\t\n' }), [1], 30, {
    runner: 'jest',
    output: out({ runner: 'jest' }),
  });
  assert.ok(c.reason?.endsWith('last output: `Segmentation fault`'), c.reason);
});

test('quoteLine: at most 200 characters', () => {
  assert.is(quoteLine('x'.repeat(200)), `\`${'x'.repeat(200)}\``);
  assert.is(quoteLine('x'.repeat(201)), `\`${'x'.repeat(199)}…\``);
  assert.is(quoteLine('  a\tb  '), '`a\\tb`');
});

test("quoteLine: escapes C1 controls and bidirectional overrides from a gate's output (src/util/escape.ts)", () => {
  assert.is(quoteLine('a\u009bb\u202ec\x1b'), '`a\\x9bb\\u202ec\\x1b`');
});

test('notFoundCommand: the name without surrounding blanks', () => {
  assert.is(notFoundCommand('sh: 1: pytestt : not found\n'), 'pytestt');
  assert.is(notFoundCommand('all fine\n'), undefined);
});

test('tests that pass in a command that fails: the commands beside the runner are named as what may have failed', () => {
  const tail = '# tests 1373\n# pass 1373\n# fail 0\n';
  const c = classify(exit({ exitCode: 1, tail }), [1], 30, {
    runner: 'node',
    output: out({ runner: 'node', besides: ['tsd', 'tsc -p tsconfig.ts.json'] }),
  });
  assert.is(c.verdict, 'error');
  assert.is(
    c.reason,
    'exit 1 but node reports no failed test: `# tests 1373`; the command runs more than node (`tsd`, `tsc -p tsconfig.ts.json`): if one of those failed, give it a tier of its own, so its failure is read as one',
  );
  const alone = classify(exit({ exitCode: 1, tail }), [1], 30, { runner: 'node', output: out({ runner: 'node' }) });
  assert.is(alone.reason, 'exit 1 but node reports no failed test: `# tests 1373`');
});

test("make: its exit 2 is read as the failed recipe line's own code; a target it has no rule for is an error", () => {
  const made = (tail: string, runner?: 'pytest') =>
    classify(exit({ exitCode: 2, tail }), [1], 30, {
      ...(runner && { runner }),
      output: out({ managers: [], make: true, ...(runner && { runner }) }),
    });
  const failed = made(
    'FAILED tests/test_a.py::test_a - assert 1 == 2\n1 failed, 1 passed in 0.54s\nmake: *** [Makefile:5: test] Error 1\n',
    'pytest',
  );
  assert.equal([failed.verdict, failed.reason], ['caught', 'pytest: `1 failed, 1 passed in 0.54s`']);
  const collection = made(
    '!!!!! Interrupted: 1 error during collection !!!!!\n1 error in 0.1s\nmake: *** [Makefile:5: test] Error 2\n',
    'pytest',
  );
  assert.is(collection.verdict, 'error');
  // A recipe without a known runner: its exit 1 counts as the tier's `caught`; make's own usage error does not.
  assert.is(made('make[1]: *** [Makefile:2: unit] Error 1\nmake: *** [Makefile:9: test] Error 2\n').verdict, 'caught');
  const noRule = made("make: *** No rule to make target 'tset'.  Stop.\n");
  assert.equal(
    [noRule.verdict, noRule.reason, noRule.inapplicable],
    ['error', "make: `make: *** No rule to make target 'tset'.  Stop.`", true],
  );
  assert.is(made('make: *** [Makefile:5: test] Interrupt\n').verdict, 'error');
});

test('make: exit 0 with "Nothing to be done" for a target (a .PHONY line left without its rule) ran no test: an error', () => {
  const done = (tail: string, runner?: 'pytest') =>
    classify(exit({ exitCode: 0, tail }), [1], 30, {
      ...(runner && { runner }),
      output: out({ managers: [], make: true, ...(runner && { runner }) }),
    });
  const idle = done("make: Nothing to be done for 'test'.\n");
  assert.equal([idle.verdict, idle.inapplicable], ['error', true]);
  assert.match(idle.reason ?? '', "make ran no command, so no test ran: `make: Nothing to be done for 'test'.`");
  assert.is(done("make: 'test' is up to date.\n").verdict, 'error');
  // Another target idle beside tests that ran (`make build test`): the runner's summary shows they ran.
  assert.is(done("make: Nothing to be done for 'build'.\n2 passed in 0.01s\n", 'pytest').verdict, 'pass');
  assert.is(done('2 passed in 0.01s\n', 'pytest').verdict, 'pass');
});

test('ambiguityNotes: a catch from a runner whose exit cannot tell failure from harness gets a note; nothing else does', () => {
  const tier = (runner?: RunnerName) => ({ name: 'unit', ...(runner && { runner }) }) as ResolvedTier;
  const [note, ...more] = ambiguityNotes(tier('mocha'), 'caught');
  assert.equal(more, []);
  assert.match(note ?? '', 'unit: note: mocha exits with the number of failures, and 1 for harness errors too; set `junit`');
  assert.equal(ambiguityNotes(tier('mocha'), 'pass'), []);
  assert.equal(ambiguityNotes(tier('mocha'), 'error'), []);
  assert.equal(ambiguityNotes(tier(), 'caught'), [], 'no runner, no note');
  assert.equal(ambiguityNotes(tier('pytest'), 'caught'), [], 'pytest tells them apart (exit 1 and 2)');
  assert.equal(ambiguityNotes(tier(), 'caught', 'jest').length, 1, 'the detected runner when the tier names none');
  assert.equal(ambiguityNotes(tier('pytest'), 'caught', 'jest').length, 1, "the runner given wins over the tier's");
});

test("classify: exit 126 (found but not executable) is the shell's verdict, whatever an env tool's, a checker's or a script's output says", () => {
  const denied = 'sh: 1: ./run-tests: Permission denied';
  const shell = { verdict: 'error', reason: 'exit 126: command found but not executable' };
  const at = (output: OutputContext, runner?: RunnerName, tail = denied) =>
    classify(exit({ exitCode: 126, tail }), [1], 30, { ...(runner && { runner }), output });
  assert.equal(at(out({ envTool: 'tox' })), shell);
  assert.equal(at(out(), 'eslint'), shell);
  assert.equal(at(out({ typeCheck: 'tsc' })), shell);
  assert.equal(at(out(), undefined, `Tests:       1 failed, 1 total\n${denied}`), shell);
});

test("classify: a checker's finding is a proven catch only when the tier counts its exit code; else an error that says how to count it", () => {
  const tail = "\n/x/a.js\n  1:1  error  'x' is not defined  no-undef\n\n✖ 1 problem (1 error, 0 warnings)\n";
  const finding = "eslint: `✖ 1 problem (1 error, 0 warnings)`, the first: `/x/a.js:1:1 no-undef: 'x' is not defined`";
  const at = (caught: number[]) => classify(exit({ exitCode: 1, tail }), caught, 30, { runner: 'eslint', output: out() });
  assert.equal(at([1]), { verdict: 'caught', reason: finding, proven: true });
  assert.equal(at([2]), {
    verdict: 'error',
    reason: `exit 1, which this tier does not count as a finding (\`caught\`: 2), though ${finding}; if exit 1 means a finding, add it to the tier's \`caught\``,
  });
  assert.match(at([]).reason!, /^exit 1, which this tier does not count as a finding \(`caught`: none\)/);
});

test("classify: make's own readings apply only to make (its exit 2 for a missing rule, its exit 0 for a target that ran nothing), with or without a runner", () => {
  const noRule = "make: *** No rule to make target 'test'.  Stop.";
  const idle = "make: Nothing to be done for 'test'.";
  const at = (code: number, tail: string, make: boolean, runner?: RunnerName) =>
    classify(exit({ exitCode: code, tail }), [1], 30, { ...(runner && { runner }), output: out(make ? { make: true } : {}) });
  assert.equal(at(2, noRule, true), { verdict: 'error', reason: `make: \`${noRule}\``, inapplicable: true });
  assert.equal(at(2, noRule, false), {
    verdict: 'error',
    reason:
      "exit 2: usage error; if exit 2 means a test failed, add it to the tier's `caught`, or set the tier's `runner` so its output is read",
  });
  assert.equal(at(1, noRule, true), { verdict: 'caught' });
  const ranNothing = {
    verdict: 'error',
    reason: `make ran no command, so no test ran: \`${idle}\`; give the target a recipe that runs the tests in the Makefile (a .PHONY target without one, or a file of the target's name that is up to date, runs nothing)`,
    inapplicable: true,
  };
  assert.equal(at(0, idle, true), ranNothing);
  assert.equal(at(0, idle, true, 'eslint'), ranNothing);
  assert.equal(at(0, idle, false), { verdict: 'pass' });
  assert.equal(at(2, `${idle}\nmake: *** [Makefile:3: check] Error 1`, true), { verdict: 'caught' });
});

test('classify at exit 0: a runner trusted without its summary (go) passes with none; one that needs it (jest) does not; a pass carries a note only when the reading has one', () => {
  const at = (runner: RunnerName, tail: string) => classify(exit({ exitCode: 0, tail }), [1], 30, { runner, output: out({ runner }) });
  assert.equal(at('go', ''), { verdict: 'pass' });
  assert.equal(at('jest', 'Tests:       2 passed, 2 total\n'), { verdict: 'pass' });
  const unseen = at('jest', 'PASS src/a.test.js\n');
  assert.is(unseen.verdict, 'error');
  assert.match(unseen.reason!, /^exit 0 without a jest summary, so nothing shows the tests ran to the end/);
});

test('classify: a runner whose failure exit proves a failed test needs no summary for it (nextest 100), and pytest only when its output did not stop mid-line', () => {
  assert.equal(classify(exit({ exitCode: 100 }), [100], 30, { runner: 'nextest', output: out({ runner: 'nextest' }) }), {
    verdict: 'caught',
    proven: true,
  });
  const pytest = (tail: string) => classify(exit({ exitCode: 1, tail }), [1], 30, { runner: 'pytest', output: out({ runner: 'pytest' }) });
  assert.equal(pytest(''), { verdict: 'caught', proven: true });
  assert.equal(pytest('tests/test_a.py ..'), {
    verdict: 'error',
    reason:
      'exit 1 without a pytest summary, so no test is known to have failed (the run was cut short: a test that called os._exit); last output: `tests/test_a.py ..`; run pytest -v to see the test that was running when it stopped (os._exit in a test, or a plugin that ends the process), and mend it',
  });
});

test('classify: a failure exit without a summary says the run was cut short only when the profile reads it so (pytest mid-line; not tape, nor pytest with nothing printed)', () => {
  const pytest = classify(exit({ exitCode: 3 }), [1], 30, { runner: 'pytest', output: out({ runner: 'pytest' }) });
  assert.equal(pytest, {
    verdict: 'error',
    reason: 'exit 3 (pytest internal error) without a pytest summary, so no test is known to have failed; last output: (none)',
  });
  const tape = classify(exit({ exitCode: 1, tail: 'TAP version 13\n# adds\n' }), [1], 30, {
    runner: 'tape',
    output: out({ runner: 'tape' }),
  });
  assert.equal(tape, {
    verdict: 'error',
    reason:
      'exit 1 without a tape summary, so no test is known to have failed; last output: `# adds`; if that is a reporter gate-ladder cannot read, run tape without a reporter pipe, or pipe its TAP into tap-spec or faucet (whose counts gate-ladder reads)',
  });
});

test('classify: a failure exit with no failed test and coverage below its threshold is said to be the coverage, with the summary when there is one', () => {
  const below = 'ERROR: Coverage for lines (50%) does not meet global threshold (100%)';
  const node = classify(exit({ exitCode: 1, tail: `# tests 2\n# pass 2\n# fail 0\n${below}\n` }), [1], 30, {
    runner: 'node',
    output: out({ runner: 'node' }),
  });
  assert.equal(node, {
    verdict: 'error',
    runWide: true,
    reason: `exit 1: coverage is below its threshold: \`${below}\`; no test failed (\`# tests 2\`): cover the new code with a test, or give coverage a tier of its own`,
  });
  const jest = classify(exit({ exitCode: 1, tail: `${below}\n` }), [1], 30, { runner: 'jest', output: out({ runner: 'jest' }) });
  assert.equal(jest, {
    verdict: 'error',
    runWide: true,
    reason: `exit 1: coverage is below its threshold: \`${below}\`; no test failed: cover the new code with a test, or give coverage a tier of its own`,
  });
});

test('tests that pass in a command that fails: at most three commands beside the runner are named, then an ellipsis', () => {
  const tail = '# tests 2\n# pass 2\n# fail 0\n';
  const beside = (besides: string[]) =>
    classify(exit({ exitCode: 1, tail }), [1], 30, { runner: 'node', output: out({ runner: 'node', besides }) }).reason;
  const head = 'exit 1 but node reports no failed test: `# tests 2`; the command runs more than node';
  const tailText = ': if one of those failed, give it a tier of its own, so its failure is read as one';
  assert.is(beside(['tsc', 'eslint .', 'tsd']), `${head} (\`tsc\`, \`eslint .\`, \`tsd\`)${tailText}`);
  assert.is(beside(['tsc', 'eslint .', 'tsd', 'attw --pack']), `${head} (\`tsc\`, \`eslint .\`, \`tsd\`, ...)${tailText}`);
});

test.run();
