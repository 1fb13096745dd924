/** Per-test history: `tests.jsonl` beside the ledger, and pure folds over it. */
import { dirname, join } from 'node:path';
import { type ReadStats, readJsonl } from '../ledger/ledger.js';
import { type Eligibility, freezeEligible } from './freeze.js';
import type { FreezePolicy, LedgerRow, TestOutcome, TestRecord } from '../types.js';

/** Where per-test outcomes live: beside the ledger, so they are shared and never committed like it. */
export function testsPath(ledgerPath: string): string {
  return join(dirname(ledgerPath), 'tests.jsonl');
}

/** Sources whose failures are sensitivity evidence rather than history. */
export const EVIDENCE_SOURCES: readonly string[] = ['seed', 'stryker'];

/** The record of one tier's outcomes in one run, joinable with its ledger row on `run` + `tier`. Pure. */
export function testRecord(row: LedgerRow, tests: readonly TestOutcome[]): TestRecord {
  const by = { pass: [] as string[], fail: [] as string[], skip: [] as string[] };
  for (const t of tests) by[t.outcome].push(t.id);
  return {
    ts: row.ts,
    run: row.run,
    tier: row.tier,
    hook: row.hook,
    patch: row.patch,
    ...(row.source !== undefined && { source: row.source }),
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

export async function readTestRecords(path: string, stats?: ReadStats): Promise<TestRecord[]> {
  const out: TestRecord[] = [];
  for await (const rec of readJsonl(path, parseTestRecord, stats)) out.push(rec);
  return out;
}

export interface TestHistory {
  id: string;
  /** Pass (true) or fail (false) per run, in time order; seeded runs and skips excluded. */
  outcomes: boolean[];
  /** Seeded bugs caught plus mutants killed. */
  evidence: number;
}

/** Records (any order) to each test's history. Pure. */
export function foldHistory(records: readonly TestRecord[]): Map<string, TestHistory> {
  const sorted = [...records].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  const byId = new Map<string, TestHistory>();
  const get = (id: string) => {
    let h = byId.get(id);
    if (h === undefined) byId.set(id, (h = { id, outcomes: [], evidence: 0 }));
    return h;
  };
  for (const rec of sorted) {
    if (rec.source !== undefined && EVIDENCE_SOURCES.includes(rec.source)) {
      const kills = (rec.kills ?? {}) as Record<string, number>;
      for (const id of rec.fail) get(id).evidence += typeof kills[id] === 'number' ? kills[id] : 1;
      continue;
    }
    for (const id of rec.pass) get(id).outcomes.push(true);
    for (const id of rec.fail) get(id).outcomes.push(false);
  }
  return byId;
}

export interface FlakyRow extends Eligibility {
  id: string;
  evidence: number;
}

/** Every test with run history, judged by the seed's predicate; eligible first, then by flip rate. Pure. */
export function flakyRows(history: Map<string, TestHistory>, policy: Required<FreezePolicy>): FlakyRow[] {
  const rows: FlakyRow[] = [];
  for (const h of history.values()) {
    if (h.outcomes.length === 0) continue;
    rows.push({ id: h.id, evidence: h.evidence, ...freezeEligible(h.outcomes, h.evidence > 0, policy) });
  }
  return rows.sort(
    (a, b) =>
      Number(b.eligible) - Number(a.eligible) ||
      (b.flipRate ?? -1) - (a.flipRate ?? -1) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** Tests with evidence but no run history: usually an id that does not match. */
export function orphanEvidence(history: Map<string, TestHistory>): string[] {
  return [...history.values()].filter((h) => h.outcomes.length === 0 && h.evidence > 0).map((h) => h.id);
}
