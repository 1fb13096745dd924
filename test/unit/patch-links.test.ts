import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { firstLinkOut, indexLinksZ, leadsOut, linkRecordsZ } from '../../src/git/patch-links.js';

const SHA = 'a'.repeat(40);
const ZERO = '0'.repeat(40);

test('linkRecordsZ: the paths a diff makes symlinks (added, re-pointed, a file turned link), not deleted ones nor files', () => {
  const z = [
    `:000000 120000 ${ZERO} ${SHA} A`,
    'nm',
    `:120000 120000 ${SHA} ${SHA} M`,
    'sub/b',
    `:100644 120000 ${SHA} ${SHA} T`,
    'was a file',
    `:120000 000000 ${SHA} ${ZERO} D`,
    'gone',
    `:000000 100644 ${ZERO} ${SHA} A`,
    'file.txt',
    '',
  ].join('\0');
  assert.equal(linkRecordsZ(z), ['nm', 'sub/b', 'was a file']);
  assert.equal(linkRecordsZ(''), []);
});

test('indexLinksZ: the symlinks of git ls-files -s -z, names with tabs and newlines whole', () => {
  const z = [`120000 ${SHA} 0\tnm`, `100644 ${SHA} 0\tfile`, `120000 ${SHA} 0\ta\tb\nc`, ''].join('\0');
  assert.equal(indexLinksZ(z), ['nm', 'a\tb\nc']);
});

test('leadsOut: absolute and .. past the root lead out; a link that stays inside does not', () => {
  const none = () => undefined;
  assert.equal(leadsOut({ path: 'nm', target: '/home/me/repo/node_modules' }, none), { out: true });
  assert.equal(leadsOut({ path: 'up', target: '..' }, none), { out: true });
  assert.equal(leadsOut({ path: 'deep/up', target: '../../x' }, none), { out: true });
  assert.equal(leadsOut({ path: 'deep/in', target: '../x' }, none), { out: false });
  assert.equal(leadsOut({ path: 'a/b/c', target: './../../d/./e' }, none), { out: false });
  assert.equal(leadsOut({ path: 'a', target: 'b/../../c' }, none), { out: true }, 'up past the root half-way, even if it comes back');
  assert.equal(leadsOut({ path: 'a', target: '' }, none), { out: false });
});

test('leadsOut: through another symlink, read as the kernel reads it, not as text', () => {
  const links: Record<string, string> = { 'sub/b': '..', ext: '/usr/lib', rel: 'sub/deeper/deepest', loop1: 'loop2', loop2: 'loop1' };
  const at = (p: string) => links[p];
  // sub/b is the root: sub/b/.. is above it, though the text reads `victim` inside.
  assert.equal(leadsOut({ path: 'a', target: 'sub/b/../victim' }, at), { out: true, via: 'sub/b' });
  assert.equal(leadsOut({ path: 'p', target: 'ext/x' }, at), { out: true, via: 'ext' });
  // rel is two folders down: rel/../.. is sub, inside, though the text climbs past the root.
  assert.equal(leadsOut({ path: 'q', target: 'rel/../../..' }, at), { out: false });
  assert.equal(leadsOut({ path: 'q', target: 'rel/../../../..' }, at), { out: true, via: 'rel' });
  assert.equal(leadsOut({ path: 'l', target: 'loop1/x' }, at), { out: false }, 'a loop leads nowhere');
  assert.equal(leadsOut({ path: 'sub/b', target: '..' }, at), { out: false }, 'sub/b itself is the root');
});

test('firstLinkOut: the first link that leads out, with the link it went through', () => {
  const links: Record<string, string> = { 'sub/b': '..', a: 'sub/b/../victim' };
  const at = (p: string) => links[p];
  assert.equal(
    firstLinkOut(
      Object.entries(links).map(([path, target]) => ({ path, target })),
      at,
    ),
    { path: 'a', target: 'sub/b/../victim', via: 'sub/b' },
  );
  assert.is(firstLinkOut([{ path: 'sub/b', target: '..' }], at), undefined);
});

test.run();
