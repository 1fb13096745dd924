/**
 * Whether a row fetched from another origin's ref could have been written by a gate run: anyone with
 * push rights on the remote can write any ref, so a row is counted only when every field is one a run
 * writes (known verdict and hook, seconds within the tier's timeout, well-formed ids, shas and time, failed
 * tests within the bounds a row keeps).
 * A refused row is counted per origin, never read. Pure.
 */

import { MAX_FAILED_PER_ROW, MAX_FAILED_TESTS_PER_ROW } from '../config/defaults.js';

/** The bound on a row's seconds when this clone's config does not name its tier (a day: no gate runs longer). */
export const UNKNOWN_TIER_MAX_S = 24 * 60 * 60;
/** What a run may take past its tier's timeout: the kill of its process tree and the wait for its pipes. */
export const TIMEOUT_GRACE_S = 60;
/** How far in the future a row's time may be (clocks differ; a year ahead is not a clock). */
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

export interface RowLimits {
  /** Each tier's timeout in seconds, from this clone's config. */
  timeouts: ReadonlyMap<string, number>;
  /** Now, in ms since the epoch. */
  now: number;
}

const HOOKS = new Set(['pre-push', 'pre-commit', 'manual', 'replay', 'seed', 'judge']);
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max && !CONTROL.test(v);
const optional = (v: unknown, ok: (x: unknown) => boolean) => v === undefined || ok(v);
const isBool = (v: unknown) => typeof v === 'boolean';
const isString = (v: unknown) => typeof v === 'string';
const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isFraction = (v: unknown, max: number) => typeof v === 'number' && v >= 0 && v <= max;
const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** A pushed commit, a staged tree, or a replayed patch file (`<name>@<12 hex>`). */
function isPatch(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  return v === '' || SHA.test(v) || (v.length <= 300 && !CONTROL.test(v) && /@[0-9a-f]{12}$/.test(v));
}

/** The longest a row of `tier` may take: its timeout (twice, when the row says the tier ran again: `retries: 1`) and the grace. */
export function secondsBound(tier: string, limits: RowLimits, attempts = 1): number {
  const timeout = limits.timeouts.get(tier);
  return timeout === undefined ? UNKNOWN_TIER_MAX_S * attempts : (timeout + TIMEOUT_GRACE_S) * attempts;
}

/** Why a row from `origin`'s ref is refused, or `undefined` when it may be counted. */
export function refuseRow(row: Record<string, unknown>, origin: string, limits: RowLimits): string | undefined {
  if (row.origin !== undefined && row.origin !== origin) return 'names another origin';
  if (row.verdict !== 'pass' && row.verdict !== 'caught' && row.verdict !== 'error') return 'unknown verdict';
  if (!isText(row.tier, 200) || row.tier === '') return 'malformed tier';
  const s = row.seconds;
  if (typeof s !== 'number' || !Number.isFinite(s) || s < 0) return 'malformed seconds';
  if (s > secondsBound(row.tier, limits, row.retried !== undefined ? 2 : 1))
    return limits.timeouts.has(row.tier) ? "seconds beyond the tier's timeout" : 'seconds beyond a day';
  if (typeof row.run !== 'string' || !RUN_ID.test(row.run)) return 'malformed run id';
  if (!isPatch(row.patch)) return 'malformed patch';
  if (!optional(row.base, (b) => b === null || (typeof b === 'string' && SHA.test(b)))) return 'malformed base';
  if (typeof row.ts !== 'string' || !ISO.test(row.ts) || Number.isNaN(Date.parse(row.ts))) return 'malformed time';
  if (Date.parse(row.ts) > limits.now + FUTURE_SLACK_MS) return 'time in the future';
  if (!optional(row.hook, (h) => typeof h === 'string' && HOOKS.has(h))) return 'unknown hook';
  if (!optional(row.exit, (e) => e === null || (typeof e === 'number' && Number.isSafeInteger(e)))) return 'malformed exit';
  if (
    !optional(row.files, isStrings) ||
    !optional(row.skipped, isStrings) ||
    !optional(row.skipped_by_env, isStrings) ||
    !optional(row.skipped_by_select, isStrings)
  )
    return 'malformed path list';
  if (!optional(row.order, (o) => o === 'fixed' || o === 'predicted')) return 'malformed order';
  if (!optional(row.order_why, (o) => o === 'config' || o === 'calibration' || o === 'history')) return 'malformed order_why';
  if (!optional(row.position, (x) => isCount(x) && (x as number) >= 1)) return 'malformed position';
  if (!optional(row.p, (x) => isFraction(x, 1))) return 'malformed p';
  // A sum of the skipped tiers' chances, each under a risk of at most 0.5.
  if (!optional(row.residual_risk, (x) => isFraction(x, 1000))) return 'malformed residual_risk';
  if (!optional(row.files_count, isCount)) return 'malformed files_count';
  for (const f of ['routed', 'cached', 'calibration', 'applied', 'applicable'] as const)
    if (!optional(row[f], isBool)) return `malformed ${f}`;
  if (!optional(row.retried, (r) => r !== null && typeof r === 'object' && !Array.isArray(r))) return 'malformed retried';
  const failed = failedRefusal(row);
  if (failed !== undefined) return failed;
  for (const f of ['reason', 'runner', 'source', 'ref', 'isolation', 'isolate', 'cache_run', 'config_hash'] as const)
    if (!optional(row[f], isString)) return `malformed ${f}`;
  return undefined;
}

/** A test id as a run writes it: a string of bounded length (a runner's output may hold control characters, escaped when shown). */
const isTestId = (v: unknown) => typeof v === 'string' && v !== '' && v.length <= MAX_TEST_ID;
const MAX_TEST_ID = 4000;

/** A `failed_tests` entry as run/rows.ts writes it: an id, a message's first line, a repository-relative file and a line. */
function isFailedTest(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const t = v as Record<string, unknown>;
  return (
    isTestId(t.id) &&
    typeof t.message === 'string' &&
    t.message.length <= 400 &&
    optional(t.file, (f) => typeof f === 'string' && f.length <= 4096) &&
    optional(t.line, (l) => isCount(l) && (l as number) >= 1)
  );
}

/** Why a row's failed tests are not what a run writes: `failed` (at most MAX_FAILED_PER_ROW ids), `failed_total`, `failed_tests`, `frozen`. */
function failedRefusal(row: Record<string, unknown>): string | undefined {
  const ids = (v: unknown, max: number) => Array.isArray(v) && v.length <= max && v.every(isTestId);
  if (!optional(row.failed, (v) => ids(v, MAX_FAILED_PER_ROW))) return 'malformed failed';
  if (!optional(row.failed_total, (v) => isCount(v) && (v as number) > (Array.isArray(row.failed) ? row.failed.length : 0)))
    return 'malformed failed_total';
  if (!optional(row.failed_tests, (v) => Array.isArray(v) && v.length <= MAX_FAILED_TESTS_PER_ROW && v.every(isFailedTest)))
    return 'malformed failed_tests';
  if (!optional(row.frozen, (v) => ids(v, Number.MAX_SAFE_INTEGER))) return 'malformed frozen';
  return undefined;
}

/** Why a per-test record from `origin`'s ref is refused, or `undefined`. */
export function refuseTestRecord(rec: Record<string, unknown>, origin: string): string | undefined {
  if (rec.origin !== undefined && rec.origin !== origin) return 'names another origin';
  if (typeof rec.run !== 'string' || !RUN_ID.test(rec.run)) return 'malformed run id';
  if (!isText(rec.tier, 200) || rec.tier === '') return 'malformed tier';
  if (!isStrings(rec.pass) || !isStrings(rec.fail)) return 'malformed test lists';
  return undefined;
}

/** Refused rows of each origin: how many, and how many for each reason. */
export type Refusals = Record<string, { rows: number; reasons: Record<string, number> }>;

/** Counts one refusal. */
export function countRefusal(into: Refusals, origin: string, reason: string): void {
  const o = (into[origin] ??= { rows: 0, reasons: {} });
  o.rows++;
  o.reasons[reason] = (o.reasons[reason] ?? 0) + 1;
}

/** The most frequent reason of an origin's refusals. */
export function mainReason(r: { reasons: Record<string, number> }): string {
  return Object.entries(r.reasons).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? '';
}
