/**
 * The per-patch order (config `order: 'predicted'`): from the ledger's history, each tier's chance of
 * catching a patch that touches these paths, and the order that finds a catch soonest. Pure: rows are
 * folded into `OrderStats` one at a time (ledger/order-index.ts keeps the fold beside the ledger;
 * report/order-eval.ts folds the same rows to measure it), and `predictOrder` reads the stats.
 *
 * What a row says. A `pass` or `caught` row is one trial of its tier for the keys of the patch's
 * paths: each path (`p:`), each parent folder (`d:`) and each file kind, the extension (`k:`).
 * Calibration rows (every tier ran on the patch) count whole; a ladder row counts LADDER_WEIGHT of a
 * trial, as it is censored: the tiers after a catch never ran (no row, so no trial: they are neither
 * counted as passes nor as catches), and a tier was reached only when every earlier one passed, so it
 * sees fewer of the bugs an earlier tier also catches. Errors, cached passes, seeded bugs, patches
 * that did not apply and commands that could not run say nothing of the patch and are not counted.
 *
 * Recency: every count decays by half each HALF_LIFE_RUNS runs (a run is one patch judged), so a tier
 * whose tests changed what they catch is re-learnt.
 *
 * The estimate, for each tier: its overall rate shrunk toward the rate of all tiers, then the pooled
 * counts of the patch's kinds, of its folders at each depth (shallowest first) and of its paths, each
 * an m-estimate (c + M·p) ÷ (n + M) shrunk toward the level before: with little history a key says
 * little, and the tier's overall rate stands.
 */

/** Decayed catches, decayed trials, and the run clock (`seq`) at which both were last decayed. */
export type Cell = [c: number, n: number, at: number];

export interface TierStats {
  cell: Cell;
  /** Seconds of the tier's most recent passing runs (at most SECONDS_KEPT), oldest first. */
  secs: number[];
}

/** Each key's cells (tier → counts): a map in memory, or the index's lines parsed only as they are asked for (ledger/order-index.ts). */
export interface KeyStore {
  get(key: string): Record<string, Cell> | undefined;
  /** The key's cells, made when missing; the caller changes them. */
  edit(key: string): Record<string, Cell>;
  /** Every key and its cells (all parsed), in no set order. */
  entries(): Iterable<[string, Record<string, Cell>]>;
}

/** A KeyStore in memory. */
export class MapKeys implements KeyStore {
  readonly map = new Map<string, Record<string, Cell>>();
  get(key: string): Record<string, Cell> | undefined {
    return this.map.get(key);
  }
  edit(key: string): Record<string, Cell> {
    let cells = this.map.get(key);
    if (cells === undefined) this.map.set(key, (cells = {}));
    return cells;
  }
  entries(): Iterable<[string, Record<string, Cell>]> {
    return this.map.entries();
  }
}

/** The fold of the ledger's rows, as the index beside the ledger keeps it. */
export interface OrderStats {
  /** Runs folded (a new run id is a new run): the clock the decay counts in. */
  seq: number;
  lastRun: string;
  /** Calibration runs folded. */
  calRuns: number;
  lastCal: string;
  /** Rows counted (trials, before weights). */
  rows: number;
  tiers: Record<string, TierStats>;
  /** Key (`p:path`, `d:folder`, `k:kind`) → tier → its counts. */
  keys: KeyStore;
}

/** Counts halve every this many runs. */
export const HALF_LIFE_RUNS = 500;
/** A ladder (non-calibration) row's weight: censored evidence, used after the calibration runs. */
export const LADDER_WEIGHT = 0.25;
/** Prior strength of each shrinkage step (the m of the m-estimate), in trials. */
export const PRIOR_TRIALS = 2;
/** `order: 'predicted'` (and `select`) act only once the ledger holds this many calibration runs. */
export const MIN_CALIBRATION_RUNS = 20;
/** Passing seconds kept per tier for its expected cost (the median). */
export const SECONDS_KEPT = 51;
/** At most this many of a row's paths give keys (a row holds up to 1000). */
export const PATHS_PER_ROW = 200;

export function emptyStats(keys: KeyStore = new MapKeys()): OrderStats {
  return { seq: 0, lastRun: '', calRuns: 0, lastCal: '', rows: 0, tiers: {}, keys };
}

/** The stats as plain data, keys sorted (comparing two folds). */
export function statsData(stats: OrderStats): Omit<OrderStats, 'keys'> & { keys: Record<string, Record<string, Cell>> } {
  const keys = [...stats.keys.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { ...stats, keys: Object.fromEntries(keys) };
}

/** The keys of a patch's paths: each path, each parent folder, each file kind; deduplicated. Pure. */
export function pathKeys(files: readonly string[]): string[] {
  const keys = new Set<string>();
  const n = Math.min(files.length, PATHS_PER_ROW);
  for (let i = 0; i < n; i++) {
    const path = files[i]!;
    keys.add(`p:${path}`);
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) keys.add(`d:${path.slice(0, at)}`);
    keys.add(`k:${kindOf(path)}`);
  }
  return [...keys];
}

/** A path's file kind: its extension (`.ts`), or its name when it has none (`Makefile`). */
export function kindOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : name;
}

const decay = (runs: number) => (runs <= 0 ? 1 : 2 ** (-runs / HALF_LIFE_RUNS));

/** A cell's counts as of run `seq`. */
function read(cell: Cell, seq: number): [number, number] {
  const d = decay(seq - cell[2]);
  return [cell[0] * d, cell[1] * d];
}

function bump(cell: Cell, seq: number, caught: number, weight: number): void {
  const d = decay(seq - cell[2]);
  cell[0] = cell[0] * d + caught * weight;
  cell[1] = cell[1] * d + weight;
  cell[2] = seq;
}

/** The fields of a row the fold reads. */
export interface OrderRow {
  run: string;
  tier: string;
  verdict: string;
  seconds: number;
  files?: readonly string[];
  hook?: string;
  calibration?: boolean;
  cached?: boolean;
  applied?: boolean;
  applicable?: boolean;
}

/** Whether a row says anything of what its tier catches (see the module's comment). */
export function countsForOrder(row: OrderRow): boolean {
  if (row.verdict !== 'pass' && row.verdict !== 'caught') return false;
  return row.cached !== true && row.hook !== 'seed' && row.applied !== false && row.applicable !== false;
}

/** Folds one ledger row into the stats (in ledger order). Mutates `stats`. */
export function foldRow(stats: OrderStats, row: OrderRow): void {
  if (row.run !== stats.lastRun) {
    stats.seq++;
    stats.lastRun = row.run;
  }
  if (row.calibration === true && row.run !== stats.lastCal) {
    stats.calRuns++;
    stats.lastCal = row.run;
  }
  if (!countsForOrder(row)) return;
  stats.rows++;
  const weight = row.calibration === true ? 1 : LADDER_WEIGHT;
  const caught = row.verdict === 'caught' ? 1 : 0;
  const t = (stats.tiers[row.tier] ??= { cell: [0, 0, stats.seq], secs: [] });
  bump(t.cell, stats.seq, caught, weight);
  if (caught === 0 && Number.isFinite(row.seconds)) {
    t.secs.push(row.seconds);
    if (t.secs.length > SECONDS_KEPT) t.secs.shift();
  }
  for (const key of pathKeys(row.files ?? [])) {
    const cells = stats.keys.edit(key);
    bump((cells[row.tier] ??= [0, 0, stats.seq]), stats.seq, caught, weight);
  }
}

/** What one tier's prediction rests on: trials (decayed, weighted) at each level, and the keys with history. */
export interface Evidence {
  /** The tier's own trials over every patch. */
  rows: number;
  paths: { trials: number; keys: string[] };
  folders: { trials: number; keys: string[] };
  kinds: { trials: number; keys: string[] };
}

export interface TierPrediction {
  tier: string;
  /** The predicted chance this tier catches the patch. */
  p: number;
  /** The median seconds of its recent passing runs (`null`: it never passed; priced as the dearest tier). */
  seconds: number | null;
  evidence: Evidence;
}

export interface OrderDecision {
  order: 'fixed' | 'predicted';
  /** The tier names in the order they run. */
  tiers: string[];
  /** Why this order (thin history, or the rule). */
  why: string;
  /** Each running tier's prediction, in the configured order (absent when the history is too thin). */
  predictions?: TierPrediction[];
  /** Calibration runs the history holds. */
  calibrationRuns: number;
}

/** How many keys the explanation names per level. */
const NAMED_KEYS = 3;

/** The median of a list of numbers (`null` for none). */
export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** m-estimate: counts shrunk toward a prior rate. */
const shrink = (c: number, n: number, prior: number) => (c + PRIOR_TRIALS * prior) / (n + PRIOR_TRIALS);

/**
 * Each tier's predicted catch chance for a patch touching `files`, and its expected seconds. Pure;
 * reads the stats as of their last run.
 */
export function predictTiers(stats: OrderStats, tiers: readonly string[], files: readonly string[]): TierPrediction[] {
  const seq = stats.seq;
  // All tiers' rate: what a tier with no history of its own is assumed to catch.
  let allC = 0;
  let allN = 0;
  for (const t of Object.values(stats.tiers)) {
    const [c, n] = read(t.cell, seq);
    allC += c;
    allN += n;
  }
  const allRate = (allC + 0.5) / (allN + 1);
  // The patch's keys, by level: kinds, folders by depth (shallowest first), paths.
  const found = new Map<string, Record<string, Cell>>();
  for (const k of pathKeys(files)) {
    const cells = stats.keys.get(k);
    if (cells !== undefined) found.set(k, cells);
  }
  const keys = [...found.keys()];
  const kinds = keys.filter((k) => k.startsWith('k:'));
  const paths = keys.filter((k) => k.startsWith('p:'));
  const byDepth = new Map<number, string[]>();
  for (const k of keys) {
    if (!k.startsWith('d:')) continue;
    const depth = k.split('/').length;
    const list = byDepth.get(depth) ?? [];
    list.push(k);
    byDepth.set(depth, list);
  }
  const folderLevels = [...byDepth.keys()].sort((a, b) => a - b).map((d) => byDepth.get(d)!);
  const costs = new Map<string, number | null>();
  for (const name of tiers) costs.set(name, median(stats.tiers[name]?.secs ?? []));
  return tiers.map((tier) => {
    const own = stats.tiers[tier];
    const [c0, n0] = own ? read(own.cell, seq) : [0, 0];
    let p = shrink(c0, n0, allRate);
    const pooled = (list: readonly string[]) => {
      let c = 0;
      let n = 0;
      const named: string[] = [];
      for (const k of list) {
        const cell = found.get(k)![tier];
        if (cell === undefined) continue;
        const [kc, kn] = read(cell, seq);
        c += kc;
        n += kn;
        if (kn > 0 && named.length < NAMED_KEYS) named.push(k.slice(2));
      }
      return { c, n, named };
    };
    const level = (list: readonly string[]) => {
      const x = pooled(list);
      if (x.n > 0) p = shrink(x.c, x.n, p);
      return x;
    };
    const k = level(kinds);
    let folderTrials = 0;
    const folderKeys: string[] = [];
    for (const list of folderLevels) {
      const x = level(list);
      folderTrials = Math.max(folderTrials, x.n);
      // The deepest folders named come first: the most specific evidence.
      folderKeys.unshift(...x.named);
    }
    const pa = level(paths);
    return {
      tier,
      p,
      seconds: costs.get(tier) ?? null,
      evidence: {
        rows: round(n0),
        paths: { trials: round(pa.n), keys: pa.named },
        folders: { trials: round(folderTrials), keys: folderKeys.slice(0, NAMED_KEYS) },
        kinds: { trials: round(k.n), keys: k.named },
      },
    };
  });
}

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * The order to run `tiers` (the running ones, in the configured order) for a patch: predicted catch
 * per expected second, descending (Smith's rule: the order that reaches the first catch soonest when
 * tiers fail independently). A tier that never passed is priced as the dearest one that did. Ties
 * keep the configured order. Below MIN_CALIBRATION_RUNS calibration runs: the configured order.
 */
export function predictOrder(stats: OrderStats, tiers: readonly string[], files: readonly string[]): OrderDecision {
  if (stats.calRuns < MIN_CALIBRATION_RUNS)
    return {
      order: 'fixed',
      tiers: [...tiers],
      why: `the ledger holds ${stats.calRuns} calibration run${stats.calRuns === 1 ? '' : 's'}; the predicted order needs ${MIN_CALIBRATION_RUNS}`,
      calibrationRuns: stats.calRuns,
    };
  const predictions = predictTiers(stats, tiers, files);
  const known = predictions.map((x) => x.seconds).filter((s): s is number => s !== null);
  const dearest = known.length > 0 ? Math.max(...known) : 1;
  const rate = (x: TierPrediction) => {
    const cost = x.seconds ?? dearest;
    return cost <= 0 ? (x.p > 0 ? Infinity : 0) : x.p / cost;
  };
  const order = predictions
    .map((x, i) => ({ x, i, r: rate(x) }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : b.r - a.r))
    .map((e) => e.x.tier);
  return {
    order: 'predicted',
    tiers: order,
    why: 'predicted catch per expected second, highest first',
    predictions,
    calibrationRuns: stats.calRuns,
  };
}

/**
 * Opt-in selection (config `select: { risk }`): the running tiers whose predicted catch is under
 * `risk` may be skipped; the residual risk is their chances summed (an upper bound on missing a
 * catch). Never every tier: the one most likely to catch always runs. Pure.
 */
export function selectSkips(predictions: readonly TierPrediction[], risk: number): { skip: string[]; residual: number } {
  const best = predictions.reduce<TierPrediction | undefined>((a, b) => (a === undefined || b.p > a.p ? b : a), undefined);
  const skip = predictions.filter((x) => x.p < risk && x !== best);
  return { skip: skip.map((x) => x.tier), residual: skip.reduce((s, x) => s + x.p, 0) };
}
