/**
 * `gate-ladder judge` and `gate-ladder mcp` (issue 38): candidate patches judged as a push would judge
 * them, by the packed CLI in a real repository whose tier is a real runner (node --test, with a JUnit
 * report), and the MCP server driven by the SDK's own client in a real subprocess.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { lstatSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { nodeTest, test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { PROJECT, type Repo, cleanEnv, sh, withRepo } from '../helpers/repo.js';
import { poolLocks, userWorktrees } from '../helpers/pool.js';

type Doc = Record<string, unknown>;
type Failed = { id: string; file?: string; line?: number; message?: string };

// The shell expands the files: Node 22 and 24 take a folder argument for a file to run (20 and 26 walk it).
const TEST_SCRIPT =
  'node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=junit.xml test/*.test.js';

/** One tier, `npm test`, running node's own test runner with a JUnit report. */
const FILES: Record<string, string> = {
  '.gitignore': 'node_modules\njunit.xml\n',
  'package.json': `${JSON.stringify({ name: 'fixture', private: true, scripts: { test: TEST_SCRIPT } }, null, 2)}\n`,
  'gate-ladder.config.ts': `export default { tiers: [{ name: 't1-unit', run: 'npm test', timeout: 120, junit: 'junit.xml' }] };\n`,
  'src/math.js': 'exports.add = (a, b) => a + b;\n',
  'test/math.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math.js');\n\ntest('adds', () => {\n  assert.equal(add(1, 2), 3);\n});\n",
};

const repoWith = <T>(fn: (repo: Repo) => Promise<T> | T) => withRepo({ files: FILES, install: false, pushInitial: false }, fn);

/** A patch made in the work tree with `edit`, then taken back out (the work tree is as committed again). */
function patchOf(repo: Repo, name: string, edit: () => void): string {
  edit();
  const diff = repo.gitOk('diff', '--binary');
  repo.gitOk('checkout', '--', '.');
  const file = join(dirname(repo.dir), name);
  writeFileSync(file, `${diff}\n`);
  return file;
}

const BUG = (repo: Repo) => () => repo.write('src/math.js', 'exports.add = (a, b) => a - b;\n');
const GOOD = (repo: Repo) => () => repo.write('src/math.js', 'exports.add = (a, b) => b + a;\n');

const judge = (repo: Repo, args: string[], input?: string) =>
  repo.cli(['judge', ...args], { ...(input !== undefined && { input }), timeoutMs: 240_000 });

/** No worktree but the repo's own, every slot given back. */
function assertSlotsBack(repo: Repo): void {
  assert.equal(userWorktrees(repo), [repo.dir], "no worktree but the pool's");
  assert.equal(poolLocks(repo), [], 'every slot is given back');
}

// Node-sensitive: node --test's JUnit report names the failed test's file from Node 23 on, before that its stack does.
nodeTest('a caught patch: exit 1, the JSON names the failed test with its file and line; the row has hook judge and the patch id', () =>
  repoWith((repo) => {
    const bug = patchOf(repo, 'bug.diff', BUG(repo));
    const r = judge(repo, ['--patch', bug, '--json']);
    assert.is(r.code, 1, r.out);
    const doc = JSON.parse(r.stdout) as Doc;
    assert.equal([doc.exit, doc.verdict, doc.tier, doc.applied], [1, 'caught', 't1-unit', true]);
    const failed = doc.failed_tests as Failed[];
    assert.is(failed.length, 1, r.stdout);
    assert.equal([failed[0]!.file, failed[0]!.line], ['test/math.test.js', 6]);
    assert.match(failed[0]!.id, 'adds');
    assert.match(String(failed[0]!.message), '-1');
    assert.equal(
      (doc.tiers as Doc[]).map((t) => [t.tier, t.verdict, typeof t.seconds]),
      [['t1-unit', 'caught', 'number']],
    );
    const rows = repo.ledger();
    assert.is(rows.length, 1);
    assert.equal([rows[0]!.hook, rows[0]!.source, rows[0]!.patch, rows[0]!.isolation], ['judge', 'judge', doc.patch, 'worktree']);
    assert.match(String(doc.patch), /^bug\.diff@[0-9a-f]{12}$/);
    assert.equal(doc.ledger, { file: repo.ledgerPath, rows: [{ run: rows[0]!.run, tier: 't1-unit' }] });
    // Text: the verdict first.
    const text = judge(repo, ['--patch', bug]);
    assert.is(text.code, 1, text.out);
    assert.match(text.stdout, /^caught: bug\.diff: caught by t1-unit/);
    assert.match(text.stdout, 'failed: test/math.test.js:6 ');
    // A commit, against its parent.
    BUG(repo)();
    const parent = repo.gitOk('rev-parse', 'HEAD');
    const commit = repo.commit('a bug');
    const byCommit = JSON.parse(judge(repo, ['--commit', 'HEAD', '--json']).stdout) as Doc;
    assert.equal([byCommit.verdict, byCommit.patch, byCommit.base], ['caught', commit, parent]);
    assertSlotsBack(repo);
  }),
);

test('a patch that breaks the harness (removes the test script): exit 2, error_cause patch, package.json named', () =>
  repoWith((repo) => {
    const broken = patchOf(repo, 'broken.diff', () =>
      repo.write('package.json', `${JSON.stringify({ name: 'fixture', private: true, scripts: {} }, null, 2)}\n`),
    );
    const r = judge(repo, ['--patch', broken, '--json']);
    assert.is(r.code, 2, r.out);
    const doc = JSON.parse(r.stdout) as Doc;
    assert.equal([doc.verdict, doc.tier, doc.error_cause, doc.error_file], ['error', 't1-unit', 'patch', 'package.json']);
    assert.match(String(doc.reason), 'missing script');
    assert.match(String(doc.next), 'The patch broke the harness');
    assert.equal([repo.ledger()[0]!.error_cause, repo.ledger()[0]!.hook], ['patch', 'judge']);
  }));

test('a patch that does not apply: exit 2, git apply says why, and the next step; standard input read with --patch -', () =>
  repoWith((repo) => {
    const stale = `diff --git a/src/math.js b/src/math.js\n--- a/src/math.js\n+++ b/src/math.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a * b;\n+exports.add = (a, b) => a / b;\n`;
    const r = judge(repo, ['--patch', '-', '--json'], stale);
    assert.is(r.code, 2, r.out);
    const doc = JSON.parse(r.stdout) as Doc;
    assert.equal([doc.verdict, doc.tier, doc.applied, doc.error_cause], ['error', '(apply)', false, 'patch']);
    assert.match(
      String(doc.reason),
      /does not apply onto [0-9a-f]{12}: the hunk `@@ -1 \+1 @@` of src\/math\.js does not match src\/math\.js at the base: git: src\/math\.js: patch does not apply/,
    );
    assert.match(String(doc.next), 'Make the patch against');
    assert.match(String(doc.patch), /^stdin@[0-9a-f]{12}$/);
    const text = judge(repo, ['--patch', '-'], stale);
    assert.is(text.code, 2);
    assert.match(text.stdout, /^error: stdin: at \(apply\): does not apply/);
    assertSlotsBack(repo);
  }));

test('two patches with --jobs 2: both judged, one answer per patch, the worst exit, both rows in the ledger', () =>
  repoWith((repo) => {
    const bug = patchOf(repo, 'bug.diff', BUG(repo));
    const good = patchOf(repo, 'good.diff', GOOD(repo));
    const r = judge(repo, ['--patch', bug, '--patch', good, '--jobs', '2', '--json']);
    assert.is(r.code, 1, r.out);
    assert.match(r.stderr, 'judging 2 patches, 2 at a time');
    const doc = JSON.parse(r.stdout) as { exit: number; verdict: string; patches: Doc[] };
    assert.equal([doc.exit, doc.verdict], [1, 'caught']);
    assert.equal(
      doc.patches.map((p) => [p.label, p.verdict]),
      [
        ['bug.diff', 'caught'],
        ['good.diff', 'pass'],
      ],
    );
    const rows = repo.ledger();
    assert.equal(rows.map((x) => `${String(x.patch).split('@')[0]}:${x.verdict}`).sort(), ['bug.diff:caught', 'good.diff:pass']);
    assert.is(new Set(rows.map((x) => x.run)).size, 2);
    assertSlotsBack(repo);
  }));

/** The bytes of every file below `dir` (links as their targets' names), by path: what "untouched" compares. */
function tree(dir: string, skip: (name: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: false }) as string[]) {
    if (skip(e)) continue;
    const path = join(dir, e);
    const st = lstatSync(path);
    if (st.isFile()) out.set(e, createHash('sha256').update(readFileSync(path)).digest('hex'));
    else if (st.isSymbolicLink()) out.set(e, 'link');
  }
  return out;
}

test("--worktree judges the uncommitted change with its untracked file; the user's working tree, index and node_modules are byte-identical after", () =>
  repoWith((repo) => {
    const none = judge(repo, ['--worktree', '--json']);
    assert.is(none.code, 0, none.out);
    assert.equal(JSON.parse(none.stdout), { exit: 0, judged: false, message: none.stderr.trim() });
    assert.match(none.stderr, 'the working tree has no change against HEAD');
    BUG(repo)();
    // A test of the patch's own that writes into node_modules: it reaches the slot's copy only.
    repo.write(
      'test/more.test.js',
      "const { join } = require('node:path');\nrequire('node:test')('more', () => require('node:fs').writeFileSync(join(__dirname, '..', 'node_modules', '.written-by-a-test'), 'x'));\n",
    );
    const user = (name: string) => !/^(\.git|node_modules)(\/|$)/.test(name);
    // git status first: it refreshes the index's file stats, which is a write of its own.
    const status = repo.gitOk('status', '--porcelain');
    const before = {
      files: tree(repo.dir, (n) => !user(n)),
      index: readFileSync(join(repo.dir, '.git', 'index')),
      modules: tree(join(repo.dir, 'node_modules')),
    };
    const r = judge(repo, ['--worktree', '--json']);
    assert.is(r.code, 1, r.out);
    const doc = JSON.parse(r.stdout) as Doc;
    assert.equal([doc.verdict, doc.label], ['caught', 'the working tree']);
    const row = repo.ledger()[0]!;
    assert.equal(row.files, ['src/math.js', 'test/more.test.js'], 'the untracked file is part of the change');
    assert.equal(
      tree(repo.dir, (n) => !user(n)),
      before.files,
      'the working tree is byte-identical',
    );
    assert.ok(readFileSync(join(repo.dir, '.git', 'index')).equals(before.index), 'the index is byte-identical');
    assert.equal(tree(join(repo.dir, 'node_modules')), before.modules, 'node_modules is byte-identical');
    assert.is(repo.gitOk('status', '--porcelain'), status);
    assertSlotsBack(repo);
  }));

// Node-sensitive: the MCP server (its SDK's modules, stdio) on this Node, and judge_patch's verdicts as above.
nodeTest(
  'mcp: the SDK client lists the tools; judge_patch answers caught and pass as judge --json, a patch that does not apply is an isError result; explain_order and report answer',
  () =>
    repoWith(async (repo) => {
      const bug = readFileSync(patchOf(repo, 'bug.diff', BUG(repo)), 'utf8');
      const good = readFileSync(patchOf(repo, 'good.diff', GOOD(repo)), 'utf8');
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'mcp'],
        cwd: repo.dir,
        env: cleanEnv() as Record<string, string>,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      const client = new Client({ name: 'gate-ladder-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const tools = await client.listTools();
        assert.equal(tools.tools.map((t) => t.name).sort(), ['explain_order', 'judge_patch', 'report']);

        const caught = await client.callTool({ name: 'judge_patch', arguments: { patch: bug } });
        assert.not.ok(caught.isError, stderr);
        const c = caught.structuredContent as Doc;
        assert.equal([c.exit, c.verdict, c.tier], [1, 'caught', 't1-unit']);
        assert.is((c.failed_tests as Failed[])[0]!.file, 'test/math.test.js');
        assert.equal(JSON.parse((caught.content as { text: string }[])[0]!.text), c, 'the text content is the same object');

        const passed = await client.callTool({ name: 'judge_patch', arguments: { patch: good } });
        assert.equal([(passed.structuredContent as Doc).verdict, passed.isError ?? false], ['pass', false]);

        const stale = await client.callTool({ name: 'judge_patch', arguments: { patch: bug.replace(/a \+ b/, 'a * b') } });
        assert.is(stale.isError, true);
        assert.match((stale.content as { text: string }[])[0]!.text, 'does not apply');

        const plan = await client.callTool({ name: 'explain_order', arguments: { patch: bug } });
        assert.not.ok(plan.isError, JSON.stringify(plan.content));
        const targets = (plan.structuredContent as { targets: { plan: { tier: string; run: boolean }[] }[] }).targets;
        assert.equal(
          targets[0]!.plan.map((p) => [p.tier, p.run]),
          [['t1-unit', true]],
        );

        // A revision that cannot answer: a tool error saying so; one that looks like an option stays a revision.
        const badRange = await client.callTool({ name: 'explain_order', arguments: { base: 'nope', head: 'HEAD' } });
        assert.is(badRange.isError, true, JSON.stringify(badRange.content));
        assert.match((badRange.content as { text: string }[])[0]!.text, 'nope is not a commit in this repository');
        const optionLike = await client.callTool({ name: 'judge_patch', arguments: { patch: good, base: '--help' } });
        assert.is(optionLike.isError, true, JSON.stringify(optionLike.content));
        assert.match((optionLike.content as { text: string }[])[0]!.text, '--help');
        assert.not.match((optionLike.content as { text: string }[])[0]!.text, 'could not answer (exit 0)');

        // A patch over the SDK's own 10 MiB stdio limit (which closed the connection): answered.
        const line = `${'x'.repeat(99)}\n`;
        const lines = Math.ceil((11 << 20) / line.length);
        const big = `diff --git a/big.txt b/big.txt\nnew file mode 100644\n--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,${lines} @@\n${`+${line}`.repeat(lines)}`;
        const bigPlan = await client.callTool({ name: 'explain_order', arguments: { patch: big } });
        assert.not.ok(bigPlan.isError, JSON.stringify(bigPlan.content).slice(0, 2000));

        const report = await client.callTool({ name: 'report', arguments: {} });
        assert.not.ok(report.isError, JSON.stringify(report.content));
        const tiers = (report.structuredContent as { tiers: { tier: string; runs: number; caught: number }[] }).tiers;
        assert.equal(
          tiers.map((t) => [t.tier, t.runs, t.caught]),
          [['t1-unit', 2, 1]],
        );
      } finally {
        await client.close();
      }
      // Two judged patches, and the one that did not apply: its one (apply) row, counted apart by the report.
      assert.equal(
        repo.ledger().map((x) => [x.hook, x.tier]),
        [
          ['judge', 't1-unit'],
          ['judge', 't1-unit'],
          ['judge', '(apply)'],
        ],
      );
      assertSlotsBack(repo);
    }),
);

test("docs/agents.md's hook script: exit 0 on a clean tree, exit 2 with the reason, the failed test's file and the next step on stderr for a caught edit", () =>
  repoWith((repo) => {
    const doc = readFileSync(join(PROJECT, 'docs', 'agents.md'), 'utf8');
    const script = /## An agent's hook[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(script, 'the script is in docs/agents.md');
    const hook = join(dirname(repo.dir), 'agent-hook.mjs');
    writeFileSync(hook, script!);
    const env = { PATH: `${join(repo.dir, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
    const clean = sh(process.execPath, [hook], repo.dir, { env, timeoutMs: 240_000 });
    assert.is(clean.code, 0, clean.out);
    BUG(repo)();
    const blocked = sh(process.execPath, [hook], repo.dir, { env, timeoutMs: 240_000 });
    assert.is(blocked.code, 2, blocked.out);
    assert.match(blocked.stderr, 'gate-ladder: caught at t1-unit');
    assert.match(blocked.stderr, 'test/math.test.js:6 ');
    assert.match(blocked.stderr, 'The patch is wrong');
  }));

/** The CLI as a child, with this process's event loop free (a listener of the test may answer meanwhile). */
function judgeAsync(repo: Repo, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'judge', ...args], {
    cwd: repo.dir,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('--isolate network: a gate that connects to a listener on 127.0.0.1 is cut off (caught, isolate on the row); without it the same patch passes', () =>
  repoWith(async (repo) => {
    let connections = 0;
    const server = createServer((s) => {
      connections++;
      s.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const probe = `require('net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', (e) => { console.error(e.code); process.exit(1); })`;
      repo.write(
        'gate-ladder.config.ts',
        `export default { tiers: [{ name: 't1-net', run: ${JSON.stringify([process.execPath, '-e', probe])}, timeout: 20 }] };\n`,
      );
      repo.commit('a gate that needs the network');
      const x = patchOf(repo, 'x.diff', () => repo.write('src/math.js', '// x\nexports.add = (a, b) => a + b;\n'));
      const isolated = await judgeAsync(repo, ['--patch', x, '--isolate', 'network', '--json']);
      assert.is(isolated.code, 1, isolated.stdout + isolated.stderr);
      assert.match(isolated.stderr, 'gates without network');
      assert.is(connections, 0);
      assert.equal(
        repo.ledger().map((r) => [r.tier, r.verdict, r.isolate, r.hook]),
        [['t1-net', 'caught', 'network', 'judge']],
      );
      const open = await judgeAsync(repo, ['--patch', x, '--json']);
      assert.is(open.code, 0, open.stdout + open.stderr);
      assert.is(connections, 1, 'the listener answered once isolation was off');
    } finally {
      server.close();
    }
  }));

test.run();
