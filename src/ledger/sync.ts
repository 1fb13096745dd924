/**
 * `gate-ladder sync`: ledger rows through the git remote. Each origin (a clone, or a CI job) owns
 * one ref, `refs/gate-ladder/ledgers/<origin>`: a commit whose tree holds `ledger.jsonl` and
 * `tests.jsonl`, every row that origin ever wrote. A sync fetches every origin's ref into
 * `refs/gate-ladder/remotes/<remote>/`, pushes this origin's ref as a fast-forward of what it fetched
 * (so nothing pushed before is lost; a push that lost a race with another sync of this origin is
 * tried again), and rebuilds the team files beside the ledger from the other origins' rows that pass
 * src/ledger/row-check.ts (refused ones counted per origin). The local ledger is written only by
 * `restore`. Branches, tags and the remote's configured refspecs
 * are never touched.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from '../util/node.js';
import { dirname, join } from 'node:path';
import { git } from '../git/git.js';
import { newRows, rowKey, stamp, testRecordKey } from './identity.js';
import { appendLines, forEachRow, parseRow, readJsonl, testLogFiles } from './ledger.js';
import { countRefusal, type Refusals, type RowLimits, refuseRow, refuseTestRecord } from './row-check.js';
import { teamLedgerPath, teamTestsPath, writeRefusals } from './team.js';
import type { LedgerRow } from './row.js';

export const LEDGER_REFS = 'refs/gate-ladder/ledgers/';

export interface SyncPaths {
  root: string;
  ledger: string;
  tests: string;
  commonDir: string;
}

export interface SyncResult {
  ok: true;
  origin: string;
  /** Rows of this origin the remote lacked, now pushed. */
  pushed: number;
  /** Rows of this origin's ref added to the local ledger (`--restore` only). */
  restored: number;
  /** Rows of this origin's ref the local ledger lacks, left out (no `--restore`). */
  notRestored: number;
  /** The first and last time of the restored rows. */
  restoredSpan?: [string, string];
  /** Rows and origins of the team files now. */
  teamRows: number;
  origins: number;
  /** Unreadable lines in other origins' rows: skipped, counted. */
  skipped: number;
  /** Rows refused (src/ledger/row-check.ts), per origin. */
  refused: Refusals;
}

export interface SyncFailure {
  ok: false;
  /** `fetch` (unreachable, not a repository), `push` (refused: permissions, a hosting rule) or `race` (other syncs of this origin kept moving its ref). */
  stage: 'fetch' | 'push' | 'race';
  detail: string;
}

/** This clone's origin id, made once and kept in the git common dir; `override` (a CI job's) wins. */
export function originId(commonDir: string, override?: string): string {
  if (override) return override;
  const file = join(commonDir, 'gate-ladder', 'origin');
  try {
    const id = readFileSync(file, 'utf8').trim();
    if (id) return id;
  } catch {
    // made below
  }
  const id = `clone-${randomBytes(6).toString('hex')}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${id}\n`, { flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
}

/** A remote name or URL as one ref path component. */
function remoteSlot(remote: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(remote) && !remote.includes('..') && !remote.endsWith('.lock')
    ? remote
    : `url-${Buffer.from(remote).toString('hex').slice(0, 40)}`;
}

const lastLine = (text: string) => text.trim().split('\n').filter(Boolean).pop() ?? 'no reason given';

function lines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

/** Every line of the file as JSON (the caller keeps what its parser accepts). */
async function jsonLines(path: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const v of readJsonl(path, (x) =>
    x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined,
  ))
    out.push(v);
  return out;
}

const isTestRecord = (v: Record<string, unknown>) =>
  typeof v.run === 'string' && typeof v.tier === 'string' && Array.isArray(v.pass) && Array.isArray(v.fail);

/** Writes a file whole or not at all. */
function writeWhole(path: string, rows: readonly unknown[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  renameSync(tmp, path);
}

function blob(root: string, commit: string, name: string): string {
  const r = git(root, ['cat-file', 'blob', `${commit}:${name}`]);
  return r.ok ? r.stdout : '';
}

export interface SyncOptions {
  /** Add the rows of this origin's ref that the local ledger lacks (`sync --restore`); otherwise they are only counted. */
  restore?: boolean;
  /** Bounds for other origins' rows (each tier's timeout, now). */
  limits: RowLimits;
}

/** Pushes of this origin's ref tried before a sync gives up on a race with another sync of the same origin. */
const PUSH_TRIES = 8;

const testKey = (t: Record<string, unknown>) => testRecordKey(t as { run: unknown; tier: unknown; patch: unknown });

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(line) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The remote's sha of `ref`, `''` when it has none, `undefined` when the remote cannot be asked. */
function remoteSha(root: string, remote: string, ref: string): string | undefined {
  const r = git(root, ['ls-remote', remote, ref]);
  if (!r.ok) return undefined;
  return (r.stdout.split('\n').find((l) => l.endsWith(`\t${ref}`)) ?? '').split('\t')[0] ?? '';
}

/** A push git refused because another push of the ref got there first (git's words for it). */
const RACE =
  /non-fast-forward|fetch first|stale info|cannot lock ref|failed to lock|unable to (?:create|lock)|incorrect old value|reference already exists|but expected/i;

/** One origin's ref as fetched: its commit and the origin it belongs to. */
interface OriginRef {
  sha: string;
  origin: string;
}

/** This origin's rows (or test records): the remote's, the local keys, what the local file lacks, what the remote lacks. */
interface OwnRows<T> {
  remote: T[];
  localKeys: Set<string>;
  lacking: T[];
  fresh: T[];
}

/**
 * One sync against `remote`. Refusals are data; nothing local changes before the fetch succeeds.
 * This clone's ledger gains rows only with `restore`: whoever can push to the remote can write this
 * origin's ref too, so what it holds is counted and named, never taken on trust.
 */
export async function syncLedger(p: SyncPaths, remote: string, origin: string, opts: SyncOptions): Promise<SyncResult | SyncFailure> {
  const slot = `refs/gate-ladder/remotes/${remoteSlot(remote)}/`;
  for (let attempt = 1; ; attempt++) {
    const refs = fetchRefs(p.root, remote, slot);
    if (!Array.isArray(refs)) return refs;
    const own = refs.find((r) => r.origin === origin);
    const rows = await ownLedgerRows(p, own, origin);
    const tests = await ownTestRecords(p, own, origin);
    if (rows.fresh.length > 0 || tests.fresh.length > 0) {
      const pushed = pushOwn(p.root, remote, slot, origin, own, rows, tests, attempt);
      if (pushed === 'again') {
        await new Promise((done) => setTimeout(done, 20 * attempt + Math.floor(Math.random() * 100 * attempt)));
        continue;
      }
      if (pushed !== undefined) return pushed;
    }
    const refused: Refusals = {};
    // Rows of this origin's ref the local ledger lacks: added only when asked, and checked like anyone's.
    const restored = opts.restore === true ? restoreLacking(p, origin, opts.limits, rows, tests, refused) : { rows: [], tests: [] };
    const team = writeTeamFiles(p, refs, origin, opts.limits, refused, {
      rows: new Set([...rows.localKeys, ...restored.rows.map(rowKey)]),
      tests: new Set([...tests.localKeys, ...restored.tests.map(testKey)]),
    });
    writeRefusals(p.ledger, refused);
    return {
      ok: true,
      origin,
      pushed: rows.fresh.length,
      restored: restored.rows.length,
      ...(restored.rows.length > 0 && { restoredSpan: span(restored.rows) }),
      notRestored: opts.restore === true ? 0 : rows.lacking.length,
      ...team,
      refused,
    };
  }
}

/** Every origin's ref fetched into this remote's slot, or why the fetch failed. */
function fetchRefs(root: string, remote: string, slot: string): OriginRef[] | SyncFailure {
  const fetch = git(root, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--force', remote, `+${LEDGER_REFS}*:${slot}*`]);
  if (!fetch.ok) return { ok: false, stage: 'fetch', detail: lastLine(fetch.stderr) };
  return lines(git(root, ['for-each-ref', '--format=%(objectname) %(refname)', slot]).stdout).map((l) => {
    const [sha = '', name = ''] = l.split(' ');
    return { sha, origin: name.slice(slot.length) };
  });
}

/** This origin's ledger rows: what the remote holds first (so nothing pushed before is lost), then the local ones it lacks. */
async function ownLedgerRows(p: SyncPaths, own: OriginRef | undefined, origin: string): Promise<OwnRows<LedgerRow>> {
  const seen = new Set<string>();
  const remoteRows = own
    ? lines(blob(p.root, own.sha, 'ledger.jsonl'))
        .map(parseRow)
        .filter((r): r is LedgerRow => r !== undefined)
    : [];
  for (const r of remoteRows) seen.add(rowKey(r));
  const localKeys = new Set<string>();
  const localOwn: LedgerRow[] = [];
  await forEachRow(p.ledger, { rows: 0, skipped: 0 }, (row) => {
    localKeys.add(rowKey(row));
    if (row.origin === undefined || row.origin === origin) localOwn.push(row);
  });
  const lacking = remoteRows.filter((r) => !localKeys.has(rowKey(r)));
  const fresh = newRows(
    localOwn.map((r) => stamp(r, origin)),
    seen,
    rowKey,
  ).added;
  return { remote: remoteRows, localKeys, lacking, fresh };
}

/** This origin's per-test records, as its ledger rows are. */
async function ownTestRecords(p: SyncPaths, own: OriginRef | undefined, origin: string): Promise<OwnRows<Record<string, unknown>>> {
  const remoteTestRecs = (own ? lines(blob(p.root, own.sha, 'tests.jsonl')) : []).flatMap((l) => {
    const v = parseObject(l);
    return v !== undefined && isTestRecord(v) ? [v] : [];
  });
  const testSeen = new Set(remoteTestRecs.map(testKey));
  // Every record this clone wrote: the log and what compaction archived (a compacted record is still this clone's).
  const localTests = (await Promise.all(testLogFiles(p.tests).map(jsonLines))).flat();
  const localKeys = new Set(localTests.map(testKey));
  const lacking = remoteTestRecs.filter((t) => !localKeys.has(testKey(t)));
  const ownTests = localTests.filter((t) => isTestRecord(t) && (t.origin === undefined || t.origin === origin));
  const fresh = newRows(
    ownTests.map((t) => stamp(t, origin)),
    testSeen,
    testKey,
  ).added;
  return { remote: remoteTestRecs, localKeys, lacking, fresh };
}

/**
 * This origin's ref pushed as a fast-forward of what was fetched: undefined when it was, `again` when
 * another sync of this origin got there first and there are tries left, else why it was refused.
 */
function pushOwn(
  root: string,
  remote: string,
  slot: string,
  origin: string,
  own: OriginRef | undefined,
  rows: OwnRows<LedgerRow>,
  tests: OwnRows<Record<string, unknown>>,
  attempt: number,
): SyncFailure | 'again' | undefined {
  const mine = `${LEDGER_REFS}${origin}`;
  const ledgerText = [...rows.remote, ...rows.fresh].map((r) => `${JSON.stringify(r)}\n`).join('');
  const testsText = [...tests.remote, ...tests.fresh].map((r) => `${JSON.stringify(r)}\n`).join('');
  const commit = makeCommit(root, ledgerText, testsText, origin, own?.sha);
  const push = git(root, ['push', '--quiet', '--no-verify', '--porcelain', remote, `${commit}:${mine}`]);
  if (push.ok) {
    git(root, ['update-ref', `${slot}${origin}`, commit]);
    return undefined;
  }
  const said = `${push.stdout}\n${push.stderr}`;
  // Another sync of this origin got there first (the ref moved since the fetch, or git says so): fetch again and build on it.
  const now = RACE.test(said) ? undefined : remoteSha(root, remote, mine);
  const raced = now === undefined ? RACE.test(said) : now !== (own?.sha ?? '');
  if (raced && attempt < PUSH_TRIES) return 'again';
  const detail = lastLine(
    said
      .split('\n')
      .filter((l) => !/^(To |Done$)/.test(l))
      .join('\n'),
  );
  return { ok: false, stage: raced ? 'race' : 'push', detail };
}

/** `--restore`: this origin's rows and records the local files lack, checked like anyone's, appended. */
function restoreLacking(
  p: SyncPaths,
  origin: string,
  limits: RowLimits,
  rows: OwnRows<LedgerRow>,
  tests: OwnRows<Record<string, unknown>>,
  refused: Refusals,
): { rows: LedgerRow[]; tests: Record<string, unknown>[] } {
  const restored = rows.lacking.filter((r) => {
    const why = refuseRow(r, origin, limits);
    if (why !== undefined) countRefusal(refused, origin, why);
    return why === undefined;
  });
  const restoredTests = tests.lacking.filter((t) => refuseTestRecord(t, origin) === undefined);
  appendLines(p.ledger, restored);
  appendLines(p.tests, restoredTests);
  return { rows: restored, tests: restoredTests };
}

/** The team files rebuilt from the other origins' rows and records that pass the checks and are not this clone's already. */
function writeTeamFiles(
  p: SyncPaths,
  refs: readonly OriginRef[],
  origin: string,
  limits: RowLimits,
  refused: Refusals,
  seen: { rows: Set<string>; tests: Set<string> },
): { teamRows: number; origins: number; skipped: number } {
  const teamRows: unknown[] = [];
  const teamTests: unknown[] = [];
  const origins = new Set<string>();
  let skipped = 0;
  for (const ref of refs) {
    if (ref.origin === origin) continue;
    for (const line of lines(blob(p.root, ref.sha, 'ledger.jsonl'))) {
      const v = parseObject(line);
      if (v === undefined) {
        skipped++;
        continue;
      }
      const why = refuseRow(v, ref.origin, limits);
      if (why !== undefined) {
        countRefusal(refused, ref.origin, why);
        continue;
      }
      const row = v as unknown as LedgerRow;
      const k = rowKey(row);
      if (seen.rows.has(k)) continue;
      seen.rows.add(k);
      teamRows.push({ ...row, origin: ref.origin });
      origins.add(ref.origin);
    }
    for (const line of lines(blob(p.root, ref.sha, 'tests.jsonl'))) {
      const v = parseObject(line);
      if (v === undefined || !isTestRecord(v) || refuseTestRecord(v, ref.origin) !== undefined) continue;
      const k = testKey(v);
      if (seen.tests.has(k)) continue;
      seen.tests.add(k);
      teamTests.push({ ...v, origin: ref.origin });
    }
  }
  writeWhole(teamLedgerPath(p.ledger), teamRows);
  writeWhole(teamTestsPath(p.ledger), teamTests);
  return { teamRows: teamRows.length, origins: origins.size, skipped };
}

/** The earliest and latest `ts` of rows (checked rows: each has one). */
function span(rows: readonly LedgerRow[]): [string, string] {
  const ts = rows.map((r) => String(r.ts)).sort();
  return [ts[0]!, ts[ts.length - 1]!];
}

/** This clone's stored origin id, without making one (a report must not write). */
export function storedOriginId(commonDir: string): string | undefined {
  try {
    return readFileSync(join(commonDir, 'gate-ladder', 'origin'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A commit of the two files, on top of what the remote held for this origin. */
function makeCommit(root: string, ledgerText: string, testsText: string, origin: string, parent: string | undefined): string {
  const ok = (args: string[], input?: string) => {
    const r = git(root, args, input ?? '');
    if (!r.ok) throw new Error(`git ${args[0]}: ${lastLine(r.stderr)}`);
    return r.stdout.trim();
  };
  const ledgerBlob = ok(['hash-object', '-w', '--stdin'], ledgerText);
  const testsBlob = ok(['hash-object', '-w', '--stdin'], testsText);
  const tree = ok(['mktree'], `100644 blob ${ledgerBlob}\tledger.jsonl\n100644 blob ${testsBlob}\ttests.jsonl\n`);
  const id = ['-c', 'user.name=gate-ladder', '-c', 'user.email=gate-ladder@localhost'];
  return ok([...id, 'commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', `gate-ladder ledger of ${origin}`]);
}
