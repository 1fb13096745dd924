/**
 * Issue 33, point 8: a gate's output, whatever its bytes, passes through at pipe speed in bounded
 * memory. A gate that prints 1 GB of NUL bytes and then fails is `caught` (it was `error`: the escaping
 * took so long the gate timed out), and the hook's peak memory stays far below the output's size.
 * No timing is asserted: the tier's timeout is generous, and the speed is measured in `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepo } from '../helpers/repo.js';

const GIB = 1024 * 1024 * 1024;

/** The gate's parent is the hook's node process: its peak resident memory (kB), written where the test reads it. */
const PEAK = (file: string) => `grep VmHWM /proc/$PPID/status | tr -dc 0-9 > ${JSON.stringify(file)}`;

test('a gate printing 1 GB of NUL bytes then exiting 1 is caught, its output shown escaped and compact, in bounded memory', () =>
  withRepo({}, (repo) => {
    const peak = join(dirname(repo.dir), 'peak');
    const run = `head -c ${GIB} /dev/zero; echo; echo '1 failing'; ${PEAK(peak)}; exit 1`;
    repo.write('gate-ladder.config.ts', `export default { tiers: [{ name: 't1-nul', run: ${JSON.stringify(run)}, timeout: 280 }] };\n`);
    repo.write('src/a.txt', 'change\n');
    repo.commit('change');
    const r = repo.push();
    assert.is(r.code, 1, r.out.slice(-2000));
    const row = repo.ledger().at(-1)!;
    assert.is(row.verdict, 'caught', JSON.stringify(row));
    assert.match(r.out, '\\x00');
    assert.not.match(r.out, '\u0000');
    // Shown, but not as 4 GB of escapes.
    assert.ok(r.out.length < 8 * 1024 * 1024, `${r.out.length} characters of output`);
    const kb = Number(readFileSync(peak, 'utf8'));
    assert.ok(kb > 0 && kb < 256 * 1024, `the hook's peak memory: ${kb} kB`);
  }));

test.run();
