/**
 * The failed test, for a person and for an agent (issue 42): a tier running a real runner (vitest, jest,
 * mocha, from this project's dev dependencies) with no JUnit report, judged by the packed CLI. The failed
 * test's id, file, line and first message line, read from what the runner printed, reach `judge --json`,
 * `run --json`, the ledger row (`failed_tests`) and the blocked screen; the JSON holds no terminal control
 * code, and gives the one-screen summary and the log of the whole output instead of a raw tail.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type Repo, cleanEnv, useRunnerModules, withRepo } from '../helpers/repo.js';

type Failed = { id: string; title?: string; file?: string; line?: number; message: string };

/** Whether any string of a decoded JSON value (keys too) holds a control character other than newline and tab. */
function controlIn(v: unknown): boolean {
  if (typeof v === 'string') return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(v);
  if (Array.isArray(v)) return v.some(controlIn);
  if (v !== null && typeof v === 'object') return Object.entries(v).some(([k, x]) => controlIn(k) || controlIn(x));
  return false;
}

/** A project whose `npm test` runs `runner` on test/math.test.js (one suite, `math > adds`, calling src/math.js's add), with colours forced. */
function project(runner: 'vitest' | 'jest' | 'mocha'): Record<string, string> {
  const script = { vitest: 'vitest run', jest: 'jest', mocha: 'mocha test' }[runner];
  const header =
    runner === 'vitest'
      ? "import { describe, expect, test } from 'vitest';\nimport { add } from '../src/math.js';\n"
      : runner === 'jest'
        ? "const { add } = require('../src/math.js');\n"
        : "const assert = require('node:assert');\nconst { add } = require('../src/math.js');\n";
  const check = runner === 'mocha' ? 'assert.strictEqual(add(1, 1), 2);' : 'expect(add(1, 1)).toBe(2);';
  const it = runner === 'mocha' ? 'it' : 'test';
  return {
    '.gitignore': 'node_modules\n',
    'package.json': `${JSON.stringify({ name: `fixture-${runner}`, private: true, ...(runner === 'vitest' && { type: 'module' }), scripts: { test: script } }, null, 2)}\n`,
    'gate-ladder.config.mjs': `export default { tiers: [{ name: 't1-tests', run: 'npm test', timeout: 120, env: { FORCE_COLOR: '1' } }] };\n`,
    'src/math.js': runner === 'vitest' ? 'export const add = (a, b) => a + b;\n' : 'exports.add = (a, b) => a + b;\n',
    'test/math.test.js': `${header}describe('math', () => {\n  ${it}('adds', () => {\n    ${check}\n  });\n});\n`,
  };
}

/** The bug: add subtracts. */
const bug = (runner: 'vitest' | 'jest' | 'mocha') =>
  runner === 'vitest' ? 'export const add = (a, b) => a - b;\n' : 'exports.add = (a, b) => a - b;\n';

const repoWith = <T>(runner: 'vitest' | 'jest' | 'mocha', fn: (repo: Repo) => Promise<T> | T) =>
  withRepo({ files: project(runner), install: false, pushInitial: false }, (repo) => {
    useRunnerModules(repo);
    return fn(repo);
  });

/** The bug as a patch file beside the repo, the work tree left as committed. */
function bugPatch(repo: Repo, runner: 'vitest' | 'jest' | 'mocha'): string {
  repo.write('src/math.js', bug(runner));
  const diff = repo.gitOk('diff');
  repo.gitOk('checkout', '--', '.');
  const file = join(dirname(repo.dir), `${runner}-bug.diff`);
  writeFileSync(file, `${diff}\n`);
  return file;
}

test('vitest, no JUnit report: judge --json names the failed test with its file, line and message; no control code; the summary and the log instead of a raw tail; the row and the MCP tool carry it', () =>
  repoWith('vitest', async (repo) => {
    const patch = bugPatch(repo, 'vitest');
    const r = repo.cli(['judge', '--patch', patch, '--json'], { timeoutMs: 240_000 });
    assert.is(r.code, 1, r.out);
    const doc = JSON.parse(r.stdout) as Record<string, unknown> & { failed_tests: Failed[]; summary?: string[]; log?: string };
    assert.not.ok(controlIn(doc), 'no control character in any string of the JSON');
    assert.is(doc.verdict, 'caught');
    assert.equal(doc.failed_tests.length, 1, JSON.stringify(doc.failed_tests));
    assert.is(doc.failed_tests_total, 1);
    assert.is(doc.failed_tests_truncated, false);
    const f = doc.failed_tests[0]!;
    assert.is(f.id, 'test/math.test.js::math > adds');
    assert.is(f.file, 'test/math.test.js');
    assert.is(f.line, 5);
    assert.match(f.message, /^AssertionError: expected \+?0 to be 2/);
    assert.is(doc.output, undefined, 'no raw tail');
    assert.ok(
      doc.summary?.some((l) => l.includes('FAIL  test/math.test.js > math > adds')),
      JSON.stringify(doc.summary),
    );
    assert.ok(doc.log !== undefined && existsSync(doc.log), `the log exists: ${doc.log}`);
    assert.ok(readFileSync(doc.log!, 'utf8').includes('Failed Tests 1'), 'the log holds the whole output');
    const row = repo.ledger().find((x) => x.verdict === 'caught')!;
    assert.equal(row.failed_tests, [{ id: 'test/math.test.js::math > adds', file: 'test/math.test.js', line: 5, message: f.message }]);
    assert.equal(row.failed, ['test/math.test.js::math > adds'], 'the ids, read from the output as from a report');
    // The MCP tool's structured result: the same failed test, as an agent receives it.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'mcp'],
      cwd: repo.dir,
      env: cleanEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'gate-ladder-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const got = await client.callTool({ name: 'judge_patch', arguments: { patch: readFileSync(patch, 'utf8') } }, undefined, {
        timeout: 240_000,
      });
      const sc = got.structuredContent as { verdict: string; failed_tests: Failed[] };
      assert.is(sc.verdict, 'caught');
      assert.equal(sc.failed_tests, doc.failed_tests);
    } finally {
      await client.close();
    }
  }));

test('jest, no JUnit report: run --json names the failed test; the blocked screen of a manual run lists it with file:line', () =>
  repoWith('jest', (repo) => {
    repo.write('src/math.js', bug('jest'));
    repo.commit('the bug');
    const json = repo.cli(['run', '--base', 'HEAD~1', '--json'], { timeoutMs: 240_000 });
    assert.is(json.code, 1, json.out);
    const doc = JSON.parse(json.stdout) as { targets: { results: (Record<string, unknown> & { failures?: Failed[] })[] }[] };
    assert.not.ok(controlIn(doc), 'no control character in any string of the JSON');
    const result = doc.targets[0]!.results[0]!;
    assert.is(result.tail, undefined, 'no raw tail');
    assert.ok(Array.isArray(result.summary), 'the one-screen summary');
    assert.ok(typeof result.log === 'string' && existsSync(result.log), 'the log of the whole output');
    assert.equal(
      result.failures?.map((f) => [f.id, f.file, f.line]),
      [['test/math.test.js::math > adds', 'test/math.test.js', 4]],
    );
    assert.match(result.failures![0]!.message, /expect\(received\)\.toBe\(expected\)/);
    const text = repo.cli(['run', '--base', 'HEAD~1'], { timeoutMs: 240_000 });
    assert.is(text.code, 1, text.out);
    assert.ok(
      text.stderr.includes('  failed: test/math.test.js:4 math > adds: expect(received).toBe(expected)'),
      `the blocked screen names the failed test:\n${text.stderr}`,
    );
    assert.not.match(text.stderr, 'which the commit judged does not hold');
  }));

test('a failed test in a file the commit does not hold (untracked, in the checkout where the gates ran): said, with what to do', () =>
  repoWith('jest', (repo) => {
    repo.write('README.md', 'a note\n');
    repo.commit('an innocent change');
    repo.write('test/wip.test.js', "test('not done yet', () => { expect(1).toBe(2); });\n");
    const text = repo.cli(['run', '--base', 'HEAD~1'], { timeoutMs: 240_000 });
    assert.is(text.code, 1, text.out);
    assert.match(text.stderr, 'failed: test/wip.test.js:1 not done yet');
    assert.match(
      text.stderr,
      'a failed test is in test/wip.test.js, which the commit judged does not hold: a file only your checkout has (untracked), where the gates ran. Commit it with the fix, or move it away, and run again.',
    );
  }));

test('mocha, no JUnit report, gates in a worktree slot: the file is the repository path, not the slot path; a bell in a test name reaches the JSON escaped', () =>
  repoWith('mocha', (repo) => {
    // The assertion's message names the test file's path: the path the gates saw.
    repo.write(
      'test/math.test.js',
      repo
        .read('test/math.test.js')
        .replace("it('adds'", "it('adds\\u0007'")
        .replace('assert.strictEqual(add(1, 1), 2);', "assert.strictEqual(add(1, 1), 2, 'in ' + __filename);"),
    );
    repo.commit('a bell in the name');
    const r = repo.cli(['judge', '--patch', bugPatch(repo, 'mocha'), '--json'], { timeoutMs: 240_000 });
    assert.is(r.code, 1, r.out);
    const doc = JSON.parse(r.stdout) as { failed_tests: Failed[] };
    assert.not.ok(controlIn(doc), 'no control character in any string of the JSON');
    assert.equal(
      doc.failed_tests.map((f) => [f.id, f.file, f.line]),
      [['test/math.test.js::math > adds\\x07', 'test/math.test.js', 5]],
    );
    assert.match(doc.failed_tests[0]!.message, /^AssertionError \[ERR_ASSERTION\]/);
    // The summary names the repository's file, not the slot's copy an agent would edit in vain.
    const summary = (doc as { summary?: string[] }).summary ?? [];
    assert.ok(
      summary.some((l) => l.includes(`in ${repo.dir}/test/math.test.js`)),
      summary.join('\n'),
    );
    assert.not.ok(
      summary.some((l) => /slot-\d/.test(l)),
      summary.join('\n'),
    );
  }));

test("a script that runs node's test runner itself (no runner named or detected): the catch is node's, not mocha's, and names the failed test", () =>
  withRepo(
    {
      files: {
        'package.json': `${JSON.stringify({ name: 'fixture-script', private: true, scripts: { test: 'node scripts/run-tests.js' } }, null, 2)}\n`,
        // The script hands node --test's TAP on (what a pipe gets on Node 20 and 22; later Nodes are told so).
        'scripts/run-tests.js':
          "const { spawnSync } = require('node:child_process');\nconst r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'test/'], { stdio: 'inherit' });\nprocess.exit(r.status ?? 1);\n",
        'gate-ladder.config.mjs': "export default { tiers: [{ name: 't1-tests', run: 'npm test', timeout: 120 }] };\n",
        'src/math.js': 'exports.add = (a, b) => a + b;\n',
        'test/math.test.js':
          "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math.js');\n\ntest('adds', () => {\n  assert.strictEqual(add(1, 1), 2);\n});\n",
      },
      install: false,
      pushInitial: false,
    },
    (repo) => {
      repo.write('src/math.js', 'exports.add = (a, b) => a - b;\n');
      repo.commit('the bug');
      const json = repo.cli(['run', '--base', 'HEAD~1', '--json'], { timeoutMs: 240_000 });
      assert.is(json.code, 1, json.out);
      const doc = JSON.parse(json.stdout) as { targets: { results: { verdict: string; reason?: string; failures?: Failed[] }[] }[] };
      const result = doc.targets[0]!.results[0]!;
      assert.is(result.verdict, 'caught', json.out);
      assert.match(result.reason ?? '', /^node: `# fail 1`/);
      assert.equal(
        result.failures?.map((f) => [f.file, f.line]),
        [['test/math.test.js', 6]],
        json.out,
      );
    },
  ));

test.run();
