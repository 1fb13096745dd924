/**
 * A fast non-cryptographic 106-bit hash of a string (two 53-bit cyrb53 lanes), as 28 hex digits.
 * For cache keys and content checks: loading node:crypto costs more than a whole cache lookup.
 * Two different inputs sharing a hash by accident is about as likely as 2^-106; caches are not a
 * security boundary (whoever can write the config or the cache can run commands anyway).
 */
export function hash(text: string): string {
  return lane(text, 0).toString(16).padStart(14, '0') + lane(text, 0x9e3779b9).toString(16).padStart(14, '0');
}

function lane(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A run id: 12 hex digits from V8's CSPRNG-seeded Math.random, without loading node:crypto. */
export function newRunId(): string {
  return Math.floor(Math.random() * 2 ** 48).toString(16).padStart(12, '0');
}
