import { reportMsg } from './messages.js';
import type { Advice, OrderFigures, PairOverlap, RateFigures, TierFigures } from './model.js';

/** The thresholds behind the advice. */
export interface AdvicePolicy {
  /**
   * Fewer patch attempts a month than this: ratios are noise (config `report.minAttempts`). Also the calibration
   * runs a pair needs for advice, and the runs a tier needs before its ladder rows can call it a contract check.
   */
  minAttempts: number;
  /** The most expensive tier's median under this many seconds: a short-feedback suite. */
  shortFeedbackS: number;
  /**
   * A later tier whose catches the earlier missed are at most this percent of the pair's catches (calibration),
   * or that catches at most this percent of the patches reaching it (ladder rows): a contract check.
   */
  newCatchPercent: number;
}

export const DEFAULT_ADVICE: AdvicePolicy = { minAttempts: 30, shortFeedbackS: 30, newCatchPercent: 5 };

export interface AdviceInput {
  tiers: TierFigures[];
  overlap: { pairs: PairOverlap[] };
  order: OrderFigures;
  attempts: number;
  rate: RateFigures;
}

/**
 * The advice that answers one question, what to do with the ladder's shape and order, in the order one
 * outranks the next: a short-feedback suite needs no ladder (so no order either); a decorative tier is
 * deleted rather than reordered (its pair's calibration runs met their own floor); too few attempts make
 * the order's ratios noise; then the order itself. Only the first that applies is given ("consider one
 * gate that runs everything" beside "reorder to ..." told the user two opposite things); its figures
 * name what it was chosen over (`chosen_over`), and the report's order section still shows the order's
 * figures.
 */
export const ONE_RECOMMENDATION: readonly Advice['kind'][] = ['short-feedback', 'decorative', 'too-few-attempts', 'order'];

/** Every piece of advice the figures support, each with the numbers behind it, and one recommendation for the ladder (ONE_RECOMMENDATION). Pure. */
export function advise(input: AdviceInput, policy: Partial<AdvicePolicy> = {}): Advice[] {
  return oneRecommendation(allAdvice(input, policy));
}

/** `advice` with only the first kind of ONE_RECOMMENDATION that appears in it (every piece of that kind kept), the others named in its figures. Pure. */
export function oneRecommendation(advice: readonly Advice[]): Advice[] {
  const chosen = ONE_RECOMMENDATION.find((k) => advice.some((a) => a.kind === k));
  if (chosen === undefined) return [...advice];
  const over = ONE_RECOMMENDATION.filter((k) => k !== chosen && advice.some((a) => a.kind === k));
  if (over.length === 0) return [...advice];
  return advice
    .filter((a) => a.kind === chosen || !ONE_RECOMMENDATION.includes(a.kind))
    .map((a) => (a.kind === chosen ? { ...a, figures: { ...a.figures, chosen_over: over.join(', ') } } : a));
}

/** What `allAdvice`'s steps add a piece of advice with. */
type AddAdvice = (kind: Advice['kind'], text: string, figures: Advice['figures']) => void;

function allAdvice(input: AdviceInput, policy: Partial<AdvicePolicy>): Advice[] {
  const p = { ...DEFAULT_ADVICE, ...policy };
  const out: Advice[] = [];
  const add: AddAdvice = (kind, text, figures) => out.push({ kind, text, figures });
  paceAdvice(input, p, add);
  errorAdvice(input, add);
  overlapAdvice(input, p, add);
  const named = new Set(out.filter((a) => a.kind === 'contract-check').map((a) => a.figures.later));
  ladderAdvice(input, p, add, named);
  orderAdvice(input, add);
  return out;
}

/** Too few attempts a month to judge by, and feedback short enough already. */
function paceAdvice(input: AdviceInput, p: AdvicePolicy, add: AddAdvice): void {
  const rate = input.rate;
  if (rate.per_month < p.minAttempts) {
    add('too-few-attempts', reportMsg.tooFewAttempts(rate, p.minAttempts), {
      attempts: rate.attempts,
      months: rate.months,
      per_month: rate.per_month,
      min_attempts: p.minAttempts,
    });
  }
  const priced = input.tiers.filter((t) => t.median_s !== null);
  const dearest = priced.reduce<TierFigures | undefined>((m, t) => (m === undefined || t.median_s! > m.median_s! ? t : m), undefined);
  if (dearest !== undefined && dearest.median_s! < p.shortFeedbackS) {
    add('short-feedback', reportMsg.shortFeedback(dearest.tier, dearest.median_s!, p.shortFeedbackS), {
      tier: dearest.tier,
      median_s: dearest.median_s,
      limit_s: p.shortFeedbackS,
    });
  }
}

/** Each tier whose errors the harness caused. */
function errorAdvice(input: AdviceInput, add: AddAdvice): void {
  for (const t of input.tiers) {
    // An error the patch caused (it broke a file the tier loads) is no trouble of the tier's: only the harness's are advised on.
    const patchErrors = t.patch_errors ?? 0;
    if (t.errors > patchErrors) {
      add('errors', reportMsg.errors(t), {
        tier: t.tier,
        errors: t.errors,
        patch_errors: patchErrors,
        runs: t.runs,
        error_rate: t.error_rate,
        caught: t.caught,
      });
    }
  }
}

/** From calibration runs: a tier whose catches a later one always makes too (decorative), or that adds almost no catch of its own (a contract check). */
function overlapAdvice(input: AdviceInput, p: AdvicePolicy, add: AddAdvice): void {
  for (const pair of input.overlap.pairs) {
    // The same noise floor as for attempts: fewer calibration runs say nothing about overlap.
    if (pair.patches < p.minAttempts) continue;
    const figures = {
      earlier: pair.earlier,
      later: pair.later,
      patches: pair.patches,
      both: pair.both,
      only_earlier: pair.only_earlier,
      only_later: pair.only_later,
    };
    const union = pair.both + pair.only_earlier + pair.only_later;
    // The later tier makes every catch of the earlier one, and more.
    if (pair.only_earlier === 0 && pair.only_later > 0) {
      add('decorative', reportMsg.decorative(pair), figures);
      continue;
    }
    // Integer comparison: only_later / union <= percent / 100, with the earlier tier catching something.
    if (pair.both + pair.only_earlier > 0 && pair.only_later * 100 <= p.newCatchPercent * union) {
      add('contract-check', reportMsg.contractCheck(pair, p.newCatchPercent), {
        ...figures,
        limit_percent: p.newCatchPercent,
        from: 'calibration',
      });
    }
  }
}

/** From ladder rows, for the tiers calibration did not already name (`named`). */
function ladderAdvice(input: AdviceInput, p: AdvicePolicy, add: AddAdvice, named: ReadonlySet<unknown>): void {
  // From ladder rows: every catch of a later tier is new (the earlier ones passed), so a tier that, reached, almost
  // never catches is a contract check. Not for the first tier, and not twice for a tier calibration already named.
  const laddered = input.tiers.filter((t) => t.runs > 0);
  for (const t of laddered.slice(1)) {
    if (t.runs < p.minAttempts || named.has(t.tier) || t.caught * 100 > p.newCatchPercent * t.runs) continue;
    add('contract-check', reportMsg.contractCheckLadder(t, p.newCatchPercent), {
      later: t.tier,
      runs: t.runs,
      caught: t.caught,
      limit_percent: p.newCatchPercent,
      from: 'ladder',
    });
  }
}

/** The order: reorder, or keep it, with the expected seconds of each. */
function orderAdvice(input: AdviceInput, add: AddAdvice): void {
  const o = input.order;
  if (o.current_s !== null && o.recommended_s !== null) {
    const changed = o.recommended.some((name, i) => name !== o.current[i]);
    add('order', changed ? reportMsg.reorder(o) : reportMsg.keepOrder(o), {
      current: o.current.join(' '),
      recommended: o.recommended.join(' '),
      current_s: o.current_s,
      recommended_s: o.recommended_s,
      method: o.method,
      calibration_runs: o.calibration_runs,
    });
  }
}
