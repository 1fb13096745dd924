/**
 * The copy of git's refs a pre-push hook keeps (src/install/refs-copy.ts, pure): the lines install writes
 * around gate-ladder's line and into a carried part are the ones earlier installs wrote, so uninstall
 * still finds them, and both read the same file.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { carriedBlock, withoutCarried } from '../../src/install/hook-managers.js';
import { refsCopy } from '../../src/install/refs-copy.js';

test("the lines around gate-ladder's line, as installs since 0.1 wrote them", () => {
  assert.is(
    refsCopy.around.before,
    `gl_in="$(mktemp)"; trap 'rm -f "$gl_in"' EXIT; cat >"$gl_in"; exec <"$gl_in" # gate-ladder: the refs, for gate-ladder's line and the lines below`,
  );
  assert.is(refsCopy.around.after, 'exec <"$gl_in" # gate-ladder: the refs again, for the lines below');
  assert.ok(refsCopy.saves(refsCopy.around.before));
  assert.not.ok(refsCopy.saves(refsCopy.around.after));
});

test('a carried pre-push saves the refs with the same line, feeds each carried hook from the copy, gives them back after; uninstall takes the whole part out', () => {
  const block = carriedBlock('pre-push', [{ hook: 'pre-push', manager: 'lefthook', from: '.git/hooks/pre-push', how: { kind: 'call' } }]);
  const lines = block.split('\n');
  assert.is(lines[0], refsCopy.save);
  assert.ok(refsCopy.around.before.startsWith(refsCopy.save));
  assert.ok(lines[2]!.endsWith(refsCopy.feed));
  assert.is(lines[3], refsCopy.again);
  assert.is(withoutCarried(`#!/bin/sh\n${block}echo own\n`), '#!/bin/sh\necho own\n');
});

test.run();
