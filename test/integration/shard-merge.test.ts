import { appendFileSync, copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { LADDER_FILES, type Repo, withRepo } from '../helpers/repo.js';

type Row = Record<string, unknown>;

const rowsOf = (file: string): Row[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);

/** patch → "tier:verdict ..." in ledger order: what a replay concluded, whatever its run ids. */
const verdicts = (rows: Row[]) => {
  const by = new Map<string, string[]>();
  for (const r of rows) by.set(String(r.patch), [...(by.get(String(r.patch)) ?? []), `${r.tier}:${r.verdict}`]);
  return Object.fromEntries([...by].sort(([a], [b]) => a.localeCompare(b)));
};

/** Twelve commits: passes, catches (t1 and, past t0-scope, t2) and harness errors. */
function twelveCommits(repo: Repo): string {
  const first = repo.gitOk('rev-parse', 'HEAD');
  const edits: (() => void)[] = [
    () => repo.write('src/a.txt', 'a\n'),
    () => repo.write('src/value.txt', 'bug\n'),
    () => repo.write('src/value.txt', 'good\n'),
    () => repo.write('tests/fixture.txt', 'fixture v2\n'),
    () => {
      repo.write('src/value.txt', 'bug\n');
      repo.write('tests/fixture.txt', 'v3\n');
    },
    () => repo.write('src/value.txt', 'good\n'),
    () => repo.write('harness.txt', '4\n'),
    () => repo.gitOk('rm', '-q', 'harness.txt'),
    () => repo.write('src/b.txt', 'b\n'),
    () => repo.write('src/value.txt', 'bug again\n'),
    () => repo.write('src/value.txt', 'good\n'),
    () => repo.write('src/c.txt', 'c\n'),
  ];
  for (const [i, edit] of edits.entries()) {
    edit();
    repo.commit(`c${i + 1}`);
  }
  const p = repo.push(['-q', 'origin', 'main'], { GATE_LADDER: '0' });
  assert.is(p.code, 0, p.out);
  return `${first}..main`;
}

test('a 12-commit range as 3 shards in 3 clones, merged: the verdicts of an unsharded replay, each row once', () =>
  withRepo({ files: LADDER_FILES, install: false }, (repo) => {
    const range = twelveCommits(repo);
    const whole = repo.cli(['replay', range, '-j', '2']);
    assert.is(whole.code, 0, whole.out);
    const expected = verdicts(repo.ledger());
    assert.is(Object.keys(expected).length, 12);

    const shards: string[] = [];
    const sizes: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const clone = repo.clone(`shard-${i}`);
      const r = clone.cli(['replay', range, '--shard', `${i}/3`, '-j', '2']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stderr, `shard ${i}/3: 4 of 12 patches (round-robin`);
      sizes.push(new Set(clone.ledger().map((x) => x.patch)).size);
      shards.push(clone.ledgerPath);
    }
    assert.equal(sizes, [4, 4, 4], 'each shard replays its own four patches');

    const merged = join(repo.dir, '..', 'merged.jsonl');
    const m = repo.cli(['merge', ...shards, '--into', merged]);
    assert.is(m.code, 0, m.out);
    const rows = rowsOf(merged);
    assert.equal(verdicts(rows), expected, 'merged shard verdicts equal the unsharded replay');

    // merging again adds nothing; a malformed line is skipped and counted
    appendFileSync(shards[0]!, '{"patch": "torn\nnot json\n');
    const again = repo.cli(['merge', ...shards, '--into', merged]);
    assert.is(again.code, 0, again.out);
    assert.match(again.stdout, 'merged 0 new rows');
    assert.match(again.stderr, '2 malformed lines skipped');
    assert.is(rowsOf(merged).length, rows.length);

    // a folder among the inputs (a CI artifact's) is named as the input it is, not as the ledger's fault; nothing is written
    const folder = repo.cli(['merge', join(repo.dir, '..'), shards[1]!, '--into', merged]);
    assert.is(folder.code, 2, folder.out);
    assert.match(folder.stderr, 'nothing was merged; not a file: ');
    assert.not.match(folder.out, 'cannot write');
    // names are printed with their control characters escaped: a newline in one cannot fake a line of ours
    const fake = 'x\ngate-ladder: merged 99 new rows\u001b[0m';
    const missing = repo.cli(['merge', fake, '--into', merged]);
    assert.is(missing.code, 2, missing.out);
    assert.match(missing.stderr, 'no such file: ');
    assert.match(missing.stderr, 'x\\ngate-ladder: merged 99 new rows\\x1b[0m');
    const oddFile = join(repo.dir, '..', fake);
    copyFileSync(shards[1]!, oddFile);
    const odd = repo.cli(['merge', oddFile, '--into', merged]);
    assert.is(odd.code, 0, odd.out);
    assert.match(odd.stderr, 'x\\ngate-ladder: merged 99 new rows\\x1b[0m: ');
    for (const r of [missing, odd]) assert.not.match(r.out, /^gate-ladder: merged 99/m);
    assert.is(rowsOf(merged).length, rows.length);

    // into the repository's own ledger: the unsharded rows are other runs, so they are kept beside the shards'
    const own = repo.ledger().length;
    const intoRepo = repo.cli(['merge', ...shards]);
    assert.is(intoRepo.code, 0, intoRepo.out);
    assert.is(repo.ledger().length, own + rows.length);
  }));

test('replay --shard: balanced by the durations the ledger knows, the same split in every job', () =>
  withRepo({ files: LADDER_FILES, install: false }, (repo) => {
    const range = twelveCommits(repo);
    // durations known from an earlier config (another hash): rows of the same patches
    const first = repo.cli(['replay', range, '-j', '2', '--calibrate']);
    assert.is(first.code, 0, first.out);
    const a = repo.cli(['replay', range, '--shard', '1/2', '-j', '2']);
    assert.match(a.stderr, 'balanced by the durations the ledger knows');
    const b = repo.cli(['replay', range, '--shard', '2/2', '-j', '2']);
    assert.is(b.code, 0, b.out);
    const replayed = repo.ledger().filter((r) => r.calibration !== true);
    assert.is(new Set(replayed.map((r) => r.patch)).size, 12, 'the two shards together cover the corpus once');
    const bad = repo.cli(['replay', range, '--shard', '3/2']);
    assert.is(bad.code, 2);
    assert.match(bad.stderr, 'i must be between 1 and n');
  }));

test.run();
