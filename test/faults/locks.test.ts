/**
 * Issue 33, point 6: a lock without a live owner is taken over at once, whatever its content. A disk-full
 * run left a 0-byte `ledger.jsonl.lock` (every later push waited 30 s) and a 0-byte `slot-1.lock` (that
 * slot was never used again); a torn or garbage lock, or one naming a pid now used by another process
 * (its start time differs), is no one's either. No timing is asserted: a writer that waits says so
 * after a second, and the slot taken is the first one.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHECK_SH, withRepo } from '../helpers/repo.js';
import { poolDir } from '../helpers/pool.js';
import { hostName } from '../../src/util/proc.js';

const FILES = {
  'check.sh': CHECK_SH,
  'src/value.txt': 'good\n',
  'gate-ladder.config.ts': "export default { tiers: [{ name: 't1-unit', run: 'sh check.sh unit' }] };\n",
};

/** Contents a lock file may be left with, none naming a live owner: empty, torn, garbage, a live pid that started at another time. */
const ORPHANS: [string, string][] = [
  ['empty', ''],
  ['torn', '12'],
  ['garbage', '\0\0\0\0\0\0\0\0'],
  ['a reused pid', `${process.pid} 1 ${hostName() ?? '-'}\n`],
];

for (const [what, content] of ORPHANS) {
  test(`a ${what} ledger lock is taken over at once: the push does not wait, and its row lands`, () =>
    withRepo({ files: FILES }, (repo) => {
      repo.write('src/value.txt', 'good 2\n');
      repo.commit('two');
      mkdirSync(join(repo.dir, '.git', 'gate-ladder'), { recursive: true });
      writeFileSync(`${repo.ledgerPath}.lock`, content);
      const r = repo.push();
      assert.is(r.code, 0, r.out);
      assert.not.match(r.out, 'waiting for');
      assert.match(r.out, `took over the ledger's lock`);
      assert.is(repo.ledger().length, 1);
    }));
}

test('an empty slot-1.lock (a disk-full run) does not keep the slot from use: the next isolated push takes slot 1', () =>
  withRepo(
    {
      files: {
        ...FILES,
        'gate-ladder.config.ts': "export default { isolation: 'worktree', cache: false, tiers: [{ name: 't1', run: 'true' }] };\n",
      },
    },
    (repo) => {
      repo.write('src/value.txt', 'good 2\n');
      repo.commit('two');
      const pool = poolDir(repo);
      mkdirSync(pool, { recursive: true });
      writeFileSync(join(pool, 'slot-1.lock'), '');
      const r = repo.push();
      assert.is(r.code, 0, r.out);
      const slots = readdirSync(pool).filter((f) => /^slot-\d+$/.test(f));
      assert.equal(slots, ['slot-1'], readdirSync(pool).join(' '));
    },
  ));

test.run();
