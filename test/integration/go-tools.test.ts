/**
 * go (1.19 here; .ci/run installs golang-go) on real pushes: `go vet`'s findings are a catch, code it
 * cannot compile an error; a test binary that log.Fatal ends in the code under test is an error, even
 * with `allowNoTests` (before: "no tests ran", and a pass under it), the patch's, naming the package, the
 * test that was running and how to run it alone (before: the harness's, no file, no test); a tier that
 * `cd`s to its module names its failed tests from the repository's root, and a `go test -json` report
 * is named as that (before: "JUnit report").
 */
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepo } from '../helpers/repo.js';
import { toolPresent } from '../helpers/system-tool.js';

const withGo = toolPresent('the go cases', spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0, 'apt-get install golang-go');

const ADD = 'package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n';
const ADD_TEST =
  'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("1+2")\n\t}\n\tif Add(-1, -2) != -3 {\n\t\tt.Fatal("-1-2")\n\t}\n}\n';
const ENV = "env: { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' }";

if (withGo)
  test('go vet: a finding is caught naming its file:line, code that does not compile an error; log.Fatal in the code under test is an error, not "no tests ran", even with allowNoTests', () =>
    withRepo(
      {
        files: {
          'go.mod': 'module example.com/m\n\ngo 1.19\n',
          'calc/calc.go': ADD,
          'calc/calc_test.go': ADD_TEST,
          'gate-ladder.config.mjs': `export default { tiers: [\n  { name: 't1-vet', run: 'go vet ./...', timeout: 120, ${ENV} },\n  { name: 't2-calc', run: 'go test -v ./calc/...', timeout: 300, runner: 'go', allowNoTests: true, ${ENV} },\n] };\n`,
        },
      },
      (repo) => {
        repo.write('calc/show.go', 'package calc\n\nimport "fmt"\n\nfunc Show() { fmt.Printf("%d\\n", "x") }\n');
        repo.commit('a vet finding');
        const vet = repo.push();
        assert.is.not(vet.code, 0, vet.out);
        assert.match(vet.out, 't1-vet caught in');
        assert.match(vet.out, 'govet: 1 finding, the first: `calc/show.go:5:15: fmt.Printf format %d has arg "x" of wrong type string`');

        repo.write('calc/show.go', 'package calc\n\nfunc Show() int { return "x" }\n');
        repo.commit('code that does not compile');
        const broken = repo.push();
        assert.is.not(broken.code, 0, broken.out);
        assert.match(broken.out, 't1-vet error in');
        assert.match(broken.out, 'a compile error, which govet cannot check past: `calc/show.go:3:');

        repo.write('calc/show.go', 'package calc\n');
        repo.write(
          'calc/calc.go',
          'package calc\n\nimport "log"\n\nfunc Add(a, b int) int {\n\tif a < 0 {\n\t\tlog.Fatalf("negative input %d", a)\n\t}\n\treturn a + b\n}\n',
        );
        repo.commit('log.Fatal in the code under test');
        const fatal = repo.push();
        assert.is.not(fatal.code, 0, fatal.out);
        assert.match(fatal.out, 't1-vet pass');
        assert.match(fatal.out, 't2-calc error in');
        // The package and the test that was running, that the code under test ended it, and how to find where; the patch's, naming its file.
        assert.match(
          fatal.out,
          'the test binary of example.com/m/calc exited in TestAdd before its tests reported: the code under test ended the process (a log.Fatal, an os.Exit or a crash); its last output: `',
        );
        assert.match(
          fatal.out,
          "negative input -1`; `go test -v -run '^TestAdd$' example.com/m/calc` runs that test alone, to find where it exits",
        );
        assert.match(
          fatal.out,
          '  The push changed calc/calc.go, and the code under test ended the test process before its tests reported (it exited or aborted, as said above): likely the patch, not the harness.\n  Find where it stops (the command above shows it), fix it, commit, and push again.',
        );
        assert.not.match(fatal.out, 'not a verdict on the patch');
        assert.not.match(fatal.out, 'no tests ran');
        const row = repo.ledger().at(-1)!;
        assert.equal([row.tier, row.verdict, row.error_cause, row.error_file], ['t2-calc', 'error', 'patch', 'calc/calc.go']);
      },
    ));

if (withGo)
  test('go in a folder of its own (`cd backend && go test ./...`): a failed test is named at its repository path, from the text and from a `go test -json` report, and a missing report is named as that report', () =>
    withRepo(
      {
        files: {
          'backend/go.mod': 'module example.com/m\n\ngo 1.19\n',
          'backend/calc/calc.go': ADD,
          'backend/calc/calc_test.go': ADD_TEST,
          'gate-ladder.config.mjs': `export default { tiers: [\n  { name: 't1-cd', run: 'cd backend && go test ./...', timeout: 300, ${ENV} },\n  { name: 't2-json', run: 'cd backend && go test ./...', report: { format: 'go-json', path: 'backend/go-test.json' }, timeout: 300, ${ENV} },\n  { name: 't3-json', run: 'cd backend && go test -json ./... > go-test.json', report: { format: 'go-json', path: 'backend/go-test.json' }, timeout: 300, ${ENV} },\n] };\n`,
        },
      },
      (repo) => {
        repo.write('backend/calc/calc.go', 'package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n');
        repo.commit('a bug');
        const caught = repo.push();
        assert.is.not(caught.code, 0, caught.out);
        assert.match(caught.out, 't1-cd caught in');
        const row = (tier: string) =>
          repo
            .ledger()
            .filter((r) => r.tier === tier)
            .at(-1)!;
        assert.equal(row('t1-cd').failed_tests, [
          { id: 'example.com/m/calc::TestAdd', file: 'backend/calc/calc_test.go', line: 7, message: '1+2' },
        ]);

        const missing = repo.push(['origin', 'HEAD'], { GATE_LADDER_SKIP: 't1-cd' });
        assert.is.not(missing.code, 0, missing.out);
        assert.match(missing.out, 't2-json error in');
        assert.match(
          missing.out,
          'exit 1 and no `go test -json` report at backend/go-test.json: cannot tell a failed test from a broken harness; make the gate write it (e.g. `go test -json ./... > PATH`) or drop `report` from the tier',
        );
        assert.not.match(missing.out, 'JUnit');

        const json = repo.push(['origin', 'HEAD'], { GATE_LADDER_SKIP: 't1-cd,t2-json' });
        assert.is.not(json.code, 0, json.out);
        assert.match(json.out, 't3-json caught in');
        assert.equal(row('t3-json').failed_tests, [
          { id: 'example.com/m/calc::TestAdd', file: 'backend/calc/calc_test.go', line: 7, message: '1+2' },
        ]);
      },
    ));

test.run();
