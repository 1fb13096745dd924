/** The freeze policy, pure: flip rate, the seed's eligibility predicate, expiry, and which failures a freeze forgives. */
import { testMsg } from '../util/messages.js';
import type { Freeze, FreezePolicy } from '../types.js';

export interface FlipStats {
  /** Outcomes counted (passes and failures; skips are not runs). */
  runs: number;
  flips: number;
  /** flips / (runs − 1); null with fewer than two runs. */
  flipRate: number | null;
}

export interface Eligibility extends FlipStats {
  eligible: boolean;
  reason: string;
}

/** Flips between consecutive outcomes (true = pass), in time order. */
export function flipStats(outcomes: readonly boolean[]): FlipStats {
  let flips = 0;
  for (let i = 1; i < outcomes.length; i++) if (outcomes[i] !== outcomes[i - 1]) flips++;
  const runs = outcomes.length;
  return { runs, flips, flipRate: runs < 2 ? null : flips / (runs - 1) };
}

/**
 * `x` with three decimals exactly as Python's `f"{x:.3f}"`: JavaScript's toFixed breaks exact ties
 * upwards, Python to even. A double is an exact tie at three decimals only when 16·x is odd.
 */
export function fixed3(x: number): string {
  const sixteenths = x * 16;
  if (Number.isInteger(sixteenths) && Math.abs(sixteenths) % 2 === 1) {
    const down = Math.floor(x * 1000);
    return ((down % 2 === 0 ? down : down + 1) / 1000).toFixed(3);
  }
  return x.toFixed(3);
}

/**
 * The seed's `freeze_eligible`: enough history, a flip rate at or above the threshold, and evidence
 * that the test ever caught a seeded bug. All three, in that order; the reason is the seed's.
 */
export function freezeEligible(
  outcomes: readonly boolean[],
  caughtSeededBug: boolean,
  policy: Required<Pick<FreezePolicy, 'minRuns' | 'minFlipRate'>>,
): Eligibility {
  const stats = flipStats(outcomes);
  if (stats.runs < policy.minRuns || stats.flipRate === null) return { ...stats, eligible: false, reason: testMsg.insufficientHistory() };
  const rate = stats.flipRate;
  if (rate < policy.minFlipRate) return { ...stats, eligible: false, reason: testMsg.notFlaky(fixed3(rate)) };
  if (!caughtSeededBug) return { ...stats, eligible: false, reason: testMsg.noEvidence() };
  return { ...stats, eligible: true, reason: testMsg.eligible(fixed3(rate)) };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` that names a real day, else null. */
export function parseDay(text: string): string | null {
  const m = DATE.exec(text.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  const back = d.toISOString().slice(0, 10);
  return back === text.trim() ? back : null;
}

export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + n * 86_400_000).toISOString().slice(0, 10);
}

/** A freeze counts before its expiry day; from that day on its test's failures count again. */
export function isActive(freeze: Freeze, today: string): boolean {
  return today < freeze.expires;
}

/** Problems with a requested expiry and re-entry condition, all at once. */
export function checkFreezeRequest(
  expires: string | undefined,
  reentry: string | undefined,
  today: string,
  maxExpiryDays: number,
): { problems: string[]; expires?: string } {
  const problems: string[] = [];
  let day: string | null = null;
  if (expires === undefined || expires.trim() === '') problems.push(testMsg.freezeNeedsExpiry());
  else {
    day = parseDay(expires);
    const latest = addDays(today, maxExpiryDays);
    if (day === null) problems.push(testMsg.freezeBadDate(expires));
    else if (day <= today) problems.push(testMsg.freezePast(day, today));
    else if (day > latest) problems.push(testMsg.freezeTooFar(day, maxExpiryDays, latest));
  }
  if (reentry === undefined || reentry.trim() === '') problems.push(testMsg.freezeNeedsReentry());
  return { problems, ...(day !== null && problems.length === 0 && { expires: day }) };
}

export interface Forgiveness {
  /** Failed tests under a freeze that still counts: forgiven. */
  frozen: string[];
  /** Failed tests whose freeze has expired: they count again. */
  expired: Freeze[];
  /** Failed tests with no freeze at all. */
  unfrozen: string[];
}

/** Splits a tier's failed tests by their freezes. The tier passes only when every failure is in `frozen`. */
export function forgive(failed: readonly string[], freezes: readonly Freeze[], today: string): Forgiveness {
  const byTest = new Map(freezes.map((f) => [f.test, f]));
  const out: Forgiveness = { frozen: [], expired: [], unfrozen: [] };
  for (const id of failed) {
    const f = byTest.get(id);
    if (f === undefined) out.unfrozen.push(id);
    else if (isActive(f, today)) out.frozen.push(id);
    else out.expired.push(f);
  }
  return out;
}

/** The committed freezes file: `{ "version": 1, "freezes": [...] }`, sorted by test for clean diffs. */
export interface FreezesFile {
  version: 1;
  freezes: Freeze[];
}

const STRING_FIELDS = ['test', 'by', 'at', 'expires', 'reentry'] as const;
const NUMBER_FIELDS = ['flip_rate', 'runs', 'flips', 'evidence'] as const;

/** Parses the freezes file; every problem is named. Pure. */
export function parseFreezes(text: string): { ok: true; freezes: Freeze[] } | { ok: false; why: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, why: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const list = (value as { freezes?: unknown } | null)?.freezes;
  if (!Array.isArray(list)) return { ok: false, why: 'no "freezes" list' };
  const problems: string[] = [];
  list.forEach((f: Record<string, unknown>, i) => {
    for (const k of STRING_FIELDS) if (typeof f?.[k] !== 'string') problems.push(`freezes[${i}].${k} must be a string`);
    for (const k of NUMBER_FIELDS) if (typeof f?.[k] !== 'number') problems.push(`freezes[${i}].${k} must be a number`);
    if (typeof f?.expires === 'string' && parseDay(f.expires) === null) problems.push(`freezes[${i}].expires must be YYYY-MM-DD`);
  });
  if (problems.length > 0) return { ok: false, why: problems.join('; ') };
  return { ok: true, freezes: list as Freeze[] };
}

export function serializeFreezes(freezes: readonly Freeze[]): string {
  const sorted = [...freezes].sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0));
  const file: FreezesFile = { version: 1, freezes: sorted };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The list with `freeze` added, replacing any earlier freeze of the same test (a renewal). */
export function upsertFreeze(freezes: readonly Freeze[], freeze: Freeze): Freeze[] {
  return [...freezes.filter((f) => f.test !== freeze.test), freeze];
}
