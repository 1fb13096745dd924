/**
 * A tier that runs its tests through make, with real make and pytest: make exits 2 whatever failed, so
 * the verdict comes from the recipe's runner (read from the Makefile at the judged commit) and the
 * failed recipe line's own code, not from make's 2.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepo } from '../helpers/repo.js';

const MAKEFILE = ['PYTEST ?= python3 -m pytest', '', '.PHONY: test', 'test: ## the tests', '\t@$(PYTEST) -q tests', ''].join('\n');
const CONFIG = "export default { tiers: [{ name: 't2-make', run: 'make test', timeout: 120 }] };\n";
const PASSING = 'def test_a():\n    assert 1 == 1\n';

const files = { Makefile: MAKEFILE, 'gate-ladder.config.mjs': CONFIG, 'tests/test_a.py': PASSING };

test("make test: a failing test is caught, a test file that cannot import is an error, a missing target is an error; each read off pytest, not make's exit 2", () =>
  withRepo({ files, install: false }, (repo) => {
    repo.write('tests/test_a.py', 'def test_a():\n    assert 1 == 2\n\ndef test_b():\n    pass\n');
    repo.commit('a failing test');
    const caught = repo.cli(['run', '--base', 'HEAD~1']);
    assert.is(caught.code, 1, caught.out);
    assert.match(caught.stderr, 't2-make caught in');
    assert.match(caught.stderr, '(pytest: `1 failed, 1 passed in');
    const plan = repo.cli(['run', '--base', 'HEAD~1', '--dry-run']);
    assert.match(plan.stdout, 'runner: pytest (`make test` runs `python3 -m pytest -q tests`)');

    repo.write('tests/test_a.py', 'import nope_missing\n\ndef test_a():\n    pass\n');
    repo.commit('an import that fails');
    const broken = repo.cli(['run', '--base', 'HEAD~1']);
    assert.is(broken.code, 2, broken.out);
    assert.match(
      broken.stderr,
      "pytest could not collect the tests (tests/test_a.py): `ModuleNotFoundError: No module named 'nope_missing'`",
    );
    assert.match(broken.stderr, '  The range changed tests/test_a.py, which cannot load (line 1): the patch broke the harness.');

    repo.write('gate-ladder.config.mjs', CONFIG.replace('make test', 'make tset'));
    repo.write('tests/test_a.py', PASSING);
    repo.commit('a target that does not exist');
    const missing = repo.cli(['run', '--base', 'HEAD~1']);
    assert.is(missing.code, 2, missing.out);
    assert.match(missing.stderr, "make: `make: *** No rule to make target 'tset'.  Stop.`");

    // `.PHONY: test` left behind without its rule: make prints "Nothing to be done" and exits 0 (was a pass).
    repo.write('gate-ladder.config.mjs', CONFIG);
    repo.write('Makefile', MAKEFILE.replace(/^test: .*\n.*\n/m, 'tests:\n\t@$(PYTEST) -q tests\n'));
    repo.commit('the test target renamed, its .PHONY line left');
    const idle = repo.cli(['run', '--base', 'HEAD~1']);
    assert.is(idle.code, 2, idle.out);
    assert.match(
      idle.stderr,
      "make ran no command, so no test ran: `make: Nothing to be done for 'test'.`; give the target a recipe that runs the tests in the Makefile",
    );
    assert.equal(
      repo.ledger().map((r) => r.verdict),
      ['caught', 'error', 'error', 'error'],
    );
  }));

test('a push through the hook: make -n says what the target runs, a variable defined twice taking its last value as make does', () =>
  withRepo(
    {
      files: {
        ...files,
        Makefile: ['RUN = echo no tests here', 'RUN = python3 -m pytest', '.PHONY: test', 'test:', '\t@$(RUN) -q tests', ''].join('\n'),
      },
    },
    (repo) => {
      repo.write('tests/test_a.py', 'def test_a():\n    assert 1 == 2\n');
      repo.commit('a failing test');
      const r = repo.push(['origin', 'main']);
      assert.is.not(r.code, 0, r.out);
      assert.match(r.out, '(pytest: `1 failed in');
      assert.equal(
        repo.ledger().map((x) => [x.tier, x.verdict]),
        [['t2-make', 'caught']],
      );
    },
  ));

test.run();
