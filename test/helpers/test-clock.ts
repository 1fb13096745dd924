/**
 * Loaded before a test file by scripts/test.mjs (`node --import`): tells it, on the descriptor
 * GL_TEST_EVENTS_FD names, which test starts and when it ends, so that a test that hangs is stopped
 * and named there (uvu has no time limit of its own). A test blocked in spawnSync cannot run a timer
 * of its own, hence the watch from outside. Without that variable (uvu run by hand) it does nothing.
 */
import { writeSync } from 'node:fs';
import { test } from 'uvu';

const fd = Number(process.env.GL_TEST_EVENTS_FD);

/** One line per event; a reader that went away (the runner stopped) must not fail the test. */
function say(...fields: string[]): void {
  try {
    writeSync(fd, `${fields.map((f) => f.replace(/[\t\n]/g, ' ')).join('\t')}\n`);
  } catch {
    // nobody is listening
  }
}

if (Number.isInteger(fd) && fd > 2) {
  const run = test.run;
  // uvu forgets a suite's hooks at each run(), so they are added again at every file's run().
  test.run = () => {
    const queue = (globalThis as { UVU_QUEUE?: unknown[][]; UVU_INDEX?: number }).UVU_QUEUE;
    const file = String(queue?.[(globalThis as { UVU_INDEX?: number }).UVU_INDEX ?? 0]?.[0] ?? '');
    test.before.each((ctx) => say('start', file, String((ctx as { __test__?: unknown }).__test__ ?? '')));
    test.after.each(() => say('end'));
    run();
  };
}
