import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHECK_SH, LADDER_FILES, type Repo, type Run, cleanEnv, withRepo, leftAfter, ownSleep } from '../helpers/repo.js';
import { poolLocks, userWorktrees } from '../helpers/pool.js';

type Row = Record<string, unknown>;

/** A repo with the two-tier ladder, and a private TMPDIR so stray temp folders can be seen. */
const corpus = <T>(fn: (repo: Repo, tmp: string) => Promise<T> | T, files: Record<string, string> = LADDER_FILES) =>
  withRepo({ files, install: false, pushInitial: false }, (repo) => {
    const tmp = join(dirname(repo.dir), 'tmp');
    mkdirSync(tmp);
    return fn(repo, tmp);
  });

const replay = (repo: Repo, tmp: string, args: string[], env: Record<string, string> = {}) =>
  repo.cli(['replay', ...args], { env: { TMPDIR: tmp, ...env } });

/** The CLI as a child the test can signal, with the event loop free (a listener may run meanwhile). */
function spawnReplay(repo: Repo, tmp: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'replay', ...args], {
    cwd: repo.dir,
    env: cleanEnv({ TMPDIR: tmp, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, out: stdout + stderr })));
  return { child, done };
}

/** No worktree but the repo's own and the pool's, every slot given back, and nothing left in the private TMPDIR. */
function assertCleanedUp(repo: Repo, tmp: string): void {
  assert.equal(userWorktrees(repo), [repo.dir], "no worktree but the pool's");
  assert.equal(poolLocks(repo), [], 'every slot is given back');
  // node-compile-cache: Node's own module cache, made in TMPDIR by tools the gates run (npm on Node 22 and later).
  assert.equal(
    readdirSync(tmp).filter((f) => f !== 'node-compile-cache'),
    [],
    'no stray temp folder',
  );
  assert.is(repo.gitOk('status', '--porcelain'), '', "the user's working tree is untouched");
}

const verdicts = (rows: Row[], patch: string) => rows.filter((r) => r.patch === patch).map((r) => `${r.tier}:${r.verdict}`);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

test('no config: replay says it needs one and how to make it, and writes nothing', () =>
  withRepo({ install: false, pushInitial: false }, (repo) => {
    const r = repo.cli(['replay', 'HEAD']);
    assert.is(r.code, 2, r.out);
    assert.match(r.stderr, 'replay judges patches by the ladder configured here, and there is no config');
    assert.match(r.stderr, 'npx gate-ladder install');
    assert.equal(repo.ledger(), []);
  }));

test("a range of ten commits: each judged against its parent, by today's ladder, with the expected rows", () =>
  corpus((repo, tmp) => {
    const c: Record<string, string> = {};
    const step = (name: string, edit: () => void) => {
      edit();
      c[name] = repo.commit(name);
    };
    step('good', () => repo.write('src/a.txt', 'a\n'));
    step('bug', () => repo.write('src/value.txt', 'bug\n'));
    step('fix', () => repo.write('src/value.txt', 'good\n'));
    step('fixture', () => repo.write('tests/fixture.txt', 'fixture v2\n'));
    step('bug-behind-fixture', () => {
      repo.write('src/value.txt', 'bug\n');
      repo.write('tests/fixture.txt', 'fixture v3\n');
    });
    step('fix-again', () => repo.write('src/value.txt', 'good\n'));
    step('harness', () => repo.write('harness.txt', '4\n'));
    step('unharness', () => repo.gitOk('rm', '-q', 'harness.txt'));
    step('test-file', () => repo.write('src/test_value.py', 'def test_x(): pass\n'));
    step('rename', () => repo.gitOk('mv', 'src/a.txt', 'src/c.txt'));
    const head = repo.gitOk('rev-parse', 'HEAD');

    const r = replay(repo, tmp, ['main~10..main']);
    assert.is(r.code, 0, r.out);
    assert.match(r.stderr, "every patch is judged under the working tree's gate-ladder.config.ts (today's config)");
    const rows = repo.ledger();
    const expected: Record<string, string[]> = {
      good: ['t1-properties:pass', 't2-fixtures:pass'],
      bug: ['t1-properties:caught'],
      fix: ['t1-properties:pass', 't2-fixtures:pass'],
      fixture: ['t2-fixtures:pass'],
      'bug-behind-fixture': ['t2-fixtures:caught'],
      'fix-again': ['t1-properties:pass', 't2-fixtures:pass'],
      harness: ['t1-properties:error'],
      unharness: ['t1-properties:pass', 't2-fixtures:pass'],
      'test-file': ['t2-fixtures:pass'],
      rename: ['t1-properties:pass', 't2-fixtures:pass'],
    };
    for (const [name, want] of Object.entries(expected)) assert.equal(verdicts(rows, c[name]!), want, name);
    assert.is(rows.length, 15);
    const order = Object.keys(expected);
    for (const row of rows) {
      assert.is(row.hook, 'replay');
      assert.is(row.source, 'replay');
      assert.is(row.isolation, 'worktree');
      assert.is(row.config_hash, rows[0]!.config_hash);
      const i = order.findIndex((n) => c[n] === row.patch);
      assert.is(row.base, i === 0 ? repo.gitOk('rev-parse', 'main~10') : c[order[i - 1]!], 'the base is the parent');
    }
    assert.equal(rows.find((x) => x.patch === c.fixture)!.skipped, ['t1-properties']);
    assert.match(String(rows.find((x) => x.patch === c.harness)!.reason), 'exit 4');
    assert.equal(rows.find((x) => x.patch === c.rename)!.files, ['src/a.txt', 'src/c.txt']);
    assert.is(new Set(rows.map((x) => x.run)).size, 10, 'one ladder run per patch');

    assert.match(r.stdout, 'replay: 10 patches (10 replayed now, 0 earlier under this config)');
    assert.match(r.stdout, /^t1-properties\s+7\s+1\s+1\s+5\s/m);
    assert.match(r.stdout, /^t2-fixtures\s+8\s+1\s+0\s+7\s/m);
    assert.match(r.stderr, /\[10\/10\]/);
    assert.match(r.stderr, 'caught by t1-properties');
    assert.match(r.stderr, 'error at t1-properties: exit 4');
    assert.is(repo.gitOk('rev-parse', 'HEAD'), head);
    assertCleanedUp(repo, tmp);
  }));

test('commits where the tier cannot run (its script or runner came later) are "not applicable", counted apart in the report; a script the patch removed is its error', () =>
  corpus(
    (repo, tmp) => {
      const pkg = (scripts: Record<string, string>) =>
        repo.write('package.json', `${JSON.stringify({ name: 'fixture', private: true, scripts }, null, 2)}\n`);
      const c: Record<string, string> = {};
      const step = (name: string, edit: () => void) => {
        edit();
        c[name] = repo.commit(name);
      };
      step('no-script', () => pkg({ test: 'node check.js' }));
      step('lab-era', () => pkg({ 'test:quick': 'lab test/*.js' }));
      step('removed', () => pkg({ test: 'node check.js' }));
      step('node-era', () => pkg({ test: 'node check.js', 'test:quick': 'node check.js' }));
      step('bug', () => repo.write('src/value.txt', 'bug\n'));
      const r = replay(repo, tmp, ['main~5..main', '--jobs', '1']);
      assert.is(r.code, 0, r.out);
      const rows = repo.ledger();
      const row = (name: string) => rows.find((x) => x.patch === c[name])!;
      assert.is(row('lab-era').verdict, 'error');
      assert.match(String(row('lab-era').reason), /^not applicable at this commit: command not found: lab: `sh: 1: lab: not found`/);
      assert.is(row('lab-era').applicable, false);
      // Its base had no such script either: the command did not exist yet.
      assert.match(String(row('no-script').reason), /^not applicable at this commit: npm: missing script "test:quick"/);
      assert.is(row('no-script').applicable, false);
      assert.is(row('no-script').error_cause, undefined);
      // Its base had the script and the patch took it out of package.json: the patch's error, not "not applicable".
      assert.equal(
        [row('removed').verdict, row('removed').applicable, row('removed').error_cause, row('removed').error_file],
        ['error', undefined, 'patch', 'package.json'],
      );
      assert.match(String(row('removed').reason), /^npm: missing script "test:quick"/);
      assert.equal([row('node-era').verdict, row('node-era').applicable], ['pass', undefined]);
      assert.equal([row('bug').verdict, row('bug').applicable], ['caught', undefined]);
      assert.match(r.stdout, /^t1\s+3\s+1\s+1\s+1\s/m, 'the replay figures leave the not applicable ones out');
      assert.match(r.stdout, "not applicable at their commit (the tier's script or runner was absent there; counted apart): 2");
      const rep = JSON.parse(repo.cli(['report', '--json']).stdout) as {
        tiers: { tier: string; runs: number; caught: number; errors: number; not_applicable: number }[];
        excluded: Record<string, number>;
        errors: Record<string, number>;
      };
      const t1 = rep.tiers.find((t) => t.tier === 't1')!;
      assert.equal([t1.runs, t1.caught, t1.errors, t1.not_applicable], [3, 1, 1, 2]);
      assert.is(rep.excluded.not_applicable, 2);
      assert.equal(rep.errors, { patch: 1, harness: 0 });
      assertCleanedUp(repo, tmp);
    },
    {
      'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'npm run test:quick', timeout: 60 }] };\n`,
      'check.js':
        "if (require('fs').readFileSync('src/value.txt', 'utf8').includes('bug')) { console.log('value is buggy'); process.exit(1); }\n",
      'src/value.txt': 'good\n',
    },
  ));

const JUNIT_SH = `#!/bin/sh
if grep -q bug src/value.txt; then r='<failure message="buggy"/>'; code=1; else r=''; code=0; fi
printf '<?xml version="1.0"?><testsuites><testsuite name="value" tests="1"><testcase classname="value" name="is good">%s</testcase></testsuite></testsuites>\\n' "$r" > junit.xml
exit $code
`;

test("JUnit tiers as on a push: per-test records land beside the rows; freezes are today's, not the patch's own", () =>
  corpus(
    (repo, tmp) => {
      const tests = () =>
        existsSync(join(dirname(repo.ledgerPath), 'tests.jsonl'))
          ? readFileSync(join(dirname(repo.ledgerPath), 'tests.jsonl'), 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as Row)
          : [];
      repo.write('src/value.txt', 'bug\n');
      const bug = repo.commit('bug');
      const r = replay(repo, tmp, ['main~1..main']);
      assert.is(r.code, 0, r.out);
      const rows = repo.ledger();
      assert.equal(
        rows.map((x) => [x.tier, x.verdict]),
        [['t1-junit', 'caught']],
      );
      const recs = tests();
      assert.is(recs.length, 1);
      assert.is(recs[0]!.run, rows[0]!.run, 'joinable with the row on run + tier');
      assert.is(recs[0]!.source, 'replay');
      assert.is(recs[0]!.patch, bug);
      const id = (recs[0]!.fail as string[])[0]!;
      assert.ok(id, 'the failing test is named');

      const freeze = {
        version: 1,
        freezes: [
          {
            test: id,
            flip_rate: 0.5,
            runs: 20,
            flips: 10,
            evidence: 1,
            by: 'T <t@x>',
            at: '2026-01-01T00:00:00Z',
            expires: '2999-01-01',
            reentry: 'never',
          },
        ],
      };
      repo.write('.gate-ladder/freezes.json', JSON.stringify(freeze));
      repo.write('src/value.txt', 'bug\n');
      const selfFreeze = repo.commit('keep the bug, and freeze the test that sees it');

      repo.write('.gate-ladder/freezes.json', '{"version":1,"freezes":[]}');
      const own = replay(repo, tmp, [`${selfFreeze}~1..${selfFreeze}`]);
      assert.is(own.code, 0, own.out);
      assert.equal(
        repo
          .ledger()
          .slice(1)
          .map((x) => [x.patch, x.verdict]),
        [[selfFreeze, 'caught']],
        "the patch's own freeze does not count",
      );

      repo.gitOk('checkout', '-q', '--', '.gate-ladder/freezes.json');
      const today = replay(repo, tmp, [`${selfFreeze}~1..${selfFreeze}`, '--force']);
      assert.is(today.code, 0, today.out);
      assert.equal(
        repo
          .ledger()
          .slice(2)
          .map((x) => [x.patch, x.verdict]),
        [[selfFreeze, 'pass']],
        "today's freeze (the working tree's) does",
      );
      assertCleanedUp(repo, tmp);
    },
    {
      'gate-ladder.config.ts': `export default { tiers: [{ name: 't1-junit', run: 'sh junit.sh', junit: 'junit.xml', timeout: 30 }] };\n`,
      'junit.sh': JUNIT_SH,
      '.gitignore': 'node_modules\njunit.xml\n',
      'src/value.txt': 'good\n',
    },
  ));

test('merges: left out by default (their branch is replayed commit by commit); --first-parent judges a merge as one patch', () =>
  corpus((repo, tmp) => {
    const start = repo.gitOk('rev-parse', 'HEAD');
    repo.gitOk('checkout', '-q', '-b', 'side');
    repo.write('src/value.txt', 'bug\n');
    const side = repo.commit('side: a bug');
    repo.write('src/value.txt', 'good\n');
    repo.write('src/side.txt', 'side\n');
    const sideFix = repo.commit('side: fixed, with a file');
    repo.gitOk('checkout', '-q', 'main');
    repo.write('src/main.txt', 'm\n');
    const onMain = repo.commit('main work');
    repo.gitOk('merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    const merge = repo.gitOk('rev-parse', 'HEAD');

    const r = replay(repo, tmp, [`${start}..main`]);
    assert.is(r.code, 0, r.out);
    assert.match(r.stderr, 'left out 1 merge commit');
    const rows = repo.ledger();
    assert.equal(new Set(rows.map((x) => x.patch)), new Set([side, sideFix, onMain]));
    assert.equal(verdicts(rows, side), ['t1-properties:caught']);

    const f = replay(repo, tmp, [`${start}..main`, '--first-parent']);
    assert.is(f.code, 0, f.out);
    assert.match(f.stderr, '1 patch was replayed before under this config', 'the mainline commit, already judged');
    const fp = repo.ledger().slice(rows.length);
    assert.equal(new Set(fp.map((x) => x.patch)), new Set([merge]));
    assert.equal(fp[0]!.base, onMain, 'a merge is judged against its first parent');
    assert.equal(fp[0]!.files, ['src/side.txt'], 'the whole merged branch, as one patch');
    assertCleanedUp(repo, tmp);
  }));

test('a folder of patches onto HEAD: ids are name@hash, other files ignored, one that does not apply is counted apart', () =>
  corpus((repo, tmp) => {
    const base = repo.gitOk('rev-parse', 'HEAD');
    const dir = join(dirname(repo.dir), 'patches');
    mkdirSync(dir);
    repo.write('src/b.txt', 'b\n');
    repo.commit('add b');
    writeFileSync(join(dir, 'good.patch'), `${repo.gitOk('format-patch', '-1', '--stdout')}\n`);
    repo.gitOk('reset', '-q', '--hard', base);
    repo.write('src/value.txt', 'bug\n');
    writeFileSync(join(dir, 'bug.diff'), `${repo.gitOk('diff')}\n`);
    repo.gitOk('checkout', '-q', '--', '.');
    repo.write('tests/fixture.txt', 'fixture v2\n');
    writeFileSync(join(dir, 'fixture.patch'), `${repo.gitOk('diff')}\n`);
    repo.gitOk('checkout', '-q', '--', '.');
    const stale =
      'diff --git a/src/value.txt b/src/value.txt\n--- a/src/value.txt\n+++ b/src/value.txt\n@@ -1 +1 @@\n-not what is there\n+bug\n';
    writeFileSync(join(dir, 'stale.patch'), stale);
    writeFileSync(join(dir, 'notes.txt'), 'not a patch\n');

    const r = replay(repo, tmp, [dir]);
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger();
    const id = (name: string) => `${name}@${sha256(readFileSync(join(dir, name), 'utf8'))}`;
    assert.equal(verdicts(rows, id('good.patch')), ['t1-properties:pass', 't2-fixtures:pass']);
    assert.equal(verdicts(rows, id('bug.diff')), ['t1-properties:caught']);
    assert.equal(verdicts(rows, id('fixture.patch')), ['t2-fixtures:pass']);
    const na = rows.filter((x) => x.patch === id('stale.patch'));
    assert.is(na.length, 1, 'one row for a patch that does not apply');
    assert.is(na[0]!.tier, '(apply)');
    assert.is(na[0]!.applied, false);
    assert.match(String(na[0]!.reason), `does not apply onto ${base.slice(0, 12)}`);
    // The hunk, the file and git's own reason (replay/apply-reason.ts).
    assert.match(String(na[0]!.reason), /of \S+ does not match \S+ at the base: git: \S+: patch does not apply/);
    assert.is(rows.length, 5, 'notes.txt is not a patch');
    for (const row of rows) assert.is(row.base, base);
    assert.equal(rows.find((x) => x.patch === id('good.patch'))!.files, ['src/b.txt']);

    assert.match(r.stdout, 'replay: 4 patches (4 replayed now, 0 earlier under this config, 1 did not apply)');
    assert.match(r.stdout, 'did not apply (counted apart: not a catch, not an error): 1');
    assert.match(r.stdout, /^t1-properties\s+2\s+1\s+0\s+1\s/m, 'the unapplied patch is no tier error');
    assert.match(r.stderr, 'stale.patch: did not apply');
    assertCleanedUp(repo, tmp);
  }));

test('patch files named on the command line (or with --patches) apply onto --onto; nothing named is a usage error', () =>
  corpus((repo, tmp) => {
    const first = repo.gitOk('rev-parse', 'HEAD');
    repo.write('src/value.txt', 'bug\n');
    const patch = join(dirname(repo.dir), 'bug.patch');
    writeFileSync(patch, `${repo.gitOk('diff')}\n`);
    repo.commit('the bug is in HEAD now');
    const onHead = replay(repo, tmp, [patch]);
    assert.is(onHead.code, 0, onHead.out);
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.applied]),
      [['(apply)', false]],
      'HEAD has the change already',
    );
    const none = replay(repo, tmp, []);
    assert.is(none.code, 2, none.out);
    assert.match(none.stderr, '`--patches DIR`');
    const onFirst = replay(repo, tmp, ['--patches', patch, '--onto', first]);
    assert.is(onFirst.code, 0, onFirst.out);
    const rows = repo.ledger().slice(1);
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.base]),
      [['t1-properties', 'caught', first]],
    );
    assertCleanedUp(repo, tmp);
  }));

test('--jobs 2: two patches at a time, never more; two replays at once share the ledger; no row lost or interleaved', () =>
  corpus(async (repo, tmp) => {
    const log = join(dirname(repo.dir), 'gates.log');
    const marks = join(dirname(repo.dir), 'started');
    mkdirSync(marks);
    // Each gate marks its start, then waits (20 s at most: a replay that never runs two at once fails below)
    // until two gates of its replay have started: the first two overlap by a state, not by a sleep's luck.
    const gate = [
      `echo "start $TAG $(date +%s%N)" >> ${log}`,
      `: > "${marks}/$TAG.$(date +%s%N).$$"`,
      `end=$(($(date +%s) + 20)); while [ "$(ls ${marks} | grep -c "^$TAG\\.")" -lt 2 ] && [ "$(date +%s)" -lt $end ]; do sleep 0.02; done`,
      `echo "end $TAG $(date +%s%N)" >> ${log}`,
      'sh check.sh "$1"',
    ].join('\n');
    repo.write('gate.sh', `${gate}\n`);
    repo.write(
      'gate-ladder.config.ts',
      `export default { tiers: [\n  { name: 't1-properties', run: 'sh gate.sh properties', timeout: 30, skipWhenTestAdjacent: true },\n  { name: 't2-fixtures', run: 'sh gate.sh fixtures', timeout: 30 },\n] };\n`,
    );
    const start = repo.commit('slow gates');
    for (let i = 0; i < 6; i++) {
      repo.write(`src/f${i}.txt`, `${i}\n`);
      repo.commit(`patch ${i}`);
    }
    const dir = join(dirname(repo.dir), 'patches');
    mkdirSync(dir);
    for (let i = 0; i < 4; i++) {
      writeFileSync(
        join(dir, `p${i}.patch`),
        `diff --git a/src/p${i}.txt b/src/p${i}.txt\nnew file mode 100644\n--- /dev/null\n+++ b/src/p${i}.txt\n@@ -0,0 +1 @@\n+${i}\n`,
      );
    }
    const a = spawnReplay(repo, tmp, [`${start}..main`, '--jobs', '2'], { TAG: 'a' });
    const b = spawnReplay(repo, tmp, [dir, '--jobs', '2'], { TAG: 'b' });
    const [ra, rb] = await Promise.all([a.done, b.done]);
    assert.is(ra.code, 0, ra.out);
    assert.is(rb.code, 0, rb.out);
    assert.match(ra.stderr, '6 patches, 2 at a time');

    const lines = readFileSync(repo.ledgerPath, 'utf8').split('\n').filter(Boolean);
    assert.is(lines.length, 20, '10 patches, two tiers each');
    const rows = lines.map((l) => JSON.parse(l) as Row);
    const byPatch = new Map<unknown, number[]>();
    for (const [i, row] of rows.entries()) byPatch.set(row.patch, [...(byPatch.get(row.patch) ?? []), i]);
    assert.is(byPatch.size, 10);
    for (const [patch, at] of byPatch) {
      assert.equal(
        rows.filter((x) => x.patch === patch).map((x) => x.tier),
        ['t1-properties', 't2-fixtures'],
      );
      assert.is(at[1]! - at[0]!, 1, `the rows of ${String(patch)} are adjacent`);
    }

    for (const tag of ['a', 'b']) {
      let running = 0;
      let peak = 0;
      const events = readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.split(' ')[1] === tag)
        .map((l) => l.split(' '))
        .sort((x, y) => Number(BigInt(x[2]!) - BigInt(y[2]!)) || (x[0] === 'end' ? -1 : 1));
      for (const [kind] of events) {
        running += kind === 'start' ? 1 : -1;
        peak = Math.max(peak, running);
      }
      assert.is(peak, 2, `replay ${tag} ran exactly two gates at once at its peak`);
    }
    assertCleanedUp(repo, tmp);
  }));

test('the same replay started twice at once: the second says another is running and judges nothing; no row is counted twice', () =>
  corpus(async (repo, tmp) => {
    const marks = join(dirname(repo.dir), 'started');
    mkdirSync(marks);
    // Each gate marks its start, then waits until the second replay has ended (or 20 s): the two overlap by a state.
    const second = join(dirname(repo.dir), 'second-done');
    repo.write(
      'gate.sh',
      `: > "${marks}/$$"\nend=$(($(date +%s) + 20)); while [ ! -e "${second}" ] && [ "$(date +%s)" -lt $end ]; do sleep 0.05; done\nsh check.sh "$1"\n`,
    );
    repo.write('gate-ladder.config.ts', "export default { tiers: [{ name: 't2-fixtures', run: 'sh gate.sh fixtures', timeout: 60 }] };\n");
    const start = repo.commit('slow gate');
    for (let i = 0; i < 3; i++) {
      repo.write(`src/f${i}.txt`, `${i}\n`);
      repo.commit(`patch ${i}`);
    }
    const a = spawnReplay(repo, tmp, [`${start}..main`]);
    for (const end = Date.now() + 30_000; readdirSync(marks).length === 0 && Date.now() < end; )
      await new Promise((r) => setTimeout(r, 50));
    const b = await spawnReplay(repo, tmp, [`${start}..main`]).done;
    writeFileSync(second, '');
    const ra = await a.done;
    assert.is(b.code, 2, b.out);
    assert.match(b.stderr, 'another replay of these patches is running');
    assert.is(ra.code, 0, ra.out);
    const rows = readFileSync(repo.ledgerPath, 'utf8').split('\n').filter(Boolean);
    assert.is(rows.length, 3, rows.join('\n'));
    // Once it ended, the same replay runs again: it skips all three.
    const again = await spawnReplay(repo, tmp, [`${start}..main`]).done;
    assert.is(again.code, 0, again.out);
    assert.match(again.stderr, '3 patches were replayed before');
    assertCleanedUp(repo, tmp);
  }));

test('resume: the same replay skips what it has done; --force runs it again; a changed ladder runs it again', () =>
  corpus((repo, tmp) => {
    for (const v of ['bug', 'good', 'good again']) {
      repo.write('src/value.txt', `${v}\n`);
      repo.commit(v);
    }
    const first = replay(repo, tmp, ['main~3..main']);
    assert.is(first.code, 0, first.out);
    assert.is(repo.ledger().length, 5);

    const again = replay(repo, tmp, ['main~3..main']);
    assert.is(again.code, 0, again.out);
    assert.match(again.stderr, '3 patches were replayed before under this config: skipped (`--force` runs them again)');
    assert.is(repo.ledger().length, 5, 'no new row');
    assert.match(again.stdout, 'replay: 3 patches (0 replayed now, 3 earlier under this config)');
    assert.match(again.stdout, /^t1-properties\s+3\s+1\s+0\s+2\s/m, 'the summary still covers the whole corpus');

    const forced = replay(repo, tmp, ['main~3..main', '--force']);
    assert.is(forced.code, 0, forced.out);
    assert.is(repo.ledger().length, 10);

    const calibrated = replay(repo, tmp, ['main~3..main', '--calibrate']);
    assert.is(calibrated.code, 0, calibrated.out);
    const cal = repo.ledger().slice(10);
    assert.is(cal.length, 6, 'calibration runs every tier, also after a catch');
    assert.ok(cal.every((x) => x.calibration === true));

    repo.write('gate-ladder.config.ts', repo.read('gate-ladder.config.ts').replace('timeout: 30', 'timeout: 31'));
    const changed = replay(repo, tmp, ['main~3..main']);
    assert.is(changed.code, 0, changed.out);
    assert.is(repo.ledger().length, 21, "today's config differs: a new experiment");
    repo.gitOk('checkout', '-q', '--', '.');
    assertCleanedUp(repo, tmp);
  }));

test('Ctrl-C in the middle: gates stopped, no worktree held, no stray folder, no process, no rows; exit 130', () =>
  corpus(async (repo, tmp) => {
    const marks = join(dirname(repo.dir), 'marks');
    mkdirSync(marks);
    repo.write(
      'gate-ladder.config.ts',
      `export default { tiers: [{ name: 't1-slow', run: 'touch ${marks}/$$; sleep ${ownSleep(0)} & sleep ${ownSleep(1)}', timeout: 60 }] };\n`,
    );
    const start = repo.commit('slow gate');
    for (let i = 0; i < 4; i++) {
      repo.write(`src/f${i}.txt`, `${i}\n`);
      repo.commit(`patch ${i}`);
    }
    const run = spawnReplay(repo, tmp, [`${start}..main`, '--jobs', '2']);
    const deadline = Date.now() + 30_000;
    while (readdirSync(marks).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.is(readdirSync(marks).length, 2, 'two gates are running');
    assert.is(repo.gitOk('worktree', 'list').split('\n').length, 3, 'in two worktrees');
    run.child.kill('SIGINT');
    const r = await run.done;
    assert.is(r.code, 130, r.out);
    assert.match(r.stderr, 'replay interrupted');
    assert.equal(repo.ledger(), [], 'an interrupted patch leaves no rows: it is replayed next time');
    assert.equal(leftAfter(new RegExp(`^sleep (${ownSleep(0)}|${ownSleep(1)})$`)), [], 'processes left behind');
    assertCleanedUp(repo, tmp);
  }));

test('a failure mid-replay (the ledger cannot be written) still gives every worktree back', () =>
  corpus((repo, tmp) => {
    repo.write(
      'gate-ladder.config.ts',
      `export default { ledger: '/dev/null/nope/ledger.jsonl', tiers: [{ name: 't1', run: 'true' }] };\n`,
    );
    const start = repo.commit('unwritable ledger');
    repo.write('src/x.txt', 'x\n');
    repo.commit('x');
    const r = replay(repo, tmp, [`${start}..main`]);
    assert.is(r.code, 2, r.out);
    assert.match(r.stderr, 'replay stopped');
    assert.match(r.stderr, 'Every worktree was given back to the pool');
    assertCleanedUp(repo, tmp);
  }));

test('inputs that cannot be read are all reported at once; nothing runs', () =>
  corpus((repo, tmp) => {
    const empty = join(dirname(repo.dir), 'empty');
    mkdirSync(empty);
    const r = replay(repo, tmp, ['no-such-thing', empty, 'main~5..main']);
    assert.is(r.code, 2, r.out);
    assert.match(r.stderr, 'nothing was replayed; 3 inputs could not be read');
    assert.match(r.stderr, 'no-such-thing: not a file, a folder, a commit or a revision range');
    assert.match(r.stderr, 'no .patch or .diff files in this folder');
    assert.match(r.stderr, 'main~5..main: not a file, a folder or a revision range git knows');
    const jobs = replay(repo, tmp, ['HEAD', '--jobs', '0']);
    assert.is(jobs.code, 2, jobs.out);
    assert.match(jobs.stderr, '--jobs 0: give a whole number');
    assert.equal(repo.ledger(), []);
    assertCleanedUp(repo, tmp);
  }));

test('--isolate network: a gate that connects to a listener on 127.0.0.1 fails; without isolation it passes', () =>
  corpus(async (repo, tmp) => {
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
      const start = repo.commit('a gate that needs the network');
      repo.write('src/x.txt', 'x\n');
      const patch = repo.commit('x');

      const isolated = await spawnReplay(repo, tmp, [`${start}..main`, '--isolate', 'network']).done;
      assert.is(isolated.code, 0, isolated.out);
      assert.match(isolated.stderr, 'gates without network');
      const rows = repo.ledger();
      assert.equal(
        rows.map((x) => [x.patch, x.tier, x.verdict, x.isolate]),
        [[patch, 't1-net', 'caught', 'network']],
      );
      assert.is(connections, 0);

      const open = await spawnReplay(repo, tmp, [`${start}..main`]).done;
      assert.is(open.code, 0, open.out);
      assert.equal(
        repo
          .ledger()
          .slice(1)
          .map((x) => [x.tier, x.verdict, x.isolate]),
        [['t1-net', 'pass', undefined]],
      );
      assert.is(connections, 1);
      assertCleanedUp(repo, tmp);
    } finally {
      server.close();
    }
  }));

test('--isolate network where the platform cannot isolate: a clear error, and no gate runs unisolated', () =>
  corpus((repo, tmp) => {
    const bin = join(dirname(repo.dir), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'unshare'), '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n', {
      mode: 0o755,
    });
    repo.write('src/x.txt', 'x\n');
    repo.commit('x');
    const r = replay(repo, tmp, ['main~1..main', '--isolate', 'network'], { PATH: `${bin}:${process.env.PATH ?? ''}` });
    assert.is(r.code, 2, r.out);
    assert.match(r.stderr, '--isolate network: cannot run gates without network on this machine');
    assert.match(r.stderr, 'Operation not permitted');
    assert.match(r.stderr, 'Nothing was replayed');
    assert.equal(repo.ledger(), []);
    assert.ok(!existsSync(repo.ledgerPath));
    assertCleanedUp(repo, tmp);
  }));

test('no config where replay runs: says so and how to create one', () =>
  corpus(
    (repo, tmp) => {
      repo.write('src/x.txt', 'x\n');
      repo.commit('x');
      const r = replay(repo, tmp, ['main~1..main']);
      assert.is(r.code, 2, r.out);
      assert.match(r.stderr, 'npx gate-ladder install');
    },
    { 'check.sh': CHECK_SH, 'src/value.txt': 'good\n' },
  ));

test.run();
