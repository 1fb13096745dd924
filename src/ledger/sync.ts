/**
 * `gate-ladder sync`: ledger rows through the git remote. Each origin (a clone, or a CI job) owns
 * one ref, `refs/gate-ladder/ledgers/<origin>`: a commit whose tree holds `ledger.jsonl` and
 * `tests.jsonl`, every row that origin ever wrote. A sync fetches every origin's ref into
 * `refs/gate-ladder/remotes/<remote>/`, takes back this origin's rows the local ledger lacks, pushes
 * this origin's ref as a fast-forward of what it fetched (so nothing pushed before is lost), and
 * rebuilds the team files beside the ledger. Branches, tags and the remote's configured refspecs
 * are never touched.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git } from '../git/git.js';
import { newRows, rowKey, stamp, testRecordKey } from './identity.js';
import { appendLines, forEachRow, parseRow, readJsonl, testLogFiles } from './ledger.js';
import { teamLedgerPath, teamTestsPath } from './team.js';
import type { LedgerRow } from '../types.js';

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
  /** Rows of this origin taken back from the remote (a deleted or older ledger). */
  recovered: number;
  /** Rows and origins of the team files now. */
  teamRows: number;
  origins: number;
  /** Unreadable lines in other origins' rows: skipped, counted. */
  skipped: number;
}

export interface SyncFailure {
  ok: false;
  /** `fetch` (unreachable, not a repository) or `push` (refused: permissions, a hosting rule). */
  stage: 'fetch' | 'push';
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
  for await (const v of readJsonl(path, (x) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined))) out.push(v);
  return out;
}

const isTestRecord = (v: Record<string, unknown>) => typeof v.run === 'string' && typeof v.tier === 'string' && Array.isArray(v.pass) && Array.isArray(v.fail);

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

/** One sync against `remote`. Refusals are data; nothing local changes before the fetch succeeds. */
export async function syncLedger(p: SyncPaths, remote: string, origin: string): Promise<SyncResult | SyncFailure> {
  const slot = `refs/gate-ladder/remotes/${remoteSlot(remote)}/`;
  const mine = `${LEDGER_REFS}${origin}`;
  for (let attempt = 0; ; attempt++) {
    const fetch = git(p.root, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--force', remote, `+${LEDGER_REFS}*:${slot}*`]);
    if (!fetch.ok) return { ok: false, stage: 'fetch', detail: lastLine(fetch.stderr) };
    const refs = lines(git(p.root, ['for-each-ref', '--format=%(objectname) %(refname)', slot]).stdout).map((l) => {
      const [sha = '', name = ''] = l.split(' ');
      return { sha, origin: name.slice(slot.length) };
    });
    const own = refs.find((r) => r.origin === origin);

    // This origin's rows: what the remote holds first (so a lost ledger gets them back), then the local ones it lacks.
    const seen = new Set<string>();
    const remoteRows = own ? lines(blob(p.root, own.sha, 'ledger.jsonl')).map(parseRow).filter((r): r is LedgerRow => r !== undefined) : [];
    for (const r of remoteRows) seen.add(rowKey(r));
    const localKeys = new Set<string>();
    const localOwn: LedgerRow[] = [];
    await forEachRow(p.ledger, { rows: 0, skipped: 0 }, (row) => {
      localKeys.add(rowKey(row));
      if (row.origin === undefined || row.origin === origin) localOwn.push(row);
    });
    const missingLocally = remoteRows.filter((r) => !localKeys.has(rowKey(r)));
    const fresh = newRows(localOwn.map((r) => stamp(r, origin)), seen, rowKey).added;

    const remoteTests = own ? lines(blob(p.root, own.sha, 'tests.jsonl')) : [];
    const testSeen = new Set<string>();
    const remoteTestRecs = remoteTests.flatMap((l) => {
      try {
        const v = JSON.parse(l) as Record<string, unknown>;
        return isTestRecord(v) ? [v] : [];
      } catch {
        return [];
      }
    });
    for (const t of remoteTestRecs) testSeen.add(testRecordKey(t as { run: unknown; tier: unknown; patch: unknown }));
    // Every record this clone wrote: the log and what compaction archived (a compacted record is still this clone's).
    const localTests = (await Promise.all(testLogFiles(p.tests).map(jsonLines))).flat();
    const localTestKeys = new Set(localTests.map((t) => testRecordKey(t as { run: unknown; tier: unknown; patch: unknown })));
    const testsMissingLocally = remoteTestRecs.filter((t) => !localTestKeys.has(testRecordKey(t as { run: unknown; tier: unknown; patch: unknown })));
    const ownTests = localTests.filter((t) => isTestRecord(t) && (t.origin === undefined || t.origin === origin));
    const freshTests = newRows(ownTests.map((t) => stamp(t, origin)), testSeen, (t) => testRecordKey(t as { run: unknown; tier: unknown; patch: unknown })).added;

    if (fresh.length > 0 || freshTests.length > 0) {
      const ledgerText = [...remoteRows, ...fresh].map((r) => `${JSON.stringify(r)}\n`).join('');
      const testsText = [...remoteTestRecs, ...freshTests].map((r) => `${JSON.stringify(r)}\n`).join('');
      const commit = makeCommit(p.root, ledgerText, testsText, origin, own?.sha);
      const push = git(p.root, ['push', '--quiet', '--no-verify', '--porcelain', remote, `${commit}:${mine}`]);
      if (!push.ok) {
        // Another sync of this origin got there first: fetch again and build on it.
        if (attempt < 3 && /non-fast-forward|fetch first|stale info|rejected.*\(fetch first\)/.test(push.stdout + push.stderr)) continue;
        return { ok: false, stage: 'push', detail: lastLine(`${push.stdout}\n${push.stderr}`.split('\n').filter((l) => !/^(To |Done$)/.test(l)).join('\n')) };
      }
      git(p.root, ['update-ref', `${slot}${origin}`, commit]);
    }
    // Only after the remote holds them: take this origin's rows back, then rebuild the team files.
    appendLines(p.ledger, missingLocally);
    appendLines(p.tests, testsMissingLocally);

    const teamRows: unknown[] = [];
    const teamTests: unknown[] = [];
    const teamSeen = new Set([...localKeys, ...missingLocally.map(rowKey)]);
    const teamTestSeen = new Set([...localTestKeys]);
    const origins = new Set<string>();
    let skipped = 0;
    for (const ref of refs) {
      if (ref.origin === origin) continue;
      for (const line of lines(blob(p.root, ref.sha, 'ledger.jsonl'))) {
        const row = parseRow(line);
        if (row === undefined) {
          skipped++;
          continue;
        }
        const k = rowKey(row);
        if (teamSeen.has(k)) continue;
        teamSeen.add(k);
        teamRows.push(stamp(row, ref.origin));
        origins.add(ref.origin);
      }
      for (const line of lines(blob(p.root, ref.sha, 'tests.jsonl'))) {
        let v: Record<string, unknown>;
        try {
          v = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (!isTestRecord(v)) continue;
        const k = testRecordKey(v as { run: unknown; tier: unknown; patch: unknown });
        if (teamTestSeen.has(k)) continue;
        teamTestSeen.add(k);
        teamTests.push(stamp(v, ref.origin));
      }
    }
    writeWhole(teamLedgerPath(p.ledger), teamRows);
    writeWhole(teamTestsPath(p.ledger), teamTests);
    return { ok: true, origin, pushed: fresh.length, recovered: missingLocally.length, teamRows: teamRows.length, origins: origins.size, skipped };
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
