import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type IdContext, parseJUnit, parseJUnitCases, type TestOutcome } from '../../src/evidence/junit.js';

/** Test ids and outcomes, then the files listed as unable to run (`broken`: a load failure is no test's failure). */
const ids = (xml: string, ctx: IdContext = {}): [string, TestOutcome['outcome'] | 'broken'][] => {
  const r = parseJUnit(xml, ctx);
  if (!r.ok) throw new Error(r.why);
  return [
    ...r.cases.map((c): [string, TestOutcome['outcome']] => [c.id, c.outcome]),
    ...(r.broken ?? []).map((id): [string, 'broken'] => [id, 'broken']),
  ];
};

// Trimmed from a real `node --test --test-reporter=junit` run (Node 20).
const NODE = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
	<testsuite name="math" time="0.02" disabled="0" errors="0" tests="4" failures="1" skipped="1" hostname="ci">
		<testcase name="adds" time="0.005" classname="test"/>
		<testcase name="fails" time="0.001" classname="test" failure="2 == 3">
			<failure type="testCodeFailure" message="2 == 3">
Error [ERR_TEST_FAILURE]: 2 == 3 at TestContext.&lt;anonymous> (file:///repo/a.test.mjs:5:30)
			</failure>
		</testcase>
		<testcase name="skipped" time="0.0003" classname="test"><skipped type="skipped" message="true"/></testcase>
		<testsuite name="nested" time="0.0006" disabled="0" errors="0" tests="1" failures="0" skipped="0" hostname="ci">
			<testcase name="deep" time="0.0004" classname="test"/>
		</testsuite>
	</testsuite>
	<testcase name="top" time="0.0003" classname="test"/>
	<testcase name="todo" time="0.0002" classname="test" failure="x">
		<skipped type="todo" message="true"/>
		<failure type="testCodeFailure" message="x">[Error: x]</failure>
	</testcase>
	<testcase name="/repo/broken.test.mjs" time="0.19" classname="test" failure="test failed">
		<failure type="testCodeFailure" message="test failed">[Error: test failed]</failure>
	</testcase>
	<!-- tests 7 -->
</testsuites>`;

// Trimmed from a real `pytest --junitxml` run.
const PYTEST = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="0" failures="2" skipped="1" tests="6" time="0.105" hostname="ci"><testcase classname="tests.test_x" name="test_ok" time="0.001" /><testcase classname="tests.test_x" name="test_bad" time="0.001"><failure message="assert 0">&gt;   def test_bad(): assert 0
E   assert 0</failure></testcase><testcase classname="tests.test_x" name="test_skip" time="0.001"><skipped type="pytest.skip" message="no">/repo/tests/test_x.py:4: no</skipped></testcase><testcase classname="tests.test_x.TestK" name="test_m" time="0.001" /><testcase classname="tests.test_x.TestK" name="test_p[1.5]" time="0.001" /><testcase classname="tests.unit.test_y.TestK.TestInner" name="test_p[2]" time="0.001"><error message="failed on setup">E fixture 'x' not found</error></testcase><testcase classname="" name="tests.test_broken" time="0.000"><error message="collection failure">ImportError</error></testcase></testsuite></testsuites>`;

test('node: classname is constant; describe blocks are nested suites; a todo failure is a skip', () => {
  assert.equal(ids(NODE, { runner: 'node', root: '/repo' }), [
    ['top', 'pass'],
    ['todo', 'skip'],
    ['math > adds', 'pass'],
    ['math > fails', 'fail'],
    ['math > skipped', 'skip'],
    ['math > nested > deep', 'pass'],
    ['broken.test.mjs', 'broken'],
  ]);
});

// Node 24's reporter: file attributes; a file that cannot load is a case named by the path as given.
const NODE24 = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
	<testcase name="a" time="0.001142" classname="test" file="/repo/test/a.test.mjs"/>
	<testcase name="test/b.test.mjs" time="0.068452" classname="test" file="/repo/test/b.test.mjs" failure="test failed">
		<failure type="testCodeFailure" message="test failed">[Error: test failed] { code: 'ERR_TEST_FAILURE', failureType: 'testCodeFailure', cause: 'test failed', exitCode: 1, signal: null }</failure>
	</testcase>
	<testcase name="test" time="0.067" classname="test" file="/repo/test" failure="test failed">
		<failure type="testCodeFailure" message="test failed">[Error: test failed]</failure>
	</testcase>
	<testcase name="b.test.mjs names a real test" time="0.001" classname="test" file="/repo/test/c.test.mjs" failure="x">
		<failure type="testCodeFailure" message="x">[Error: x]</failure>
	</testcase>
</testsuites>`;

test('node 23 and later: a file that cannot load (named by its path as given, or a folder node could not run) is broken, not a failed test', () => {
  assert.equal(ids(NODE24, { runner: 'node', root: '/repo' }), [
    ['test/a.test.mjs::a', 'pass'],
    ['test/c.test.mjs::b.test.mjs names a real test', 'fail'],
    ['test/b.test.mjs', 'broken'],
    ['test', 'broken'],
  ]);
});

test('pytest: the dotted module path becomes the file, classes join the title path with ::', () => {
  assert.equal(ids(PYTEST, { runner: 'pytest' }), [
    ['tests/test_x.py::test_ok', 'pass'],
    ['tests/test_x.py::test_bad', 'fail'],
    ['tests/test_x.py::test_skip', 'skip'],
    ['tests/test_x.py::TestK::test_m', 'pass'],
    ['tests/test_x.py::TestK::test_p[1.5]', 'pass'],
    ['tests/unit/test_y.py::TestK::TestInner::test_p[2]', 'fail'],
    ['tests/test_broken.py', 'broken'],
  ]);
});

test('pytest: a file attribute (xunit1) wins, and a tier cwd prefixes the path', () => {
  const xml = `<testsuites><testsuite><testcase classname="tests.test_x.TestK" name="test_a" file="tests/test_x.py" line="3"/></testsuite></testsuites>`;
  assert.equal(ids(xml, { runner: 'pytest', base: 'py' }), [['py/tests/test_x.py::TestK::test_a', 'pass']]);
});

const cases: [string, IdContext, string, [string, TestOutcome['outcome'] | 'broken'][]][] = [
  [
    'jest (jest-junit): one string in both fields; a suite that cannot load names its file',
    { runner: 'jest' },
    `<testsuites name="jest tests"><testsuite name="math"><testcase classname="math adds" name="math adds" time="0.1"/><testcase classname="math fails" name="math fails"><failure>x</failure></testcase></testsuite>
     <testsuite name="src/b.test.js" errors="1"><testcase classname="Test suite failed to run" name="src/b.test.js"><error>SyntaxError</error></testcase></testsuite></testsuites>`,
    [
      ['math adds', 'pass'],
      ['math fails', 'fail'],
      ['src/b.test.js', 'broken'],
    ],
  ],
  [
    'jest with addFileAttribute',
    { runner: 'jest' },
    `<testsuites><testsuite name="math"><testcase classname="math adds" name="math adds" file="src/a.test.js"/></testsuite></testsuites>`,
    [['src/a.test.js::math adds', 'pass']],
  ],
  [
    'vitest: the file in classname, the title path joined by " > "',
    { runner: 'vitest', base: 'packages/a' },
    `<testsuites name="vitest tests"><testsuite name="src/a.test.ts"><testcase classname="src/a.test.ts" name="math &gt; adds"/><testcase classname="src/a.test.ts" name="math &gt; deep &gt; fails"><failure message="boom"/></testcase><testcase classname="src/a.test.ts" name="later"><skipped/></testcase></testsuite></testsuites>`,
    [
      ['packages/a/src/a.test.ts::math > adds', 'pass'],
      ['packages/a/src/a.test.ts::math > deep > fails', 'fail'],
      ['packages/a/src/a.test.ts::later', 'skip'],
    ],
  ],
  [
    'playwright: the file in classname, the title path joined by " › "',
    { runner: 'playwright' },
    `<testsuites><testsuite name="example.spec.ts"><testcase name="home › has title" classname="example.spec.ts"/></testsuite></testsuites>`,
    [['example.spec.ts::home > has title', 'pass']],
  ],
  [
    'mocha (mocha-junit-reporter): name is the full title, classname the own title, the file on the suite',
    { runner: 'mocha', root: '/repo' },
    `<testsuites name="Mocha Tests"><testsuite name="Root Suite" tests="0"/><testsuite name="math" file="/repo/test/a.spec.js"><testcase name="math adds one" classname="adds one"/><testcase name="math fails" classname="fails"><failure message="x"/></testcase></testsuite></testsuites>`,
    [
      ['test/a.spec.js::math > adds one', 'pass'],
      ['test/a.spec.js::math > fails', 'fail'],
    ],
  ],
  [
    'mocha in jenkins mode swaps the two back',
    { runner: 'mocha' },
    `<testsuites><testsuite name="math" file="test/a.spec.js"><testcase classname="math adds one" name="adds one"/></testsuite></testsuites>`,
    [['test/a.spec.js::math > adds one', 'pass']],
  ],
  [
    'go (gotestsum): the package stands for the file, never joined with the tier cwd',
    { runner: 'go', base: 'svc' },
    `<testsuites><testsuite name="example.com/m/pkg"><testcase classname="example.com/m/pkg" name="TestAdd/negative"/></testsuite></testsuites>`,
    [['example.com/m/pkg::TestAdd/negative', 'pass']],
  ],
  [
    'nextest: the binary id stands for the file',
    { runner: 'nextest' },
    `<testsuites name="nextest-run"><testsuite name="mycrate::tests"><testcase name="math::adds" classname="mycrate::tests"><failure type="test failure"/></testcase></testsuite></testsuites>`,
    [['mycrate::tests::math::adds', 'fail']],
  ],
  [
    // Printed by tap 21 (`tap --reporter=junit --reporter-file=PATH`), trimmed: a subtest is a testcase, and so is each of its assertions.
    'tap: classname is `file > subtest`, the file first (only failures carry the file attribute)',
    { runner: 'tap', base: 'pkg' },
    `<testsuites name="TAP Tests"><testsuite name="cases/caught/a.test.js" tests="7" failures="4"><testsuite name="adds" tests="2" failures="2">
     <testcase id="1" name="should be equal" classname="cases/caught/a.test.js &gt; adds" file="cases/caught/a.test.js" line="2" column="33"><failure><![CDATA[x]]></failure></testcase></testsuite>
     <testsuite name="ok" tests="2" failures="0"><testcase id="1" name="fine" classname="cases/caught/a.test.js &gt; ok" /></testsuite>
     <testcase id="1" name="adds" classname="cases/caught/a.test.js" file="cases/caught/a.test.js" line="2" column="3"><failure><![CDATA[x]]></failure></testcase>
     <testcase id="2" name="ok" classname="cases/caught/a.test.js" /></testsuite>
     <testsuite name="cases/import/a.test.js" tests="1" failures="0" assertions="0" skipped="1"></testsuite></testsuites>`,
    [
      ['pkg/cases/caught/a.test.js::adds', 'fail'],
      ['pkg/cases/caught/a.test.js::ok', 'pass'],
      ['pkg/cases/caught/a.test.js::adds > should be equal', 'fail'],
      ['pkg/cases/caught/a.test.js::ok > fine', 'pass'],
    ],
  ],
  [
    'unknown runner: file attribute, then classname > name',
    {},
    `<testsuite name="s"><testcase classname="Calc" name="adds" file="t/calc.t"/><testcase name="bare"/></testsuite>`,
    [
      ['t/calc.t::Calc > adds', 'pass'],
      ['bare', 'pass'],
    ],
  ],
];

for (const [title, ctx, xml, want] of cases) test(title, () => assert.equal(ids(xml, ctx), want));

test('a test listed twice (two files node cannot tell apart) failed if either listing failed, and its id is ambiguous', () => {
  const xml = `<testsuites><testcase name="a" classname="test"/><testcase name="a" classname="test"><failure/></testcase><testcase name="b" classname="test"><skipped/></testcase><testcase name="b" classname="test"/><testcase name="c" classname="test"/></testsuites>`;
  assert.equal(ids(xml, { runner: 'node' }), [
    ['a', 'fail'],
    ['b', 'pass'],
    ['c', 'pass'],
  ]);
  const r = parseJUnit(xml, { runner: 'node' });
  assert.equal(r.ok && r.dup, ['a', 'b']);
});

test("node: a testcase file attribute (newer node) makes two files' tests with one title two ids", () => {
  const xml = `<testsuites><testcase name="flaky multiplies" classname="test" file="/repo/test/a.test.mjs"/><testcase name="flaky multiplies" classname="test" file="/repo/test/b.test.mjs"><failure/></testcase></testsuites>`;
  const r = parseJUnit(xml, { runner: 'node', root: '/repo' });
  assert.ok(r.ok);
  if (r.ok) {
    assert.equal(
      r.cases.map((c) => [c.id, c.outcome]),
      [
        ['test/a.test.mjs::flaky multiplies', 'pass'],
        ['test/b.test.mjs::flaky multiplies', 'fail'],
      ],
    );
    assert.equal(r.dup, []);
  }
});

// Real pytest 9 output for folders with capitals and dots (tests/Integration/test_dup.py, tests/v1.2/test_dot.py).
const PY_XUNIT2 = `<testsuites name="pytest tests"><testsuite name="pytest"><testcase classname="tests.Integration.test_dup.TestK" name="test_x" time="0.001"><failure message="assert False">x</failure></testcase><testcase classname="tests.v1.2.test_dot" name="test_p[1]" time="0.001" /><testcase classname="tests.v1.2.test_dot" name="test_p[x.y]" time="0.001"><failure message="no">x</failure></testcase></testsuite></testsuites>`;
const PY_XUNIT1 = PY_XUNIT2.replace('name="test_x"', 'name="test_x" file="tests/Integration/test_dup.py" line="1"').replaceAll(
  'name="test_p[',
  'file="tests/v1.2/test_dot.py" line="1" name="test_p[',
);

test('pytest: folders with capitals or dots: the file attribute decides, as pytest prints the id', () => {
  assert.equal(
    ids(PY_XUNIT1, { runner: 'pytest' }).map(([id]) => id),
    ['tests/Integration/test_dup.py::TestK::test_x', 'tests/v1.2/test_dot.py::test_p[1]', 'tests/v1.2/test_dot.py::test_p[x.y]'],
  );
});

test('pytest without a file attribute: the files that exist decide; without a look, capitals end at the module', () => {
  const files = new Set(['tests', 'tests/Integration', 'tests/Integration/test_dup.py', 'tests/v1.2', 'tests/v1.2/test_dot.py']);
  const looked: string[] = [];
  const exists = (p: string) => {
    looked.push(p);
    return files.has(p);
  };
  assert.equal(
    ids(PY_XUNIT2, { runner: 'pytest', exists }).map(([id]) => id),
    ['tests/Integration/test_dup.py::TestK::test_x', 'tests/v1.2/test_dot.py::test_p[1]', 'tests/v1.2/test_dot.py::test_p[x.y]'],
  );
  assert.is(looked.filter((p) => p === 'tests/v1.2/test_dot.py').length, 1, 'a classname is looked up once per report');
  assert.equal(ids(PY_XUNIT2, { runner: 'pytest' })[0]![0], 'tests/Integration/test_dup.py::TestK::test_x');
});

test('absolute paths outside the root stay absolute; file:// urls are paths', () => {
  const xml = `<testsuites><testcase name="x" classname="c" file="file:///repo/t/a.js"/><testcase name="y" classname="c" file="/elsewhere/b.js"/></testsuites>`;
  assert.equal(ids(xml, { root: '/repo' }), [
    ['t/a.js::c > x', 'pass'],
    ['/elsewhere/b.js::c > y', 'pass'],
  ]);
});

test('an empty <testsuites/> and a suite with no cases are readable reports with zero cases', () => {
  assert.equal(ids('<?xml version="1.0"?><testsuites/>'), []);
  assert.equal(ids('<testsuites>\n<!-- tests 0 -->\n</testsuites>'), []);
  assert.equal(ids('<testsuite name="x" tests="0"></testsuite>'), []);
});

const unreadable: [string, string, string][] = [
  ['empty file', '', 'empty'],
  ['truncated by a killed gate', '<testsuites><testsuite><testcase name="a"', 'not well-formed'],
  ['unclosed element', '<testsuites><testsuite><testcase name="a"/></testsuite>', 'not well-formed'],
  ['other XML', '<coverage line-rate="1"/>', 'not a JUnit report'],
  ['not XML at all', '{"tests": []}', 'not'],
];
for (const [title, xml, why] of unreadable) {
  test(`unreadable: ${title}`, () => {
    const r = parseJUnitCases(xml);
    assert.is(r.ok, false);
    if (!r.ok) assert.match(r.why, why);
  });
}

test('entities and CDATA in names and bodies are handled by the parser, not by hand', () => {
  const xml = `<testsuites><testcase classname="c" name="a &amp; b &lt;c&gt; &#x263A;"><failure><![CDATA[<not a tag>]]></failure></testcase></testsuites>`;
  assert.equal(ids(xml), [['c > a & b <c> ☺', 'fail']]);
});

test.run();
