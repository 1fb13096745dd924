/** The loops in git-text.ts against the regular expressions they replaced, on generated and edge-case input. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configLine, isObjectId, isRefName, isZeroId } from '../../src/git/text.js';

const SHA = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;
const ZERO = /^0+$/;
const REF_OK = /^refs\/[^\0-\x20\x7f~^:?*[\\]+$/;
const REF_BAD = /\.\.|\/\/|\/\.|\.lock(\/|$)|\/$/;
const WORKTREE_OR_BARE = /^\s*(worktree|bare\s*=\s*true)/im;
const REFSTORAGE = /^\s*refstorage\s*=/im;

// A small deterministic generator (xorshift), so a failure names a reproducible input.
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

test('isObjectId and isZeroId agree with the expressions they replaced', () => {
  const r = rng(1);
  const alphabet = '0123456789abcdefABCDEFgz -'.split('');
  const cases = ['', '0'.repeat(40), '0'.repeat(64), 'a'.repeat(39), 'a'.repeat(41), 'A'.repeat(40), 'f'.repeat(63), 'e'.repeat(64), `${'a'.repeat(40)}\n`];
  for (let i = 0; i < 5000; i++) {
    const len = pick(r, [0, 1, 39, 40, 41, 63, 64, 65]);
    const bias = r() < 0.7 ? '0123456789abcdef'.split('') : alphabet;
    cases.push(Array.from({ length: len }, () => pick(r, r() < 0.97 ? bias : alphabet)).join(''));
    cases.push('0'.repeat(len) + (r() < 0.2 ? pick(r, alphabet) : ''));
  }
  for (const s of cases) {
    assert.is(isObjectId(s), SHA.test(s), JSON.stringify(s));
    assert.is(isZeroId(s), ZERO.test(s), JSON.stringify(s));
  }
});

test('isRefName agrees with the expressions it replaced', () => {
  const r = rng(2);
  const parts = ['refs/', 'heads', 'main', '/', '.', '..', '.lock', 'lock', '~', '^', ':', '?', '*', '[', '\\', ' ', '\t', '\0', '\x7f', 'é', '-', '_', '@{', 'x'];
  const cases = ['refs/', 'refs/heads/main', 'refs/heads/', 'refs/heads//x', 'refs/heads/.x', 'refs/a.lock', 'refs/a.lock/b', 'refs/a..b', 'refs/a b', 'heads/main', 'refs/x.lockx', 'refs/é'];
  for (let i = 0; i < 20000; i++) {
    const n = 1 + Math.floor(r() * 6);
    cases.push((r() < 0.9 ? 'refs/' : '') + Array.from({ length: n }, () => pick(r, parts)).join(''));
  }
  for (const s of cases) assert.is(isRefName(s), REF_OK.test(s) && !REF_BAD.test(s), JSON.stringify(s));
});

test('configLine agrees with the multiline expressions it replaced', () => {
  const r = rng(3);
  const bits = ['[core]', '\n', '\r\n', '\r', '\t', ' ', '  ', 'worktree', 'WorkTree', 'worktreeConfig = true', 'bare', 'Bare', ' = ', '=', 'true', 'TRUE', 'false', 'refstorage', 'refStorage', ' =', 'reftable', '\u2028', '#', 'x', '\u00a0', '[extensions]', '\u212a', 'K', '\u0130', '\u2029', '\v', '\ufeff'];
  const cases = ['', '\n', '[core]\n\tbare = true\n', '[core]\n\tbare = false\n', '\tworktree = /x\n', '[extensions]\n\trefStorage = reftable\n', 'x\u2028 bare=true'];
  for (let i = 0; i < 20000; i++) cases.push(Array.from({ length: 1 + Math.floor(r() * 10) }, () => pick(r, bits)).join(''));
  for (const s of cases) {
    assert.is(configLine(s, 'worktree') || configLine(s, 'bare', 'true'), WORKTREE_OR_BARE.test(s), JSON.stringify(s));
    assert.is(configLine(s, 'refstorage', ''), REFSTORAGE.test(s), JSON.stringify(s));
  }
});

test.run();
