import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NameStatusReader, parseNameStatusZ } from '../../src/git/git.js';

const out = [
  'M',
  'src/a.ts',
  'R100',
  'tests/old name.py',
  'src/new\nname.py',
  'A',
  'ümlaut/ä.txt',
  'C75',
  'a',
  'b',
  'D',
  'gone.txt',
  '',
].join('\0');

test('parses statuses, paths, and both paths of renames and copies', () => {
  assert.equal(parseNameStatusZ(out), [
    { status: 'M', path: 'src/a.ts' },
    { status: 'R100', path: 'src/new\nname.py', from: 'tests/old name.py' },
    { status: 'A', path: 'ümlaut/ä.txt' },
    { status: 'C75', path: 'b', from: 'a' },
    { status: 'D', path: 'gone.txt' },
  ]);
  assert.equal(parseNameStatusZ(''), []);
});

test('fed in pieces cut at any NUL, the reader gives the same changes', () => {
  const whole = parseNameStatusZ(out);
  const cuts = [...out].flatMap((ch, i) => (ch === '\0' ? [i + 1] : []));
  for (const cut of cuts) {
    const r = new NameStatusReader().feed(out.slice(0, cut)).feed(out.slice(cut));
    assert.equal(r.changes, whole, `cut at ${cut}`);
  }
  const one = new NameStatusReader();
  for (let i = 0; i < cuts.length; i++) one.feed(out.slice(i === 0 ? 0 : cuts[i - 1], cuts[i]));
  assert.equal(one.changes, whole, 'one field at a time');
});

test.run();
