/** The test helpers' process check reads /proc, so a missing pgrep can never read as "nothing left". */
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { leftAfter, ownSleep, processesMatching } from '../helpers/repo.js';

test('a live process is found, and is gone once killed', () => {
  const child = spawn('sleep', [String(ownSleep())], { stdio: 'ignore' });
  const seen = (() => {
    const end = Date.now() + 10_000;
    while (Date.now() < end) {
      const found = processesMatching(new RegExp(`^sleep ${ownSleep()}$`));
      if (found.length > 0) return found;
    }
    return [];
  })();
  assert.equal(
    seen.map((l) => l.split(' ')[0]),
    [String(child.pid)],
  );
  child.kill('SIGKILL');
  return new Promise<void>((done) =>
    child.on('exit', () => {
      assert.equal(leftAfter(new RegExp(`^sleep ${ownSleep()}$`)), []);
      done();
    }),
  );
});

test.run();
