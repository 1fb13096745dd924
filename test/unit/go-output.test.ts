/**
 * go's output judged as a `go` tier judges it, on what go 1.19 printed here (test/fixtures/failures/go/,
 * captured by scripts/capture-failures.mjs through a pipe): a test binary that exited in the code under
 * test (log.Fatal) is an error, never "no tests ran" nor a pass under `allowNoTests`; every test skipped
 * is no test run; `go test -json` on stdout is read as the text its events hold; a panic names the test
 * file's frame; a t.Log before the failure does not stand for it; an import cycle is no test failing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectRunner } from '../../src/runners/detect.js';
import { goPackageDirs } from '../../src/runners/go-packages.js';
import { allRecords } from '../../src/runners/index.js';
import { errorFault } from '../../src/verdict/fault.js';
import { failedTestsOf } from '../../src/verdict/runner-output.js';
import { reportDeps } from '../../src/verdict/tier-report-io.js';
import { classify } from '../../src/verdict/verdict.js';

await allRecords();

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/failures/go');
const output = (name: string) => readFileSync(resolve(FIXTURES, `${name}.txt`), 'utf8');

const judge = (name: string, code: number, allowNoTests = false) =>
  classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: output(name) }, [1], 30, {
    runner: 'go',
    output: { detection: { runner: 'go', words: [], managers: [] }, allowNoTests },
  });

const STOPPED = 'the test binary of example.com/m/math exited';
const ENDED = 'before its tests reported: the code under test ended the process (a log.Fatal, an os.Exit or a crash); its last output: `';

// [fixture, exit code, verdict, reason fragment ('' for a pass without a reason)]
const CASES: [string, number, 'pass' | 'caught' | 'error', string][] = [
  ['caught', 1, 'caught', 'go: `--- FAIL: TestAdds (0.00s)`'],
  ['caught-json', 1, 'caught', 'go: `--- FAIL: TestAdds (0.00s)`'],
  ['panic', 1, 'caught', 'go: `--- FAIL: TestUpper (0.00s)`'],
  ['panic-json', 1, 'caught', 'go: `--- FAIL: TestUpper (0.00s)`'],
  ['pass-json', 0, 'pass', ''],
  // log.Fatal in the code under test: go prints the package's FAIL and nothing of the test it was in.
  // Without -v go names no test: how to see which one was running.
  ['exit-one', 1, 'error', `${STOPPED} ${ENDED}`],
  ['exit-one', 1, 'error', '`go test -v example.com/m/math` names the test that was running (its last `=== RUN` line)'],
  // With -v (and in -json's events): the test that started and never ended, and how to run it alone.
  ['exit-v', 1, 'error', `${STOPPED} in TestNeg ${ENDED}`],
  [
    'exit-v',
    1,
    'error',
    "negative input -1`; `go test -v -run '^TestNeg$' example.com/m/math` runs that test alone, to find where it exits",
  ],
  ['exit', 1, 'error', `${STOPPED} ${ENDED}`],
  ['exit-json', 1, 'error', `${STOPPED} in TestNeg ${ENDED}`],
  ['skip-v', 0, 'error', 'no tests ran (every test was skipped): `--- SKIP: TestAdds (0.00s)`'],
  ['skip-json', 0, 'error', 'no tests ran (every test was skipped)'],
  ['cycle', 1, 'error', 'go could not load the packages: `imports example.com/m/a: import cycle not allowed`'],
];

for (const [name, code, verdict, reason] of CASES) {
  test(`go ${name}: ${verdict}`, () => {
    const got = judge(name, code);
    assert.is(got.verdict, verdict, got.reason);
    if (reason === '') assert.is(got.reason, undefined);
    else assert.ok(got.reason?.includes(reason), got.reason);
  });
}

test('a test binary that exited is never a pass, not even under allowNoTests; every test skipped is one', () => {
  for (const name of ['exit-one', 'exit-v', 'exit', 'exit-json']) {
    const got = judge(name, 1, true);
    assert.is(got.verdict, 'error', name);
    assert.ok(got.reason?.includes(STOPPED), got.reason);
    assert.ok(got.reason?.includes('negative input -1'), got.reason);
  }
  assert.is(judge('skip-v', 0, true).verdict, 'pass');
});

const failed = (name: string) =>
  failedTestsOf('go', output(name), {
    root: '/x',
    base: '.',
    packageDir: (pkg) => (pkg.startsWith('example.com/m/') ? pkg.slice('example.com/m/'.length) : undefined),
  }).map((f) => [f.id, f.file, f.line, f.message]);

test("a test binary the code under test exited: the patch's when the change touched go code, naming its changed file in the package's folder (the code before its tests); else the harness's", () => {
  const c = judge('exit-v', 1);
  assert.equal(c.stopped, { package: 'example.com/m/math', test: 'TestNeg' });
  const fault = (changed: string[], cwd = '.') =>
    errorFault({ reason: c.reason!, output: output('exit-v'), changed, exited: true, cwd, stopped: c.stopped! });
  assert.equal(fault(['math/math.go', 'math/math_test.go', 'README.md']), { cause: 'patch', stopped: true, file: 'math/math.go' });
  assert.equal(fault(['math/math_test.go']), { cause: 'patch', stopped: true, file: 'math/math_test.go' });
  // From a tier in backend/ (its cwd, or the folder a `cd` moved to).
  assert.equal(fault(['backend/math/math.go'], 'backend'), { cause: 'patch', stopped: true, file: 'backend/math/math.go' });
  // Go code elsewhere (a package it imports): the patch's, no file of the package to name.
  assert.equal(fault(['util/util.go']), { cause: 'patch', stopped: true });
  // No go code changed: what the code needs around it (a variable, a service), not the change.
  assert.equal(fault(['README.md']), { cause: 'harness' });
  // Before: the harness's, whatever changed (the reason names no file).
  assert.equal(errorFault({ reason: c.reason!, output: output('exit-v'), changed: ['math/math.go'], exited: true }), { cause: 'harness' });
});

test('go test -json on stdout: the failed tests named with file, line and message, as from the text', () => {
  assert.equal(failed('caught-json'), failed('caught'));
  assert.equal(failed('caught-json'), [
    ['example.com/m/math::TestAdds', 'math/math_test.go', 7, 'Add(1, 1) = 2, want 3'],
    ['example.com/m/math::TestSub/inner', 'math/math_test.go', 15, 'boom'],
  ]);
});

for (const name of ['panic', 'panic-v', 'panic-json']) {
  test(`go ${name}: a panic at the test file's frame, with the panic; a t.Log before t.Errorf gives way to it`, () => {
    assert.equal(failed(name), [
      ['example.com/m/math::TestUpper', 'math/math_test.go', 8, 'Upper(x) = "x"'],
      ['example.com/m/math::TestDiv', 'math/math_test.go', 13, 'panic: runtime error: integer divide by zero'],
    ]);
  });
}

test('an Example whose output differs: got and want as its message', () => {
  const text = '--- FAIL: ExampleAdd (0.00s)\ngot:\n4\nwant:\n3\nFAIL\nFAIL\texample.com/m/math\t0.01s\nFAIL\n';
  assert.equal(failedTestsOf('go', text, { root: '/x', base: '.' }), [
    { id: 'example.com/m/math::ExampleAdd', title: 'ExampleAdd', message: 'got 4, want 3' },
  ]);
});
test("a go-json report: its failed tests with file, line and message, from its events' Output (the module's go.mod places them)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-go-json-'));
  try {
    writeFileSync(join(dir, 'go.mod'), 'module example.com/m\n\ngo 1.19\n');
    writeFileSync(join(dir, 'go-test.json'), output('panic-json'));
    const read = await reportDeps(join(dir, 'ledger.jsonl')).read(
      join(dir, 'go-test.json'),
      0,
      { runner: 'go', base: '.', root: dir },
      'go-json',
    );
    assert.is(read.kind, 'ok');
    assert.equal(read.kind === 'ok' ? read.failures?.map((f) => [f.id, f.file, f.line, f.message]) : undefined, [
      ['example.com/m/math::TestUpper', 'math/math_test.go', 8, 'Upper(x) = "x"'],
      // The panic's frame is under the folder go ran in when the report was written (/x): outside this one, so no file.
      ['example.com/m/math::TestDiv', undefined, undefined, 'panic: runtime error: integer divide by zero'],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a go tier that moves first (`cd backend && go test`, go's `-C backend`): the runner's folder is known, so its failed tests' files are the repository's", () => {
  const none = () => null;
  const at = (run: string) => {
    const d = detectRunner(run, undefined, none);
    return [d.runner, d.runDir];
  };
  assert.equal(at('cd backend && go test ./...'), ['go', 'backend']);
  assert.equal(at('go -C backend test ./...'), ['go', 'backend']);
  assert.equal(at('go -C=svc/api test -v ./...'), ['go', 'svc/api']);
  assert.equal(at('cd services && go -C api test ./...'), ['go', 'services/api']);
  assert.equal(at('cd a; cd ./b/ && go test ./...'), ['go', 'a/b']);
  assert.equal(at('go -C backend vet ./...'), ['govet', undefined]);
  // A folder that is not known from the command (absolute, a variable, out of the tree): none, as before.
  for (const run of ['cd /srv/app && go test ./...', 'cd "$DIR" && go test ./...', 'cd .. && go test ./...', 'go test ./...'])
    assert.equal(at(run), ['go', undefined], run);
  // Through a script: npm runs it from package.json's folder.
  assert.equal(detectRunner('npm test', undefined, () => ({ test: 'cd backend && go test ./...' })).runDir, 'backend');
  // As the ladder reads a catch: from the runner's folder, go.mod there placing the packages.
  const dir = mkdtempSync(join(tmpdir(), 'gl-go-cd-'));
  try {
    mkdirSync(join(dir, 'backend'));
    writeFileSync(join(dir, 'backend', 'go.mod'), 'module example.com/m\n\ngo 1.19\n');
    assert.equal(
      failedTestsOf('go', output('caught'), { root: dir, base: 'backend', packageDir: goPackageDirs(dir, 'backend') }).map((f) => [
        f.id,
        f.file,
        f.line,
      ]),
      [
        ['example.com/m/math::TestAdds', 'backend/math/math_test.go', 7],
        ['example.com/m/math::TestSub/inner', 'backend/math/math_test.go', 15],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
