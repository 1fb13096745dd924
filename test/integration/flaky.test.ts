/** End to end: history from real runs, evidence from `seed`, a freeze, a push it lets through, and its expiry. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Repo, cleanEnv, leftAfter, nodeTestId, ownSleep, processesMatching, withRepo } from '../helpers/repo.js';
import { poolLocks, slotFree, userWorktrees } from '../helpers/pool.js';

const CONFIG = `export default {
  tiers: [
    { name: 't1-node', run: 'node --test --test-reporter=junit --test-reporter-destination=junit.xml test/value.test.mjs', runner: 'node', junit: 'junit.xml', timeout: 120 },
    { name: 't2-grep', run: 'grep -q good src/value.txt', timeout: 30 },
  ],
  freeze: { minRuns: 4 },
  // History needs the same tree judged again and again: no reuse of an earlier pass.
  cache: false,
};
`;

const FILES = {
  '.gitignore': 'node_modules\njunit.xml\n',
  'gate-ladder.config.ts': CONFIG,
  'src/value.txt': 'good\n',
  'test/value.test.mjs': `import { describe, test } from 'node:test';
import assert from 'node:assert';
import { readFileSync } from 'node:fs';
const value = () => readFileSync('src/value.txt', 'utf8').trim();
describe('value', () => {
  test('is good', () => assert.equal(value(), 'good'));
});
describe('flaky', () => {
  // Sensitive to the bug, and also fails now and then for no reason of the patch's (FLAKY=1 here).
  test('sometimes', () => {
    assert.ok(process.env.FLAKY !== '1', 'flaked');
    assert.equal(value(), 'good');
  });
});
`,
};

const FLAKY_ID = nodeTestId('test/value.test.mjs', 'flaky > sometimes');
const GOOD_ID = nodeTestId('test/value.test.mjs', 'value > is good');

interface FlakyJson {
  id: string;
  runs: number;
  flips: number;
  flip_rate: number | null;
  evidence: number;
  eligible: boolean;
  reason: string;
  tier: string;
  same_code_runs: number;
  broken: boolean;
}
function flaky(repo: Repo): FlakyJson[] {
  const r = repo.cli(['flaky', '--json']);
  assert.is(r.code, 0, r.out);
  return JSON.parse(r.stdout).tests;
}

/** The user's worktrees (gate-ladder's pool slots apart). */
const worktrees = (repo: Repo) => userWorktrees(repo).length;

test('a flaky test gains evidence from seed, is frozen, a push where only it fails passes, and after expiry it is caught again', () =>
  withRepo({ files: FILES }, (repo) => {
    repo.write('src/other.txt', 'x\n');
    repo.commit('a change to judge');
    // History: four real runs of the same tree, the test flipping each time.
    for (const f of ['0', '1', '0', '1']) {
      const r = repo.cli(['run', '--base', 'HEAD~1'], { env: { FLAKY: f }, timeoutMs: 180_000 });
      assert.is(r.code, f === '1' ? 1 : 0, r.out);
    }
    let rows = flaky(repo);
    assert.equal(
      rows.find((t) => t.id === FLAKY_ID),
      {
        id: FLAKY_ID,
        runs: 4,
        flips: 3,
        flip_rate: 1,
        evidence: 0,
        eligible: false,
        reason: 'no sensitivity evidence; rewrite or delete',
        tier: 't1-node',
        same_code_runs: 3,
        fails: 2,
        broken: false,
        ambiguous: false,
      } as FlakyJson,
    );
    assert.equal(rows.find((t) => t.id === GOOD_ID)!.reason, 'not actually flaky (0.000)');
    const text = repo.cli(['flaky']);
    assert.match(
      text.stdout,
      new RegExp(
        `\\s4\\s+3\\s+3\\s+1\\.000\\s+0\\s+t1-node\\s+${FLAKY_ID.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+→\\s+no sensitivity evidence; rewrite or delete`,
      ),
    );
    assert.match(
      text.stderr,
      '1 test has no sensitivity evidence: seed a bug it should catch with `gate-ladder seed <commit | patch file>`',
    );
    assert.match(text.stdout, 'no freezes (.gate-ladder/freezes.json).');

    // Without evidence, freezing is refused with the predicate's reason.
    const refused = repo.cli(['freeze', FLAKY_ID, '--expires', '2025-02-01', '--reentry', 'retry fixed'], {
      env: { GATE_LADDER_NOW: '2025-01-01' },
    });
    assert.is(refused.code, 1, refused.out);
    assert.match(refused.out, `not freezing "${FLAKY_ID}": no sensitivity evidence; rewrite or delete`);
    assert.not.ok(existsSync(join(repo.dir, '.gate-ladder/freezes.json')));

    // A known-bad patch, seeded in a throwaway worktree: every tier runs, failing tests gain evidence.
    repo.write('src/value.txt', 'bug\n');
    const patch = join(repo.dir, '..', 'bug.patch');
    writeFileSync(patch, `${repo.gitOk('diff')}\n`);
    repo.gitOk('checkout', '--', 'src/value.txt');
    const ledgerBefore = repo.ledger().length;
    const seeded = repo.cli(['seed', patch], { timeoutMs: 180_000 });
    assert.is(seeded.code, 0, seeded.out);
    assert.match(seeded.out, 'sensitivity evidence recorded for 2 tests (they pass without the seeded change and fail with it)');
    assert.match(seeded.out, 't2-grep has no `junit` report');
    assert.match(seeded.out, 'running t1-node again on the parent');
    const seedRows = repo.ledger().slice(ledgerBefore);
    assert.equal(
      seedRows.map((x) => [x.tier, x.verdict, x.hook, x.source]),
      [
        ['t1-node', 'caught', 'seed', 'seed'],
        ['t2-grep', 'caught', 'seed', 'seed'],
        ['t1-node', 'pass', 'seed', 'seed'],
      ],
      'every tier ran on the seeded change (no short-circuit), then the failing one on its parent',
    );
    assert.match(String(seedRows[2]!.reason), 'seed: the parent of');
    assert.is.not(seedRows[0]!.patch, repo.gitOk('rev-parse', 'HEAD'), 'the seeded tree has its own commit');
    assert.is(worktrees(repo), 1, "no worktree but the pool's");
    assert.equal(poolLocks(repo), [], 'the slot is given back');
    assert.is(repo.read('src/value.txt'), 'good\n', 'the work tree is untouched');

    rows = flaky(repo);
    const row = rows.find((t) => t.id === FLAKY_ID)!;
    assert.equal(
      [row.runs, row.evidence, row.eligible, row.reason],
      [4, 1, true, 'freeze with expiry, flip_rate=1.000'],
      'a seeded run is evidence, not history',
    );

    // Expiry is required and bounded (90 days by default).
    const far = repo.cli(['freeze', FLAKY_ID, '--expires', '2025-06-01'], { env: { GATE_LADDER_NOW: '2025-01-01' } });
    assert.is(far.code, 2, far.out);
    assert.match(far.out, 'more than 90 days ahead; the latest allowed is 2025-04-01');
    assert.match(far.out, 'a freeze needs --reentry');
    const frozen = repo.cli(['freeze', FLAKY_ID, '--expires', '2025-02-01', '--reentry', 'passes 50 runs in a row after the retry fix'], {
      env: { GATE_LADDER_NOW: '2025-01-01' },
    });
    assert.is(frozen.code, 0, frozen.out);
    assert.match(
      frozen.out,
      `froze "${FLAKY_ID}" in t1-node: frozen through 2025-01-31 UTC; its failures count again from 2025-02-01 UTC. Commit .gate-ladder/freezes.json`,
    );
    const file = JSON.parse(repo.read('.gate-ladder/freezes.json'));
    assert.equal(
      file.freezes.map((f: Record<string, unknown>) => [
        f.test,
        f.tier,
        f.flip_rate,
        f.runs,
        f.flips,
        f.evidence,
        f.by,
        f.expires,
        f.reentry,
      ]),
      [[FLAKY_ID, 't1-node', 1, 4, 3, 1, 'Test <test@example.invalid>', '2025-02-01', 'passes 50 runs in a row after the retry fix']],
    );
    const listed = repo.cli(['flaky'], { env: { GATE_LADDER_NOW: '2025-01-01' } });
    assert.match(
      listed.stdout,
      `freezes (.gate-ladder/freezes.json):\n  ${FLAKY_ID} [t1-node]: frozen through 2025-01-31 UTC, counts again from 2025-02-01 UTC; re-entry: passes 50 runs in a row after the retry fix`,
    );
    assert.ok(!Number.isNaN(Date.parse(file.freezes[0].at)));

    // A real push where only the frozen test fails: the tier passes and says which failure it forgave.
    repo.write('src/more.txt', 'y\n');
    repo.commit('freeze the flaky test');
    const before = repo.ledger().length;
    const pushed = repo.push(['origin', 'HEAD'], { FLAKY: '1', GATE_LADDER_NOW: '2025-01-20' });
    assert.is(pushed.code, 0, pushed.out);
    assert.match(pushed.out, `t1-node: only frozen tests failed, so the tier passes: ${FLAKY_ID}`);
    const passRows = repo.ledger().slice(before);
    assert.equal(
      passRows.map((x) => [x.tier, x.verdict, x.frozen]),
      [
        ['t1-node', 'pass', [FLAKY_ID]],
        ['t2-grep', 'pass', undefined],
      ],
    );
    assert.match(String(passRows[0]!.reason), `only frozen tests failed: ${FLAKY_ID}`);
    // The report counts that pass apart from plain ones, and lists the freeze.
    const rep = JSON.parse(repo.cli(['report', '--json'], { env: { GATE_LADDER_NOW: '2025-01-20' } }).stdout);
    const t1 = rep.tests.tiers.find((t: { tier: string }) => t.tier === 't1-node');
    assert.equal([t1.passes, t1.plain_passes, t1.frozen_passes, t1.retried_passes], [3, 2, 1, 0]);
    assert.equal(
      t1.flaky.map((f: { id: string }) => f.id),
      [FLAKY_ID],
    );
    assert.equal(
      rep.tests.freezes.map((f: Record<string, unknown>) => [f.test, f.tier, f.active, f.frozen_through, f.counts_again_from, f.reentry]),
      [[FLAKY_ID, 't1-node', true, '2025-01-31', '2025-02-01', 'passes 50 runs in a row after the retry fix']],
    );
    const repText = repo.cli(['report'], { env: { GATE_LADDER_NOW: '2025-01-20' } }).stdout;
    assert.match(repText, 't1-node: 3 passes: 2 plain, 1 granted by a freeze, 0 on a retry');
    assert.match(
      repText,
      `${FLAKY_ID} [t1-node]: frozen through 2025-01-31 UTC, counts again from 2025-02-01 UTC; re-entry: passes 50 runs`,
    );

    // The same failure after the expiry day is caught again, and the output says how to renew or remove the freeze.
    // 23:30 on the last frozen day in New York is already the expiry day in UTC: freeze days are UTC days.
    repo.write('src/more.txt', 'z\n');
    repo.commit('later');
    const after = repo.ledger().length;
    const blocked = repo.push(['origin', 'HEAD'], { FLAKY: '1', GATE_LADDER_NOW: '2025-01-31T23:30:00-05:00', TZ: 'America/New_York' });
    assert.is.not(blocked.code, 0, blocked.out);
    assert.match(blocked.out, 't1-node caught a problem');
    assert.match(
      blocked.out,
      `${FLAKY_ID} failed and its freeze expired: frozen through 2025-01-31 UTC, it counts again from 2025-02-01 UTC, so the failure counts`,
    );
    assert.match(blocked.out, `gate-ladder freeze "${FLAKY_ID}" --expires <YYYY-MM-DD> --reentry`);
    assert.match(blocked.out, `gate-ladder unfreeze "${FLAKY_ID}"`);
    assert.equal(
      repo
        .ledger()
        .slice(after)
        .map((x) => [x.tier, x.verdict, x.failed]),
      [['t1-node', 'caught', [FLAKY_ID]]],
    );

    const un = repo.cli(['unfreeze', FLAKY_ID]);
    assert.is(un.code, 0, un.out);
    assert.equal(JSON.parse(repo.read('.gate-ladder/freezes.json')).freezes, []);
    assert.is(repo.cli(['unfreeze', FLAKY_ID]).code, 1);
  }));

test('seed on a commit: Ctrl-C stops the gates and gives the worktree back to the pool', () =>
  withRepo(
    {
      files: {
        ...FILES,
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1-slow', run: 'sleep ${ownSleep()}; echo never', timeout: 120 }] };\n`,
      },
    },
    async (repo) => {
      repo.gitOk('checkout', '-q', '-b', 'seeded');
      repo.write('src/value.txt', 'bug\n');
      repo.commit('a known bug');
      repo.gitOk('checkout', '-q', 'main');
      const cli = join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs');
      const child = spawn(process.execPath, [cli, 'seed', 'seeded'], { cwd: repo.dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const code = await new Promise<number | null>((done) => {
        const poll = setInterval(() => {
          // Once the gate's process is there (not a fixed wait after the line that announces it).
          if (out.includes('t1-slow running') && processesMatching(new RegExp(`^sleep ${ownSleep()}$`)).length > 0) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 50);
        child.on('exit', (c) => {
          clearInterval(poll);
          done(c);
        });
      });
      assert.is(code, 130, out);
      assert.match(out, 'the worktree given back to the pool');
      const dir = /worktree of the pool \(([^)]+)\)/.exec(out)?.[1];
      assert.ok(dir, out);
      assert.ok(slotFree(dir!), `${dir} is still held`);
      assert.is(worktrees(repo), 1);
      assert.equal(leftAfter(new RegExp(`^sleep ${ownSleep()}$`)), [], 'the gate was stopped');
    },
  ));

test('seed --stryker: Killed mutants give evidence to the tests that killed them; Timeout and RuntimeError do not', () =>
  withRepo({ files: { ...FILES, 'gate-ladder.config.ts': CONFIG.replace('minRuns: 4', 'minRuns: 2') } }, (repo) => {
    repo.write('src/other.txt', 'x\n');
    repo.commit('change');
    for (const f of ['0', '1']) repo.cli(['run', '--base', 'HEAD~1'], { env: { FLAKY: f }, timeoutMs: 180_000 });
    const report = {
      schemaVersion: '2',
      thresholds: { high: 80, low: 60 },
      files: {
        'src/value.js': {
          language: 'javascript',
          source: '',
          mutants: [
            { id: '1', mutatorName: 'StringLiteral', location: {}, status: 'Killed', killedBy: ['t0'] },
            { id: '2', mutatorName: 'StringLiteral', location: {}, status: 'Timeout', killedBy: ['t1'] },
            { id: '3', mutatorName: 'StringLiteral', location: {}, status: 'RuntimeError', killedBy: ['t1'] },
          ],
        },
      },
      testFiles: {
        'test/value.test.mjs': {
          tests: [
            { id: 't0', name: 'flaky sometimes' },
            { id: 't1', name: 'value is good' },
          ],
        },
      },
    };
    const path = join(repo.dir, '..', 'mutation.json');
    writeFileSync(path, JSON.stringify(report));
    const r = repo.cli(['seed', '--stryker', path]);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, `1 killed mutant gave sensitivity evidence to 1 test: ${FLAKY_ID}; 2 mutants with other statuses`);
    const tests = JSON.parse(repo.cli(['flaky', '--json']).stdout).tests as { id: string; evidence: number; eligible: boolean }[];
    assert.equal(
      tests.map((t) => [t.id, t.evidence, t.eligible]),
      [
        [FLAKY_ID, 1, true],
        [GOOD_ID, 0, false],
      ],
    );
    const lines = readFileSync(join(repo.dir, '.git/gate-ladder/tests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.at(-1).source, 'stryker');
    assert.equal(lines.at(-1).hook, 'seed');
  }));

test('seed refuses what it cannot apply, and holds no worktree after', () =>
  withRepo({ files: FILES }, (repo) => {
    const patch = join(repo.dir, '..', 'stale.patch');
    writeFileSync(
      patch,
      'diff --git a/src/value.txt b/src/value.txt\n--- a/src/value.txt\n+++ b/src/value.txt\n@@ -1 +1 @@\n-not what is there\n+bug\n',
    );
    const r = repo.cli(['seed', patch]);
    assert.is(r.code, 2, r.out);
    assert.match(r.out, 'could not apply');
    assert.is(worktrees(repo), 1);
    assert.equal(poolLocks(repo), []);
    const none = repo.cli(['seed', 'no-such-thing']);
    assert.is(none.code, 2);
    assert.match(none.out, 'is neither a patch file nor a commit');
  }));

test.run();
