/** Seconds to the millisecond; rates and yields to four significant digits: the rounding of every report figure. */
export const ms = (x: number): number => Math.round(x * 1000) / 1000;
export const sig = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(4)));
