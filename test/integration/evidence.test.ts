/**
 * Evidence that holds (issue 21), with real reporters (node:test, pytest) and real git: seeds credit
 * only tests that pass on the parent, flips count on the same code, `retries: 1`, unique ids, pytest
 * ids, and output to a closed pipe.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeTest, test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { PROJECT, type Repo, cleanEnv, nodeTestId, withRepo } from '../helpers/repo.js';

/** node:test ids: Node 23 and later name the file too (test/helpers/repo.ts nodeTestId). */
const BROKEN = nodeTestId('test/value.test.mjs', 'broken > always');
const FLAKY = nodeTestId('test/value.test.mjs', 'flaky > sometimes');
const GOOD = nodeTestId('test/value.test.mjs', 'value > is good');
const FLAKY_TOP = nodeTestId('test/value.test.mjs', 'flaky sometimes');
const GOOD_TOP = nodeTestId('test/value.test.mjs', 'value is good');
const fileNamed = Number(process.versions.node.split('.')[0]) >= 23;

interface Row {
  id: string;
  tier: string;
  runs: number;
  flips: number;
  same_code_runs: number;
  flip_rate: number | null;
  evidence: number;
  eligible: boolean;
  broken: boolean;
  ambiguous: boolean;
  reason: string;
}
const flaky = (repo: Repo, env: Record<string, string> = {}): Row[] => {
  const r = repo.cli(['flaky', '--json'], { env });
  assert.is(r.code, 0, r.out);
  return JSON.parse(r.stdout).tests;
};
const row = (repo: Repo, id: string) => flaky(repo).find((t) => t.id === id);
const run = (repo: Repo, env: Record<string, string> = {}) => repo.cli(['run', '--base', 'HEAD~1'], { env, timeoutMs: 180_000 });

const NODE_TIER = (extra = '') =>
  `export default { tiers: [{ name: 't1', run: 'node --test --test-reporter=junit --test-reporter-destination=junit.xml test/*.mjs', runner: 'node', junit: 'junit.xml', timeout: 120${extra} }], freeze: { minRuns: 3 }, cache: false };\n`;

const VALUE_TESTS = {
  '.gitignore': 'node_modules\njunit.xml\n',
  'src/value.txt': 'good\n',
  'test/value.test.mjs': `import { describe, test } from 'node:test';
import assert from 'node:assert';
import { readFileSync } from 'node:fs';
describe('value', () => {
  test('is good', () => assert.equal(readFileSync('src/value.txt', 'utf8').trim(), 'good'));
});
describe('broken', () => {
  test('always', () => assert.fail('broken for good'));
});
describe('flaky', () => {
  test('sometimes', () => assert.ok(process.env.FLAKY !== '1', 'flaked'));
});
`,
};

// Node-sensitive: node:test's JUnit report on the Node under test, read for seed's credit and the freeze.
nodeTest(
  'seed credits only tests that pass on the parent and fail with the change; failing on both gets nothing, and a repeat adds nothing',
  () =>
    withRepo({ files: { ...VALUE_TESTS, 'gate-ladder.config.ts': NODE_TIER() } }, (repo) => {
      repo.write('src/other.txt', 'x\n');
      repo.commit('a change to judge');
      // A change no test covers, seeded twice while the flaky test flakes: the broken and the flaky test fail on both sides,
      // and the repeat adds nothing either (one seed is evidence enough for a freeze, so two show none accumulates).
      repo.gitOk('checkout', '-q', '-b', 'uncovered');
      repo.write('README.md', 'nothing any test reads\n');
      repo.commit('a change no test covers');
      repo.gitOk('checkout', '-q', 'main');
      for (let i = 0; i < 2; i++) {
        const r = repo.cli(['seed', 'uncovered'], { env: { FLAKY: '1' }, timeoutMs: 180_000 });
        assert.is(r.code, 1, r.out);
        assert.match(r.out, 'no evidence for 2 tests that also fail without the seeded change');
        assert.match(r.out, BROKEN);
        assert.match(r.out, FLAKY);
        assert.match(r.out, 'no test passed without the seeded change and failed with it, so no evidence was recorded');
      }
      // History: three runs of the same tree.
      for (const f of ['0', '1', '0']) run(repo, { FLAKY: f });
      const rows = flaky(repo);
      assert.ok(
        rows.every((t) => t.evidence === 0),
        JSON.stringify(rows),
      );
      const broken = rows.find((t) => t.id === BROKEN)!;
      assert.equal(
        [broken.broken, broken.eligible, broken.reason],
        [true, false, 'broken, not flaky: failed all 3 runs; fix it or delete it'],
      );
      assert.is(rows.find((t) => t.id === FLAKY)!.reason, 'no sensitivity evidence; rewrite or delete');
      const report = repo.cli(['report']).stdout;
      assert.match(report, 'broken (failed every run): 1');
      assert.match(report, `${BROKEN}: failed all 3 runs; fix it or delete it`);

      // A real bug: the test that checks the value passes on the parent and fails with it.
      repo.gitOk('checkout', '-q', '-b', 'bug');
      repo.write('src/value.txt', 'bad\n');
      repo.commit('a real bug');
      repo.gitOk('checkout', '-q', 'main');
      const seeded = repo.cli(['seed', 'bug'], { timeoutMs: 180_000 });
      assert.is(seeded.code, 0, seeded.out);
      assert.match(seeded.out, `sensitivity evidence recorded for 1 test (it passes without the seeded change and fails with it): ${GOOD}`);
      assert.match(seeded.out, 'no evidence for 1 test that also fails without the seeded change');
      const again = repo.cli(['seed', 'bug'], { timeoutMs: 180_000 });
      assert.is(again.code, 0, again.out);
      assert.match(again.out, `1 test already had evidence from this same change (seeded before); nothing new recorded for it: ${GOOD}`);
      assert.is(row(repo, GOOD)!.evidence, 1);
    }),
);

test('flips count only on the same code: a caught bug and its fix are not flips; `retries: 1` turns a flaky failure into a pass and records the flip', () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\njunit.xml\n',
        'src/value.txt': 'good\n',
        'gate-ladder.config.ts': NODE_TIER(', retries: 1'),
        'test/value.test.mjs': `import { test } from 'node:test';
import assert from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
test('value is good', () => assert.equal(readFileSync('src/value.txt', 'utf8').trim(), 'good'));
// Fails on every other call counted in FLAKY_COUNTER: the first attempt fails, its retry passes.
test('flaky sometimes', () => {
  const f = process.env.FLAKY_COUNTER;
  if (!f) return;
  let n = 0;
  try { n = Number(readFileSync(f, 'utf8')); } catch {}
  writeFileSync(f, String(n + 1));
  assert.ok(n % 2 === 1, 'flaked');
});
`,
      },
    },
    (repo) => {
      // A bug on one tree (caught: it fails again on the retry), the fix on the next: history, not flips.
      repo.write('src/value.txt', 'bad\n');
      repo.commit('bug');
      const caught = run(repo);
      assert.is(caught.code, 1, caught.out);
      assert.match(caught.out, 'tests failed; running it once more on the same code (retries: 1)');
      repo.write('src/value.txt', 'good\n');
      repo.commit('fix');
      assert.is(run(repo).code, 0);
      const stable = row(repo, GOOD_TOP)!;
      assert.equal(
        [stable.runs, stable.same_code_runs, stable.flips, stable.flip_rate, stable.reason],
        [3, 1, 0, 0, 'not actually flaky (0.000)'],
      );

      // A flaky failure on a real push: the retry passes, the push goes through, the flip is recorded.
      const dir = mkdtempSync(join(tmpdir(), 'gl-counter-'));
      try {
        repo.write('src/other.txt', 'x\n');
        repo.commit('another change');
        const before = repo.ledger().length;
        const pushed = repo.push(['origin', 'HEAD'], { FLAKY_COUNTER: join(dir, 'n') });
        assert.is(pushed.code, 0, pushed.out);
        assert.match(pushed.out, 't1 pass in');
        assert.match(pushed.out, `passed on retry: ${FLAKY_TOP} failed, then passed on the same code`);
        const rows = repo.ledger().slice(before);
        assert.equal(
          rows.map((r) => [
            r.tier,
            r.verdict,
            (r.retried as { verdict: string; failed: string[] }).verdict,
            (r.retried as { failed: string[] }).failed,
          ]),
          [['t1', 'pass', 'caught', [FLAKY_TOP]]],
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const f = row(repo, FLAKY_TOP)!;
      assert.equal([f.runs, f.same_code_runs, f.flips, f.flip_rate], [5, 2, 1, 0.5]);
      const report = JSON.parse(repo.cli(['report', '--json']).stdout);
      assert.is(report.tests.tiers[0].retried_passes, 1);
      assert.equal(
        report.tests.tiers[0].flaky.map((x: { id: string }) => x.id),
        [FLAKY_TOP],
      );
    },
  ));

test('vitest: a stable test that caught a bug and then passed once it was fixed is not flaky', () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\njunit.xml\n',
        'src/value.txt': 'good\n',
        // vitest from this project's devDependencies; --globals: the test files import nothing.
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: ${JSON.stringify(`node ${join(PROJECT, 'node_modules', 'vitest', 'vitest.mjs')} run --globals --reporter=default --reporter=junit --outputFile.junit=junit.xml`)}, runner: 'vitest', junit: 'junit.xml', timeout: 300 }], freeze: { minRuns: 3 }, cache: false };\n`,
        'test/value.test.js': `import { readFileSync } from 'node:fs';\ndescribe('value', () => {\n  test('is good', () => expect(readFileSync('src/value.txt', 'utf8').trim()).toBe('good'));\n});\n`,
      },
    },
    (repo) => {
      const id = 'test/value.test.js::value > is good';
      repo.write('src/other.txt', 'x\n');
      repo.commit('a change');
      assert.is(run(repo).code, 0);
      repo.write('src/value.txt', 'bad\n');
      repo.commit('a bug');
      const caught = run(repo);
      assert.is(caught.code, 1, caught.out);
      assert.match(caught.out, `t1: 1 test failed: ${id}`);
      repo.write('src/value.txt', 'good\n');
      repo.commit('the fix');
      assert.is(run(repo).code, 0);
      // The fix restores the first tree: its run repeats the first one (one same-code run, a pass after a pass), so pass,
      // caught, pass is no flip; counted run to run, it would be two. Three runs, one same-code pair, are the fewest that say so.
      const t = row(repo, id)!;
      assert.equal(
        [t.runs, t.same_code_runs, t.flips, t.flip_rate, t.eligible, t.reason],
        [3, 1, 0, 0, false, 'not actually flaky (0.000)'],
      );
    },
  ));

// Node-sensitive: node:test's JUnit ids name the file too from Node 23 on (nodeTestId), so each Node's own shape is read.
nodeTest(
  'ids name one test: node tests of one title in two files share an id that no freeze may name; a title in two pytest files lists its candidates',
  () =>
    withRepo(
      {
        files: {
          '.gitignore': 'node_modules\njunit.xml\nreport.xml\n__pycache__/\n',
          'gate-ladder.config.ts': `export default { tiers: [
  { name: 't1', run: 'node --test --test-reporter=junit --test-reporter-destination=junit.xml test/*.mjs', runner: 'node', junit: 'junit.xml', timeout: 120 },
  { name: 't2', run: 'python3 -m pytest -q -p no:cacheprovider --junitxml=report.xml tests', runner: 'pytest', junit: 'report.xml', timeout: 120 },
], freeze: { minRuns: 2 }, cache: false };\n`,
          'test/a.test.mjs': `import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('flaky multiplies', () => assert.ok(process.env.FAIL_A !== '1'));\n`,
          'test/b.test.mjs': `import { test } from 'node:test';\ntest('flaky multiplies', () => {});\n`,
          'tests/test_a.py': 'def test_same():\n    pass\n',
          'tests/test_b.py': 'def test_same():\n    pass\n',
        },
      },
      (repo) => {
        repo.write('src/x.txt', 'x\n');
        repo.commit('change');
        for (const f of ['0', '1', '0']) run(repo, { FAIL_A: f });
        const refused = repo.cli(['freeze', 'flaky multiplies', '--expires', '2025-02-01', '--reentry', 'x'], {
          env: { GATE_LADDER_NOW: '2025-01-01' },
        });
        assert.is(refused.code, 1, refused.out);
        if (fileNamed) {
          // Node 23 and later name the file: two ids, and the title alone lists both.
          const ids = flaky(repo).filter((t) => t.id.endsWith('::flaky multiplies'));
          assert.equal(ids.map((t) => [t.id, t.ambiguous]).sort(), [
            ['test/a.test.mjs::flaky multiplies', false],
            ['test/b.test.mjs::flaky multiplies', false],
          ]);
          assert.match(refused.out, '"flaky multiplies" names more than one test; a freeze names one. Candidates:');
          assert.match(refused.out, 'gate-ladder freeze "test/a.test.mjs::flaky multiplies" --tier t1');
        } else {
          const node = flaky(repo).find((t) => t.id === 'flaky multiplies')!;
          assert.equal([node.tier, node.ambiguous, node.eligible], ['t1', true, false]);
          assert.match(node.reason, 'ambiguous id: several tests in one report share it');
          assert.match(refused.out, 'not freezing "flaky multiplies": ambiguous id');
        }

        const py = repo.cli(['freeze', 'test_same', '--expires', '2025-02-01', '--reentry', 'x'], {
          env: { GATE_LADDER_NOW: '2025-01-01' },
        });
        assert.is(py.code, 1, py.out);
        assert.match(py.out, '"test_same" names more than one test; a freeze names one. Candidates:');
        assert.match(py.out, 'gate-ladder freeze "tests/test_a.py::test_same" --tier t2');
        assert.match(py.out, 'gate-ladder freeze "tests/test_b.py::test_same" --tier t2');
      },
    ),
);

test('pytest ids for folders with capitals and dots are the ids pytest prints; freeze takes them (even without the tier folder) and suggests the closest', () =>
  withRepo(
    {
      files: {
        '.gitignore': 'node_modules\nreport.xml\n__pycache__/\n',
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'python3 -m pytest -p no:cacheprovider -rf --junitxml=report.xml tests', cwd: 'py', runner: 'pytest', junit: 'report.xml', timeout: 120 }], freeze: { minRuns: 2 }, cache: false };\n`,
        'py/pytest.ini': '[pytest]\n',
        'py/tests/Integration/test_dup.py':
          'import os\n\nclass TestK:\n    def test_x(self):\n        assert os.environ.get("FLAKY") != "1"\n',
        'py/tests/v1.2/test_dot.py':
          'import pytest\n\n@pytest.mark.parametrize("a", [1, "x.y"])\ndef test_p(a):\n    assert a in (1, "x.y")\n',
      },
    },
    (repo) => {
      repo.write('src/x.txt', 'x\n');
      repo.commit('change');
      let printed = '';
      for (const f of ['0', '1', '0']) {
        const r = run(repo, { FLAKY: f });
        const m = /FAILED (\S+)/.exec(r.out);
        if (m) printed = m[1]!;
      }
      assert.is(printed, 'tests/Integration/test_dup.py::TestK::test_x', 'the id pytest printed');
      const ids = flaky(repo)
        .map((t) => t.id)
        .sort();
      assert.equal(ids, [
        'py/tests/Integration/test_dup.py::TestK::test_x',
        'py/tests/v1.2/test_dot.py::test_p[1]',
        'py/tests/v1.2/test_dot.py::test_p[x.y]',
      ]);
      // The id pytest printed is found (the tier runs in py/), and refused only for want of evidence.
      const r = repo.cli(['freeze', printed, '--expires', '2025-02-01', '--reentry', 'x'], { env: { GATE_LADDER_NOW: '2025-01-01' } });
      assert.is(r.code, 1, r.out);
      assert.match(r.out, 'not freezing "py/tests/Integration/test_dup.py::TestK::test_x": no sensitivity evidence');
      const typo = repo.cli(['freeze', 'tests/integration/test_dup.py::TestK::test_y', '--expires', '2025-02-01', '--reentry', 'x']);
      assert.is(typo.code, 1, typo.out);
      assert.match(typo.out, 'The closest known ids: "py/tests/Integration/test_dup.py::TestK::test_x"');
    },
  ));

test('a reader that goes away (`| true`, `| head -1`) makes no command crash with EPIPE', () =>
  withRepo({ files: { ...VALUE_TESTS, 'gate-ladder.config.ts': NODE_TIER() } }, (repo) => {
    repo.write('src/other.txt', 'x\n');
    repo.commit('change');
    run(repo);
    const cli = join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs');
    for (const args of ['flaky', 'flaky --json', 'report', 'report --json', 'run --json --dry-run --base HEAD~1', '--help']) {
      // `true` exits before the command writes: every write meets a closed pipe. pipefail gives the command's own status.
      const r = spawnSync('bash', ['-c', `set -o pipefail; node ${JSON.stringify(cli)} ${args} | true`], {
        cwd: repo.dir,
        env: cleanEnv(),
        encoding: 'utf8',
      });
      assert.is(r.status, 0, `${args}: ${r.stderr}`);
      assert.not.match(r.stderr, 'EPIPE', args);
      assert.not.match(r.stderr, 'internal error', args);
      const head = spawnSync('bash', ['-c', `set -o pipefail; node ${JSON.stringify(cli)} ${args} | head -1`], {
        cwd: repo.dir,
        env: cleanEnv(),
        encoding: 'utf8',
      });
      assert.is(head.stdout.split('\n').length, 2, args);
      assert.not.match(head.stderr, 'EPIPE', args);
    }
  }));

test.run();
