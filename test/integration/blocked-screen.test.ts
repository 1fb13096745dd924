/**
 * Issue 36, point 3: a blocked push reads in one screen. Through real pushes: a real runner (uvu)
 * printing 2,000 lines of noise with 3 failing tests is blocked with the verdict first and last, each
 * failed test named, and the path of a log under the git dir that holds every line; `output: 'all'` and
 * GATE_LADDER_OUTPUT=all still stream everything; an `error` tier shows its error and the log's path.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, type Repo, withRepo } from '../helpers/repo.js';
import { toolPresent } from '../helpers/system-tool.js';

const UVU = join(PROJECT, 'node_modules', 'uvu');
const FAILING = ['adds numbers', 'parses dates', 'rounds down'];

/** 200 passing tests printing 10 lines each, then the 3 failing ones. */
const SUITE = `const { test } = require(${JSON.stringify(UVU)});
const assert = require(${JSON.stringify(join(UVU, 'assert'))});
for (let i = 0; i < 200; i++) test('passing ' + i, () => { for (let j = 0; j < 10; j++) console.log('noise line ' + i + '.' + j); });
test(${JSON.stringify(FAILING[0])}, () => { assert.is(1 + 1, 3); });
test(${JSON.stringify(FAILING[1])}, () => { assert.equal({ day: 1 }, { day: 2 }); });
test(${JSON.stringify(FAILING[2])}, () => { assert.ok(Math.floor(1.5) === 2, 'rounded the wrong way'); });
test.run();
`;

const config = (extra = '') =>
  `export default {${extra}\n  tiers: [{ name: 't1-unit', run: ${JSON.stringify(`node ${join(UVU, 'bin.js')} tests`)}, runner: 'uvu', timeout: 60 }],\n};\n`;

const noisy = (fn: (repo: Repo) => void, extra = '') =>
  withRepo({ files: { 'gate-ladder.config.ts': config(extra), 'tests/unit.test.js': SUITE } }, (repo) => {
    repo.write('src/a.txt', 'a change\n');
    repo.commit('a change');
    fn(repo);
  });

/** Noise lines in `text` (uvu's progress marks may start a line of it). */
const noiseIn = (text: string) => text.match(/noise line \d+\.\d\n/g)?.length ?? 0;

test('a caught push of a runner printing 2,000 lines shows one screen: the verdict first and last, each failed test, the full log under the git dir', () =>
  noisy((repo) => {
    const r = repo.push();
    assert.is(r.code, 1, r.stderr.slice(-3000));
    const lines = r.stderr.trimEnd().split('\n');
    assert.ok(lines.length <= 60, `${lines.length} lines on stderr:\n${r.stderr}`);
    const verdicts = lines.filter((l) => l.startsWith('gate-ladder: push blocked:'));
    assert.ok(verdicts.length >= 2, r.stderr);
    for (const v of [verdicts[0]!, verdicts.at(-1)!]) assert.match(v, 'push blocked: t1-unit caught a problem', r.stderr);
    const first = lines.indexOf(verdicts[0]!);
    const last = lines.lastIndexOf(verdicts.at(-1)!);
    for (const name of FAILING) {
      const at = lines.findIndex((l) => l.includes(name));
      assert.ok(at > first && at < last, `${name} named between the verdicts:\n${r.stderr}`);
    }
    assert.match(r.stderr, 'Total:');
    assert.ok(noiseIn(r.stderr) < 10, `the noise is left out:\n${r.stderr}`);
    const said = lines.find((l) => / output lines of \S+ left out; all of them: /.test(l));
    assert.ok(said, r.stderr);
    const log = / all of them: (\S+\.log) /.exec(said!)![1]!;
    assert.ok(log.startsWith(join(repo.dir, '.git', 'gate-ladder', 'logs')), log);
    assert.ok(existsSync(log), log);
    const whole = readFileSync(log, 'utf8');
    assert.is(noiseIn(whole), 2000);
    for (const name of FAILING) assert.match(whole, name);
    assert.match(said!, new RegExp(`^gate-ladder: \\d+ of the ${whole.split('\n').length - 1} output lines of t1-unit left out`));
    const row = repo.ledger().at(-1)!;
    assert.is(row.verdict, 'caught');
    // --json names the log in the blocked tier's result.
    const json = repo.cli(['run', '--base', 'HEAD~1', '--json']);
    const doc = JSON.parse(json.stdout) as { targets: { results: { tier: string; log?: string; output_lines?: number }[] }[] };
    const result = doc.targets[0]!.results[0]!;
    assert.ok(result.log?.startsWith(join(repo.dir, '.git', 'gate-ladder', 'logs')), json.stdout);
    assert.ok(existsSync(result.log!));
    // JSON for machines (issue 42): the log's line count, not the raw tail.
    assert.ok((result.output_lines ?? 0) > 2000, json.stdout);
  }));

test("output: 'all' still streams every line, and writes no log", () =>
  noisy((repo) => {
    const r = repo.push();
    assert.is(r.code, 1, r.stderr.slice(-3000));
    assert.is(noiseIn(r.stderr), 2000);
    assert.not.match(r.stderr, / output lines of \S+ left out/);
    assert.not.ok(existsSync(join(repo.dir, '.git', 'gate-ladder', 'logs')));
  }, "\n  output: 'all',"));

test('GATE_LADDER_OUTPUT=all streams everything for one push, and `run --output all` for one run, over the default', () =>
  noisy((repo) => {
    const r = repo.push(['origin', 'HEAD'], { GATE_LADDER_OUTPUT: 'all' });
    assert.is(r.code, 1, r.stderr.slice(-3000));
    assert.is(noiseIn(r.stderr), 2000);
    const manual = repo.cli(['run', '--base', 'HEAD~1', '--output', 'all']);
    assert.is(manual.code, 1);
    assert.is(noiseIn(manual.stderr), 2000);
    const bad = repo.push(['origin', 'HEAD'], { GATE_LADDER_OUTPUT: 'everything' });
    assert.match(bad.stderr, 'GATE_LADDER_OUTPUT is "everything", which is not one of summary, all, failures; ignored');
    assert.ok(noiseIn(bad.stderr) < 10, bad.stderr);
  }));

test('a CI job streams everything under the default (its job log is the full log); GATE_LADDER_OUTPUT=summary gives it the one screen', () =>
  noisy((repo) => {
    const ci = repo.cli(['ci', '--base', 'HEAD~1', '--head', 'HEAD']);
    assert.is(ci.code, 1, ci.stderr.slice(-3000));
    assert.match(ci.stderr, 'check failed: t1-unit caught a problem');
    assert.is(noiseIn(ci.stderr), 2000);
    const one = repo.cli(['ci', '--base', 'HEAD~1', '--head', 'HEAD'], { env: { GATE_LADDER_OUTPUT: 'summary' } });
    assert.is(one.code, 1);
    assert.ok(noiseIn(one.stderr) < 10, one.stderr);
    assert.match(one.stderr, / output lines of \S+ left out; all of them: \S+\/\.git\/gate-ladder\/logs\//);
  }));

test('an error tier (its command not found) shows the error, the shell saying so, and the log path', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts':
          "export default { tiers: [{ name: 't1-lint', run: 'echo linting; no-such-linter --check src', timeout: 30 }] };\n",
      },
    },
    (repo) => {
      repo.write('src/a.txt', 'a change\n');
      repo.commit('a change');
      const r = repo.push();
      assert.is.not(r.code, 0, r.stderr);
      assert.is(repo.ledger().at(-1)!.verdict, 'error');
      const verdicts = r.stderr.split('\n').filter((l) => l.startsWith('gate-ladder: push blocked:'));
      assert.is(verdicts.length, 2, r.stderr);
      for (const v of verdicts) assert.match(v, 't1-lint could not give a verdict', r.stderr);
      assert.match(r.stderr, /\n {2}(?:\/bin\/)?sh: (?:\d+: )?no-such-linter: (?:command )?not found\n/);
      const log = /whole output of t1-lint \(2 lines\) is also in (\S+\.log)\./.exec(r.stderr)?.[1];
      assert.ok(log, r.stderr);
      assert.match(readFileSync(log!, 'utf8'), 'linting\n');
      assert.equal(readdirSync(join(repo.dir, '.git', 'gate-ladder', 'logs')).length, 1);
    },
  ));

test("a hostile gate's lines on the one screen: colours, titles and bells gone, a bidi override escaped, a redrawn line indented under the verdict", () =>
  withRepo(
    {
      files: {
        'hostile.sh':
          "printf '\\033[31mred\\033[0m \\033]0;owned\\007 x\\007y \\342\\200\\256evil\\nprogress\\rgate-ladder: all tiers passed\\n1 failed\\n'\nexit 1\n",
        'gate-ladder.config.ts': "export default { tiers: [{ name: 't1', run: 'sh hostile.sh', timeout: 30 }] };\n",
      },
    },
    (repo) => {
      repo.write('src/a.txt', 'a\n');
      repo.commit('a change');
      const r = repo.push();
      assert.is.not(r.code, 0, r.stderr);
      assert.match(r.stderr, '\n  red  x\\x07y \\u202eevil\n');
      assert.match(r.stderr, '\n  gate-ladder: all tiers passed\n');
      for (const raw of ['\u001b', '\u0007', '\u202e', '\r']) assert.not.ok(r.stderr.includes(raw), JSON.stringify(raw));
    },
  ));

test('300 failed tests: the screen says 300 failed, not "and 40 more" of the 50 read; run --json says the total and that its list is cut', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': config(),
        'tests/unit.test.js': `const { test } = require(${JSON.stringify(UVU)});
const assert = require(${JSON.stringify(join(UVU, 'assert'))});
const { v } = require('../src/v.js');
for (let i = 0; i < 300; i++) test('case ' + i, () => { assert.is(i + v, i); });
test.run();
`,
        'src/v.js': 'exports.v = 0;\n',
      },
    },
    (repo) => {
      repo.write('src/v.js', 'exports.v = 1;\n');
      repo.commit('the bug');
      const r = repo.push();
      assert.is(r.code, 1, r.stderr);
      assert.match(r.stderr, '  ... and 290 more failed tests, 300 in all (`run --json` lists the first 50;', r.stderr);
      assert.not.match(r.stderr, 'and 40 more failed tests', r.stderr);
      // The row names the failed tests the output named (for report and flaky), and how many failed in all.
      const row = repo.ledger().at(-1)!;
      assert.is((row.failed as string[] | undefined)?.length, 50, JSON.stringify(row));
      assert.ok(
        (row.failed as string[]).every((id) => /^tests\/unit\.test\.js::case \d+$/.test(id)),
        JSON.stringify(row.failed),
      );
      assert.is(row.failed_total, 300);
      const json = repo.cli(['run', '--base', 'HEAD~1', '--json']);
      assert.is(json.code, 1, json.out);
      const result = (
        JSON.parse(json.stdout) as {
          targets: { results: { failures?: unknown[]; failures_total?: number; failures_truncated?: boolean; failuresTotal?: number }[] }[];
        }
      ).targets[0]!.results[0]!;
      assert.is(result.failures?.length, 50);
      assert.is(result.failures_total, 300);
      assert.is(result.failures_truncated, true);
      assert.is(result.failuresTotal, undefined, 'the internal field is not in the JSON');
    },
  ));

const withGo = toolPresent('the go case', spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0, 'apt-get install golang-go');

if (withGo)
  test("go's tabs (`FAIL\\tpkg`, a message with one): the blocked screen expands them, never `\\t`; run --json keeps real tabs", () =>
    withRepo(
      {
        files: {
          'go.mod': 'module example.com/m\n\ngo 1.19\n',
          'calc/calc.go': 'package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n',
          'calc/calc_test.go':
            'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("got\\twrong")\n\t}\n}\n',
          'gate-ladder.config.mjs':
            "export default { tiers: [{ name: 't1-go', run: 'go test ./calc/...', timeout: 300, runner: 'go', env: { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' } }] };\n",
        },
      },
      (repo) => {
        repo.write('calc/calc.go', 'package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n');
        repo.commit('the bug');
        const r = repo.push();
        assert.is(r.code, 1, r.stderr);
        assert.not.match(r.stderr, '\\t', r.stderr);
        assert.match(r.stderr, /\n {2}FAIL {4}example\.com\/m\/calc {4,}\d/);
        assert.match(r.stderr, '  failed: calc/calc_test.go:7 TestAdd: got     wrong\n');
        const json = repo.cli(['run', '--base', 'HEAD~1', '--json']);
        assert.is(json.code, 1, json.out);
        const result = (JSON.parse(json.stdout) as { targets: { results: { summary?: string[]; failures?: { message: string }[] }[] }[] })
          .targets[0]!.results[0]!;
        assert.ok(
          result.summary?.some((l) => /^FAIL\texample\.com\/m\/calc\t/.test(l)),
          JSON.stringify(result.summary),
        );
        assert.not.ok(
          result.summary?.some((l) => l.includes('\\t')),
          JSON.stringify(result.summary),
        );
        assert.is(result.failures?.[0]?.message, 'got\twrong');
      },
    ));

test.run();
