import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepo } from '../helpers/repo.js';

// Odd and hostile inputs through real pushes: what a push is made of (names, sizes) and what the
// gates are handed.

const RELATED = {
  'gate-ladder.config.ts': `export default {
  tiers: [
    { name: 'related', run: 'node -e "process.exit(0)" {changed:src/**}', timeout: 30 },
    { name: 'full', run: 'node -e "process.exit(0)"', timeout: 30 },
  ],
};
`,
};

test('a {changed} list too long to start a command is an error that says why and the next step, and that step pushes', () =>
  withRepo({ files: RELATED }, (repo) => {
    // 800 paths of about 200 bytes: a /bin/sh command of about 160 KB, past Linux's 128 KiB for one argument.
    mkdirSync(join(repo.dir, 'src'));
    for (let i = 0; i < 800; i++) writeFileSync(join(repo.dir, 'src', `${'m'.repeat(190)}${i}.ts`), '');
    repo.commit('a vendored drop');
    const r = repo.push();
    assert.is(r.code, 1, r.out);
    assert.ok(!r.out.includes('E2BIG'), r.out);
    assert.match(r.out, /related could not give a verdict on refs\/heads\/main: its command is too long to start/);
    assert.match(r.out, /`GATE_LADDER_SKIP=related git push`/);
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict]),
      [['related', 'error']],
    );
    const skipped = repo.push(['origin', 'HEAD'], { GATE_LADDER_SKIP: 'related' });
    assert.is(skipped.code, 0, skipped.out);
  }));

test.run();
