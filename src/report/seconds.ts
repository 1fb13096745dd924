/** Seconds to the millisecond; rates and yields to four significant digits: the rounding of every report figure. */
export const ms = (x: number): number => Math.round(x * 1000) / 1000;
export const sig = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(4)));

/** Seconds in a growable Float64Array: 8 bytes a row, for medians. */
export class Seconds {
  private buf = new Float64Array(64);
  n = 0;
  push(x: number): void {
    if (this.n === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.n++] = x;
  }
  /** Linear time (quickselect); rearranges the buffer, which only the median reads. */
  median(): number | null {
    const n = this.n;
    if (n === 0) return null;
    const a = this.buf.subarray(0, n);
    const k = n >> 1;
    const upper = select(a, k);
    if (n % 2 === 1) return upper;
    let lower = a[0]!;
    for (let i = 1; i < k; i++) if (a[i]! > lower) lower = a[i]!;
    return (lower + upper) / 2;
  }
}

/** The k-th smallest value (0-based); afterwards every value before index k is at most it. Hoare quickselect. */
export function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}
