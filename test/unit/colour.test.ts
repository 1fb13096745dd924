import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gateColourWanted } from '../../src/util/colour.js';

test("colours are asked for only on a terminal, and never over the user's NO_COLOR or FORCE_COLOR", () => {
  assert.is(gateColourWanted({ NO_COLOR: '1' }), false);
  assert.is(gateColourWanted({ FORCE_COLOR: '0' }), false);
  // The test's stderr is a pipe (scripts/test.mjs), or a terminal when run by hand: either way it agrees with isatty.
  assert.is(gateColourWanted({}), process.stderr.isTTY === true);
});

test.run();
