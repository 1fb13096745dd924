import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type PushRef, isObjectId as isSha, isZeroId as isZero, parsePushRefs, pushKind } from '../../src/git/push-refs.js';
import { msg } from '../../src/run/messages.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);
const A256 = 'a'.repeat(64);
const Z256 = '0'.repeat(64);

const ref = (localRef: string, localSha: string, remoteRef: string, remoteSha: string): PushRef => ({
  localRef,
  localSha,
  remoteRef,
  remoteSha,
});

const cases: { title: string; stdin: string; refs: PushRef[]; kinds?: string[]; bad?: string[] }[] = [
  {
    title: 'ordinary update',
    stdin: `refs/heads/main ${A} refs/heads/main ${B}\n`,
    refs: [ref('refs/heads/main', A, 'refs/heads/main', B)],
    kinds: ['update'],
  },
  {
    title: 'new branch: remote sha is zeros',
    stdin: `refs/heads/feature ${A} refs/heads/feature ${Z}\n`,
    refs: [ref('refs/heads/feature', A, 'refs/heads/feature', Z)],
    kinds: ['new'],
  },
  {
    title: 'delete: local ref (delete), local sha zeros',
    stdin: `(delete) ${Z} refs/heads/old ${B}\n`,
    refs: [ref('(delete)', Z, 'refs/heads/old', B)],
    kinds: ['delete'],
  },
  {
    title: 'new tag (an annotated tag arrives as its tag object sha)',
    stdin: `refs/tags/v1 ${A} refs/tags/v1 ${Z}\n`,
    refs: [ref('refs/tags/v1', A, 'refs/tags/v1', Z)],
    kinds: ['new'],
  },
  {
    title: 'push to another remote name (HEAD:refs/heads/x)',
    stdin: `HEAD ${A} refs/heads/x ${Z}\n`,
    refs: [ref('HEAD', A, 'refs/heads/x', Z)],
    kinds: ['new'],
  },
  {
    title: 'several refs in one push, in order',
    stdin: `refs/heads/a ${A} refs/heads/a ${Z}\nrefs/heads/b ${B} refs/heads/b ${A}\n(delete) ${Z} refs/heads/c ${B}\n`,
    refs: [ref('refs/heads/a', A, 'refs/heads/a', Z), ref('refs/heads/b', B, 'refs/heads/b', A), ref('(delete)', Z, 'refs/heads/c', B)],
    kinds: ['new', 'update', 'delete'],
  },
  {
    title: 'SHA-256 repositories: 64 hex digits',
    stdin: `refs/heads/main ${A256} refs/heads/main ${Z256}\n`,
    refs: [ref('refs/heads/main', A256, 'refs/heads/main', Z256)],
    kinds: ['new'],
  },
  {
    title: 'blank lines, CRLF and no final newline are tolerated',
    stdin: `\nrefs/heads/main ${A} refs/heads/main ${B}\r\n\n`,
    refs: [ref('refs/heads/main', A, 'refs/heads/main', B)],
  },
  {
    title: 'lines of spaces or a lone CR are blank too, not bad lines',
    stdin: `  \n\r\nrefs/heads/main ${A} refs/heads/main ${B}\n \t \n`,
    refs: [ref('refs/heads/main', A, 'refs/heads/main', B)],
  },
  { title: 'empty input: nothing pushed', stdin: '', refs: [] },
  {
    title: 'five fields is not a ref line, even when the first four would be one',
    stdin: `refs/heads/main ${A} refs/heads/main ${B} extra\n`,
    refs: [],
    bad: [`refs/heads/main ${A} refs/heads/main ${B} extra`],
  },
  {
    title: 'an empty remote ref (two spaces) is not a ref line',
    stdin: `refs/heads/main ${A}  ${B}\n`,
    refs: [],
    bad: [`refs/heads/main ${A}  ${B}`],
  },
  {
    title: 'three fields is not a ref line',
    stdin: `refs/heads/main ${A} refs/heads/main\n`,
    refs: [],
    bad: [`refs/heads/main ${A} refs/heads/main`],
  },
  {
    title: 'an abbreviated or non-hex sha is not a ref line',
    stdin: `refs/heads/main abc123 refs/heads/main ${B}\nrefs/heads/x ${'g'.repeat(40)} refs/heads/x ${Z}\n`,
    refs: [],
    bad: [`refs/heads/main abc123 refs/heads/main ${B}`, `refs/heads/x ${'g'.repeat(40)} refs/heads/x ${Z}`],
  },
  {
    title: 'a bad line does not hide the good ones',
    stdin: `garbage\nrefs/heads/main ${A} refs/heads/main ${B}\n`,
    refs: [ref('refs/heads/main', A, 'refs/heads/main', B)],
    bad: ['garbage'],
  },
];

for (const c of cases) {
  test(`parsePushRefs: ${c.title}`, () => {
    const { refs, bad } = parsePushRefs(c.stdin);
    assert.equal(refs, c.refs);
    assert.equal(bad, c.bad ?? []);
    if (c.kinds) assert.equal(refs.map(pushKind), c.kinds);
  });
}

const shas: [string, boolean][] = [
  [A, true],
  [A256, true],
  ['A'.repeat(40), false],
  ['a'.repeat(39), false],
  ['a'.repeat(41), false],
  ['', false],
];
for (const [s, ok] of shas) test(`isSha(${s.length} chars${s[0] === 'A' ? ', upper case' : ''}) is ${ok}`, () => assert.is(isSha(s), ok));

test('isZero: forty or sixty-four zeros', () => {
  assert.ok(isZero(Z));
  assert.ok(isZero(Z256));
  assert.not.ok(isZero(A));
});

test('a delete is a delete whichever field says so', () => {
  assert.is(pushKind(ref('(delete)', A, 'refs/heads/x', B)), 'delete');
  assert.is(pushKind(ref('refs/heads/x', Z, 'refs/heads/x', B)), 'delete');
});

test('a bad input line is quoted escaped and clipped: a 5 MB line is not printed whole', () => {
  const { bad } = parsePushRefs(`${'a'.repeat(5_000_000)}\x1b[2J\nrefs/heads/x ${A} refs/heads/x ${B}\n`);
  const said = msg.badStdin(bad);
  assert.ok(said.length < 1000, String(said.length));
  assert.match(said, `(first: "${'a'.repeat(200)}… (5000004 characters)")`);
  assert.match(msg.badStdin(['\x1b[2Jgarbage']), '(first: "\\u001b[2Jgarbage")');
});

test.run();
