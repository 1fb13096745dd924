/**
 * The predicted order measured against the fixed one (`gate-ladder report`, `order_evaluation`), on the
 * ledger's calibration runs: every tier ran on those patches, so the verdicts and seconds of any order
 * can be replayed. Rows are read in ledger order; each calibration run is predicted from the rows
 * before its first one (ledger/predict.ts, the same fold the index keeps), then replayed under the
 * configured order, the predicted order and, with `select`, the predicted order less the tiers selection
 * would skip. Pure.
 *
 * Per catching patch (a calibration run in which some tier caught): the seconds to the first catch (the
 * seconds of the tiers run before it, plus its own), and APFDc, the cost-cognizant APFD of Elbaum,
 * Malishevsky and Rothermel with one fault per patch: (Σ_{i ≥ F} t_i − t_F ÷ 2) ÷ Σ_i t_i, with t_i the
 * seconds of the i-th tier run and F the position of the first that catches (1: found at no cost, near 0:
 * found last). A calibration run with an `error` row is left out (the ladder stops there: no order
 * reaches the catch behind it), as are runs with fewer than MIN_CALIBRATION_RUNS calibration runs before
 * them (the predicted order is the fixed one then).
 */
import {
  type OrderRow,
  type OrderStats,
  MIN_CALIBRATION_RUNS,
  emptyStats,
  foldRow,
  median,
  predictOrder,
  selectSkips,
} from '../ledger/predict.js';

export interface OrderSide {
  median_seconds_to_first_catch: number | null;
  mean_apfdc: number | null;
  /** Catching patches whose catch this order never reached. */
  missed: number;
}

export interface OrderEvaluation {
  /** Calibration runs evaluated, in time order. */
  patches: number;
  catching_patches: number;
  fixed?: OrderSide;
  predicted?: OrderSide;
  /** Predicted median ÷ fixed median; `null` without a catch. */
  ratio?: number | null;
  select?: { risk: number; missed: number; seconds_saved: number; tiers_skipped: number } | null;
  /** Why nothing was evaluated. */
  reason?: string;
  /** Calibration runs with an `error` row, left out. */
  left_out_errors?: number;
}

interface PatchRun {
  /** Each tier's verdict and seconds in the run. */
  got: Map<string, { verdict: string; seconds: number }>;
  fixed: string[];
  predicted: string[];
  skipped: string[];
  error: boolean;
}

/** One order replayed on a run: seconds to the first catch (`undefined`: none reached), APFDc, seconds until the ladder stops. */
export function replayOrder(
  order: readonly string[],
  got: ReadonlyMap<string, { verdict: string; seconds: number }>,
): { toCatch?: number; apfdc?: number; spent: number } {
  const ran = order.filter((t) => got.has(t));
  const secs = ran.map((t) => got.get(t)!.seconds);
  const total = secs.reduce((a, b) => a + b, 0);
  let spent = 0;
  for (let i = 0; i < ran.length; i++) {
    spent += secs[i]!;
    if (got.get(ran[i]!)!.verdict === 'caught') {
      const after = secs.slice(i).reduce((a, b) => a + b, 0);
      const apfdc = total > 0 ? (after - secs[i]! / 2) / total : 1;
      return { toCatch: spent, apfdc, spent };
    }
  }
  return { spent };
}

export interface OrderEvalOptions {
  /** The configured tiers, in order (the fixed order); default: the tiers in the order first seen. */
  tiers?: readonly string[];
  /** config `select`, measured when given. */
  select?: { risk: number };
}

/** The evaluation as a fold: rows in ledger order, then `finish`. */
export function orderEvalFold(opts: OrderEvalOptions = {}) {
  const stats: OrderStats = emptyStats();
  const seen: string[] = [];
  const known = new Set<string>(opts.tiers ?? []);
  const runs = new Map<string, PatchRun>();
  const calSeen = new Set<string>();
  return {
    add(row: OrderRow) {
      if (!known.has(row.tier)) {
        known.add(row.tier);
        seen.push(row.tier);
      }
      if (row.calibration === true && row.hook !== 'seed' && row.applied !== false) {
        let r = runs.get(row.run);
        if (r === undefined && !calSeen.has(row.run)) {
          calSeen.add(row.run);
          // Predicted from the rows before this run's first one.
          if (stats.calRuns >= MIN_CALIBRATION_RUNS) {
            const fixed = [...(opts.tiers ?? []), ...seen];
            const decision = predictOrder(stats, fixed, row.files ?? []);
            const skipped = opts.select && decision.predictions ? selectSkips(decision.predictions, opts.select.risk).skip : [];
            r = { got: new Map(), fixed, predicted: decision.tiers, skipped, error: false };
            runs.set(row.run, r);
          }
        }
        if (r !== undefined) {
          if (row.verdict === 'error') r.error = true;
          else if (row.applicable !== false && (row.verdict === 'pass' || row.verdict === 'caught'))
            r.got.set(row.tier, { verdict: row.verdict, seconds: row.seconds });
        }
      }
      foldRow(stats, row);
    },
    finish: (): OrderEvaluation => evaluate(runs, calSeen.size, opts),
  };
}

/** Each calibration run without an error replayed under the fixed and the predicted order (and `select`'s skips): the times to the first catch. */
function evaluate(runs: ReadonlyMap<string, PatchRun>, calibrationRuns: number, opts: OrderEvalOptions): OrderEvaluation {
  const evaluated = [...runs.values()].filter((r) => !r.error);
  const leftOut = runs.size - evaluated.length;
  if (evaluated.length === 0)
    return {
      patches: 0,
      catching_patches: 0,
      reason:
        calibrationRuns <= MIN_CALIBRATION_RUNS
          ? `the ledger holds ${calibrationRuns} calibration run${calibrationRuns === 1 ? '' : 's'}; the evaluation needs more than ${MIN_CALIBRATION_RUNS} (each prediction is made from the ${MIN_CALIBRATION_RUNS} or more before it): run \`gate-ladder replay --calibrate\` or set \`calibrate\` in the config`
          : 'every calibration run after the first ones had an error row',
      ...(leftOut > 0 && { left_out_errors: leftOut }),
    };
  const side = () => ({ times: [] as number[], apfdc: [] as number[], missed: 0 });
  const fixed = side();
  const predicted = side();
  const sel = { missed: 0, saved: 0, skipped: 0 };
  let catching = 0;
  for (const r of evaluated) {
    const catches = [...r.got.values()].some((g) => g.verdict === 'caught');
    const f = replayOrder(r.fixed, r.got);
    const p = replayOrder(r.predicted, r.got);
    if (opts.select) {
      const kept = r.predicted.filter((t) => !r.skipped.includes(t));
      const s = replayOrder(kept, r.got);
      sel.skipped += r.skipped.filter((t) => r.got.has(t)).length;
      sel.saved += p.spent - s.spent;
      if (catches && s.toCatch === undefined) sel.missed++;
    }
    if (!catches) continue;
    catching++;
    for (const [o, x] of [
      [f, fixed],
      [p, predicted],
    ] as const) {
      if (o.toCatch === undefined) x.missed++;
      else {
        x.times.push(o.toCatch);
        x.apfdc.push(o.apfdc!);
      }
    }
  }
  const out = (x: ReturnType<typeof side>): OrderSide => ({
    median_seconds_to_first_catch: roundTo(median(x.times), 3),
    mean_apfdc: x.apfdc.length === 0 ? null : roundTo(x.apfdc.reduce((a, b) => a + b, 0) / x.apfdc.length, 4),
    missed: x.missed,
  });
  const fm = median(fixed.times);
  const pm = median(predicted.times);
  return {
    patches: evaluated.length,
    catching_patches: catching,
    fixed: out(fixed),
    predicted: out(predicted),
    ratio: fm === null || pm === null || fm === 0 ? null : roundTo(pm / fm, 3),
    select: opts.select
      ? { risk: opts.select.risk, missed: sel.missed, seconds_saved: roundTo(sel.saved, 3)!, tiers_skipped: sel.skipped }
      : null,
    ...(leftOut > 0 && { left_out_errors: leftOut }),
  };
}

function roundTo(x: number | null, digits: number): number | null {
  if (x === null) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The evaluation of a list of rows (tests, small ledgers). */
export function evaluateOrder(rows: Iterable<OrderRow>, opts: OrderEvalOptions = {}): OrderEvaluation {
  const fold = orderEvalFold(opts);
  for (const r of rows) fold.add(r);
  return fold.finish();
}
