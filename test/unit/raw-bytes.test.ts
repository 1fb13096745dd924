import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { shellWord } from '../../src/util/shell-words.js';
import { decodeText } from '../../src/util/cache-files.js';
import { shown } from '../../src/util/escape.js';

// A name that is not UTF-8: decoded keeping its bytes, shown as \xNN, handed to /bin/sh as those bytes.

const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x00, 0xf0, 0x9f, 0x92, 0x80, 0xed, 0xa0, 0x80, 0xc0, 0xaf]);

test('decodeText: valid sequences decoded, each other byte kept (overlong, surrogate, truncated forms included)', () => {
  const t = decodeText(latin1);
  assert.is(t, 'caf\udce9\0\u{1f480}\udced\udca0\udc80\udcc0\udcaf');
  assert.is(decodeText(Buffer.from('plain ünï \u{1f480}')), 'plain ünï \u{1f480}');
  assert.is(decodeText(Buffer.from([0xe2, 0x82])), '\udce2\udc82', 'a sequence cut short');
});

test('shown: a kept byte is \\xNN; an emoji whose second half is in the same range is left alone', () => {
  assert.is(shown(decodeText(Buffer.from([0x61, 0xff, 0x1b, 0x62]))), 'a\\xff\\x1bb');
  assert.is(shown('\u{1f480} skull'), '\u{1f480} skull');
});

test('shellWord: /bin/sh gets the exact bytes of a kept byte, quotes and all', () => {
  const name = Buffer.concat([Buffer.from("it's "), Buffer.from([0xff, 0xfe]), Buffer.from(' $x \u{1f480}'), Buffer.from([0xe9])]);
  const arg = shellWord(decodeText(name));
  const got = execFileSync('/bin/sh', ['-c', `printf %s ${arg}`]);
  assert.equal([...got], [...name]);
  assert.is(shellWord(decodeText(Buffer.from([0xe9]))), `"$(printf '\\351')"`);
});

test.run();
