import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { LADDER_FILES, type Repo, type Run, cleanEnv, cloneOf, sh, withPrepared, withRepo } from '../helpers/repo.js';

type Row = Record<string, unknown>;

/**
 * Pushes per clone: 8, not the 50 (nor the 12 it had until issue 45, which cut the suite's time:
 * each push is a real one through the hook, and they were most of this file's 220 s). Enough for what the
 * test is about: four syncs of one clone between pushes, two of them at the same moment as the other
 * clone's, so every sync after the first has rows of both clones to fetch, merge and push; a catch and
 * its fix in each clone (the fifth push), ten rows or more from each.
 */
const PUSHES = 8;

const key = (r: Row) => `${r.run}|${r.tier}|${r.patch}|${r.hook}|${r.calibration === true}|${r.cached === true}`;
const readRows = (file: string): Row[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Row)
    : [];
const teamFile = (repo: Repo) => join(dirname(repo.ledgerPath), 'team', 'ledger.jsonl');

/** The CLI as a child, so two clones can sync at the same moment. */
function cliAsync(repo: Repo, args: string[], extra: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), ...args], {
    cwd: repo.dir,
    env: cleanEnv(extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, out: stdout + stderr })));
}

/** A commit on the clone's own branch, pushed through the installed hook: a pass, or now and then a catch. */
function pushOne(repo: Repo, branch: string, i: number): void {
  repo.write('src/value.txt', i % 5 === 4 ? `bug ${branch} ${i}\n` : `good ${branch} ${i}\n`);
  repo.commit(`${branch} ${i}`);
  const p = repo.push(['-q', 'origin', `HEAD:refs/heads/${branch}`]);
  assert.ok(p.code === 0 || p.code === 1, p.out);
  if (p.code === 1) {
    repo.write('src/value.txt', `good ${branch} ${i} fixed\n`);
    repo.commit(`${branch} ${i} fix`);
    assert.is(repo.push(['-q', 'origin', `HEAD:refs/heads/${branch}`]).code, 0);
  }
}

/**
 * What most tests here start from: a clone `a` on a branch of its own, one change pushed from it (a real
 * row in its ledger). Made once for the file and copied for each test (test/helpers/repo.ts withPrepared).
 */
const withOnePush = <T>(fn: (repo: Repo) => Promise<T> | T) =>
  withPrepared(
    { files: LADDER_FILES },
    'clone a, one push',
    (repo) => {
      const a = repo.clone('a');
      a.gitOk('checkout', '-q', '-b', 'a');
      pushOne(a, 'a', 0);
    },
    fn,
  );

const remoteRefs = (repo: Repo, pattern: string) =>
  sh('git', ['for-each-ref', '--format=%(refname) %(objectname)', pattern], repo.remote).stdout.trim();

test(`two clones, ${PUSHES} pushes each, interleaved and simultaneous syncs: equal reports, exact row counts, no branch or tag touched`, () =>
  withRepo({ files: LADDER_FILES }, async (repo) => {
    const a = repo.clone('a');
    const b = repo.clone('b');
    a.gitOk('checkout', '-q', '-b', 'a');
    b.gitOk('checkout', '-q', '-b', 'b');
    for (let i = 0; i < PUSHES; i++) {
      pushOne(a, 'a', i);
      pushOne(b, 'b', i);
      if (i % 4 === 1) assert.is(a.cli(['sync']).code, 0);
      if (i % 4 === 3) {
        const [ra, rb] = await Promise.all([cliAsync(a, ['sync']), cliAsync(b, ['sync'])]);
        assert.is(ra.code, 0, ra.out);
        assert.is(rb.code, 0, rb.out);
      }
    }
    for (const c of [a, b, a]) assert.is(c.cli(['sync']).code, 0);
    const heads = remoteRefs(repo, 'refs/heads');
    const tags = remoteRefs(repo, 'refs/tags');

    const aLocal = a.ledger();
    const bLocal = b.ledger();
    const total = new Set([...aLocal, ...bLocal].map(key)).size;
    assert.is(total, aLocal.length + bLocal.length, 'no row is in both clones');
    for (const [c, own] of [
      [a, aLocal],
      [b, bLocal],
    ] as const) {
      const team = readRows(teamFile(c));
      assert.is(own.length + team.length, total, 'this clone reads every row once');
      assert.is(new Set([...own, ...team].map(key)).size, total, 'no duplicates');
    }
    const ra = a.cli(['report', '--json']);
    const rb = b.cli(['report', '--json']);
    const figures = (r: Run) => JSON.parse(r.stdout) as { tiers: unknown; rows: number };
    assert.equal(figures(ra).tiers, figures(rb).tiers, 'both clones report the same figures');
    assert.is(figures(ra).rows, total);
    assert.match(ra.stderr, `${total} rows from 2 origins`);
    assert.is(figures(a.cli(['report', '--json', '--local'])).rows, aLocal.length);

    // idempotent: syncing again pushes nothing and moves no ref
    const before = remoteRefs(repo, 'refs/gate-ladder');
    const again = a.cli(['sync']);
    assert.match(again.stderr, 'pushed 0 new rows');
    assert.is(remoteRefs(repo, 'refs/gate-ladder'), before);
    assert.is(readRows(teamFile(a)).length + a.ledger().length, total);
    assert.is(before.split('\n').length, 2, 'one ref per clone');
    assert.is(remoteRefs(repo, 'refs/heads'), heads);
    assert.is(remoteRefs(repo, 'refs/tags'), tags);
    assert.is(
      a
        .gitOk('for-each-ref', 'refs/heads', 'refs/tags', 'refs/remotes', '--format=%(refname)')
        .split('\n')
        .filter((r) => r.includes('gate-ladder')).length,
      0,
    );

    // a clone whose ledger was deleted: sync names the rows its ref holds, --restore adds them
    rmSync(a.ledgerPath);
    const back = a.cli(['sync']);
    assert.is(back.code, 0, back.out);
    assert.match(back.stderr, `holds ${aLocal.length} rows this clone's ledger lacks; they were not added`);
    assert.is(a.ledger().length, 0);
    const restored = a.cli(['sync', '--restore']);
    assert.is(restored.code, 0, restored.out);
    assert.match(restored.stderr, `sync --restore: added ${aLocal.length} rows`);
    assert.equal(a.ledger().map(key).sort(), aLocal.map(key).sort());
  }));

test('a malformed row from another clone is skipped and counted; report and flaky still run', () =>
  withOnePush((repo) => {
    const a = cloneOf(repo, 'a');
    // another origin's ref, written by hand: one good row, two bad lines
    const good = { ...a.ledger()[0], run: 'other-run', origin: 'someone' };
    const blob = sh('git', ['hash-object', '-w', '--stdin'], repo.remote, {
      input: `${JSON.stringify(good)}\n{"patch":\nnot json at all\n`,
    }).stdout.trim();
    const empty = sh('git', ['hash-object', '-w', '--stdin'], repo.remote, { input: '' }).stdout.trim();
    const tree = sh('git', ['mktree'], repo.remote, {
      input: `100644 blob ${blob}\tledger.jsonl\n100644 blob ${empty}\ttests.jsonl\n`,
    }).stdout.trim();
    const commit = sh('git', ['commit-tree', tree, '-m', 'by hand'], repo.remote).stdout.trim();
    sh('git', ['update-ref', 'refs/gate-ladder/ledgers/someone', commit], repo.remote);
    const s = a.cli(['sync']);
    assert.is(s.code, 0, s.out);
    assert.match(s.stderr, 'skipped 2 malformed rows');
    const r = a.cli(['report', '--json']);
    assert.is(r.code, 0, r.out);
    assert.is((JSON.parse(r.stdout) as { rows: number }).rows, a.ledger().length + 1);
    assert.is(a.cli(['flaky']).code, 0);
  }));

test('a remote that refuses the refs: one clear line, exit 2, nothing written there or here', () =>
  withOnePush((repo) => {
    const a = cloneOf(repo, 'a');
    writeFileSync(
      join(repo.remote, 'hooks', 'update'),
      '#!/bin/sh\ncase "$1" in refs/gate-ladder/*) echo "refs/gate-ladder is not allowed here" >&2; exit 1;; esac\n',
      { mode: 0o755 },
    );
    const before = readFileSync(a.ledgerPath, 'utf8');
    const s = a.cli(['sync']);
    assert.is(s.code, 2, s.out);
    assert.is(s.stderr.trim().split('\n').length, 1, s.stderr);
    assert.match(s.stderr, 'refused refs/gate-ladder/ledgers/clone-');
    assert.match(s.stderr, 'push rights to refs/gate-ladder/*');
    assert.is(remoteRefs(repo, 'refs/gate-ladder'), '');
    assert.is(readFileSync(a.ledgerPath, 'utf8'), before);
    assert.not.ok(existsSync(teamFile(a)));
    const missing = a.cli(['sync', 'nowhere']);
    assert.is(missing.code, 2);
    assert.match(missing.stderr, 'cannot fetch the team');
  }));

/** Writes `ref` on the remote by hand (as anyone with push rights can): a commit of these ledger rows. */
function forgeRef(repo: Repo, ref: string, rows: readonly Row[], parent?: string): void {
  const put = (text: string) => sh('git', ['hash-object', '-w', '--stdin'], repo.remote, { input: text }).stdout.trim();
  const blob = put(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const tree = sh('git', ['mktree'], repo.remote, {
    input: `100644 blob ${blob}\tledger.jsonl\n100644 blob ${put('')}\ttests.jsonl\n`,
  }).stdout.trim();
  const commit = sh('git', ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', 'forged'], repo.remote).stdout.trim();
  sh('git', ['update-ref', ref, commit], repo.remote);
}

const ownRef = (repo: Repo) =>
  sh('git', ['for-each-ref', '--format=%(refname)', 'refs/gate-ladder/ledgers/'], repo.remote).stdout.trim().split('\n')[0]!;

test("rows force-pushed into this clone's own ref never enter its ledger through sync; --restore adds them and says so", () =>
  withOnePush((repo) => {
    const a = cloneOf(repo, 'a');
    assert.is(a.cli(['sync']).code, 0);
    const mine = a.ledger();
    const ref = ownRef(repo);
    const forged = [1, 2, 3, 4, 5].map((i) => ({ ...mine[0], run: `forged${i}`, verdict: 'caught', seconds: 0.01 }));
    forgeRef(repo, ref, [...mine, ...forged]);
    const before = readFileSync(a.ledgerPath, 'utf8');
    const s = a.cli(['sync']);
    assert.is(s.code, 0, s.out);
    assert.is(readFileSync(a.ledgerPath, 'utf8'), before, 'sync wrote nothing into the ledger');
    assert.match(s.stderr, `holds 5 rows this clone's ledger lacks; they were not added`);
    assert.match(s.stderr, 'gate-ladder sync --restore');
    assert.not.match(s.stderr, 'had lost');
    assert.is((JSON.parse(a.cli(['report', '--json']).stdout) as { rows: number }).rows, mine.length);
    const r = a.cli(['sync', '--restore']);
    assert.is(r.code, 0, r.out);
    assert.match(r.stderr, 'sync --restore: added 5 rows');
    assert.is(a.ledger().length, mine.length + 5);
  }));

test("another origin's rows with absurd seconds, an unknown verdict or a malformed id are refused and counted; --by-origin names each origin's figures; --exclude-origin leaves one out", () =>
  withOnePush((repo) => {
    const a = cloneOf(repo, 'a');
    const base = a.ledger()[0]!;
    const good = (i: number) => ({ ...base, run: `good${i}`, verdict: 'caught', seconds: 1, origin: undefined });
    forgeRef(repo, 'refs/gate-ladder/ledgers/mallory', [
      good(1),
      good(2),
      { ...good(3), seconds: 2147483647 },
      { ...good(4), verdict: 'CAUGHT' },
      { ...good(5), run: 'not an id; <script>' },
      { ...good(6), ts: '9999-01-01T00:00:00.000Z' },
      { ...good(7), origin: 'someone-else' },
    ]);
    const s = a.cli(['sync']);
    assert.is(s.code, 0, s.out);
    assert.match(s.stderr, 'refused 5 rows from mallory');
    assert.match(s.stderr, '--exclude-origin mallory');
    assert.match(s.stderr, '2 rows from 1 other origin');

    type Doc = {
      rows: number;
      tiers: { tier: string; caught: number; total_s: number; yield: number | null }[];
      refused_by_origin: Record<string, { rows: number; reasons: Record<string, number> }>;
      by_origin?: { origin: string; rows: number; refused: number; tiers: { tier: string; caught: number }[] }[];
    };
    const all = a.cli(['report', '--json', '--by-origin']);
    assert.is(all.code, 0, all.out);
    const doc = JSON.parse(all.stdout) as Doc;
    assert.is(doc.rows, a.ledger().length + 2);
    assert.is(doc.refused_by_origin.mallory?.rows, 5);
    assert.is(doc.refused_by_origin.mallory?.reasons['unknown verdict'], 1);
    assert.ok(
      doc.tiers.every((t) => t.total_s < 1000),
      'the absurd seconds are not counted',
    );
    assert.match(all.stderr, 'the last sync refused 5 rows from mallory');
    const mallory = doc.by_origin?.find((o) => o.origin === 'mallory');
    assert.equal([mallory?.rows, mallory?.refused, mallory?.tiers.map((t) => t.caught)], [2, 5, [2]]);
    const text = a.cli(['report', '--by-origin']);
    assert.match(text.stdout, /by origin:[\s\S]*mallory: 2 rows, 5 refused/);

    const caught = (d: Doc) => d.tiers.reduce((n, t) => n + t.caught, 0);
    const without = a.cli(['report', '--json', '--exclude-origin', 'mallory', '--exclude-origin', 'nobody']);
    assert.is(without.code, 0, without.out);
    const w = JSON.parse(without.stdout) as Doc;
    assert.is(w.rows, doc.rows - 2, 'rows counted');
    assert.is(caught(w), caught(doc) - 2);
    assert.equal(JSON.parse(a.cli(['report', '--json', '--local']).stdout).tiers, w.tiers);
    assert.match(without.stderr, 'left out 2 rows of mallory, nobody');
  }));

test('syncs of one origin from several clones at the same moment all succeed: a lost race is fetched, merged and pushed again', () =>
  withOnePush(async (repo) => {
    const clones = [cloneOf(repo, 'a'), ...['b', 'c', 'd'].map((n) => repo.clone(n))];
    const env = { GATE_LADDER_ORIGIN: 'shared-job' };
    const template = clones[0]!.ledger()[0]!;
    const written: string[] = [];
    // Three rounds of four syncs started together (six until issue 45): each round, four syncs of one origin race
    // to move its one ref, and one that finds it moved since its fetch must fetch, merge and push again.
    for (let round = 0; round < 3; round++) {
      clones.forEach((c, i) => {
        const run = `r${round}c${i}`;
        written.push(run);
        mkdirSync(dirname(c.ledgerPath), { recursive: true });
        writeFileSync(c.ledgerPath, `${JSON.stringify({ ...template, run, ts: new Date().toISOString() })}\n`, { flag: 'a' });
      });
      const results = await Promise.all(clones.map((c) => cliAsync(c, ['sync'], env)));
      for (const r of results) {
        assert.is(r.code, 0, r.out);
        assert.not.match(r.stderr, 'push rights');
      }
    }
    const held = sh('git', ['cat-file', 'blob', 'refs/gate-ladder/ledgers/shared-job:ledger.jsonl'], repo.remote).stdout;
    const runs = new Set(
      held
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as Row).run),
    );
    for (const run of written) assert.ok(runs.has(run), `the remote holds ${run}`);
  }));

test.run();
