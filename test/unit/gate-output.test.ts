import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { safeGateOutput } from '../../src/gates/gate-output.js';

const out = (text: string) => safeGateOutput(Buffer.from(text, 'utf8')).toString('utf8');

test("a runner's ordinary output passes as it is, the same bytes: text, newlines, tabs, CRLF, non-ASCII letters, colours", () => {
  const plain = Buffer.from(
    '  ✓ adds (2 ms)\n\tTests:  1 passed\r\nÉtat: prêt 測試\n\x1b[32mPASS\x1b[0m \x1b[1;31;4mFAIL\x1b[39;22m \x1b[38;2;255;0;0mred\x1b[m\n',
    'utf8',
  );
  assert.ok(safeGateOutput(plain) === plain, 'no copy when nothing needs an escape');
});

test('every other control is written as its escape: cursor moves, erases, titles, links, bells, lone CR, C0, DEL, C1, bidi overrides', () => {
  assert.is(out('a\x1b[2K\x1b[1Ab'), 'a\\x1b[2K\\x1b[1Ab');
  assert.is(out('\x1b]0;owned\x07title'), '\\x1b]0;owned\\x07title');
  assert.is(out('\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\'), '\\x1b]8;;http://x\\x1b\\link\\x1b]8;;\\x1b\\');
  assert.is(out('\x1b]52;c;Y2xpcA==\x07'), '\\x1b]52;c;Y2xpcA==\\x07');
  assert.is(out('progress 10%\rgate-ladder: all passed\n'), 'progress 10%\\rgate-ladder: all passed\n');
  assert.is(out('x\by\x00z\x7f'), 'x\\x08y\\x00z\\x7f');
  assert.is(out('a\u009b31mb\u0085c'), 'a\\u009b31mb\\u0085c');
  assert.is(out('file\u202etxt.exe \u2066x\u2069 \u200e \u061c'), 'file\\u202etxt.exe \\u2066x\\u2069 \\u200e \\u061c');
  // An escape that is not a colour, and one cut short at the end of a chunk, are never passed in part.
  assert.is(out('\x1b[31;Hx'), '\\x1b[31;Hx');
  assert.is(out('end\x1b[3'), 'end\\x1b[3');
  assert.is(out('\x1b'), '\\x1b');
});

test('a run of one control byte is written once with its length; a short run byte by byte; whatever the bytes, one pass', () => {
  assert.is(out(`a${'\x00'.repeat(100000)}b`), 'a\\x00{100000}b');
  assert.is(out(`${'\x07'.repeat(15)}.`), `${'\\x07'.repeat(15)}.`);
  // An escape character or a carriage return is never counted in a run (the last one may start a colour).
  assert.is(out(`x${'\x1b'.repeat(20)}\x1b[31m`), `x${'\\x1b'.repeat(20)}\x1b[31m`);
  assert.is(out('\r\r\rz'), '\\r\\r\\rz');
  // Every byte value, many times over: no raw control is left.
  const all = Buffer.alloc(256 * 64);
  for (let i = 0; i < all.length; i++) all[i] = (i * 7919) % 256;
  const whole = safeGateOutput(all).toString('latin1');
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(whole.replace(/\r\n/g, '')), 'no raw control left');
});

test.run();
