/** The real ReportDeps: report files, tests.jsonl, the committed freezes file, and today's date. */
import { today } from '../util/iso-time.js';
import { existsSync, readFileSync, rmSync, statSync } from '../util/node.js';
import { join, sep } from 'node:path';
import { parseFreezes, type Freeze } from '../evidence/freeze.js';
import { filesAt } from '../git/git.js';
import { testsPath } from '../evidence/history.js';
import { treeOf } from '../git/git.js';
import { testMsg } from '../evidence/messages.js';
import type { ReportDeps } from './tier-report.js';
import type { IdContext, TestFailure } from '../evidence/junit.js';
import { loadRecords } from '../runners/index.js';
import { goPackageDirs } from '../runners/go-packages.js';
import { failedTestsOf } from './runner-output.js';

/**
 * The failed tests of a `go test -json` report, with file, line and message: its events' `Output` is
 * the text go prints, read as go's output is (the test's `file.go:line:` line, its panic).
 */
async function goJsonFailures(text: string, ctx: IdContext): Promise<TestFailure[]> {
  await loadRecords(['go']);
  const root = ctx.root ?? '.';
  const base = ctx.base ?? '.';
  return failedTestsOf('go', text, { root, base, packageDir: goPackageDirs(root, base) });
}

/** Coarse file-system clocks (some round mtimes to a second or two) must not make a fresh report stale. */
const MTIME_SLACK_MS = 2000;

export const FREEZES_FILE = join('.gate-ladder', 'freezes.json');

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
  if (got === undefined)
    return { freezes: [], problem: testMsg.freezesUnreadable(`${path} at ${treeish.slice(0, 12)}`, 'git cat-file failed') };
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
 * `knownTrees`: commit → tree, as the run's git facts hold them (git is asked for any other).
 */
export function reportDeps(
  ledgerPath: string,
  env: NodeJS.ProcessEnv = process.env,
  freezesAt?: { root: string; treeish: string },
  knownTrees?: ReadonlyMap<string, string>,
): ReportDeps {
  const freezeCache = new Map<string, ReturnType<typeof readFreezes>>();
  const trees = new Map<string, string | null>(knownTrees);
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
        if (!parsed.ok) return { kind: 'unreadable', why: parsed.why };
        const failures = format === 'go-json' ? await goJsonFailures(text, ctx) : [];
        return {
          kind: 'ok',
          cases: parsed.cases,
          ...(parsed.broken.length > 0 && { broken: parsed.broken }),
          ...(failures.length > 0 && { failures }),
        };
      }
      const { parseJUnit } = await import('../evidence/junit.js');
      // pytest's default report names no file: the files that exist tell where a module's path ends.
      const dir = join(ctx.root ?? '.', ctx.base ?? '.');
      const parsed = parseJUnit(text, { ...ctx, exists: (p) => existsSync(join(dir, p)) });
      return parsed.ok
        ? {
            kind: 'ok',
            cases: parsed.cases,
            ...(parsed.broken && { broken: parsed.broken }),
            ...(parsed.dup.length > 0 && { dup: parsed.dup }),
            ...(parsed.failures && { failures: parsed.failures }),
          }
        : { kind: 'unreadable', why: parsed.why };
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
      const key = freezesAt ? `${freezesAt.root}\0${freezesAt.treeish}` : cwd;
      let f = freezeCache.get(key);
      if (f === undefined) freezeCache.set(key, (f = freezesAt ? readFreezesAt(freezesAt.root, freezesAt.treeish) : readFreezes(cwd)));
      return f;
    },
    today: () => today(env),
  };
}
