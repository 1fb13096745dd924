import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LADDER_FILES, cleanEnv, sh, withRepo, leftAfter, ownSleep } from '../helpers/repo.js';

test('run --base/--head judges a range without a push, as CI does', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    repo.write('src/value.txt', 'bug\n');
    const head = repo.commit('bug');
    const r = repo.cli(['run', '--base', 'HEAD~1', '--head', 'HEAD']);
    assert.is(r.code, 1, r.out);
    assert.match(r.stderr, 't1-properties caught a problem');
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.hook, x.tier, x.verdict, x.patch]),
      [['manual', 't1-properties', 'caught', head]],
    );
    // A commit named by a search of messages (`:/text`, which takes no `^{commit}` suffix): the same commit.
    const searched = repo.cli(['run', '--base', 'HEAD~1', '--head', ':/^bug', '--dry-run']);
    assert.is(searched.code, 0, searched.out);
    assert.match(searched.stdout, `:/^bug at ${head.slice(0, 12)}`);
  }));

test('run --dry-run prints the plan with reasons and runs nothing', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    repo.write('tests/fixture.txt', 'v2\n');
    repo.write('src/value.txt', 'bug\n');
    repo.commit('both');
    const r = repo.cli(['run', '--dry-run', '--base', 'HEAD~1']);
    assert.is(r.code, 0, r.out);
    // The plan is the command's answer: stdout.
    assert.match(r.stdout, 'changed paths: 2');
    assert.match(r.stdout, 'test-adjacent: tests/fixture.txt (matches **/tests/**)');
    assert.match(r.stdout, 'skip t1-properties: test-adjacent: tests/fixture.txt matches **/tests/**');
    assert.match(r.stdout, 'run  t2-fixtures');
    assert.equal(repo.ledger(), []);
  }));

test("run --dry-run without --base in a repository that pushed to its remote but never cloned it (no origin/HEAD): origin's main, else the branch's upstream", () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    // `git init` + `git remote add` + `git push -u`: the README's first steps; only a clone sets origin/HEAD.
    repo.gitOk('remote', 'set-head', 'origin', '-d');
    repo.write('src/value.txt', 'one\n');
    repo.commit('one');
    const r = repo.cli(['run', '--dry-run']);
    assert.is(r.code, 0, r.out);
    assert.match(r.stdout, 'changed paths: 1');
    // The base is named as well as given by its commit.
    assert.match(r.out, /1 changed path since [0-9a-f]{12} \(origin\/main\)/);

    // A branch already pushed with -u, and no origin/main known here: its upstream is the base.
    repo.gitOk('checkout', '-q', '-b', 'feat');
    assert.is(repo.push(['-q', '--no-verify', '-u', 'origin', 'feat']).code, 0);
    repo.gitOk('update-ref', '-d', 'refs/remotes/origin/main');
    repo.write('src/value.txt', 'two\n');
    repo.write('src/other.txt', 'two\n');
    repo.commit('two');
    const u = repo.cli(['run', '--dry-run']);
    assert.is(u.code, 0, u.out);
    assert.match(u.stdout, 'changed paths: 2');
    assert.match(u.out, /2 changed paths since [0-9a-f]{12} \(origin\/feat\)/);
  }));

test('run --json prints targets, plan and verdicts on stdout', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    repo.write('src/other.txt', 'x\n');
    repo.commit('change');
    const r = repo.cli(['run', '--json', '--base', 'HEAD~1']);
    assert.is(r.code, 0, r.out);
    const json = JSON.parse(r.stdout) as {
      exit: number;
      targets: { verdict: string; files: number; plan: { tier: string; run: boolean }[]; results: { verdict: string }[] }[];
    };
    assert.is(json.exit, 0);
    assert.is(json.targets[0]!.verdict, 'pass');
    assert.is(json.targets[0]!.files, 1);
    assert.equal(
      json.targets[0]!.plan.map((p) => p.run),
      [true, true],
    );
    assert.equal(
      json.targets[0]!.results.map((x) => x.verdict),
      ['pass', 'pass'],
    );
  }));

test('run --json into a pipe read late: the whole document arrives (more than a pipe holds)', () => {
  // 600 tiers with long names: a dry run's JSON plan of about 90 KB, more than the 64 KB a pipe holds
  // until its reader wakes up. Output still queued in the stream when the process exits would be cut.
  const tiers = Array.from({ length: 600 }, (_, i) => `{ name: 't${i}-${'x'.repeat(120)}', run: 'true' }`).join(',\n    ');
  return withRepo({ files: { 'gate-ladder.config.ts': `export default {\n  tiers: [\n    ${tiers},\n  ],\n};\n` } }, (repo) => {
    repo.write('src/other.txt', 'x\n');
    repo.commit('change');
    const cli = join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.cjs');
    const out = join(repo.dir, '..', 'plan.json');
    const r = sh(
      'sh',
      ['-c', `"$0" "$1" run --dry-run --json --base HEAD~1 | (sleep 1; cat > "$2")`, process.execPath, cli, out],
      repo.dir,
    );
    assert.is(r.code, 0, r.out);
    const text = readFileSync(out, 'utf8');
    assert.ok(text.length > 70_000, `only ${text.length} bytes of JSON`);
    const json = JSON.parse(text) as { targets: { plan: unknown[] }[] };
    assert.is(json.targets[0]!.plan.length, 600);
  });
});

test('a bad revision and an unknown command say what to do', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    const bad = repo.cli(['run', '--base', 'nope']);
    assert.is(bad.code, 2);
    assert.match(bad.stderr, 'nope is not a commit in this repository');
    const unknown = repo.cli(['frobnicate']);
    assert.is(unknown.code, 2);
    assert.match(unknown.stderr, 'gate-ladder --help');
    // yargs' message keeps its line breaks; the value given is escaped.
    const choice = repo.cli(['run', '--output', 'no\u001b[2Jpe']);
    assert.is(choice.code, 2);
    assert.match(choice.stderr, 'Invalid values:\n  Argument: output');
    assert.not.match(choice.stderr, '\u001b');
  }));

test('run --json that ends before judging anything (a bad revision, a config that does not load, outside a repository) still prints a document: the exit code and the problems', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    const doc = (r: { stdout: string; out: string }) =>
      JSON.parse(r.stdout || '{}') as { exit?: number; targets?: unknown[]; problems?: string[] };
    const bad = repo.cli(['run', '--base', 'no\u001bpe', '--json']);
    assert.is(bad.code, 2, bad.out);
    assert.equal([doc(bad).exit, doc(bad).targets], [2, []], bad.out);
    assert.match(doc(bad).problems?.join('\n') ?? '', 'no\\x1bpe is not a commit in this repository');
    assert.not.match(bad.stdout, '\u001b');
    repo.write('gate-ladder.config.ts', 'export default { tiers: [ };\n');
    const broken = repo.cli(['run', '--base', 'HEAD~1', '--json']);
    assert.is(broken.code, 2, broken.out);
    assert.equal([doc(broken).exit, doc(broken).targets], [2, []], broken.out);
    assert.match(doc(broken).problems?.join('\n') ?? '', 'gate-ladder.config.ts');
    const outside = sh(
      process.execPath,
      [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'run', '--json'],
      dirname(repo.dir),
    );
    assert.is(outside.code, 2, outside.out);
    assert.equal([doc(outside).exit, doc(outside).targets], [2, []], outside.out);
    assert.ok((doc(outside).problems?.length ?? 0) > 0, outside.out);
  }));

const SLEEP = ownSleep(0);

test('Ctrl-C stops the gate tree, keeps earlier rows, writes none for the interrupted tier, exits 130', () =>
  withRepo(
    {
      files: {
        // output 'all': the gate's "started" streams through, so the test knows when to press Ctrl-C.
        'gate-ladder.config.ts': `export default { output: 'all', tiers: [{ name: 't1', run: 'true' }, { name: 't2', run: 'echo started; sleep ${SLEEP} & sleep ${SLEEP + 1}' }] };\n`,
      },
    },
    async (repo) => {
      repo.write('src/a.txt', 'x\n');
      repo.commit('change');
      const child = spawn(process.execPath, [join(repo.dir, 'node_modules/gate-ladder/dist/cli.mjs'), 'run', '--base', 'HEAD~1'], {
        cwd: repo.dir,
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let sent = false;
      const code = await new Promise<number | null>((done) => {
        child.stderr.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('started') && !sent) {
            sent = true;
            child.kill('SIGINT');
          }
        });
        child.on('exit', (c) => done(c));
      });
      assert.is(code, 130, out);
      assert.match(out, 'interrupted');
      assert.equal(
        repo.ledger().map((x) => [x.tier, x.verdict]),
        [['t1', 'pass']],
      );
      assert.equal(leftAfter(new RegExp(`sleep (${SLEEP}|${SLEEP + 1})$`)), [], 'processes left behind');
    },
  ));

test.run();
