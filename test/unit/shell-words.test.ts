/**
 * util/shell-words.ts, the one quoting for /bin/sh: what the shell hands a command is the word's exact
 * bytes (run through a real /bin/sh), and the text stays what earlier versions wrote.
 */
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeText } from '../../src/util/cache-files.js';
import { shellQuoted, shellWord } from '../../src/util/shell-words.js';

/** The bytes /bin/sh hands `printf '%s\0'` for the command line's text, one argument each. */
function argsOf(line: string): Buffer[] {
  const r = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${line}`]);
  assert.is(r.status, 0, r.stderr.toString());
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < r.stdout.length; i++)
    if (r.stdout[i] === 0) {
      parts.push(r.stdout.subarray(from, i));
      from = i + 1;
    }
  return parts;
}

const HOSTILE = [
  'plain/path.ts',
  '@scope/web+1/x',
  'web app/x',
  "it's",
  `a "b" c`,
  '$(touch pwned)',
  '`id`',
  '$HOME',
  'a;b|c&d',
  '-rf',
  '*',
  'tab\there',
  'new\nline',
  'back\\slash',
  "''",
  'ü ✓',
  '!bang',
  '%20:a,b',
];

test('each word reaches the command as one argument, byte for byte', () => {
  for (const w of HOSTILE) {
    assert.equal(argsOf(shellWord(w)), [Buffer.from(w)], w);
    assert.equal(argsOf(shellQuoted(w)), [Buffer.from(w)], w);
  }
  assert.equal(argsOf(HOSTILE.map(shellWord).join(' ')).length, HOSTILE.length);
});

test('bytes that are not UTF-8 reach the command as those bytes (printf), quotes and all', () => {
  const name = Buffer.concat([Buffer.from("it's "), Buffer.from([0xff, 0xfe]), Buffer.from(' x'), Buffer.from([0xe9])]);
  assert.equal(argsOf(shellWord(decodeText(name))), [name]);
});

test('the text is what earlier versions wrote: plain words bare, others in single quotes with a quote as quote-backslash-quote-quote', () => {
  assert.is(shellWord('node_modules/gate-ladder/dist/cli.cjs'), 'node_modules/gate-ladder/dist/cli.cjs');
  assert.is(shellWord('@scope/web+1/x'), '@scope/web+1/x');
  assert.is(shellWord("it's"), "'it'\\''s'");
  assert.is(shellWord('-rf'), "'-rf'");
  assert.is(shellQuoted('/srv/repo'), "'/srv/repo'");
});

test.run();
