/** `seed` on a ladder without JUnit reports: the tiers' catches still count, and the report shows them per tier. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Report } from '../../src/report/model.js';
import { withRepo } from '../helpers/repo.js';

const FILES = {
  '.gitignore': 'node_modules\n',
  'gate-ladder.config.ts': `export default {
  tiers: [
    { name: 't1-grep', run: 'grep -q good src/value.txt', timeout: 30 },
    { name: 't2-sh', run: ['sh', '-c', 'test "$(cat src/value.txt)" = good'], timeout: 30 },
  ],
};
`,
  'src/value.txt': 'good\n',
};

test('seed <commit> with two command tiers: both caught the seeded bug, exit 0, and the report counts it per tier', () =>
  withRepo({ files: FILES }, (repo) => {
    repo.gitOk('checkout', '-q', '-b', 'seeded');
    repo.write('src/value.txt', 'bug\n');
    repo.commit('a known bug');
    repo.gitOk('checkout', '-q', 'main');
    const seeded = repo.cli(['seed', 'seeded'], { timeoutMs: 120_000 });
    assert.is(seeded.code, 0, seeded.out);
    assert.match(seeded.out, 'the seeded bug was caught by t1-grep, t2-sh; no test was named (no `junit` report)');
    assert.not.match(seeded.out, 'escaped every tier');

    // A seed that no tier catches still says it escaped, and exits 1.
    repo.gitOk('checkout', '-q', '-b', 'harmless');
    repo.write('src/other.txt', 'x\n');
    repo.commit('not a bug at all');
    repo.gitOk('checkout', '-q', 'main');
    const escaped = repo.cli(['seed', 'harmless'], { timeoutMs: 120_000 });
    assert.is(escaped.code, 1, escaped.out);
    assert.match(escaped.out, 'escaped every tier');

    const report = repo.cli(['report', '--json']);
    assert.is(report.code, 0, report.out);
    const json = JSON.parse(report.stdout) as Report;
    assert.equal(json.seeds, {
      runs: 2,
      caught: 1,
      tiers: [
        { tier: 't1-grep', runs: 2, caught: 1, errors: 0 },
        { tier: 't2-sh', runs: 2, caught: 1, errors: 0 },
      ],
    });
    assert.ok(
      json.tiers.every((t) => t.runs === 0),
      'seeded bugs are not patch attempts',
    );
    const text = repo.cli(['report']);
    assert.match(text.stdout, /2 seeded bugs: 1 caught by some tier, 1 escaped every tier/);
    assert.match(text.stdout, /t2-sh: caught 1 of the 2 seeded bugs it ran on/);
  }));

test.run();
