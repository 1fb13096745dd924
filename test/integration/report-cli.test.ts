import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cell, TIER_COLUMNS } from '../../src/report/render.js';
import type { Report } from '../../src/report/model.js';

// build/test/integration → the package root, where `npm run build` put dist/cli.mjs.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = join(ROOT, 'dist/cli.mjs');

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A temp dir outside any repository, removed afterwards. */
async function withDir(fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gl-report-'));
  assert.not.ok(dir.startsWith(ROOT), 'temp dir must be outside the project');
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let seq = 0;
const line = (tier: string, verdict: string, seconds: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    ts: '2025-03-01T10:00:00.000Z',
    run: `r${seq++}`,
    hook: 'pre-push',
    patch: 'abc',
    base: null,
    tier,
    verdict,
    seconds,
    exit: 0,
    files: ['a.py'],
    files_count: 1,
    routed: false,
    ...extra,
  });

const LEDGER = [
  line('t1', 'caught', 1),
  line('t1', 'pass', 10),
  line('t1', 'error', 3, { reason: 'exit 4: usage error' }),
  '',
  line('t1', 'pass', 2),
  'not json at all',
  line('t2', 'pass', 60, { skipped: ['t1'], routed: true }),
  '{"patch":"abc","tier":"t2"}',
  line('t2', 'pass', 120),
  line('t2', 'caught', 90, { calibration: true }),
  line('t3', 'error', 0, { hook: 'manual', ts: '2025-04-01T00:00:00.000Z' }),
  '{"ts":"2025-03-01T10:00:00.000Z","run":"cut","patch":"abc","tier":"t1","verd',
].join('\n');

/** The tier table's rows as cells, from the text table or the markdown. */
function tableRows(out: string, markdown: boolean): string[][] {
  const lines = out.split('\n');
  const head = lines.findIndex((l) => (markdown ? /^\| tier \|/.test(l) : /^ {2}tier\s+runs/.test(l)));
  assert.ok(head >= 0, out);
  const rows: string[][] = [];
  for (const l of lines.slice(head + (markdown ? 2 : 1))) {
    if (l.trim() === '') break;
    rows.push(
      markdown
        ? l
            .slice(1, -1)
            .split('|')
            .map((c) => c.trim())
        : l.trim().split(/\s+/),
    );
  }
  return rows;
}

test('--json: exact figures; corrupt lines skipped, counted and warned about', () =>
  withDir((dir) => {
    writeFileSync(join(dir, 'ledger.jsonl'), LEDGER);
    const r = cli(['report', '--ledger', 'ledger.jsonl', '--json'], dir);
    assert.is(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as Report;
    assert.equal(Object.keys(json).slice(0, 4), ['tiers', 'scope', 'advice', 'skipped_lines']);
    assert.equal(json.tiers, [
      {
        tier: 't1',
        runs: 4,
        caught: 1,
        errors: 1,
        passes: 2,
        median_s: 2.5,
        total_s: 16,
        yield: 0.0625,
        error_rate: 0.25,
        patch_errors: 0,
        not_applied: 0,
        not_applicable: 0,
      },
      // The calibration row is its own run's ladder prefix: it counts as t2's catch.
      {
        tier: 't2',
        runs: 3,
        caught: 1,
        errors: 0,
        passes: 2,
        median_s: 90,
        total_s: 270,
        yield: 0.003704,
        error_rate: 0,
        patch_errors: 0,
        not_applied: 0,
        not_applicable: 0,
      },
      {
        tier: 't3',
        runs: 1,
        caught: 0,
        errors: 1,
        passes: 0,
        median_s: 0,
        total_s: 0,
        yield: null,
        error_rate: 1,
        patch_errors: 0,
        not_applied: 0,
        not_applicable: 0,
      },
    ]);
    assert.is(json.skipped_lines, 4);
    assert.equal(json.scope, { patches: 1, past: [{ tier: 't1', patches: 1, median_s: 2.5, saved_s: 2.5 }], saved_s: 2.5 });
    assert.is(json.excluded.calibration, 0);
    assert.is(json.overlap.counted_rows, 1);
    // One recommendation for the ladder's shape and order (too few attempts outranks a reorder, which
    // it names as set aside), beside the error advice.
    assert.equal(
      json.advice.map((a) => a.kind),
      ['too-few-attempts', 'errors', 'errors'],
    );
    assert.match(JSON.stringify(json.advice[0]), 'order');
    assert.match(r.stderr, /skipped 4 lines of .*ledger\.jsonl/);
  }));

for (const markdown of [false, true]) {
  test(`the ${markdown ? 'markdown' : 'table'} shows the same numbers as --json`, () =>
    withDir((dir) => {
      writeFileSync(join(dir, 'ledger.jsonl'), LEDGER);
      const json = JSON.parse(cli(['report', '--ledger', 'ledger.jsonl', '--json'], dir).stdout) as Report;
      const r = cli(['report', '--ledger', 'ledger.jsonl', ...(markdown ? ['--markdown'] : [])], dir);
      assert.is(r.code, 0, r.stderr);
      assert.equal(
        tableRows(r.stdout, markdown),
        json.tiers.map((t) => TIER_COLUMNS.map((c) => cell(t[c]))),
      );
      for (const a of json.advice) assert.ok(r.stdout.includes(a.text), a.kind);
      assert.ok(r.stdout.includes(`routed 1 patch past t1: saved 2.5 s (median 2.5 s × 1)`));
    }));
}

test('--hook and --since filter rows', () =>
  withDir((dir) => {
    writeFileSync(join(dir, 'ledger.jsonl'), LEDGER);
    const hook = JSON.parse(cli(['report', '--ledger', 'ledger.jsonl', '--json', '--hook', 'manual'], dir).stdout) as Report;
    assert.equal(
      hook.tiers.filter((t) => t.runs > 0).map((t) => t.tier),
      ['t3'],
    );
    const since = JSON.parse(cli(['report', '--ledger', 'ledger.jsonl', '--json', '--since', '2025-03-15'], dir).stdout) as Report;
    assert.equal(
      since.tiers.filter((t) => t.runs > 0).map((t) => t.tier),
      ['t3'],
    );
    assert.is(since.excluded.filtered, 7);
  }));

test("errors the patches caused (a file the push changed cannot load) are not called the harness's trouble in the advice", () =>
  withDir((dir) => {
    const patchError = (extra: Record<string, unknown> = {}) =>
      line('t1', 'error', 1, { reason: 'cannot load src/a.py', error_cause: 'patch', error_file: 'src/a.py', ...extra });
    writeFileSync(join(dir, 'ledger.jsonl'), `${[patchError(), patchError(), line('t1', 'pass', 1)].join('\n')}\n`);
    const text = cli(['report', '--ledger', 'ledger.jsonl'], dir);
    assert.is(text.code, 0, text.stderr);
    assert.match(text.stdout, 'errors: 2 caused by the patches');
    assert.not.match(text.stdout, 'trouble', 'no advice to fix the tier: the patches broke it');
    const json = JSON.parse(cli(['report', '--ledger', 'ledger.jsonl', '--json'], dir).stdout) as Report;
    assert.is(json.tiers.find((t) => t.tier === 't1')!.patch_errors, 2);
    assert.not.ok(json.advice.some((a) => a.kind === 'errors'));

    // One of the harness beside them: advised on, and the sentence tells the two apart.
    writeFileSync(join(dir, 'ledger.jsonl'), `${[patchError(), patchError(), line('t1', 'error', 1, { reason: 'exit 4' })].join('\n')}\n`);
    const mixed = cli(['report', '--ledger', 'ledger.jsonl'], dir);
    assert.match(mixed.stdout, 't1: 3 errors in 3 runs (1 of the harness, 2 caused by the patches)');
  }));

test('an empty ledger: zero figures, and stderr says how to fill it; a --ledger that is not there exits 2', () =>
  withDir((dir) => {
    writeFileSync(join(dir, 'empty.jsonl'), '');
    const r = cli(['report', '--ledger', 'empty.jsonl', '--json'], dir);
    assert.is(r.code, 0);
    assert.equal((JSON.parse(r.stdout) as Report).tiers, []);
    assert.match(r.stderr, /has no rows yet\. Every push writes rows once the hook is installed \(`npx gate-ladder install`\)/);
    const missing = cli(['report', '--ledger', 'nope.jsonl', '--json'], dir);
    assert.is(missing.code, 2);
    assert.is(missing.stdout, '');
    assert.match(missing.stderr, '--ledger nope.jsonl: no such file');
  }));

test('--html without a file writes gate-ladder-report.html here; a path it cannot write exits 2 and says so', () =>
  withDir((dir) => {
    writeFileSync(join(dir, 'ledger.jsonl'), LEDGER);
    const r = cli(['report', '--ledger', 'ledger.jsonl', '--html'], dir);
    assert.is(r.code, 0, r.stderr);
    assert.is(r.stdout, '');
    assert.match(readFileSync(join(dir, 'gate-ladder-report.html'), 'utf8'), /^<!doctype html>/);
    assert.match(r.stderr, /wrote .*gate-ladder-report\.html/);
    const bad = cli(['report', '--ledger', 'ledger.jsonl', '--html', 'no/such/folder/r.html'], dir);
    assert.is(bad.code, 2);
    assert.match(bad.stderr, /cannot write .*r\.html: .*Pass another path: `gate-ladder report --html PATH`/);
    assert.is(cli(['report', '--ledger', 'ledger.jsonl', '--html', '--json'], dir).code, 2);
  }));

test('usage problems exit 2 and say what to do', () =>
  withDir((dir) => {
    const since = cli(['report', '--ledger', 'x.jsonl', '--since', 'last tuesday'], dir);
    assert.is(since.code, 2);
    assert.match(since.stderr, /--since "last tuesday" is not a date\. Use a date such as 2025-01-31/);
    const noRepo = cli(['report'], dir);
    assert.is(noRepo.code, 2);
    assert.match(noRepo.stderr, /not inside a git repository, so there is no default ledger\. Pass `--ledger PATH`/);
    const both = cli(['report', '--ledger', 'x.jsonl', '--json', '--markdown'], dir);
    assert.is(both.code, 2);
  }));

test("in a repository: the config's ledger, ladder order (a tier never reached included) and minAttempts", () =>
  withDir((dir) => {
    spawnSync('git', ['init', '-q', dir]);
    const config = {
      tiers: [
        { name: 't1', run: 'true' },
        { name: 't2', run: 'true' },
        { name: 't9', run: 'true' },
      ],
      ledger: 'var/ledger.jsonl',
      report: { minAttempts: 3 },
    };
    writeFileSync(join(dir, '.gate-ladderrc.json'), JSON.stringify(config));
    mkdirSync(join(dir, 'var'));
    writeFileSync(join(dir, 'var/ledger.jsonl'), `${[line('t2', 'pass', 5), line('t1', 'pass', 1), line('t1', 'caught', 1)].join('\n')}\n`);
    mkdirSync(join(dir, 'sub'));
    const r = cli(['report', '--json'], join(dir, 'sub'));
    assert.is(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as Report;
    assert.equal(
      json.tiers.map((t) => [t.tier, t.runs]),
      [
        ['t1', 2],
        ['t2', 1],
        ['t9', 0],
      ],
    );
    assert.not.ok(json.advice.some((a) => a.kind === 'too-few-attempts'));
    // The config comes from the config cache, as on a push, while no file it read has changed; an edit is seen.
    const again = cli(['report', '--json'], dir, { GATE_LADDER_DEBUG: '1' });
    assert.match(again.stderr, /config cache for \S+\.gate-ladderrc\.json: hit/);
    writeFileSync(join(dir, '.gate-ladderrc.json'), JSON.stringify({ ...config, report: { minAttempts: 4 } }));
    const edited = cli(['report', '--json'], dir, { GATE_LADDER_DEBUG: '1' });
    assert.match(edited.stderr, 'miss: loading it');
    assert.is((JSON.parse(edited.stdout) as Report).tiers.length, 3);
  }));

test('in a repository without a ledger setting: <git common dir>/gate-ladder/ledger.jsonl', () =>
  withDir((dir) => {
    spawnSync('git', ['init', '-q', dir]);
    mkdirSync(join(dir, '.git/gate-ladder'));
    writeFileSync(join(dir, '.git/gate-ladder/ledger.jsonl'), `${line('only', 'pass', 7)}\n`);
    const json = JSON.parse(cli(['report', '--json'], dir).stdout) as Report;
    assert.equal(
      json.tiers.map((t) => t.tier),
      ['only'],
    );
  }));

test.run();
