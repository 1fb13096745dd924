/** `gate-ladder flaky`, `freeze` and `unfreeze`: the seed's freeze predicate over per-test history. */
import { shown } from '../util/escape.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkFreezeRequest, fixed3, freezeEligible, serializeFreezes, upsertFreeze } from '../evidence/freeze.js';
import { git } from '../git/git.js';
import { type TestHistory, flakyRows, foldHistory, orphanEvidence, readTestRecords } from '../evidence/history.js';
import type { ReadStats } from '../ledger/ledger.js';
import { teamMsg, testMsg } from '../util/messages.js';
import { teamTestsPath } from '../ledger/team.js';
import { FREEZES_FILE, readFreezes, today } from '../ladder/tier-report-io.js';
import type { Freeze } from '../types.js';
import { type CommandContext, err, loadContext, out } from './context.js';
import { EXIT } from './run.js';

async function history(ctx: CommandContext, local = false): Promise<Map<string, TestHistory>> {
  const stats: ReadStats = { rows: 0, skipped: 0 };
  const own = await readTestRecords(ctx.tests, stats);
  const team = local ? [] : await readTestRecords(teamTestsPath(ctx.ledger), stats);
  if (team.length > 0) err(teamMsg.teamRead(own.length, team.length, new Set(team.map((t) => String(t.origin ?? ''))).size));
  const h = foldHistory([...own, ...team]);
  if (stats.skipped > 0) err(testMsg.skippedLines(stats.skipped, ctx.tests));
  return h;
}

export async function flakyCommand(opts: { cwd: string; json?: boolean; local?: boolean }): Promise<number> {
  const ctx = await loadContext(opts.cwd, false);
  if (typeof ctx === 'number') return ctx;
  const h = await history(ctx, opts.local === true);
  const rows = flakyRows(h, ctx.policy);
  if (opts.json) {
    const tests = rows.map((r) => ({
      id: r.id,
      runs: r.runs,
      flips: r.flips,
      flip_rate: r.flipRate,
      evidence: r.evidence,
      eligible: r.eligible,
      reason: r.reason,
    }));
    out(JSON.stringify({ tests }, null, 2));
    return EXIT.pass;
  }
  if (rows.length === 0) {
    err(testMsg.flakyEmpty(ctx.tests));
    return EXIT.pass;
  }
  out(`${'runs'.padStart(5)} ${'flips'.padStart(5)} ${'flip rate'.padStart(9)} ${'evidence'.padStart(8)}  test  →  verdict`);
  for (const r of rows) {
    const rate = r.flipRate === null ? '-' : fixed3(r.flipRate);
    out(`${String(r.runs).padStart(5)} ${String(r.flips).padStart(5)} ${rate.padStart(9)} ${String(r.evidence).padStart(8)}  ${shown(r.id)}  →  ${r.reason}`);
  }
  const orphans = orphanEvidence(h);
  if (orphans.length > 0) err(testMsg.flakyOrphans(orphans.length, orphans[0]!));
  return EXIT.pass;
}

function gitUser(root: string): string {
  const get = (key: string) => git(root, ['config', key]).stdout.trim();
  const name = get('user.name');
  const email = get('user.email');
  return [name || 'unknown', email && `<${email}>`].filter(Boolean).join(' ');
}

function writeFreezes(root: string, freezes: readonly Freeze[]): void {
  const file = join(root, FREEZES_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, serializeFreezes(freezes));
}

/** Ids that look like what the user typed, for "did you mean". */
function near(ids: Iterable<string>, typed: string): string[] {
  const t = typed.toLowerCase();
  return [...ids].filter((id) => id.toLowerCase().includes(t) || t.includes(id.toLowerCase())).slice(0, 5);
}

export interface FreezeOptions {
  cwd: string;
  test: string;
  expires?: string;
  reentry?: string;
}

/** Freezes a test only when the predicate allows it, with an expiry and a re-entry condition. */
export async function freezeCommand(opts: FreezeOptions): Promise<number> {
  const ctx = await loadContext(opts.cwd, false);
  if (typeof ctx === 'number') return ctx;
  const all = await history(ctx);
  const h = all.get(opts.test);
  if (h === undefined || h.outcomes.length === 0) {
    err(testMsg.noSuchTest(opts.test, near(all.keys(), opts.test)));
    return EXIT.caught;
  }
  const verdict = freezeEligible(h.outcomes, h.evidence > 0, ctx.policy);
  if (!verdict.eligible) {
    err(testMsg.freezeRefused(opts.test, verdict.reason));
    return EXIT.caught;
  }
  const now = today();
  const request = checkFreezeRequest(opts.expires, opts.reentry, now, ctx.policy.maxExpiryDays);
  if (request.problems.length > 0 || request.expires === undefined) {
    err(testMsg.freezeProblems(request.problems));
    return EXIT.error;
  }
  const current = readFreezes(ctx.root);
  if (current.problem !== undefined) {
    err(current.problem);
    return EXIT.error;
  }
  const freeze: Freeze = {
    test: opts.test,
    flip_rate: verdict.flipRate ?? 0,
    runs: verdict.runs,
    flips: verdict.flips,
    evidence: h.evidence,
    by: gitUser(ctx.root),
    at: new Date().toISOString(),
    expires: request.expires,
    reentry: opts.reentry!.trim(),
  };
  const renewed = current.freezes.some((f) => f.test === opts.test);
  writeFreezes(ctx.root, upsertFreeze(current.freezes, freeze));
  out(testMsg.frozen(opts.test, freeze.expires, FREEZES_FILE, renewed));
  return EXIT.pass;
}

export async function unfreezeCommand(opts: { cwd: string; test: string }): Promise<number> {
  const ctx = await loadContext(opts.cwd, false);
  if (typeof ctx === 'number') return ctx;
  const current = readFreezes(ctx.root);
  if (current.problem !== undefined) {
    err(current.problem);
    return EXIT.error;
  }
  if (!current.freezes.some((f) => f.test === opts.test)) {
    err(testMsg.notFrozen(opts.test));
    return EXIT.caught;
  }
  writeFreezes(ctx.root, current.freezes.filter((f) => f.test !== opts.test));
  out(testMsg.unfrozen(opts.test, FREEZES_FILE));
  return EXIT.pass;
}
