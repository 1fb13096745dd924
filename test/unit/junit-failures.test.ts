/** A failed test's file, line and message from its JUnit report: what `gate-ladder ci` annotates. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseJUnit, xmlText } from '../../src/evidence/junit.js';

const failures = (xml: string, ctx = {}) => {
  const r = parseJUnit(xml, ctx);
  if (!r.ok) throw new Error(r.why);
  return r.failures ?? [];
};

// Trimmed from a real `node --test --test-reporter=junit` run (Node 22): the line is in the stack.
const NODE = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
  <testsuite name="math" time="0.02" tests="2" failures="1">
    <testcase name="adds" time="0.005" classname="test"/>
    <testcase name="subtracts" time="0.001" classname="test" failure="Expected values to be strictly equal:&#10;&#10;1 !== 2&#10;">
      <failure type="testCodeFailure" message="Expected values to be strictly equal:&#10;&#10;1 !== 2&#10;">
[Error [ERR_TEST_FAILURE]: Expected values to be strictly equal:

1 !== 2
] {
  code: 'ERR_TEST_FAILURE',
  cause: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
      at TestContext.&lt;anonymous&gt; (file:///home/ci/work/test/math.test.mjs:7:12)
      at Test.runInAsyncScope (node:async_hooks:211:14)
}
      </failure>
    </testcase>
  </testsuite>
</testsuites>`;

test('node:test: the message attribute, and the line of the first stack frame in the test file', () => {
  const got = failures(NODE.replace(/classname="test"/g, 'classname="test" file="/home/ci/work/test/math.test.mjs"'), {
    runner: 'node',
    root: '/home/ci/work',
  });
  assert.equal(got, [
    {
      id: 'test/math.test.mjs::math > subtracts',
      title: 'math > subtracts',
      file: 'test/math.test.mjs',
      line: 7,
      message: 'Expected values to be strictly equal:\n\n1 !== 2\n',
    },
  ]);
});

test('no file in the report (Node 20, 22): the test is named, with no file or line', () => {
  const got = failures(NODE, { runner: 'node' });
  assert.equal(got, [{ id: 'math > subtracts', title: 'math > subtracts', message: 'Expected values to be strictly equal:\n\n1 !== 2\n' }]);
});

test('no file in the report (Node 20, 22) but the gate ran in the repository: the file and line of the first stack frame there', () => {
  const got = failures(NODE, { runner: 'node', root: '/home/ci/work' });
  assert.equal(got, [
    {
      id: 'math > subtracts',
      title: 'math > subtracts',
      file: 'test/math.test.mjs',
      line: 7,
      message: 'Expected values to be strictly equal:\n\n1 !== 2\n',
    },
  ]);
  const deps = NODE.replace('/home/ci/work/test/math.test.mjs:7:12', '/home/ci/work/node_modules/lib/index.js:3:1');
  assert.equal(failures(deps, { runner: 'node', root: '/home/ci/work' })[0]!.file, undefined, 'a dependency is not the test');
});

// jest-junit with addFileAttribute; the body is the stack, in CDATA.
const JEST = `<testsuites name="jest tests" tests="2" failures="1">
  <testsuite name="cart" tests="2" failures="1">
    <testcase classname="cart totals" name="cart totals adds tax" time="0.003" file="src/cart.test.ts">
      <failure><![CDATA[Error: expect(received).toBe(expected) // Object.is equality

Expected: 110
Received: 100
    at Object.<anonymous> (/builds/shop/src/cart.test.ts:14:23)
    at Promise.then.completed (/builds/shop/node_modules/jest-circus/build/utils.js:298:28)]]></failure>
    </testcase>
    <testcase classname="cart totals" name="cart totals is empty" time="0.001" file="src/cart.test.ts"/>
  </testsuite>
</testsuites>`;

test('jest-junit: no message attribute, so the first line of the text; the line from the stack', () => {
  assert.equal(failures(JEST, { runner: 'jest', root: '/builds/shop' }), [
    {
      id: 'src/cart.test.ts::cart totals adds tax',
      title: 'cart totals adds tax',
      file: 'src/cart.test.ts',
      line: 14,
      message: 'Error: expect(received).toBe(expected) // Object.is equality',
    },
  ]);
});

test('a testcase line attribute wins; a tier cwd joins the file; a file outside the repository is no file', () => {
  const xml = `<testsuite name="s"><testcase name="a" classname="K" file="t/a.py" line="33"><failure message="assert 0">t/a.py:40: AssertionError</failure></testcase>
<testcase name="b" classname="K" file="/elsewhere/b.py"><error message="boom"/></testcase></testsuite>`;
  assert.equal(failures(xml, { base: 'pkg', root: '/repo' }), [
    { id: 'pkg/t/a.py::K > a', title: 'K > a', file: 'pkg/t/a.py', line: 33, message: 'assert 0' },
    { id: '/elsewhere/b.py::K > b', title: 'K > b', message: 'boom' },
  ]);
});

test('a retried test that failed twice is one failure; passes and skips are none', () => {
  const xml = `<testsuite name="s"><testcase name="flaky"><failure message="first"/></testcase><testcase name="flaky"><failure message="second"/></testcase>
<testcase name="ok"/><testcase name="later"><skipped/></testcase></testsuite>`;
  assert.equal(
    failures(xml).map((f) => [f.id, f.message]),
    [['flaky', 'first']],
  );
});

test('a report with no failure has no failures list', () => {
  const r = parseJUnit('<testsuite name="s"><testcase name="ok"/></testsuite>');
  assert.ok(r.ok && r.failures === undefined);
});

test('xmlText: CDATA unwrapped, entities decoded, nothing else touched', () => {
  assert.is(xmlText('a &lt;b&gt; &amp;amp; &#65;&#x42; <![CDATA[<raw> &lt;]]> &unknown;'), 'a <b> &amp; AB <raw> &lt; &unknown;');
});

test.run();
