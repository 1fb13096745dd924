/**
 * A plan's tiers in the order config `order` asks for, and the tiers config `select` may skip
 * (ledger/predict.ts does the predicting). Runs after t0-scope, `{changed}` and GATE_LADDER_SKIP have
 * routed the plan: only the tiers still running are ordered. Pure.
 *
 * `order: 'predicted'` reorders, never skips. `select: { risk }` skips a running tier whose predicted
 * catch is under the risk, except on a `gate-ladder ci` run and on a calibration run (every tier runs
 * there), and not before the history is thick enough to predict from. A calibration run keeps the
 * listed order: it runs every tier anyway, and its rows are the evidence the predictions come from.
 */
import { type OrderStats, predictOrder, selectSkips } from '../ledger/predict.js';
import type { Plan, PlannedTier } from './route.js';
import type { ResolvedConfig } from '../config/resolved.js';

export interface OrderContext {
  /** A `gate-ladder ci` run: selection never skips there. */
  ci: boolean;
  calibration: boolean;
}

/** Whether the config asks for anything this module does (else the plan is left as it is, and no index is read). */

/** The plan reordered (and, with `select`, thinned), with `order` saying what was done and why. */
export function orderPlan(plan: Plan, config: Pick<ResolvedConfig, 'order' | 'select'>, stats: OrderStats, ctx: OrderContext): Plan {
  const running = plan.tiers.filter((t) => t.run);
  const names = running.map((t) => t.tier.name);
  const decision = predictOrder(stats, names, plan.files);
  const predicted = decision.order === 'predicted' && config.order === 'predicted' && !ctx.calibration;
  const order = predicted ? decision.tiers : names;
  // Why the listed order runs, when it does: the config, a calibration run, or too little history.
  const because = predicted
    ? undefined
    : config.order !== 'predicted'
      ? 'config'
      : ctx.calibration && decision.order === 'predicted'
        ? 'calibration'
        : 'history';
  const why =
    because === undefined
      ? decision.why
      : because === 'config'
        ? 'config order: fixed'
        : because === 'calibration'
          ? 'a calibration run runs every tier in the listed order'
          : decision.why;
  const p = new Map((decision.predictions ?? []).map((x) => [x.tier, x.p]));
  let skipped: string[] = [];
  let residual = 0;
  let selectOff: string | undefined;
  if (config.select !== undefined) {
    if (ctx.ci) selectOff = '`gate-ladder ci` runs every tier';
    else if (ctx.calibration) selectOff = 'a calibration run runs every tier';
    else if (decision.predictions === undefined) selectOff = decision.why;
    else ({ skip: skipped, residual } = selectSkips(decision.predictions, config.select.risk));
  }
  const byName = new Map(running.map((t) => [t.tier.name, t]));
  const withP = (t: PlannedTier): PlannedTier => (p.has(t.tier.name) ? { ...t, p: p.get(t.tier.name)! } : t);
  const ordered: PlannedTier[] = order.map((name) => {
    const t = withP(byName.get(name)!);
    return skipped.includes(name)
      ? { ...t, run: false, skip: 'select', reason: `predicted catch ${fmtP(t.p ?? 0)} is under the risk ${config.select!.risk}` }
      : t;
  });
  return {
    ...plan,
    // The running tiers in their order, those selection skipped among them, then the tiers that were not going to run.
    tiers: [...ordered, ...plan.tiers.filter((t) => !t.run)],
    order: {
      order: predicted ? 'predicted' : 'fixed',
      why,
      ...(because !== undefined && { because }),
      ...(decision.predictions && { predictions: decision.predictions }),
      ...(config.select !== undefined &&
        selectOff === undefined && { selected: { risk: config.select.risk, skipped, residual: roundP(residual) } }),
      ...(selectOff !== undefined && { selectOff }),
    },
  };
}

/** A probability as rows and messages show it: 4 significant digits at most. */
export const roundP = (p: number) => Number(p.toPrecision(4));
export const fmtP = (p: number) => String(roundP(p));
