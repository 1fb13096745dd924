/** The real ReportDeps: report files, tests.jsonl, the committed freezes file, and today's date. */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseFreezes } from '../evidence/freeze.js';
import { testsPath } from '../evidence/history.js';
import { treeOf } from '../git/git.js';
import { testMsg } from '../util/messages.js';
import type { ReportDeps } from './tier-report.js';
import type { Freeze } from '../types.js';

/** Coarse file-system clocks (some round mtimes to a second or two) must not make a fresh report stale. */
const MTIME_SLACK_MS = 2000;

export const FREEZES_FILE = join('.gate-ladder', 'freezes.json');

/**
 * Today as `YYYY-MM-DD`, the UTC day: a freeze expires at the same moment for every clone and CI,
 * whatever their time zones. `GATE_LADDER_NOW` (a day `YYYY-MM-DD`, or a time such as
 * `2025-01-31T23:30:00-05:00`, which counts as its UTC day) replaces now: for tests of freeze expiry
 * only, so a hook run can be made to happen "after" an expiry date.
 */
export function today(env: NodeJS.ProcessEnv = process.env, now: Date = new Date()): string {
  const fake = env.GATE_LADDER_NOW;
  if (fake) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(fake)) return fake;
    const t = Date.parse(fake);
    if (!Number.isNaN(t)) return new Date(t).toISOString().slice(0, 10);
  }
  return now.toISOString().slice(0, 10);
}

/** The freezes committed at `root`; a missing file is no freezes, a broken one is a problem to report. */
export function readFreezes(root: string): { freezes: Freeze[]; problem?: string } {
  let text: string;
  try {
    text = readFileSync(join(root, FREEZES_FILE), 'utf8');
  } catch {
    return { freezes: [] };
  }
  const parsed = parseFreezes(text);
  return parsed.ok ? { freezes: parsed.freezes } : { freezes: [], problem: testMsg.freezesUnreadable(FREEZES_FILE, parsed.why) };
}

export function reportDeps(ledgerPath: string, env: NodeJS.ProcessEnv = process.env): ReportDeps {
  const freezeCache = new Map<string, ReturnType<typeof readFreezes>>();
  const trees = new Map<string, string | null>();
  return {
    prepare: (path) => {
      try {
        rmSync(path, { force: true });
      } catch {
        // Cannot remove it (a directory, no permission): the mtime check still refuses it as stale.
      }
      return Date.now();
    },
    read: async (path, since, ctx) => {
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
      // The parser loads only when a tier has a report, keeping it off the plain hook path.
      const { parseJUnit } = await import('../evidence/junit.js');
      // pytest's default report names no file: the files that exist tell where a module's path ends.
      const dir = join(ctx.root ?? '.', ctx.base ?? '.');
      const parsed = parseJUnit(text, { ...ctx, exists: (p) => existsSync(join(dir, p)) });
      return parsed.ok ? { kind: 'ok', cases: parsed.cases, ...(parsed.dup.length > 0 && { dup: parsed.dup }) } : { kind: 'unreadable', why: parsed.why };
    },
    record: async (rec, cwd) => {
      // Flips count only between runs of the same tree: the record names it (one git call per commit).
      if (rec.tree === undefined) {
        let tree = trees.get(rec.patch);
        if (tree === undefined) trees.set(rec.patch, (tree = treeOf(cwd, rec.patch)));
        if (tree !== null) rec = { ...rec, tree };
      }
      // Loaded only when a tier has a report, like the parser: the history's code stays off the plain hook path.
      const { recordTests } = await import('../evidence/history-store.js');
      recordTests(testsPath(ledgerPath), rec);
    },
    freezes: (cwd) => {
      let f = freezeCache.get(cwd);
      if (f === undefined) freezeCache.set(cwd, (f = readFreezes(cwd)));
      return f;
    },
    today: () => today(env),
  };
}
