import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GateExit } from '../../src/ladder/gate.js';
import type { RunnerName } from '../../src/types.js';
import { classify, notFoundCommand } from '../../src/ladder/verdict.js';

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
  ['exit 2 is an error, not a catch', { exitCode: 2 }, [1], undefined, 'error', 'exit 2: usage error'],
  ['pytest 2', { exitCode: 2 }, [1], 'pytest', 'error', 'exit 2: pytest was interrupted or hit collection errors'],
  ['pytest 3', { exitCode: 3 }, [1], 'pytest', 'error', 'exit 3: pytest internal error'],
  ['pytest 4', { exitCode: 4 }, [1], 'pytest', 'error', 'exit 4: pytest usage error (bad option, or a conftest.py that fails to import)'],
  ['pytest 5', { exitCode: 5 }, [1], 'pytest', 'error', 'exit 5: pytest collected no tests'],
  ['an unknown code', { exitCode: 42 }, [1], undefined, 'error', 'exit 42, which this tier does not count as a test failure'],
  ['a listed code is caught', { exitCode: 101 }, [101], 'cargo', 'caught', undefined],
  ['exit 1 is not caught when the tier lists 101', { exitCode: 1 }, [101], 'cargo', 'error', 'exit 1: cargo usage error'],
  ['nextest 4 is no tests', { exitCode: 4 }, [100], 'nextest', 'error', 'exit 4: nextest found no tests'],
  ['timeout', { exitCode: null, signal: 'SIGTERM', timedOut: true }, [1], undefined, 'error', 'timed out after 30 s'],
  ['a signal', { exitCode: null, signal: 'SIGSEGV' }, [1], undefined, 'error', 'killed by SIGSEGV'],
  ['interrupted', { exitCode: null, signal: 'SIGINT', interrupted: true }, [1], undefined, 'error', 'interrupted (Ctrl-C)'],
  ['spawn failure', { exitCode: null, spawnError: 'command not found: pytestt' }, [1], undefined, 'error', 'command not found: pytestt'],
  ['shell 127 names the command', { exitCode: 127, tail: 'sh: 1: pytestt: not found\n' }, [1], undefined, 'error', 'command not found: pytestt'],
  ['shell 127 without a message', { exitCode: 127 }, [1], undefined, 'error', 'exit 127: command not found'],
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

test.run();
