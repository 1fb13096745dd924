/**
 * `Date#toISOString` for a time in milliseconds, computed by hand. The first toISOString of a process
 * costs about 1 ms here (V8 sets up its date cache, timezone included, even to print UTC); a hook run
 * prints one timestamp per ledger row. Years 0 to 9999, as the ledger needs. Pure.
 */
export function isoTime(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  // Days since 1970-01-01 to a civil date (Howard Hinnant's days_from_civil, inverted).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const milli = rest - s * 1000;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(year, 4)}-${p(month)}-${p(day)}T${p(h)}:${p(m)}:${p(s)}.${p(milli, 3)}Z`;
}

/**
 * Today as `YYYY-MM-DD`, the UTC day: a freeze expires at the same moment for every clone and CI,
 * whatever their time zones. `GATE_LADDER_NOW` (a day `YYYY-MM-DD`, or a time such as
 * `2025-01-31T23:30:00-05:00`, which counts as its UTC day) replaces now: for tests of freeze expiry
 * only, so a hook run can be made to happen "after" an expiry date.
 */
export function today(env: NodeJS.ProcessEnv = process.env, now: Date = new Date()): string {
  const fake = env.GATE_LADDER_NOW;
  if (fake) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(fake)) return fake;
    const t = Date.parse(fake);
    if (!Number.isNaN(t)) return new Date(t).toISOString().slice(0, 10);
  }
  return now.toISOString().slice(0, 10);
}
