/**
 * npm workspaces: the options read off a command, npm's order of the workspaces, the output cut by
 * workspace and each part read with its own runner. The captures in test/fixtures/runners/npm-workspaces/
 * are `npm test --workspaces` over five workspaces (a: node --test passing; b: mocha, two failing; c:
 * node --test, its file cannot load; d: no test script; @s/e: no version, node --test finding no test
 * file), through npm 11.19 and 10.9 on Node 20, stdout and stderr into one file (the path to the
 * project's node_modules trimmed); `npm11-silent` with `--if-present -s`; `npm11-a-c`, `-a-e`, `-a` with `-w`; `npm11-no-versions`: `npm test` in a root without a version
 * whose script is `npm test --workspaces`, over x (passing) and y (a failed test), neither with a version; `npm11-killed`: `npm test -ws`, a workspace's script killed by SIGKILL.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Workspaces, detectRunner } from '../../src/runners/detect.js';
import { outputLines } from '../../src/verdict/runner-output.js';
import { classify } from '../../src/verdict/verdict.js';
import {
  type WorkspacePackage,
  npmWorkspaceArgs,
  orderWorkspaces,
  selectWorkspaces,
  splitWorkspaces,
} from '../../src/runners/workspaces.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/runners/npm-workspaces');
const capture = (name: string) => readFileSync(resolve(FIXTURES, `${name}.txt`), 'utf8');

const PACKAGES: WorkspacePackage[] = [
  { dir: 'packages/a', name: 'a', id: 'a@1.0.0', scripts: { test: 'node --test' } },
  { dir: 'packages/b', name: 'b', id: 'b@1.0.0', scripts: { test: 'node_modules/.bin/mocha b.test.js' } },
  { dir: 'packages/c', name: 'c', id: 'c@1.0.0', scripts: { test: 'node --test' } },
  { dir: 'packages/d', name: 'd', id: 'd@1.0.0', scripts: {} },
  { dir: 'packages/e', name: '@s/e', scripts: { test: 'node --test' } },
];
const WORKSPACES: Workspaces = {
  root: { dir: '.', name: 'root', id: 'root@1.0.0', scripts: { test: 'npm test --workspaces' } },
  list: PACKAGES,
};

const detect = (run: string, ws: Workspaces = WORKSPACES) =>
  detectRunner(
    run,
    undefined,
    () => ws?.root.scripts ?? null,
    undefined,
    () => ws,
  );

function judge(run: string, code: number, tail: string, allowNoTests = false) {
  const detection = detect(run);
  return classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1], 30, {
    output: { detection, allowNoTests, caughtByRunner: true },
  });
}

test('npmWorkspaceArgs: the forms npm takes', () => {
  assert.equal(npmWorkspaceArgs(['test', '--workspaces'])?.all, true);
  assert.equal(npmWorkspaceArgs(['run', 'test', '-ws'])?.all, true);
  assert.equal(npmWorkspaceArgs(['test', '--ws', '--if-present'])?.ifPresent, true);
  assert.equal(npmWorkspaceArgs(['-w', 'a', 'test'])?.filters, ['a']);
  assert.equal(npmWorkspaceArgs(['-w', 'a', 'test'])?.rest, ['test']);
  assert.equal(npmWorkspaceArgs(['test', '--workspace=packages/b', '--workspace', 'c'])?.filters, ['packages/b', 'c']);
  assert.equal(npmWorkspaceArgs(['test', '-ws', '--loglevel', 'silent'])?.silent, true);
  assert.equal(npmWorkspaceArgs(['test', '-ws', '-iwr'])?.includeRoot, true);
  assert.is(npmWorkspaceArgs(['test']), undefined);
  assert.is(npmWorkspaceArgs(['test', '--', '--workspaces']), undefined);
});

test("orderWorkspaces: npm's order (sorted, grouped by glob in the globs' order), negations left out", () => {
  const dirs = ['packages/b', 'apps/web', 'packages/a', 'packages/node_modules/x', 'packages/old', 'tools/x/y'];
  assert.equal(orderWorkspaces(['packages/*', 'apps/*', '!packages/old'], dirs), ['packages/a', 'packages/b', 'apps/web']);
  assert.equal(orderWorkspaces(['./apps/web/', 'packages/*'], dirs), ['apps/web', 'packages/a', 'packages/b', 'packages/old']);
  assert.equal(orderWorkspaces(['tools/**'], dirs), ['tools/x/y']);
});

test('selectWorkspaces: by name, by folder, by a folder holding them', () => {
  const names = (f: string[]) => selectWorkspaces(PACKAGES, f).map((w) => w.name);
  assert.equal(names(['b']), ['b']);
  assert.equal(names(['packages/c']), ['c']);
  assert.equal(names(['./packages/c/']), ['c']);
  assert.equal(names(['packages']), ['a', 'b', 'c', 'd', '@s/e']);
  assert.equal(names([]), ['a', 'b', 'c', 'd', '@s/e']);
  assert.equal(names(['nope']), []);
});

test("detectRunner: the root script's workspaces run, each workspace's runner from its own script", () => {
  const d = detect('npm test');
  assert.is(d.runner, undefined);
  assert.equal(
    d.workspaces?.members.map((m) => [m.name, m.detection?.runner]),
    [
      ['a', 'node'],
      ['b', 'mocha'],
      ['c', 'node'],
      ['d', undefined],
      ['@s/e', 'node'],
    ],
  );
  assert.is(
    d.why,
    'each workspace read with its own runner: npm runs "test" in 5 workspaces: a (node), b (mocha), c (node), d (no "test" script), @s/e (node)',
  );
  assert.equal(
    detect('npm run test -w b').workspaces?.members.map((m) => m.name),
    ['b'],
  );
  assert.equal(detect('npm test --workspace=packages/a --workspace c --if-present').workspaces?.ifPresent, true);
  // Without workspaces declared: as before, the exit code decides (and says so).
  assert.match(detect('npm test -ws', null).why, /an npm workspaces run, not followed/);
  assert.match(detect('npm test -w nope').why, /no workspace matches --workspace=nope/);
  // A runner of its own beside the workspaces run: not read workspace by workspace.
  assert.is(detect('node --test && npm test -ws').workspaces, undefined);
});

for (const npm of ['npm11', 'npm10']) {
  test(`splitWorkspaces (${npm}): a segment per workspace, npm's error blocks named`, () => {
    const split = splitWorkspaces(
      outputLines(capture(`${npm}-workspaces`)),
      'test',
      PACKAGES.map((p) => ({
        name: p.name,
        ...(p.id && { id: p.id }),
        hasScript: p.scripts.test !== undefined,
        ...(p.scripts.test !== undefined && { script: p.scripts.test }),
      })),
    );
    assert.ok(!('why' in split));
    const seg = split as Exclude<typeof split, { why: string }>;
    assert.ok(seg.get('a')!.ran && seg.get('a')!.failed === undefined);
    assert.ok(seg.get('a')!.lines.includes('# pass 1'));
    assert.is(seg.get('b')!.failed?.code, 2);
    assert.ok(seg.get('b')!.lines.some((l) => /2 failing/.test(l)));
    assert.ok(!seg.get('b')!.lines.some((l) => /^npm error/.test(l)), 'the error block is left out');
    assert.is(seg.get('c')!.failed?.code, 1);
    assert.ok(!seg.get('c')!.lines.some((l) => /2 failing/.test(l)));
    assert.is(seg.get('d')!.failed?.missingScript, true);
    assert.is(seg.get('d')!.ran, false);
    // No version: npm's banner is `> test`, told by order.
    assert.ok(seg.get('@s/e')!.ran);
    assert.ok(seg.get('@s/e')!.lines.includes('# tests 0'));
  });

  test(`classify (${npm}): the failed test caught, named by workspace, and the workspaces that could not run said`, () => {
    const c = judge('npm test --workspaces', 1, capture(`${npm}-workspaces`));
    assert.is(c.verdict, 'caught');
    assert.ok(c.proven);
    assert.ok(c.reason!.startsWith('workspace b: mocha: `2 failing`'), c.reason);
    assert.match(
      c.reason!,
      /workspace c: a test file failed outside any test: `Error: Cannot find module '\.\/nope'`; `npm run test -w c` runs it alone/,
    );
    assert.match(
      c.reason!,
      /workspace d: it has no "test" script, and npm fails the run for it: add one to its package.json, or run npm with --if-present/,
    );
    assert.match(c.reason!, /workspace @s\/e: no tests ran: `# tests 0`/);
  });
}

test("splitWorkspaces: packages without a version (npm's banner is `> test`): the root's banner is not taken for the first workspace's", () => {
  const split = splitWorkspaces(outputLines(capture('npm11-no-versions')), 'test', [
    { name: 'x', hasScript: true, script: 'node --test' },
    { name: 'y', hasScript: true, script: 'node --test' },
  ]);
  assert.ok(!('why' in split), JSON.stringify(split));
  const seg = split as Exclude<typeof split, { why: string }>;
  assert.ok(seg.get('x')!.lines.includes('# fail 0'));
  assert.ok(!seg.get('x')!.lines.includes('# fail 1'));
  assert.ok(seg.get('y')!.lines.includes('# fail 1'));
  assert.is(seg.get('y')!.failed?.code, 1);
  const ws: Workspaces = {
    root: { dir: '.', name: 'root', scripts: { test: 'npm test --workspaces' } },
    list: [
      { dir: 'packages/x', name: 'x', scripts: { test: 'node --test' } },
      { dir: 'packages/y', name: 'y', scripts: { test: 'node --test' } },
    ],
  };
  const detection = detect('npm test', ws);
  const c = classify(
    { exitCode: 1, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: capture('npm11-no-versions') },
    [1],
    30,
    { output: { detection } },
  );
  assert.is(c.verdict, 'caught');
  assert.is(c.reason, 'workspace y: node: `# fail 1`');
});

test("classify: a workspace's script killed (npm's `npm error code 137`): an error naming it", () => {
  const ws: Workspaces = {
    root: { dir: '.', name: 'root', scripts: {} },
    list: [{ dir: 'packages/k', name: 'k', id: 'k@1.0.0', scripts: { test: 'node -e "process.kill(process.pid, 9)"' } }],
  };
  const c = classify(
    { exitCode: 137, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: capture('npm11-killed') },
    [1],
    30,
    { output: { detection: detect('npm test -ws', ws) } },
  );
  assert.is(c.verdict, 'error');
  assert.match(c.reason!, /^workspace k: exit 137: killed \(SIGKILL\), often out of memory/);
});

test('classify: a workspace whose file cannot load is an error named by workspace, not a catch', () => {
  const c = judge('npm test -w a -w c', 1, capture('npm11-a-c'));
  assert.is(c.verdict, 'error');
  assert.is(
    c.reason,
    "workspace c: a test file failed outside any test: `Error: Cannot find module './nope'`; `npm run test -w c` runs it alone",
  );
});

test('classify: a workspace that ran no test is an error (allowNoTests makes it a pass)', () => {
  const out = capture('npm11-a-e');
  const e = judge('npm test -w a -w packages/e', 0, out);
  assert.is(e.verdict, 'error');
  assert.match(e.reason!, /^workspace @s\/e: no tests ran: `# tests 0`; if that is expected, set `allowNoTests: true` on the tier/);
  const allowed = judge('npm test -w a -w packages/e', 0, out, true);
  assert.is(allowed.verdict, 'pass');
  assert.is(judge('npm test -w a', 0, capture('npm11-a')).verdict, 'pass');
});

test('classify: --silent prints no banner: no verdict by workspace, and the reason says how to get one', () => {
  const c = judge('npm test --workspaces --if-present -s', 1, capture('npm11-silent'));
  assert.is(c.verdict, 'error');
  assert.match(c.reason!, /npm printed no `> NAME test` banner .*drop --silent/);
});

test('classify: every workspace passed but npm failed: an error, not a pass', () => {
  const c = judge('npm test -w a', 1, capture('npm11-a'));
  assert.is(c.verdict, 'error');
  assert.match(c.reason!, /^exit 1, though every workspace's output reads as passed \(a\)/);
});

const MISSING_D = [
  'npm error Lifecycle script `test` failed with error:',
  'npm error workspace d@1.0.0',
  'npm error location /tmp/ws-exp/packages/d',
  'npm error Missing script: "test"',
  'npm error',
  'npm error To see a list of scripts, run:',
  'npm error   npm run --workspace=d@1.0.0',
].join('\n');
const NO_SCRIPT_D =
  'workspace d: it has no "test" script, and npm fails the run for it: add one to its package.json, or run npm with --if-present to skip it';

test('classify: a workspace without the script fails the run (not applicable); with --if-present none ran, an error unless allowNoTests', () => {
  assert.equal(judge('npm test -w d', 1, MISSING_D), { verdict: 'error', reason: NO_SCRIPT_D, inapplicable: true });
  assert.equal(judge('npm test -w d --if-present', 0, ''), {
    verdict: 'error',
    reason:
      'no workspace of the run has a "test" script, so npm ran no test; add the script to the workspaces, or set `allowNoTests: true` on the tier if that is expected',
  });
  assert.equal(judge('npm test -w d --if-present', 0, '', true), {
    verdict: 'pass',
    reason: 'no workspace of the run has a "test" script, so npm ran no test (allowed by `allowNoTests`)',
  });
});

test('classify: a proven catch names the workspace and, besides, every error; a pass carries the notes of the workspaces that have one', () => {
  assert.equal(judge('npm test --workspaces', 1, capture('npm11-workspaces')), {
    verdict: 'caught',
    proven: true,
    reason: `workspace b: mocha: \`2 failing\`; besides, workspace c: a test file failed outside any test: \`Error: Cannot find module './nope'\`; \`npm run test -w c\` runs it alone; ${NO_SCRIPT_D}; workspace @s/e: no tests ran: \`# tests 0\`; if that is expected, set \`allowNoTests: true\` on the tier; \`npm run test -w @s/e\` runs it alone`,
  });
  assert.equal(judge('npm test -w a -w packages/e', 0, capture('npm11-a-e'), true), {
    verdict: 'pass',
    reason: 'workspace @s/e: no tests ran (allowed by `allowNoTests`): `# tests 0`',
  });
});

test('classify: a workspace whose script no runner reads is caught by its own exit code, which the reason names', () => {
  const ws: Workspaces = {
    root: { dir: '.', name: 'root', scripts: {} },
    list: [{ dir: 'packages/f', name: 'f', id: 'f@1.0.0', scripts: { test: 'sh t.sh' } }],
  };
  const tail = [
    '',
    '> f@1.0.0 test',
    '> sh t.sh',
    '',
    'checking',
    'npm error Lifecycle script `test` failed with error:',
    'npm error code 3',
    'npm error path /tmp/ws-exp/packages/f',
    'npm error workspace f@1.0.0',
    'npm error location /tmp/ws-exp/packages/f',
    'npm error command failed',
    'npm error command sh -c sh t.sh',
  ].join('\n');
  const c = classify({ exitCode: 1, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1, 3], 30, {
    output: { detection: detect('npm test -ws', ws) },
  });
  assert.equal(c, { verdict: 'caught', reason: 'workspace f: exit 3' });
});

test('classify: a workspace without the script is an error only when npm failed the run; --if-present skips it; mixed errors are not all inapplicable', () => {
  const ac = capture('npm11-a-c');
  const c = "workspace c: a test file failed outside any test: `Error: Cannot find module './nope'`; `npm run test -w c` runs it alone";
  assert.equal(judge('npm test -w a -w c -w d --if-present', 1, ac), { verdict: 'error', reason: c });
  assert.equal(judge('npm test -w c -w d', 1, `${ac}\n${MISSING_D}`), { verdict: 'error', reason: `${c}; ${NO_SCRIPT_D}` });
  const a = capture('npm11-a');
  assert.equal(judge('npm test -w a -w d', 0, a), { verdict: 'pass' });
  assert.equal(judge('npm test -w a -w d', 1, a), { verdict: 'error', reason: NO_SCRIPT_D });
});

const blockFor = (dir: string, id: string, status: string, command: string) =>
  [
    'npm error Lifecycle script `test` failed with error:',
    ...(status.startsWith('signal') ? [] : [`npm error ${status}`]),
    `npm error path /tmp/ws-exp/${dir}`,
    `npm error workspace ${id}`,
    `npm error location /tmp/ws-exp/${dir}`,
    'npm error command failed',
    ...(status.startsWith('signal') ? [`npm error ${status}`] : []),
    `npm error command sh -c ${command}`,
  ].join('\n');

test('classify: a workspace npm printed no banner for (beside one it did) is an error saying so, with its error line when npm failed it', () => {
  const a = capture('npm11-a');
  const noBanner = (failed: boolean) =>
    'workspace b: npm printed no `> b@1.0.0 test` banner for it, so its script is not known to have run' +
    (failed ? ': `npm error Lifecycle script `test` failed with error:`' : '') +
    '; `npm run test -w b` runs it alone';
  assert.equal(
    judge('npm test -w a -w b', 1, `${a}\n${blockFor('packages/b', 'b@1.0.0', 'code 2', 'node_modules/.bin/mocha b.test.js')}`),
    {
      verdict: 'error',
      reason: noBanner(true),
    },
  );
  assert.equal(judge('npm test -w a -w b', 0, a), { verdict: 'error', reason: noBanner(false) });
});

test("classify: a workspace's exit code counts by its runner only under `caughtByRunner` (mocha's 2 for two failures); else by the tier's `caught`", () => {
  const out = capture('npm11-workspaces');
  const run = (caughtByRunner: boolean) =>
    classify({ exitCode: 1, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: out }, [1], 30, {
      output: { detection: detect('npm test --workspaces'), ...(caughtByRunner && { caughtByRunner }) },
    });
  assert.equal([run(true).verdict, run(true).proven], ['caught', true]);
  const own = run(false);
  assert.is(own.verdict, 'error');
  assert.ok(own.reason!.startsWith('workspace b: exit 2 '), own.reason);
  assert.match(
    own.reason!,
    "which this tier does not count as a test failure (`caught`: 1), though mocha counts failed tests: `2 failing`; if exit 2 means a test failed, add it to the tier's `caught`; `npm run test -w b` runs it alone; ",
  );
});

test("classify: a workspace's script killed by a signal (npm's `npm error signal`): an error naming the signal", () => {
  const ws: Workspaces = {
    root: { dir: '.', name: 'root', scripts: {} },
    list: [{ dir: 'packages/k', name: 'k', id: 'k@1.0.0', scripts: { test: 'node --test' } }],
  };
  const tail = `\n> k@1.0.0 test\n> node --test\n\nTAP version 13\n${blockFor('packages/k', 'k@1.0.0', 'signal SIGKILL', 'node --test')}`;
  const c = classify({ exitCode: 1, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1], 30, {
    output: { detection: detect('npm test -ws', ws) },
  });
  assert.equal(c, { verdict: 'error', reason: 'workspace k: killed by SIGKILL; `npm run test -w k` runs it alone' });
});

test.run();
