/**
 * Which set of the suite a test process runs: `npm test` the fast set (scripts/test.mjs `--fast` sets
 * GL_TEST_SET=fast), `npm run test:all` the whole suite. Of some files the fast set runs a few tests
 * only, named in scripts/test.mjs `FAST` by the beginnings of their titles and passed to the file's
 * process as GL_TEST_KEEP (a JSON list). Such a file imports `test` from here instead of from uvu: the
 * tests the list names run, the others are counted as skipped, and a name the list gives that no test
 * of the file starts with fails the file (a renamed test must not drop out of the fast set unseen).
 * Run by hand (uvu, or the file as a script) or by `npm run test:all`, every test runs.
 *
 * On the Nodes that run only what differs between Nodes (.ci/run's 22, 24 and 26:
 * GATE_LADDER_TEST_NODES_SOME), a file scripts/test.mjs lists in NODE_SENSITIVE as `'marked'` runs with
 * GL_TEST_PART=node-sensitive: only its tests declared with `nodeTest` (each says why it is one) run
 * there, the others are left out (not counted), and a file with no such test fails, so that a file
 * listed there cannot quietly test nothing on those Nodes. Everywhere else `nodeTest` is `test`.
 */
import { type Test, test as uvuTest } from 'uvu';

/** Whether this test process runs in `npm test`'s fast set. */
export const inFastSet = process.env.GL_TEST_SET === 'fast';

const keep = (() => {
  const list = inFastSet ? process.env.GL_TEST_KEEP : undefined;
  return list ? (JSON.parse(list) as string[]) : undefined;
})();
const matched = new Set<string>();

/** Whether this process runs only the file's Node-sensitive tests (a Node of GATE_LADDER_TEST_NODES_SOME). */
export const nodeSensitiveOnly = process.env.GL_TEST_PART === 'node-sensitive';
/** How many tests of this file `nodeTest` declared. */
let sensitive = 0;

/** Whether the test of this title runs here (always, unless the fast set names the file's tests). */
function picked(title: string): boolean {
  if (keep === undefined) return true;
  const start = keep.find((k) => title.startsWith(k));
  if (start !== undefined) matched.add(start);
  return start !== undefined;
}

/** uvu's `test`, which in the fast set runs only the tests GL_TEST_KEEP names, and on a Node of the Node-sensitive part none. */
export const test: Test = Object.assign(
  (title: string, handler: Parameters<Test>[1]) => {
    // Picked first: a title the fast set names is found even where this Node leaves the test out.
    const kept = picked(title);
    if (nodeSensitiveOnly) return;
    if (kept) uvuTest(title, handler);
    else uvuTest.skip();
  },
  {
    only: uvuTest.only,
    skip: uvuTest.skip,
    before: uvuTest.before,
    after: uvuTest.after,
    run: () => {
      if (nodeSensitiveOnly && sensitive === 0)
        uvuTest('the Node-sensitive part names tests of this file', () => {
          throw new Error(
            "scripts/test.mjs NODE_SENSITIVE lists this file as 'marked', and no test here is declared with nodeTest; mark the tests that differ between Nodes, or list the file as true",
          );
        });
      const missing = (keep ?? []).filter((k) => !matched.has(k));
      if (missing.length > 0)
        uvuTest('the fast set names tests of this file', () => {
          throw new Error(
            `scripts/test.mjs FAST names tests no title here starts with: ${missing.map((m) => JSON.stringify(m)).join(', ')}; rename them there`,
          );
        });
      // Looked up now: test/helpers/test-clock.ts wraps uvu's run.
      uvuTest.run();
    },
  },
);

/**
 * A test of what differs between Nodes (loading modules and configs, starting processes, signals, the
 * hook line as git runs it): it runs on every Node .ci/run tests, the file's `test`s on the oldest only.
 * Otherwise it is `test`.
 */
export function nodeTest(title: string, handler: Parameters<Test>[1]): void {
  sensitive += 1;
  if (picked(title)) uvuTest(title, handler);
  else uvuTest.skip();
}
