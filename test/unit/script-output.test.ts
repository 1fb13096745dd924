/**
 * A tier whose runner is not known (a script that runs its tests itself: `nyc node test.js` driving
 * mocha, `python run_tests.py`), judged on outputs captured here from node 20 and 24 and python 3.11
 * (test/fixtures/scripts/, temp folders renamed). Before, its exit code alone decided: a test file with
 * a syntax error crashed the script with exit 1, a `caught`; mocha's `process.exit(failures)` exited
 * 55 for 55 failed tests, an `error`.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { outputLines } from '../../src/verdict/runner-output.js';
import { nodeLoadCrash, pythonLoadCrash, scriptKeep } from '../../src/verdict/script-output.js';
import { classify, coverageShortfall } from '../../src/verdict/verdict.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/scripts');
const output = (name: string) => readFileSync(resolve(FIXTURES, `${name}.txt`), 'utf8');

/** As a tier without a runner judges it (its output kept, `caught` the default [1]). */
function judge(code: number, tail: string, reportDecides = false) {
  return classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1], 30, {
    output: { detection: { words: ['node', 'test.js'], managers: [] }, reportDecides },
  });
}

const NODE_LOAD: [string, string, string | undefined][] = [
  ['syn-js', "SyntaxError: Unexpected identifier 'is'", '/home/dev/proj/lib.js:2'],
  ['syn-mjs', "SyntaxError: Unexpected identifier 'is'", '/home/dev/proj/syn.mjs:2'],
  ['exp-mjs', "SyntaxError: The requested module './ok.mjs' does not provide an export named 'nothere'", '/home/dev/proj/exp.mjs:1'],
  ['miss-js', "Error: Cannot find module './nope-missing.js'", undefined],
  [
    'miss-mjs',
    "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/home/dev/proj/nope.mjs' imported from /home/dev/proj/miss.mjs",
    undefined,
  ],
];

for (const version of ['20', '24']) {
  for (const [name, line, where] of NODE_LOAD) {
    test(`node ${version}, ${name}: died loading code, an error naming the error and the file`, () => {
      const tail = output(`node${version}-${name}`);
      assert.equal(nodeLoadCrash(outputLines(tail)), { language: 'node', line, ...(where && { where }) });
      const v = judge(1, tail);
      assert.is(v.verdict, 'error');
      assert.match(
        v.reason!,
        `node could not load the code${where ? ` in \`${where}\`` : ''}, so no test ran to give a verdict: \`${line.slice(0, 60)}`,
      );
    });
  }
  for (const name of ['assertfail-js', 'json-js']) {
    test(`node ${version}, ${name}: an error thrown by code that ran is no load failure: exit 1 is still a catch`, () => {
      const tail = output(`node${version}-${name}`);
      assert.is(nodeLoadCrash(outputLines(tail)), undefined);
      assert.is(judge(1, tail).verdict, 'caught');
    });
  }
}

test('python: an import or syntax error at import time is an error; one raised by code that ran is not', () => {
  const cases: [string, string | undefined, string?][] = [
    ['pmiss', "ModuleNotFoundError: No module named 'nope_missing'", '/home/dev/proj/pmiss.py:1'],
    ['pimp', "SyntaxError: '(' was never closed", '/home/dev/proj/psyn.py:2'],
    ['psyn', "SyntaxError: '(' was never closed", '/home/dev/proj/psyn.py:2'],
    ['pindent', "IndentationError: expected an indented block after 'if' statement on line 1", '/home/dev/proj/pindent.py:2'],
    ['plazy', undefined],
    ['passert', undefined],
  ];
  for (const [name, line, where] of cases) {
    const tail = output(`python-${name}`);
    const crash = pythonLoadCrash(outputLines(tail));
    assert.equal(crash, line ? { language: 'python', line, where } : undefined, name);
    const v = judge(1, tail);
    assert.is(v.verdict, line ? 'error' : 'caught', name);
    if (line) assert.match(v.reason!, `python could not load the code in \`${where}\``);
  }
});

test("a runner's summary counting failed tests is a catch whatever the exit code (mocha's process.exit(failures))", () => {
  const tail = output('mocha-programmatic-2-failing');
  const v = judge(2, tail);
  assert.is(v.verdict, 'caught');
  assert.is(v.reason, 'mocha: `2 failing`');
  assert.ok(v.proven);
  // The same exit code with nothing to read stays an error that says how to count it.
  const bare = judge(2, 'something went wrong\n');
  assert.is(bare.verdict, 'error');
  assert.match(bare.reason!, "add it to the tier's `caught`");
});

test("node's TAP from a script is read as node's (it counts suites, cancelled and duration_ms beside mocha's three counts)", () => {
  const tail = readFileSync(resolve(FIXTURES, '../failures/node/caught-22.txt'), 'utf8');
  const v = judge(1, tail);
  assert.is(v.verdict, 'caught');
  assert.is(v.reason, 'node: `# fail 2`');
  // mocha's own TAP is still mocha's.
  assert.is(judge(1, '1..2\nok 1 adds\nnot ok 2 halves\n  boom\n# tests 2\n# pass 1\n# fail 1\n').reason, 'mocha: `# fail 1`');
});

test('a runner that is known, an exit 0, and a report that decides are not read this way', () => {
  const crash = output('node20-syn-js');
  assert.is(judge(0, crash).verdict, 'pass');
  assert.is(judge(1, crash, true).verdict, 'caught');
  const mochaRead = classify({ exitCode: 1, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: crash }, [1], 30, {
    runner: 'mocha',
    output: { detection: { runner: 'mocha', words: ['mocha'], managers: [] } },
  });
  assert.not.match(mochaRead.reason ?? '', 'could not load the code');
});

test("a coverage tool's threshold line (c8, nyc, vitest's coverage) is found; jest's own is its profile's", () => {
  for (const line of [
    'ERROR: Coverage for branches (96.77%) does not meet global threshold (100%)',
    'ERROR: Coverage for lines (50%) does not meet threshold (90%) for /home/dev/proj/lib.js',
    'ERROR: Coverage for lines (50%) does not meet "src/**" threshold (80%)',
  ]) {
    assert.is(coverageShortfall(['# tests 3', line, '']), line);
  }
  assert.is(coverageShortfall(['Jest: "global" coverage threshold for lines (90%) not met: 50%', 'ERROR: something else']), undefined);
});

test("the summary lines any runner's reading needs are kept from a long output of a tier with no runner named", () => {
  const keep = scriptKeep();
  for (const line of [
    '  55 failing',
    '  672 passing (1m)',
    '\x1b[31m  2 failing\x1b[39m',
    'test result: FAILED. 1 passed; 2 failed; 0 ignored',
  ])
    assert.ok(keep(line), line);
  for (const line of ['      AssertionError [ERR_ASSERTION]: 1 == 2', '  1) s', '      at Context.<anonymous> (m.spec.js:2:44)', ''])
    assert.not.ok(keep(line), line);
});

/** As a tier whose command is a type check judges it (`npm run typecheck` running `tsc --noEmit`). */
function judgeTypeCheck(code: number, tail: string) {
  return classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1], 30, {
    output: { detection: { words: ['npm', 'tsc'], managers: ['npm'], typeCheck: 'tsc' } },
  });
}

// Captured from tsc 5.9 (test/fixtures/scripts/tsc-*.txt). Before, tsc's exit 2 (its code when it emits
// nothing, as with --noEmit) was an `error`, "usage error", for every type error in the patch, and a
// missing tsconfig's exit 1 was a `caught`.
const TSC: [string, number, 'caught' | 'error', string][] = [
  ['tsc-type-errors', 2, 'caught', "tsc: 2 type errors: `src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.`"],
  [
    'tsc-type-errors-pretty',
    2,
    'caught',
    "tsc: 2 type errors: `src/a.ts:1:7 - error TS2322: Type 'string' is not assignable to type 'number'.`",
  ],
  [
    'tsc-unknown-option',
    2,
    'error',
    "tsc could not check the code as configured: `tsconfig.json(1,21): error TS5025: Unknown compiler option 'strictx'. Did you mean 'strict'?`",
  ],
  [
    'tsc-no-project',
    1,
    'error',
    "tsc could not check the code as configured: `error TS5058: The specified path does not exist: 'nothere.json'.`",
  ],
  ['tsc-no-inputs', 2, 'error', 'tsc could not check the code as configured: `error TS18003: No inputs were found'],
  [
    'tsc-dependency-types',
    2,
    'error',
    'tsc found type errors only in installed dependencies, whose versions disagree (the code itself type-checks): `node_modules/@types/node/globals.d.ts(',
  ],
  [
    'tsc-missing-types',
    2,
    'error',
    "tsc could not check the code as configured: `error TS2688: Cannot find type definition file for 'nothere'.`",
  ],
];
for (const [name, code, verdict, reason] of TSC) {
  test(`a type check, ${name}: ${verdict}`, () => {
    const v = judgeTypeCheck(code, output(name));
    assert.is(v.verdict, verdict, v.reason);
    assert.match(v.reason!, reason);
  });
}

test('a type check that fails without a diagnostic is an error; one that passes is a pass', () => {
  const v = judgeTypeCheck(2, 'Killed\n');
  assert.is(v.verdict, 'error');
  assert.match(v.reason!, 'without a diagnostic from tsc');
  assert.is(judgeTypeCheck(0, '').verdict, 'pass');
});

test.run();
