/**
 * pnpm's recursive runs: the options read off a command, pnpm-workspace.yaml's globs, the output cut by
 * package prefix and each part read with its own runner. The captures in
 * test/fixtures/runners/pnpm-workspaces/ are pnpm 9.15.9 (`pnpm10-*`: 10.34) on Node 20, stdout and
 * stderr into one file (the project's folder shown as /repo), over six packages: a (node --test,
 * passing), b (mocha, two failing), c (node --test, its file cannot load), d (no test script), @s/e (no
 * version, node --test finding no test file) and long (node --test, passing, in a folder long enough for
 * pnpm to cut its prefix to `.../a-folder-name-long-enough-to-be-cut`). `all-nobail`: `pnpm -r
 * --no-bail test`; `bail`: `pnpm -r test` (long is stopped when b fails); `parallel`: `pnpm -r
 * --parallel test`; `colour`: all-nobail with FORCE_COLOR=1; `hide-prefix`: with
 * `--reporter-hide-prefix`; `filter-b`, `filter-e`: `pnpm --filter b test` (one package: npm's banner,
 * bare lines); `filter-nope`: a filter matching nothing; `no-script`: `pnpm -r nosuch`; `pass`: `pnpm -r
 * test` with every fault fixed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse as parseYaml } from 'yaml';
import { type Workspaces, detectRunner } from '../../src/runners/detect.js';
import { readWorkspaces } from '../../src/runners/detect-io.js';
import { failedTestsOf, outputLines } from '../../src/verdict/runner-output.js';
import { caughtWorkspaces, classify } from '../../src/verdict/verdict.js';
import { pnpmRunArgs, pnpmWorkspacePatterns, splitPnpm } from '../../src/runners/pnpm-workspaces.js';
import type { WorkspacePackage } from '../../src/runners/workspaces.js';
import { allRecords } from '../../src/runners/index.js';

// Every runner's record, loaded as a run loads its tier's (runners/index.ts loadRecords).
await allRecords();

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/runners/pnpm-workspaces');
const capture = (name: string) => readFileSync(resolve(FIXTURES, `${name}.txt`), 'utf8');

const LONG = 'tools/a-folder-name-long-enough-to-be-cut';
const PACKAGES: WorkspacePackage[] = [
  { dir: 'packages/a', name: 'a', id: 'a@1.0.0', scripts: { test: 'node --test' } },
  { dir: 'packages/b', name: 'b', id: 'b@1.0.0', scripts: { test: 'mocha b.test.js' } },
  { dir: 'packages/c', name: 'c', id: 'c@1.0.0', scripts: { test: 'node --test' } },
  { dir: 'packages/d', name: 'd', id: 'd@1.0.0', scripts: { lint: 'true' } },
  { dir: 'packages/e', name: '@s/e', scripts: { test: 'node --test' } },
  { dir: LONG, name: 'long', id: 'long@1.0.0', scripts: { test: 'node --test' } },
];
const ROOT: WorkspacePackage = { dir: '.', name: 'root', id: 'root@1.0.0', scripts: { test: 'pnpm -r test' } };
const WORKSPACES: Workspaces = { root: ROOT, list: PACKAGES };

/** pnpm's packages for pnpm; npm's workspaces are none (the root declares none). */
const detect = (run: string, ws: Workspaces = WORKSPACES) =>
  detectRunner(
    run,
    undefined,
    () => ROOT.scripts,
    undefined,
    (m) => (m === 'pnpm' ? ws : null),
  );

function judge(run: string, code: number, fixture: string, allowNoTests = false) {
  const detection = detect(run);
  return classify({ exitCode: code, signal: null, timedOut: false, interrupted: false, seconds: 1, tail: capture(fixture) }, [1], 30, {
    output: { detection, allowNoTests, caughtByRunner: true },
  });
}

test('pnpmRunArgs: the recursive forms pnpm takes, and what is not one', () => {
  assert.equal(pnpmRunArgs(['-r', 'test']), { event: 'test' });
  assert.equal(pnpmRunArgs(['--recursive', 'run', 'test:unit']), { event: 'test:unit' });
  assert.equal(pnpmRunArgs(['run', '-r', 'test']), { event: 'test' });
  assert.equal(pnpmRunArgs(['--filter', 'b', 'test']), { event: 'test' });
  assert.equal(pnpmRunArgs(['-F', './packages/*', '--workspace-concurrency', '1', 'run', 'test']), { event: 'test' });
  assert.equal(pnpmRunArgs(['--filter=b...', 'lint']), { event: 'lint' });
  assert.equal(pnpmRunArgs(['-r', '--parallel', '--no-bail', '--reporter=append-only', 'test']), { event: 'test' });
  assert.match(pnpmRunArgs(['-r', '--reporter-hide-prefix', 'test'])!.unprefixed!, /--reporter-hide-prefix/);
  assert.match(pnpmRunArgs(['-r', '--silent', 'test'])!.unprefixed!, /--silent/);
  assert.match(pnpmRunArgs(['-r', '--reporter', 'silent', 'test'])!.unprefixed!, /--silent/);
  assert.match(pnpmRunArgs(['-C', 'sub', '-r', 'test'])!.elsewhere!, /^-C sub: /);
  // Options after the script's name are the script's; pnpm's own commands run no script.
  assert.is(pnpmRunArgs(['test', '-r']), undefined);
  assert.is(pnpmRunArgs(['test']), undefined);
  assert.is(pnpmRunArgs(['-r', 'exec', 'vitest']), undefined);
  assert.is(pnpmRunArgs(['-r', 'install']), undefined);
  assert.is(pnpmRunArgs(['-r', 'run']), undefined);
});

test("pnpmWorkspacePatterns: pnpm-workspace.yaml's packages as the yaml package reads them: block list, flow list, a flow list over several lines", () => {
  const patterns = (text: string) => pnpmWorkspacePatterns(parseYaml(text));
  assert.equal(patterns('packages:\n  - "packages/*"\n  - \'apps/**\' # apps\n  - tools/x\n  - "!**/test/**"\ncatalog:\n  react: ^18\n'), [
    'packages/*',
    'apps/**',
    'tools/x',
    '!**/test/**',
  ]);
  assert.equal(patterns('# a comment\npackages: ["packages/*", \'apps/*\']\n'), ['packages/*', 'apps/*']);
  assert.equal(patterns("packages: [\n  'a/*',\n  'b/*'\n]\n"), ['a/*', 'b/*']);
  assert.equal(patterns('packages:\n\n  # the libraries\n  - libs/*\nonlyBuiltDependencies: []\n'), ['libs/*']);
  assert.is(patterns('catalog:\n  react: ^18\n'), undefined);
  assert.is(pnpmWorkspacePatterns(null), undefined, 'an empty file');
});

test('readWorkspaces: a multi-line flow list in pnpm-workspace.yaml lists its packages (the yaml package, loaded on demand)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-pnpm-ws-'));
  try {
    for (const [path, text] of [
      ['package.json', '{"name":"root","scripts":{"test":"pnpm -r test"}}'],
      ['pnpm-workspace.yaml', "packages: [\n  'a/*',\n  'b/*'\n]\n"],
      ['a/one/package.json', '{"name":"one","scripts":{"test":"jest"}}'],
      ['b/two/package.json', '{"name":"two","scripts":{"test":"vitest run"}}'],
    ] as const) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    assert.equal(
      (await readWorkspaces(dir, 'pnpm'))?.list.map((w) => w.name),
      ['one', 'two'],
    );
    writeFileSync(join(dir, 'pnpm-workspace.yaml'), 'packages: [a/*\n');
    assert.is(await readWorkspaces(dir, 'pnpm'), null, 'YAML that does not parse declares nothing');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("detectRunner: the root script's pnpm -r run, each package's runner from its own script", () => {
  const d = detect('pnpm test');
  assert.is(d.runner, undefined);
  assert.is(d.workspaces?.manager, 'pnpm');
  assert.equal(
    d.workspaces?.members.map((m) => [m.name, m.detection?.runner]),
    [
      ['a', 'node'],
      ['b', 'mocha'],
      ['c', 'node'],
      ['d', undefined],
      ['@s/e', 'node'],
      ['long', 'node'],
    ],
  );
  assert.is(
    d.why,
    'each workspace read with its own runner: pnpm runs "test" in the packages it selects of 6: a (node), b (mocha), c (node), d (no "test" script), @s/e (node), long (node)',
  );
  assert.is(detect('pnpm --filter b test').workspaces?.manager, 'pnpm');
  // No pnpm-workspace.yaml: as before, the exit code decides (and says so).
  assert.match(
    detect('pnpm -r test', null).why,
    /^a pnpm recursive run, not followed \(no pnpm-workspace\.yaml here lists the packages to read\): judged by exit code/,
  );
  assert.match(detect('pnpm -C sub -r test').why, /not followed \(-C sub: pnpm runs in another folder/);
  // npm's workspaces run is npm's still.
  assert.is(
    detectRunner(
      'npm test -ws',
      undefined,
      () => ({}),
      undefined,
      (m) => (m === 'npm' ? WORKSPACES : null),
    ).workspaces?.manager,
    'npm',
  );
});

const MEMBERS = PACKAGES.map((p) => ({ name: p.name, ...(p.id && { id: p.id }), dir: p.dir }));

for (const fixture of ['pnpm9-all-nobail', 'pnpm10-all-nobail', 'pnpm9-colour']) {
  test(`splitPnpm (${fixture}): a segment per package that ran, by its prefix (cut ones too), with its exit status`, () => {
    const split = splitPnpm(outputLines(capture(fixture)), 'test', MEMBERS, 1);
    assert.ok(!('why' in split), JSON.stringify(split));
    const seg = split as Exclude<typeof split, { why: string }>;
    assert.equal([...seg.keys()].sort(), ['@s/e', 'a', 'b', 'c', 'long']);
    assert.ok(seg.get('a')!.ran && seg.get('a')!.failed === undefined);
    assert.ok(seg.get('a')!.lines.includes('# pass 1'));
    assert.is(seg.get('b')!.failed?.code, 2);
    assert.ok(seg.get('b')!.lines.includes('  2 failing'));
    assert.ok(!seg.get('a')!.lines.some((l) => /failing/.test(l)), 'interleaved lines go to their own package');
    assert.is(seg.get('c')!.failed?.code, 1);
    assert.ok(seg.get('@s/e')!.lines.includes('# tests 0'));
    assert.ok(seg.get('long')!.lines.includes('# pass 1'));
    assert.ok(!seg.get('long')!.stopped);
  });

  test(`classify (${fixture}): the failed test caught, named by package, and the packages that could not run said`, () => {
    const c = judge('pnpm -r --no-bail test', 1, fixture);
    assert.is(c.verdict, 'caught');
    assert.ok(c.proven);
    assert.ok(c.reason!.startsWith('workspace b: mocha: `2 failing`; besides, '), c.reason);
    assert.match(
      c.reason!,
      /workspace c: a test file failed outside any test: `Error: Cannot find module '\.\/nope'`; `pnpm --filter c test` runs it alone/,
    );
    assert.match(c.reason!, /workspace @s\/e: no tests ran: `# tests 0`/);
    assert.not.match(c.reason!, /workspace (?:a|d|long):/);
  });
}

test('classify: every package passes (pnpm -r test): pass', () => {
  const c = judge('pnpm -r test', 0, 'pnpm9-pass');
  assert.is(c.verdict, 'pass', c.reason);
  assert.is(c.reason, undefined);
});

test('classify: a package that cannot load and one that runs no test, without a failed test: an error naming both, not a pass or a catch', () => {
  // The passing capture with b's part taken out: c's and @s/e's parts from the failing run put in.
  const failing = outputLines(capture('pnpm9-all-nobail')).filter((l) => /^packages\/(?:c|e) test/.test(l));
  const passing = outputLines(capture('pnpm9-pass')).filter((l) => /^(?:packages\/a|\.\.\.)/.test(l));
  const tail = [...passing, ...failing, '/repo/packages/c:', ' ERROR  c@1.0.0 test: `node --test`', 'Exit status 1'].join('\n');
  const c = classify({ exitCode: 1, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1], 30, {
    output: { detection: detect('pnpm -r test'), caughtByRunner: true },
  });
  assert.is(c.verdict, 'error');
  assert.match(c.reason!, /^workspace c: a test file failed outside any test/);
  assert.match(c.reason!, /; workspace @s\/e: no tests ran: `# tests 0`; .*; `pnpm --filter @s\/e test` runs it alone$/);
  // Exit 0 with a package that ran no test (its segment alone): still an error.
  const zero = classify(
    {
      exitCode: 0,
      signal: null,
      timedOut: false,
      interrupted: false,
      seconds: 1,
      tail: [...passing, ...failing.filter((l) => l.startsWith('packages/e'))].join('\n'),
    },
    [1],
    30,
    { output: { detection: detect('pnpm -r test') } },
  );
  assert.is(zero.verdict, 'error');
  assert.match(zero.reason!, /^workspace @s\/e: no tests ran/);
});

for (const [fixture, code] of [
  ['pnpm9-bail', 2],
  ['pnpm9-parallel', 1],
] as const) {
  test(`classify (${fixture}): pnpm stops at the first failure: the catch named, the package it stopped said, not an error`, () => {
    const split = splitPnpm(outputLines(capture(fixture)), 'test', MEMBERS, code);
    const seg = split as Exclude<typeof split, { why: string }>;
    assert.ok(seg.get('long')!.stopped);
    const c = judge('pnpm -r test', code, fixture);
    assert.is(c.verdict, 'caught');
    assert.ok(c.reason!.startsWith('workspace b: mocha: `2 failing`'), c.reason);
    assert.ok(c.reason!.endsWith('; pnpm stopped long at the first failure'), c.reason);
  });
}

test("classify: one package selected (pnpm's banner, bare lines): read with its runner", () => {
  const b = judge('pnpm --filter b test', 2, 'pnpm9-filter-b');
  assert.is(b.verdict, 'caught');
  assert.is(b.reason, 'workspace b: mocha: `2 failing`');
  const e = judge('pnpm --filter @s/e test', 0, 'pnpm9-filter-e');
  assert.is(e.verdict, 'error');
  assert.is(
    e.reason,
    'workspace @s/e: no tests ran: `# tests 0`; if that is expected, set `allowNoTests: true` on the tier; `pnpm --filter @s/e test` runs it alone',
  );
  assert.is(judge('pnpm --filter @s/e test', 0, 'pnpm9-filter-e', true).verdict, 'pass');
});

test('classify: pnpm ran no script (a filter matching nothing, no package with the script): an error at exit 0', () => {
  assert.equal(judge('pnpm --filter nope test', 0, 'pnpm9-filter-nope'), {
    verdict: 'error',
    reason:
      'pnpm ran no "test" script: `No projects matched the filters in "/repo"`; check the --filter, or add the script to the packages (set `allowNoTests: true` on the tier if that is expected)',
    inapplicable: true,
  });
  const none = judge('pnpm -r nosuch', 0, 'pnpm9-no-script');
  assert.is(none.verdict, 'error');
  assert.match(none.reason!, /^pnpm ran no "nosuch" script: `None of the selected packages has a "nosuch" script`/);
  assert.is(judge('pnpm -r nosuch', 0, 'pnpm9-no-script', true).verdict, 'pass');
});

test('classify: lines without the prefix (--reporter-hide-prefix, as an option or in .npmrc): not cut, the exit code decides and the reason says so', () => {
  const opt = judge('pnpm -r --no-bail --reporter-hide-prefix test', 1, 'pnpm9-hide-prefix');
  assert.is(opt.verdict, 'error');
  assert.match(
    opt.reason!,
    /^exit 1, and no workspace is known to have failed a test: --reporter-hide-prefix: .*; drop the option so pnpm prefixes each line/,
  );
  // Set in .npmrc, the command does not say it: told from the output.
  const rc = judge('pnpm -r --no-bail test', 1, 'pnpm9-hide-prefix');
  assert.is(rc.verdict, 'error');
  assert.match(rc.reason!, /without their `DIR test: ` prefix \(reporter-hide-prefix\?\)/);
  const passed = judge('pnpm -r test', 0, 'pnpm9-hide-prefix');
  assert.is(passed.verdict, 'pass');
  assert.match(passed.reason!, /^exit 0, not read workspace by workspace: /);
});

test('classify: pnpm stopped several packages at the first failure: each named', () => {
  // The bail capture with a's `Done` taken out: a was still running too when b failed.
  const tail = capture('pnpm9-bail').replace('packages/a test: Done\n', '');
  const c = classify({ exitCode: 2, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, [1], 30, {
    output: { detection: detect('pnpm -r test'), caughtByRunner: true },
  });
  assert.is(c.verdict, 'caught');
  assert.ok(c.reason!.endsWith('; pnpm stopped a, long at the first failure'), c.reason);
});

test("classify: a package pnpm ran whose package.json, as read, has no such script: judged by pnpm's exit status for it, no runner read", () => {
  const tail = [
    'Scope: 6 of 7 workspace projects',
    'packages/d test$ sh t.sh',
    'packages/d test: checking',
    'packages/d test: Failed',
    '/repo/packages/d:',
    ' ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  d@1.0.0 test: `sh t.sh`',
    'Exit status 3',
  ].join('\n');
  const at = (caught: number[]) =>
    classify({ exitCode: 3, signal: null, timedOut: false, interrupted: false, seconds: 1, tail }, caught, 30, {
      output: { detection: detect('pnpm -r test') },
    });
  assert.equal(at([1, 3]), { verdict: 'caught', reason: 'workspace d: exit 3' });
  assert.equal(at([1]), {
    verdict: 'error',
    reason:
      "workspace d: exit 3, which this tier does not count as a test failure; if exit 3 means a test failed, add it to the tier's `caught`, or set the tier's `runner` so its output is read; `pnpm --filter d test` runs it alone",
  });
});

test("caughtWorkspaces: a recursive run's catch is read for failed tests in the package that caught it only, from its folder (c, which cannot load, is left out)", () => {
  const detection = detect('pnpm -r --no-bail test');
  const run = detection.workspaces!;
  const output = { detection, allowNoTests: false, caughtByRunner: true };
  for (const fixture of ['pnpm9-all-nobail', 'pnpm10-all-nobail']) {
    const caught = caughtWorkspaces(run, capture(fixture), 1, [1], 30, output);
    assert.equal(
      caught.map((w) => [w.dir, w.runner]),
      [['packages/b', 'mocha']],
      fixture,
    );
    const failures = failedTestsOf(caught[0]!.runner, caught[0]!.text, { root: '/repo', base: caught[0]!.dir });
    assert.equal(
      failures.map((f) => [f.file, f.line]),
      [
        ['packages/b/b.test.js', 2],
        ['packages/b/b.test.js', 3],
      ],
      fixture,
    );
  }
  assert.equal(caughtWorkspaces(run, capture('pnpm9-pass'), 0, [1], 30, output), [], 'a run that passed');
});

test.run();
