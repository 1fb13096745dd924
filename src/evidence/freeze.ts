/** The freeze policy, pure: flip rate, the seed's eligibility predicate, expiry, and which failures a freeze forgives. */
import { testMsg } from './messages.js';
import type { FreezePolicy } from '../types.js';

/** One entry of the committed `.gate-ladder/freezes.json`. */
export interface Freeze {
  test: string;
  /** The tier whose history made it eligible; it forgives failures in that tier only. Absent (older freezes): every tier. */
  tier?: string;
  flip_rate: number;
  runs: number;
  flips: number;
  /** Seeded bugs and mutants this test caught when it was frozen. */
  evidence: number;
  /** `Name <email>` from git config. */
  by: string;
  /** ISO time the freeze was made. */
  at: string;
  /** `YYYY-MM-DD`: from this day on the freeze no longer counts. */
  expires: string;
  /** What must be true to unfreeze (e.g. "passes 50 runs in a row after the retry fix"). */
  reentry: string;
}

export interface FlipStats {
  /** Outcomes counted (passes and failures; skips are not runs). */
  runs: number;
  flips: number;
  /** flips / same-code runs; null when no run repeated the code of an earlier one. */
  flipRate: number | null;
}

export interface Eligibility extends FlipStats {
  /** Runs on code (tree + tier command) that had run before: the flip rate's denominator. */
  sameCodeRuns: number;
  /** Failed on every run: not flaky, broken. */
  broken: boolean;
  eligible: boolean;
  reason: string;
}

/** Flips between consecutive outcomes (true = pass), in time order, all on the same code. */
export function flipStats(outcomes: readonly boolean[]): FlipStats {
  let flips = 0;
  for (let i = 1; i < outcomes.length; i++) if (outcomes[i] !== outcomes[i - 1]) flips++;
  const runs = outcomes.length;
  return { runs, flips, flipRate: runs < 2 ? null : flips / (runs - 1) };
}

/** One test's counts in one tier (see history.ts), with its sensitivity evidence. */
export interface TallyInput {
  runs: number;
  fails: number;
  sameCodeRuns: number;
  flips: number;
  evidence: number;
  ambiguous?: boolean;
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
 * that the test ever caught a seeded bug, in that order, with the seed's reasons. Around them: an id
 * that names several tests is never eligible, a test that failed every run is broken (not "not
 * flaky"), and a flip rate needs runs repeated on the same code (else: keep observing).
 */
export function freezeEligible(t: TallyInput, policy: Required<Pick<FreezePolicy, 'minRuns' | 'minFlipRate'>>): Eligibility {
  const flipRate = t.sameCodeRuns > 0 ? t.flips / t.sameCodeRuns : null;
  // One object, filled in below: `flaky` judges every test of a 150,000-test suite.
  const out: Eligibility = {
    runs: t.runs,
    flips: t.flips,
    flipRate,
    sameCodeRuns: t.sameCodeRuns,
    broken: false,
    eligible: false,
    reason: '',
  };
  if (t.ambiguous) out.reason = testMsg.ambiguousId();
  // One run is no history, whatever the policy asks (a flip needs two).
  else if (t.runs < Math.max(policy.minRuns, 2)) out.reason = testMsg.insufficientHistory();
  else if (t.fails === t.runs) {
    out.broken = true;
    out.reason = testMsg.broken(t.runs);
  } else if (flipRate === null) out.reason = `${testMsg.insufficientHistory()} ${testMsg.noRepeats()}`;
  else if (flipRate < policy.minFlipRate) out.reason = testMsg.notFlaky(fixed3(flipRate));
  else if (t.evidence <= 0) out.reason = testMsg.noEvidence();
  else {
    out.eligible = true;
    out.reason = testMsg.eligible(fixed3(flipRate));
  }
  return out;
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
  /** Failed tests under a freeze whose id names several tests in this report: a freeze names one test, so they count. */
  ambiguous: string[];
  /** Failed tests with no freeze at all. */
  unfrozen: string[];
}

/** The freeze of `id` that applies in `tier`: one naming that tier, else one naming none (it applies in every tier). */
export function freezeFor(freezes: readonly Freeze[], id: string, tier: string | undefined): Freeze | undefined {
  let any: Freeze | undefined;
  for (const f of freezes) {
    if (f.test !== id) continue;
    if (f.tier === undefined) any ??= f;
    else if (f.tier === tier) return f;
  }
  return any;
}

/**
 * Splits a tier's failed tests by their freezes. The tier passes only when every failure is in
 * `frozen`. `dup`: ids that several test cases of this report share (see junit.ts).
 */
export function forgive(
  failed: readonly string[],
  freezes: readonly Freeze[],
  today: string,
  where: { tier?: string; dup?: readonly string[] } = {},
): Forgiveness {
  const dup = new Set(where.dup ?? []);
  const out: Forgiveness = { frozen: [], expired: [], ambiguous: [], unfrozen: [] };
  for (const id of failed) {
    const f = freezeFor(freezes, id, where.tier);
    if (f === undefined) out.unfrozen.push(id);
    else if (!isActive(f, today)) out.expired.push(f);
    else if (dup.has(id)) out.ambiguous.push(id);
    else out.frozen.push(id);
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
    if (f?.tier !== undefined && typeof f.tier !== 'string') problems.push(`freezes[${i}].tier must be a string`);
  });
  if (problems.length > 0) return { ok: false, why: problems.join('; ') };
  return { ok: true, freezes: list as Freeze[] };
}

export function serializeFreezes(freezes: readonly Freeze[]): string {
  const key = (f: Freeze) => `${f.test}\u0000${f.tier ?? ''}`;
  const sorted = [...freezes].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const file: FreezesFile = { version: 1, freezes: sorted };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The list with `freeze` added, replacing any earlier freeze of the same test in the same tier (a renewal). */
export function upsertFreeze(freezes: readonly Freeze[], freeze: Freeze): Freeze[] {
  return [...freezes.filter((f) => !(f.test === freeze.test && (f.tier ?? null) === (freeze.tier ?? null))), freeze];
}

/** A freeze's last frozen day: the day before its expiry (a freeze counts before its expiry day, in UTC days). */
export function lastFrozenDay(freeze: Pick<Freeze, 'expires'>): string {
  return addDays(freeze.expires, -1);
}
