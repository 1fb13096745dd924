/**
 * Per-test history as a pure fold: each tier's test outcomes, counted so that a flip means what it
 * says (the outcome changed on the same code), kept compact enough for a 150,000-test suite.
 * The files (`tests.jsonl`, `tests-history.json`) are read and written by history-store.ts.
 */
import { dirname, join } from 'node:path';
import { hash } from '../util/hash.js';
import { type Eligibility, freezeEligible } from './freeze.js';
import type { FreezePolicy, HookName } from '../types.js';
import type { LedgerRow } from '../ledger/row.js';
import type { ResolvedTier } from '../config/resolved.js';
import type { TestOutcome } from './junit.js';

/**
 * One line of `tests.jsonl` beside the ledger: one tier's per-test outcomes in one run, joinable with
 * the ledger rows on `run` + `tier`. `source: "seed"` / `"stryker"` lines are sensitivity evidence
 * (their `fail` tests caught a seeded bug or killed a mutant), never flakiness history.
 */
export interface TestRecord {
  ts: string;
  run: string;
  tier: string;
  hook: HookName;
  patch: string;
  source?: string;
  /** The tree the tier ran on (absent in records written before it was kept: `patch` stands for it). */
  tree?: string;
  /** A hash of the tier's command (history.ts `commandKey`): outcomes under another command are not the same code. */
  cmd?: string;
  /** 2 for a tier's retry (`retries: 1`). */
  attempt?: number;
  /** Ids that several test cases of the report shared (see junit.ts). */
  dup?: string[];
  /** Seed evidence: the seeded change (its parent's tree and its own), so a repeated seed credits nothing new. */
  change?: string;
  pass: string[];
  fail: string[];
  skip: string[];
  [extra: string]: unknown;
}

/** Where per-test outcomes live: beside the ledger, so they are shared and never committed like it. */
export function testsPath(ledgerPath: string): string {
  return join(dirname(ledgerPath), 'tests.jsonl');
}

/** Sources whose failures are sensitivity evidence rather than history. */
export const EVIDENCE_SOURCES: readonly string[] = ['seed', 'stryker'];

/** What a tier runs, as a hash: outcomes of the same tree under another command are not the same code. */
export function commandKey(tier: Pick<ResolvedTier, 'run' | 'env' | 'cwd' | 'runner' | 'junit'>): string {
  return hash(JSON.stringify([tier.run, tier.env, tier.cwd, tier.runner ?? null, tier.junit ?? null])).slice(0, 16);
}

/** The record of one tier's outcomes in one run, joinable with its ledger row on `run` + `tier`. Pure. */
export function testRecord(row: LedgerRow, tests: readonly TestOutcome[], extra: Partial<TestRecord> = {}): TestRecord {
  const by = { pass: [] as string[], fail: [] as string[], skip: [] as string[] };
  for (const t of tests) by[t.outcome].push(t.id);
  return {
    ts: row.ts,
    run: row.run,
    tier: row.tier,
    hook: row.hook,
    patch: row.patch,
    ...(row.source !== undefined && { source: row.source }),
    ...extra,
    ...by,
  };
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** One tests.jsonl value to a record; `undefined` when it is not one. Pure. */
export function parseTestRecord(value: unknown): TestRecord | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  if (typeof r.ts !== 'string' || typeof r.run !== 'string' || typeof r.tier !== 'string') return undefined;
  if (!isStrings(r.pass) || !isStrings(r.fail) || !isStrings(r.skip)) return undefined;
  return r as TestRecord;
}

/**
 * One test in one tier. A *same-code run* is a run on a code key (tree + tier command) the tier ran
 * before: a retry, a push of a tree already judged, a replay. Flips are counted only between a test's
 * outcomes on the same code key, so a test that caught a bug and passed once it was fixed never flips.
 */
export interface TestTally {
  runs: number;
  fails: number;
  /** Runs on a code key this tier had run before: the flip rate's denominator. */
  sameCodeRuns: number;
  flips: number;
  /** Code keys on which this test's last outcome was a failure (on every other key the tier ran, it passed). */
  failKeys?: Set<string>;
  /** Its id named more than one test case in some report: it names no one test. */
  ambiguous?: boolean;
}

interface TierHistory {
  /** Code keys seen, oldest first (a Map keeps insertion order), at most KEY_WINDOW of them. */
  keys: Map<string, true>;
  tests: Map<string, TestTally>;
}

export interface HistoryState {
  tiers: Map<string, TierHistory>;
  /** Test id → the seeded changes and killed mutants that give it sensitivity evidence (a set: a repeat adds nothing). */
  evidence: Map<string, Set<string>>;
  /** Seed records written before seeds were checked against their parent: not evidence. */
  legacySeeds: number;
  records: number;
  /** Read from the compact file: the log it folded (inode) and how many bytes of it (history-store.ts). */
  log?: { ino: number; bytes: number };
}

/**
 * How many code keys a tier remembers. A run on a tree older than that counts as a first run on it:
 * a same-code comparison lost, never a false flip.
 */
export const KEY_WINDOW = 256;

export function emptyHistory(): HistoryState {
  return { tiers: new Map(), evidence: new Map(), legacySeeds: 0, records: 0 };
}

/** The code a record's outcomes came from: its tree (else its commit) under its tier's command. */
export function codeKey(rec: Pick<TestRecord, 'patch' | 'tree' | 'cmd'>): string {
  return `${typeof rec.tree === 'string' ? rec.tree : rec.patch}:${typeof rec.cmd === 'string' ? rec.cmd : ''}`;
}

function addEvidence(state: HistoryState, id: string, key: string): void {
  let set = state.evidence.get(id);
  if (set === undefined) state.evidence.set(id, (set = new Set()));
  set.add(key);
}

/** Folds one record into the history (records in the order they were recorded). Pure but for `state`. */
export function addRecord(state: HistoryState, rec: TestRecord): void {
  state.records++;
  if (rec.source !== undefined && EVIDENCE_SOURCES.includes(rec.source)) {
    if (rec.source === 'seed') {
      // Before seeds were checked against their parent, every failing test was credited: not evidence.
      if (typeof rec.change !== 'string') {
        state.legacySeeds++;
        return;
      }
      for (const id of rec.fail) addEvidence(state, id, `seed:${rec.change}`);
      return;
    }
    const keys = (rec.keys ?? {}) as Record<string, unknown>;
    const kills = (rec.kills ?? {}) as Record<string, unknown>;
    for (const id of rec.fail) {
      const own = keys[id];
      if (isStrings(own)) for (const k of own) addEvidence(state, id, `stryker:${k}`);
      else {
        const n = typeof kills[id] === 'number' ? (kills[id] as number) : 1;
        for (let i = 0; i < n; i++) addEvidence(state, id, `stryker:${rec.run}:${i}`);
      }
    }
    return;
  }
  let tier = state.tiers.get(rec.tier);
  if (tier === undefined) state.tiers.set(rec.tier, (tier = { keys: new Map(), tests: new Map() }));
  const key = codeKey(rec);
  const seen = tier.keys.has(key);
  const dup = Array.isArray(rec.dup) && rec.dup.length > 0 ? new Set(rec.dup as string[]) : undefined;
  const tests = tier.tests;
  const outcome = (id: string, pass: boolean) => {
    let t = tests.get(id);
    if (t === undefined) tests.set(id, (t = { runs: 0, fails: 0, sameCodeRuns: 0, flips: 0 }));
    t.runs++;
    if (dup?.has(id)) t.ambiguous = true;
    const lastFailed = t.failKeys?.has(key) === true;
    if (seen) {
      t.sameCodeRuns++;
      if (lastFailed === pass) t.flips++;
    }
    if (pass) {
      if (lastFailed) t.failKeys!.delete(key);
    } else {
      t.fails++;
      (t.failKeys ??= new Set()).add(key);
    }
  };
  for (const id of rec.pass) outcome(id, true);
  for (const id of rec.fail) outcome(id, false);
  if (seen) tier.keys.delete(key);
  tier.keys.set(key, true);
  if (tier.keys.size > KEY_WINDOW) tier.keys.delete(tier.keys.keys().next().value as string);
}

/** Records (any order) to the history, folded in time order. Pure. */
export function foldHistory(records: readonly TestRecord[], state: HistoryState = emptyHistory()): HistoryState {
  const sorted = [...records].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  for (const rec of sorted) addRecord(state, rec);
  return state;
}

// ── the compact file: tests-history.json ─────────────────────────────────────────────────────────
// Test ids are keys of Maps in memory and entries of arrays on disk: an id such as `constructor` or
// `__proto__` is an ordinary string either way.

export const HISTORY_FORMAT = 2;

/**
 * One tier on disk, by column: test `i` is `ids[i]`, with `runs[i]` runs, `fails[i]` failures,
 * `same[i]` same-code runs and `flips[i]` flips. Columns of numbers parse several times faster than
 * an array per test. `fail_keys` lists `[i, keys]` for tests whose last outcome on some key was a
 * failure; `ambiguous` lists the `i` of ids that named several test cases.
 */
interface TierColumns {
  tier: string;
  keys: string[];
  ids: string[];
  runs: number[];
  fails: number[];
  same: number[];
  flips: number[];
  fail_keys: [number, string[]][];
  ambiguous: number[];
}

interface HistoryFile {
  format: number;
  log_ino?: number;
  log_bytes?: number;
  records: number;
  legacy_seeds: number;
  tiers: TierColumns[];
  evidence: [string, string[]][];
}

/** The history as the compact file's JSON text. Keys that left the window are dropped from the tallies. Pure. */
export function serializeHistory(state: HistoryState, log?: { ino: number; bytes: number }): string {
  const file: HistoryFile = {
    format: HISTORY_FORMAT,
    ...(log && { log_ino: log.ino, log_bytes: log.bytes }),
    records: state.records,
    legacy_seeds: state.legacySeeds,
    tiers: [],
    evidence: [],
  };
  for (const [name, tier] of state.tiers) {
    const c: TierColumns = {
      tier: name,
      keys: [...tier.keys.keys()],
      ids: [],
      runs: [],
      fails: [],
      same: [],
      flips: [],
      fail_keys: [],
      ambiguous: [],
    };
    let i = 0;
    for (const [id, t] of tier.tests) {
      c.ids.push(id);
      c.runs.push(t.runs);
      c.fails.push(t.fails);
      c.same.push(t.sameCodeRuns);
      c.flips.push(t.flips);
      if (t.failKeys) {
        const keys = [...t.failKeys].filter((k) => tier.keys.has(k));
        if (keys.length > 0) c.fail_keys.push([i, keys]);
      }
      if (t.ambiguous) c.ambiguous.push(i);
      i++;
    }
    file.tiers.push(c);
  }
  for (const [id, keys] of state.evidence) file.evidence.push([id, [...keys]]);
  return `${JSON.stringify(file)}\n`;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isNums = (v: unknown, n: number): v is number[] => Array.isArray(v) && v.length === n;

/** The compact file's text to a history; `undefined` when it is not one (then the caller starts afresh and says so). Pure. */
export function parseHistory(text: string): HistoryState | undefined {
  let f: HistoryFile;
  try {
    f = JSON.parse(text) as HistoryFile;
  } catch {
    return undefined;
  }
  if (f === null || typeof f !== 'object' || f.format !== HISTORY_FORMAT || !Array.isArray(f.tiers) || !Array.isArray(f.evidence))
    return undefined;
  const state = emptyHistory();
  state.records = isNum(f.records) ? f.records : 0;
  state.legacySeeds = isNum(f.legacy_seeds) ? f.legacy_seeds : 0;
  if (isNum(f.log_ino) && isNum(f.log_bytes)) state.log = { ino: f.log_ino, bytes: f.log_bytes };
  for (const c of f.tiers) {
    if (c === null || typeof c.tier !== 'string' || !isStrings(c.keys) || !Array.isArray(c.ids)) return undefined;
    const n = c.ids.length;
    if (
      !isNums(c.runs, n) ||
      !isNums(c.fails, n) ||
      !isNums(c.same, n) ||
      !isNums(c.flips, n) ||
      !Array.isArray(c.fail_keys) ||
      !Array.isArray(c.ambiguous)
    )
      return undefined;
    const list: TestTally[] = new Array(n);
    const tests = new Map<string, TestTally>();
    for (let i = 0; i < n; i++) {
      const t: TestTally = { runs: c.runs[i]!, fails: c.fails[i]!, sameCodeRuns: c.same[i]!, flips: c.flips[i]! };
      list[i] = t;
      tests.set(c.ids[i]!, t);
    }
    for (const e of c.fail_keys) {
      const t = Array.isArray(e) ? list[e[0]] : undefined;
      if (t !== undefined && isStrings(e[1])) t.failKeys = new Set(e[1]);
    }
    for (const i of c.ambiguous) {
      const t = list[i];
      if (t !== undefined) t.ambiguous = true;
    }
    state.tiers.set(c.tier, { keys: new Map(c.keys.map((k) => [k, true])), tests });
  }
  for (const e of f.evidence) {
    if (!Array.isArray(e) || typeof e[0] !== 'string' || !isStrings(e[1])) return undefined;
    state.evidence.set(e[0], new Set(e[1]));
  }
  return state;
}

// ── what `flaky` shows ─────────────────────────────────────────────────────────────────────────────

export interface FlakyRow extends Eligibility {
  tier: string;
  id: string;
  evidence: number;
  fails: number;
  ambiguous: boolean;
}

export function evidenceOf(state: HistoryState, id: string): number {
  return state.evidence.get(id)?.size ?? 0;
}

/** Every test with run history in every tier, judged by the freeze predicate; eligible first, then by flip rate. Pure. */
export function flakyRows(state: HistoryState, policy: Required<FreezePolicy>): FlakyRow[] {
  const rows: FlakyRow[] = [];
  for (const [tier, h] of state.tiers) {
    for (const [id, t] of h.tests) {
      if (t.runs === 0) continue;
      const evidence = state.evidence.get(id)?.size ?? 0;
      const ambiguous = t.ambiguous === true;
      const e = freezeEligible({ runs: t.runs, fails: t.fails, sameCodeRuns: t.sameCodeRuns, flips: t.flips, evidence, ambiguous }, policy);
      // One shape for every row (no spread): a 150,000-test suite sorts and prints these.
      rows.push({
        tier,
        id,
        evidence,
        fails: t.fails,
        ambiguous,
        runs: e.runs,
        flips: e.flips,
        flipRate: e.flipRate,
        sameCodeRuns: e.sameCodeRuns,
        broken: e.broken,
        eligible: e.eligible,
        reason: e.reason,
      });
    }
  }
  // Eligible first, then by flip rate (highest first), then by id and tier: the numbers decide most pairs.
  const rank = (r: FlakyRow) => (r.eligible ? 2 : 0) + (r.flipRate ?? -1);
  return rows.sort((a, b) => rank(b) - rank(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : a.tier < b.tier ? -1 : a.tier > b.tier ? 1 : 0));
}

/** Tests with evidence but no run history in any tier: usually an id that does not match. Pure. */
export function orphanEvidence(state: HistoryState): string[] {
  const known = new Set<string>();
  for (const h of state.tiers.values()) for (const id of h.tests.keys()) known.add(id);
  return [...state.evidence.keys()].filter((id) => !known.has(id));
}

/** Every (tier, id) with run history. Pure. */
export function knownTests(state: HistoryState): { tier: string; id: string; tally: TestTally }[] {
  const out: { tier: string; id: string; tally: TestTally }[] = [];
  for (const [tier, h] of state.tiers) for (const [id, tally] of h.tests) if (tally.runs > 0) out.push({ tier, id, tally });
  return out;
}
