/** `gate-ladder flaky`, `freeze` and `unfreeze`: the seed's freeze predicate over per-test history. */
import { mkdirSync, writeFileSync } from '../util/node.js';
import { dirname, join } from 'node:path';
import { checkFreezeRequest, fixed3, freezeEligible, isActive, serializeFreezes, upsertFreeze, type Freeze } from '../evidence/freeze.js';
import { git } from '../git/git.js';
import { type FlakyRow, type HistoryState, evidenceOf, flakyRows, knownTests, orphanEvidence } from '../evidence/history.js';
import { type HistoryRead, type TeamHistoryRead, readHistory, readTeamHistory } from '../evidence/history-store.js';
import { resolveTestId } from '../evidence/resolve-id.js';
import type { ReadStats } from '../ledger/ledger.js';
import { teamMsg } from '../ledger/messages.js';
import { testMsg } from '../evidence/messages.js';
import { teamTestsPath } from '../ledger/team.js';
import { shown } from '../util/escape.js';
import { writeOutBlocking } from '../util/stdout.js';
import { FREEZES_FILE, readFreezes } from '../verdict/tier-report-io.js';
import { today } from '../util/iso-time.js';
import { type CommandContext, err, loadContext, out } from './context.js';
import { EXIT } from '../config/defaults.js';

/**
 * This clone's per-test history (the compact file and the log after it) and, unless `local`, the
 * records of the team's other clones fetched by `gate-ladder sync`, in time order when they can be
 * (history-store.ts `readTeamHistory`).
 */
export function history(ctx: CommandContext, local = false): HistoryState {
  const stats: ReadStats = { rows: 0, skipped: 0 };
  const read: HistoryRead & Partial<TeamHistoryRead> = local
    ? readHistory(ctx.tests, stats)
    : readTeamHistory(ctx.tests, teamTestsPath(ctx.ledger), stats);
  if (read.problem !== undefined) err(`gate-ladder: ${shown(read.problem)}; counting from ${shown(ctx.tests)} alone.`);
  if (read.logProblem !== undefined) err(`gate-ladder: ${shown(read.logProblem)}.`);
  if (read.team !== undefined && read.team > 0) err(teamMsg.teamRead(read.own ?? 0, read.team, read.origins ?? 0));
  if (read.order === 'team-after') err(teamMsg.teamAfter());
  if (stats.skipped > 0) err(testMsg.skippedLines(stats.skipped, ctx.tests));
  return read.state;
}

export async function flakyCommand(opts: { cwd: string; json?: boolean; local?: boolean }): Promise<number> {
  const ctx = await loadContext(opts.cwd, false);
  if (typeof ctx === 'number') return ctx;
  const h = history(ctx, opts.local === true);
  const rows = flakyRows(h, ctx.policy);
  const freezes = readFreezes(ctx.root);
  if (freezes.problem !== undefined) err(freezes.problem);
  const now = today();
  if (opts.json) {
    printJson(
      rows,
      freezes.freezes.map((f) => ({ ...f, active: isActive(f, now) })),
    );
    return EXIT.pass;
  }
  if (rows.length === 0) err(testMsg.flakyEmpty(ctx.tests));
  else {
    out(
      `${'runs'.padStart(5)} ${'same'.padStart(5)} ${'flips'.padStart(5)} ${'flip rate'.padStart(9)} ${'evidence'.padStart(8)}  tier  test  →  verdict`,
    );
    for (const r of rows) {
      const rate = r.flipRate === null ? '-' : fixed3(r.flipRate);
      out(
        `${String(r.runs).padStart(5)} ${String(r.sameCodeRuns).padStart(5)} ${String(r.flips).padStart(5)} ${rate.padStart(9)} ${String(r.evidence).padStart(8)}  ${shown(r.tier)}  ${shown(r.id)}  →  ${r.reason}`,
      );
    }
  }
  out('');
  if (freezes.freezes.length === 0) out(testMsg.noFreezes(FREEZES_FILE));
  else {
    out(testMsg.freezesHeading(FREEZES_FILE));
    for (const f of freezes.freezes) out(testMsg.freezeLine(f, isActive(f, now)));
  }
  const noEvidence = rows.filter((r) => r.reason === testMsg.noEvidence()).length;
  if (noEvidence > 0) err(testMsg.flakySeedHint(noEvidence));
  if (rows.length > 0 && rows.every((r) => r.sameCodeRuns === 0)) err(testMsg.flakyNoRepeats());
  if (h.legacySeeds > 0) err(testMsg.legacySeeds(h.legacySeeds));
  const orphans = orphanEvidence(h);
  if (orphans.length > 0) err(testMsg.flakyOrphans(orphans.length, orphans[0]!));
  return EXIT.pass;
}

/**
 * `{ "tests": [...], "freezes": [...] }`, one test a line, written a megabyte at a time: a 150,000-test
 * suite prints 30 MB, which is never held whole (45 MB indented, and the joined string, cost memory and time).
 */
function printJson(rows: readonly FlakyRow[], freezes: unknown[]): void {
  const reasons = new Map<string, string>();
  let chunk = '{"tests":[';
  rows.forEach((r, i) => {
    let reason = reasons.get(r.reason);
    if (reason === undefined) reasons.set(r.reason, (reason = JSON.stringify(r.reason)));
    chunk +=
      `${i === 0 ? '\n' : ',\n'}{"id":${JSON.stringify(r.id)},"runs":${r.runs},"flips":${r.flips},"flip_rate":${r.flipRate},"evidence":${r.evidence},` +
      `"eligible":${r.eligible},"reason":${reason},"tier":${JSON.stringify(r.tier)},"same_code_runs":${r.sameCodeRuns},"fails":${r.fails},` +
      `"broken":${r.broken},"ambiguous":${r.ambiguous}}`;
    if (chunk.length > 1 << 20) {
      writeOutBlocking(chunk);
      chunk = '';
    }
  });
  writeOutBlocking(`${chunk}${rows.length > 0 ? '\n' : ''}],\n"freezes":${JSON.stringify(freezes, null, 2)}}\n`);
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

export interface FreezeOptions {
  cwd: string;
  test: string;
  tier?: string;
  expires?: string;
  reentry?: string;
}

/** Freezes one test only when the predicate allows it, with an expiry and a re-entry condition. */
export async function freezeCommand(opts: FreezeOptions): Promise<number> {
  const ctx = await loadContext(opts.cwd, false);
  if (typeof ctx === 'number') return ctx;
  const all = history(ctx);
  const known = knownTests(all);
  const found = resolveTestId(opts.test, known, opts.tier);
  if (found.kind === 'none') {
    err(testMsg.noSuchTest(opts.test, found.near));
    return EXIT.caught;
  }
  if (found.kind === 'many') {
    err(testMsg.ambiguousTest(opts.test, found.candidates));
    return EXIT.caught;
  }
  const { tier, id } = found.test;
  const tally = all.tiers.get(tier)!.tests.get(id)!;
  const evidence = evidenceOf(all, id);
  const verdict = freezeEligible({ ...tally, evidence }, ctx.policy);
  if (!verdict.eligible) {
    err(testMsg.freezeRefused(id, verdict.reason));
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
    test: id,
    tier,
    flip_rate: verdict.flipRate ?? 0,
    runs: verdict.runs,
    flips: verdict.flips,
    evidence,
    by: gitUser(ctx.root),
    at: new Date().toISOString(),
    expires: request.expires,
    reentry: opts.reentry!.trim(),
  };
  const renewed = current.freezes.some((f) => f.test === id && (f.tier === undefined || f.tier === tier));
  writeFreezes(
    ctx.root,
    upsertFreeze(
      current.freezes.filter((f) => !(f.test === id && f.tier === undefined)),
      freeze,
    ),
  );
  out(testMsg.frozen(id, tier, freeze.expires, FREEZES_FILE, renewed));
  return EXIT.pass;
}

export async function unfreezeCommand(opts: { cwd: string; test: string; tier?: string }): Promise<number> {
  const ctx = await loadContext(opts.cwd, false);
  if (typeof ctx === 'number') return ctx;
  const current = readFreezes(ctx.root);
  if (current.problem !== undefined) {
    err(current.problem);
    return EXIT.error;
  }
  const found = resolveTestId(
    opts.test,
    current.freezes.map((f) => ({ tier: f.tier ?? '', id: f.test })),
    opts.tier,
  );
  if (
    found.kind !== 'one' &&
    !(found.kind === 'many' && opts.tier === undefined && new Set(found.candidates.map((c) => c.id)).size === 1)
  ) {
    err(found.kind === 'many' ? testMsg.ambiguousTest(opts.test, found.candidates) : testMsg.notFrozen(opts.test));
    return EXIT.caught;
  }
  // One id frozen in several tiers, no --tier given: unfreeze it everywhere.
  const id = found.kind === 'one' ? found.test.id : found.candidates[0]!.id;
  const tier = found.kind === 'one' && opts.tier !== undefined ? opts.tier : undefined;
  writeFreezes(
    ctx.root,
    current.freezes.filter((f) => !(f.test === id && (tier === undefined || (f.tier ?? '') === tier))),
  );
  out(testMsg.unfrozen(id, FREEZES_FILE));
  return EXIT.pass;
}
