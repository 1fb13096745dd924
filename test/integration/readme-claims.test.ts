/** README claims that had no test of their own, each through the packed CLI and real git. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LADDER_FILES, sh, withRepo } from '../helpers/repo.js';

const BOTH_FAIL = `export default {
  tiers: [
    { name: 't1-properties', run: 'sh check.sh properties', timeout: 30 },
    { name: 't2-fixtures', run: 'sh check.sh fixtures', timeout: 30 },
  ],
  CALIBRATE
};
`;
const rowsOf = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

test('run --calibrate runs every planned tier past the first catch, and flags the rows', () =>
  withRepo({ files: { ...LADDER_FILES, 'gate-ladder.config.ts': BOTH_FAIL.replace('CALIBRATE', '') } }, (repo) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('bug');
    const plain = repo.cli(['run', '--base', 'HEAD~1']);
    assert.is(plain.code, 1, plain.out);
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict, x.calibration]),
      [['t1-properties', 'caught', undefined]],
      'a plain run stops at the first catch',
    );
    const cal = repo.cli(['run', '--calibrate', '--base', 'HEAD~1']);
    assert.is(cal.code, 1, cal.out);
    assert.equal(
      repo
        .ledger()
        .slice(1)
        .map((x) => [x.tier, x.verdict, x.calibration]),
      [
        ['t1-properties', 'caught', true],
        ['t2-fixtures', 'caught', true],
      ],
    );
  }));

test('config `calibrate: 1` makes every manual run a calibration run; a push samples only with calibrateHooks', () =>
  withRepo({ files: { ...LADDER_FILES, 'gate-ladder.config.ts': BOTH_FAIL.replace('CALIBRATE', 'calibrate: 1,') } }, (repo) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('bug');
    const manual = repo.cli(['run', '--base', 'HEAD~1']);
    assert.is(manual.code, 1, manual.out);
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.calibration]),
      [
        ['t1-properties', true],
        ['t2-fixtures', true],
      ],
    );
    const push = repo.push();
    assert.is(push.code, 1, push.out);
    assert.equal(
      repo
        .ledger()
        .slice(2)
        .map((x) => [x.hook, x.tier, x.calibration]),
      [['pre-push', 't1-properties', undefined]],
    );
  }));

test("the config's `ledger` path is where `run` writes its rows", () =>
  withRepo(
    {
      files: {
        ...LADDER_FILES,
        'gate-ladder.config.ts': LADDER_FILES['gate-ladder.config.ts']!.replace(
          'export default {',
          "export default {\n  ledger: 'var/ledger.jsonl',",
        ),
      },
    },
    (repo) => {
      repo.write('src/value.txt', 'bug\n');
      repo.commit('bug');
      const r = repo.push();
      assert.is(r.code, 1, r.out);
      assert.equal(
        rowsOf(join(repo.dir, 'var/ledger.jsonl')).map((x) => [x.tier, x.verdict]),
        [['t1-properties', 'caught']],
      );
      assert.equal(repo.ledger(), [], 'nothing in the default ledger');
    },
  ));

test('one ledger is shared by every linked worktree of a repository', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    const side = join(repo.dir, '..', 'side');
    repo.gitOk('worktree', 'add', '-q', '-b', 'side', side);
    sh('ln', ['-s', join(repo.dir, 'node_modules'), join(side, 'node_modules')], side);
    sh('sh', ['-c', 'printf "bug\\n" > src/value.txt && git commit -qam bug'], side);
    const r = sh(process.execPath, [join(side, 'node_modules/gate-ladder/dist/cli.mjs'), 'run', '--base', 'HEAD~1'], side);
    assert.is(r.code, 1, r.out);
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict]),
      [['t1-properties', 'caught']],
      "the side worktree's run is in the main ledger",
    );
    assert.not.ok(existsSync(join(repo.dir, '.git', 'worktrees', 'side', 'gate-ladder')), 'no ledger of its own');
  }));

test('pre-commit judges `git commit -a`: the tracked changes it stages, end to end', () =>
  withRepo(
    {
      files: {
        ...LADDER_FILES,
        'gate-ladder.config.ts':
          "export default { tiers: [{ name: 't1-properties', run: 'sh check.sh properties', hooks: ['pre-commit'] }] };\n",
      },
    },
    (repo) => {
      const i = repo.cli(['install', '--pre-commit']);
      assert.is(i.code, 0, i.out);
      repo.gitOk('add', '.husky/pre-commit');
      assert.is(sh('git', ['commit', '-qm', 'hook'], repo.dir, { env: { GATE_LADDER: '0' } }).code, 0);
      const before = repo.gitOk('rev-parse', 'HEAD');
      repo.write('src/value.txt', 'bug\n');
      const blocked = sh('git', ['commit', '-am', 'a bug, committed with -a'], repo.dir);
      assert.is.not(blocked.code, 0, blocked.out);
      assert.match(blocked.out, 't1-properties caught a problem');
      assert.is(repo.gitOk('rev-parse', 'HEAD'), before, 'no commit was made');
      repo.write('src/value.txt', 'fixed\n');
      const ok = sh('git', ['commit', '-am', 'fixed, with -a'], repo.dir);
      assert.is(ok.code, 0, ok.out);
      const rows = repo.ledger();
      assert.equal(
        rows.map((x) => [x.hook, x.tier, x.verdict]),
        [
          ['pre-commit', 't1-properties', 'caught'],
          ['pre-commit', 't1-properties', 'pass'],
        ],
      );
      assert.is(rows[1]!.patch, repo.gitOk('rev-parse', 'HEAD^{tree}'), 'the judged tree is the one committed');
    },
  ));

test.run();
