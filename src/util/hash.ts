/**
 * A fast non-cryptographic 106-bit hash of a string (two 53-bit cyrb53 lanes), as 28 hex digits.
 * For cache keys and content checks: loading node:crypto costs more than a whole cache lookup.
 * Two different inputs sharing a hash by accident is about as likely as 2^-106; caches are not a
 * security boundary (whoever can write the config or the cache can run commands anyway).
 */
export function hash(text: string): string {
  // Both lanes in one pass over the text (the hook runs this code before the JIT has optimised it).
  let a1 = 0xdeadbeef;
  let a2 = 0x41c6ce57;
  let b1 = 0xdeadbeef ^ 0x9e3779b9;
  let b2 = 0x41c6ce57 ^ 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a1 = Math.imul(a1 ^ ch, 2654435761);
    a2 = Math.imul(a2 ^ ch, 1597334677);
    b1 = Math.imul(b1 ^ ch, 2654435761);
    b2 = Math.imul(b2 ^ ch, 1597334677);
  }
  return finish(a1, a2).toString(16).padStart(14, '0') + finish(b1, b2).toString(16).padStart(14, '0');
}

/** cyrb53's final mix of a lane's two words into 53 bits. */
function finish(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A run id: 12 hex digits from V8's CSPRNG-seeded Math.random, without loading node:crypto. */
export function newRunId(): string {
  return Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0');
}
