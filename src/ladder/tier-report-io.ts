/** The real ReportDeps: report files, tests.jsonl, the committed freezes file, and today's date. */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { parseFreezes } from '../evidence/freeze.js';
import { filesAt } from '../git/git.js';
import { testsPath } from '../evidence/history.js';
import { appendLines } from '../ledger/ledger.js';
import { testMsg } from '../util/messages.js';
import type { ReportDeps } from './tier-report.js';
import type { Freeze } from '../types.js';

/** Coarse file-system clocks (some round mtimes to a second or two) must not make a fresh report stale. */
const MTIME_SLACK_MS = 2000;

export const FREEZES_FILE = join('.gate-ladder', 'freezes.json');

/**
 * Today as `YYYY-MM-DD` (local time). `GATE_LADDER_NOW=YYYY-MM-DD` replaces it: for tests of freeze
 * expiry only, so a hook run can be made to happen "after" an expiry date.
 */
export function today(env: NodeJS.ProcessEnv = process.env, now: Date = new Date()): string {
  const fake = env.GATE_LADDER_NOW;
  if (fake && /^\d{4}-\d{2}-\d{2}/.test(fake)) return fake.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The freezes in the folder `root`; a missing file is no freezes, a broken one is a problem to report. */
export function readFreezes(root: string): { freezes: Freeze[]; problem?: string } {
  let text: string;
  try {
    text = readFileSync(join(root, FREEZES_FILE), 'utf8');
  } catch {
    return { freezes: [] };
  }
  return freezesFrom(text);
}

/**
 * The freezes committed in `treeish` (a pushed commit, or the staged tree), read from git (one
 * `git cat-file`, only when a failing test may be frozen): what the working tree holds, committed or
 * not, does not count. Git failing to answer is a problem to report, and no freeze applies.
 */
export function readFreezesAt(root: string, treeish: string): { freezes: Freeze[]; problem?: string } {
  const path = FREEZES_FILE.split(sep).join('/');
  const got = filesAt(root, treeish, [path]);
  if (got === undefined) return { freezes: [], problem: testMsg.freezesUnreadable(`${path} at ${treeish.slice(0, 12)}`, 'git cat-file failed') };
  const buf = got.get(path);
  return buf ? freezesFrom(buf.toString('utf8')) : { freezes: [] };
}

function freezesFrom(text: string): { freezes: Freeze[]; problem?: string } {
  const parsed = parseFreezes(text);
  return parsed.ok ? { freezes: parsed.freezes } : { freezes: [], problem: testMsg.freezesUnreadable(FREEZES_FILE, parsed.why) };
}

/**
 * `freezesAt`: the commit (or staged tree) a push or a commit is judged at, whose committed freezes
 * apply wherever its gates ran; without it, the freezes file in the folder where they ran.
 */
export function reportDeps(ledgerPath: string, env: NodeJS.ProcessEnv = process.env, freezesAt?: { root: string; treeish: string }): ReportDeps {
  const freezeCache = new Map<string, ReturnType<typeof readFreezes>>();
  return {
    prepare: (path) => {
      try {
        rmSync(path, { force: true });
      } catch {
        // Cannot remove it (a directory, no permission): the mtime check still refuses it as stale.
      }
      return Date.now();
    },
    read: async (path, since, ctx, format = 'junit') => {
      let text: string;
      let mtime: number;
      try {
        mtime = statSync(path).mtimeMs;
        text = readFileSync(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
        return { kind: 'unreadable', why: (err as Error).message };
      }
      if (mtime < since - MTIME_SLACK_MS) return { kind: 'stale', written: new Date(mtime).toISOString() };
      // The parsers load only when a tier has a report, keeping them off the plain hook path.
      if (format !== 'junit') {
        const { parseGoJson, parseJestJson } = await import('../evidence/json-report.js');
        const parsed = format === 'go-json' ? parseGoJson(text) : parseJestJson(text, ctx);
        return parsed.ok ? { kind: 'ok', cases: parsed.cases, ...(parsed.broken.length > 0 && { broken: parsed.broken }) } : { kind: 'unreadable', why: parsed.why };
      }
      const { parseJUnit } = await import('../evidence/junit.js');
      const parsed = parseJUnit(text, ctx);
      return parsed.ok ? { kind: 'ok', cases: parsed.cases, ...(parsed.broken && { broken: parsed.broken }) } : { kind: 'unreadable', why: parsed.why };
    },
    record: (rec) => appendLines(testsPath(ledgerPath), [rec]),
    freezes: (cwd) => {
      const key = freezesAt ? `${freezesAt.root}\0${freezesAt.treeish}` : cwd;
      let f = freezeCache.get(key);
      if (f === undefined) freezeCache.set(key, (f = freezesAt ? readFreezesAt(freezesAt.root, freezesAt.treeish) : readFreezes(cwd)));
      return f;
    },
    today: () => today(env),
  };
}
