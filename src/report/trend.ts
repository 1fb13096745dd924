/** The tier figures over time: per tier, per week and per month of `ts`, and the span of days. Pure. */
import { ms, sig } from './seconds.js';
import type { TrendFigures } from './model.js';

/** At most this many periods are reported (the latest); older ones are counted as `dropped`. */
export const MAX_PERIODS = 60;
/** Spans of at most this many weeks are reported by week, longer ones by month. */
export const MAX_WEEKS = 26;
/** Days in an average month. */
export const MONTH_DAYS = 30.4375;

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

interface Cell {
  runs: number;
  caught: number;
  total: number;
}

interface Day {
  day: string;
  week: string;
  month: string;
}

/** The Monday of the ISO week holding a `YYYY-MM-DD` day. */
export function weekStart(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  const monday = t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(monday).toISOString().slice(0, 10);
}

/** Days from `a` to `b` inclusive (`YYYY-MM-DD`). */
export const daysBetween = (a: string, b: string): number => Math.round((Date.parse(b) - Date.parse(a)) / DAY_MS) + 1;

/** Counts rows per tier per week and per month. Rows usually come in time order, so the last day is kept at hand. */
export class Trend {
  private weeks = new Map<string, Map<string, Cell>>();
  private months = new Map<string, Map<string, Cell>>();
  private last: Day | undefined;
  /** First and last day seen (`YYYY-MM-DD` compares as text). */
  first: string | null = null;
  latest: string | null = null;

  /** Adds one counted row; a `ts` that is not an ISO time is left out of the trend. */
  add(ts: unknown, tier: string, caught: boolean, seconds: number): void {
    if (typeof ts !== 'string') return;
    // Rows come mostly in time order: the day's cells per tier are at hand without building a key.
    if (this.last === undefined || !ts.startsWith(this.last.day)) {
      const d = this.day(ts.slice(0, 10));
      if (d === undefined) return;
    }
    let cells = this.today.get(tier);
    if (cells === undefined) {
      const d = this.last!;
      this.today.set(tier, (cells = [cell(this.weeks, d.week, tier), cell(this.months, d.month, tier)]));
    }
    for (const c of cells) {
      c.runs++;
      if (caught) c.caught++;
      c.total += seconds;
    }
  }

  /** The current day's week and month cells per tier. */
  private today = new Map<string, [Cell, Cell]>();

  private day(day: string): Day | undefined {
    if (!DAY.test(day) || Number.isNaN(Date.parse(day))) return undefined;
    if (this.first === null || day < this.first) this.first = day;
    if (this.latest === null || day > this.latest) this.latest = day;
    this.last = { day, week: weekStart(day), month: `${day.slice(0, 7)}-01` };
    this.today.clear();
    return this.last;
  }

  /** The periods from the first to the last, gaps filled with zeros, for these tiers (in this order). */
  finish(tiers: readonly string[]): TrendFigures {
    const byWeek = this.first !== null && this.latest !== null && daysBetween(weekStart(this.first), this.latest) <= MAX_WEEKS * 7;
    const unit = byWeek || this.first === null ? 'week' : 'month';
    const cells = unit === 'week' ? this.weeks : this.months;
    const all = this.first === null ? [] : periods(unit, this.first, this.latest!);
    const kept = all.slice(Math.max(0, all.length - MAX_PERIODS));
    return {
      unit,
      periods: kept,
      tiers: tiers.map((tier) => {
        const row = kept.map((p) => cells.get(p)?.get(tier) ?? { runs: 0, caught: 0, total: 0 });
        return {
          tier,
          runs: row.map((c) => c.runs),
          caught: row.map((c) => c.caught),
          total_s: row.map((c) => ms(c.total)),
          yield: row.map((c) => (ms(c.total) === 0 ? null : sig(c.caught / ms(c.total)))),
          catch_rate: row.map((c) => (c.runs === 0 ? null : sig(c.caught / c.runs))),
        };
      }),
      dropped: all.length - kept.length,
    };
  }
}

function cell(by: Map<string, Map<string, Cell>>, period: string, tier: string): Cell {
  let tiers = by.get(period);
  if (tiers === undefined) by.set(period, (tiers = new Map()));
  let c = tiers.get(tier);
  if (c === undefined) tiers.set(tier, (c = { runs: 0, caught: 0, total: 0 }));
  return c;
}

/** Every period start from the one holding `first` to the one holding `last`. */
export function periods(unit: 'week' | 'month', first: string, last: string): string[] {
  const out: string[] = [];
  if (unit === 'week') {
    for (let t = Date.parse(weekStart(first)); t <= Date.parse(last); t += 7 * DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
    return out;
  }
  let y = Number(first.slice(0, 4));
  let m = Number(first.slice(5, 7));
  const end = last.slice(0, 7);
  for (;;) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    out.push(`${key}-01`);
    if (key >= end) return out;
    if (++m > 12) {
      m = 1;
      y++;
    }
  }
}
