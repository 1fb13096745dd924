import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../src/config/load.js';
import { lintStagedNext } from '../../src/lint-staged/messages.js';
import { configCause, lintStagedExit, majorOf, spawnFailureOf, lintStagedOptions, unreadableConfig } from '../../src/lint-staged/tier.js';
import { backupStashes, guardStashes } from '../../src/lint-staged/stash.js';
import { classify } from '../../src/verdict/verdict.js';

const red = (s: string) => `\u001b[31m${s}\u001b[39m`;

/** What lint-staged returned (or threw) and printed → verdict and reason, through the usual classifier. */
const cases: { title: string; outcome: { ok: boolean } | { threw: string }; said?: string[]; verdict: string; reason?: RegExp }[] = [
  { title: 'tasks passed', outcome: { ok: true }, verdict: 'pass' },
  {
    title: 'no staged files matched: lint-staged passes',
    outcome: { ok: true },
    said: ['→ lint-staged could not find any staged files matching configured tasks.'],
    verdict: 'pass',
  },
  {
    title: 'a task failed: caught',
    outcome: { ok: false },
    said: ['', red('✖ sh check-file.sh:'), 'src/value.txt: value is buggy'],
    verdict: 'caught',
  },
  {
    title: 'fail-on-changes: a task changed files, caught',
    outcome: { ok: false },
    said: ['\n✖ lint-staged failed because `--fail-on-changes` was used.'],
    verdict: 'caught',
  },
  {
    title: 'no configuration',
    outcome: { ok: false },
    said: ['✖ lint-staged could not find any valid configuration.'],
    verdict: 'error',
    reason: /no lint-staged configuration found/,
  },
  {
    title: 'a git error (colored)',
    outcome: { ok: false },
    said: [`\n  ${red('✖ lint-staged failed due to a git error.')}`],
    verdict: 'error',
    reason: /git error/,
  },
  {
    title: 'not a git repository',
    outcome: { ok: false },
    said: [red('✖ Current directory is not a git directory!')],
    verdict: 'error',
    reason: /not running in a git repository/,
  },
  {
    title: 'staged files could not be listed',
    outcome: { ok: false },
    said: [red('✖ Failed to get staged files!')],
    verdict: 'error',
    reason: /could not list the staged files/,
  },
  {
    title: 'unstaged changes could not be restored',
    outcome: { ok: false },
    said: ['Unstaged changes have been kept back in a patch file:', '/r/.git/lint-staged_unstaged.patch'],
    verdict: 'error',
    reason: /could not restore the unstaged changes/,
  },
  {
    title: 'empty commit prevented',
    outcome: { ok: false },
    said: ['\n  ⚠ lint-staged prevented an empty git commit.\n  Use the --allow-empty option to continue'],
    verdict: 'error',
    reason: /prevented an empty commit/,
  },
  {
    title: 'a task command not found',
    outcome: { ok: false },
    said: [red('\n✖ Task failed to spawn: eslintt'), 'ENOENT'],
    verdict: 'error',
    reason: /task could not start: eslintt/,
  },
  {
    title: 'a task that failed without a word (16.3 on: "failed to spawn" with no error code): caught',
    outcome: { ok: false },
    said: [red('\n✖ Task failed to spawn: false'), 'undefined'],
    verdict: 'caught',
  },
  {
    title: 'a task that failed without a word (13 to 16.2): caught',
    outcome: { ok: false },
    said: [red('\n✖ false failed without output (FAILED).')],
    verdict: 'caught',
  },
  {
    title: 'a task command not found (13 to 16.2): error',
    outcome: { ok: false },
    said: [red('\n✖ eslintt failed without output (ENOENT).')],
    verdict: 'error',
    reason: /task could not start: eslintt: `eslintt` is not found \(ENOENT\)/,
  },
  {
    title: 'a task command not found (16.2.7: "failed to spawn:" and the error): error',
    outcome: { ok: false },
    said: [
      red('\n✖ gl-nosuch failed to spawn:'),
      'Command failed: gl-nosuch /r/a.txt',
      "Error: spawn gl-nosuch ENOENT\n    at ChildProcess._handle.onexit (node:internal/child_process:285:19) {\n  errno: -2,\n  code: 'ENOENT',\n}",
    ],
    verdict: 'error',
    reason: /task could not start: gl-nosuch: `gl-nosuch` is not found \(ENOENT\)/,
  },
  {
    title: 'a task script that is not executable: error',
    outcome: { ok: false },
    said: [red('\n✖ Task failed to spawn: ./lint.sh'), 'EACCES'],
    verdict: 'error',
    reason: /`\.\/lint\.sh` is not executable \(EACCES\)/,
  },
  {
    title: 'lint-staged 17 refuses intent-to-add files: error',
    outcome: { ok: false },
    said: [`${red('✖ lint-staged refused to run with files staged with "--intent-to-add":')}\n\n- /r/new.txt\n`],
    verdict: 'error',
    reason: /refuses to run while files are staged with `git add -N`/,
  },
  {
    title: 'lint-staged 17 on a git older than 2.32: error',
    outcome: { ok: false },
    said: [red('✖ lint-staged requires at least Git version 2.32.0.')],
    verdict: 'error',
    reason: /older than lint-staged needs/,
  },
  {
    title: 'lint-staged 17 throws a Validation Error (16 said it): read alike',
    outcome: { threw: `${red('✖ Validation Error:')}` },
    verdict: 'error',
    reason: /lint-staged could not run: its configuration or options are invalid/,
  },
  {
    title: 'a config file that fails to load throws',
    outcome: { threw: 'Unexpected token' },
    verdict: 'error',
    reason: /lint-staged could not run: Unexpected token/,
  },
  {
    title: 'lint-staged missing',
    outcome: { threw: 'lint-staged is not installed next to gate-ladder' },
    verdict: 'error',
    reason: /lint-staged is not installed/,
  },
  {
    title: 'a task interrupted (Ctrl-C)',
    outcome: { ok: false },
    said: [red('\n✖ Task interrupted: sleep 10')],
    verdict: 'error',
    reason: /interrupted/,
  },
];

for (const c of cases) {
  test(`lint-staged: ${c.title} → ${c.verdict}`, () => {
    const exit = { signal: null, timedOut: false, seconds: 0, tail: '', ...lintStagedExit(c.outcome, c.said ?? []) };
    const { verdict, reason } = classify(exit, [1], 600);
    assert.is(verdict, c.verdict);
    if (c.reason) assert.match(reason ?? '', c.reason);
  });
}

test("lintStagedNext: each lint-staged error's next step is what to fix, not the tier", () => {
  const next = (said: string[], outcome: { ok: boolean } | { threw: string } = { ok: false }) =>
    lintStagedNext(lintStagedExit(outcome, said).spawnError ?? '');
  assert.match(next([red('\n✖ Task failed to spawn: eslintt'), 'ENOENT']) ?? '', /^Install `eslintt`.*lint-staged's configuration/);
  assert.match(next([red('\n✖ Task failed to spawn: ./l.sh'), 'EACCES']) ?? '', /^Make `\.\/l\.sh` executable/);
  assert.match(next(['✖ lint-staged could not find any valid configuration.']) ?? '', /configPath/);
  assert.match(next([], { threw: 'lint-staged is not installed next to gate-ladder' }) ?? '', /npm i -D lint-staged/);
  assert.match(next(['Unstaged changes have been kept back in a patch file:', '/r/x.patch']) ?? '', /git apply/);
  assert.match(next([], { threw: 'Unexpected token' }) ?? '', /npx lint-staged --debug/);
  for (const said of [
    ['✖ lint-staged could not find any valid configuration.'],
    [red('✖ Failed to get staged files!')],
    ['\n  ⚠ lint-staged prevented an empty git commit.'],
    [red('✖ Validation Error:')],
  ])
    assert.not.match(next(said) ?? 'none', /Fix the tier/);
  assert.is(lintStagedNext('exit 2: tsc found errors'), undefined, "a command tier's reason is not lint-staged's");
});

test('spawnFailureOf: the spawn error lint-staged 16.0-16.2 leave unhandled, and nothing else', () => {
  const enoent = Object.assign(new Error('spawn gl-nosuch ENOENT'), { code: 'ENOENT', syscall: 'spawn gl-nosuch', path: 'gl-nosuch' });
  assert.equal(spawnFailureOf(new Error('Command failed: gl-nosuch /r/a.txt', { cause: enoent })), {
    command: 'gl-nosuch',
    code: 'ENOENT',
  });
  assert.is(spawnFailureOf(new Error('boom')), undefined);
  assert.is(spawnFailureOf(new Error('x', { cause: { code: 'ENOENT', syscall: 'open' } })), undefined, 'a file not found is no spawn');
  assert.is(spawnFailureOf(null), undefined);
});

test('majorOf: the major version lint-staged names', () => {
  assert.is(majorOf('17.6.3'), 17);
  assert.is(majorOf('13.3.0'), 13);
  assert.ok(Number.isNaN(majorOf('next')));
});

test('lintStagedOptions: cwd and configPath resolve against the repository; lint-staged options pass through', () => {
  const [tier] = resolveConfig({
    tiers: [{ name: 'lint', lintStaged: { configPath: 'cfg/lint.json', hideUnstaged: true, concurrent: false }, cwd: 'pkg' }],
  }).tiers;
  assert.equal(lintStagedOptions(tier!, '/repo'), {
    hideUnstaged: true,
    concurrent: false,
    cwd: '/repo/pkg',
    configPath: '/repo/cfg/lint.json',
  });
});

test('lintStagedOptions: `lintStaged: true` is lint-staged with its defaults, in the repository root', () => {
  const [tier] = resolveConfig({ tiers: [{ name: 'lint', lintStaged: true }] }).tiers;
  assert.equal(lintStagedOptions(tier!, '/repo'), { cwd: '/repo' });
});

test('unreadableConfig: the file lint-staged names when it cannot read its config, through its colours', () => {
  assert.is(unreadableConfig(['', red('✖ Failed to read config from file "/repo/lint-staged.config.ts".')]), '/repo/lint-staged.config.ts');
  assert.is(unreadableConfig(['✖ lint-staged could not find any valid configuration.']), undefined);
});

const causes: { title: string; file: string; err: { code?: string; message: string }; typescript: boolean; says: string[] }[] = [
  {
    title: 'a .ts config on a Node that loads no TypeScript: its code and message, then rename or a newer Node',
    file: 'lint-staged.config.ts',
    err: { code: 'ERR_UNKNOWN_FILE_EXTENSION', message: 'Unknown file extension ".ts" for /repo/lint-staged.config.ts' },
    typescript: false,
    says: [
      'ERR_UNKNOWN_FILE_EXTENSION: Unknown file extension ".ts"',
      'rename lint-staged.config.ts to a .mjs file',
      'Node 22.18 or later',
    ],
  },
  {
    title: 'a .ts config with syntax a type-stripping Node refuses: write it without it',
    file: 'lint-staged.config.mts',
    err: { code: 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX', message: 'TypeScript enum is not supported in strip-only mode' },
    typescript: true,
    says: ['ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX: TypeScript enum', 'without enums'],
  },
  {
    title: 'a config that throws: its message, escaped, and to fix the file',
    file: 'lint-staged.config.mjs',
    err: { message: 'boom\u001b[2J\nsecond line' },
    typescript: false,
    says: ['could not be read: boom\\x1b[2J.', 'Fix lint-staged.config.mjs so that Node can import it'],
  },
];

for (const c of causes) {
  test(`configCause: ${c.title}`, () => {
    const why = configCause(c.file, c.err, c.typescript);
    assert.ok(why.startsWith(`its configuration ${c.file} could not be read: `), why);
    for (const part of c.says) assert.match(why, part);
    assert.not.match(why, '\u001b');
    assert.not.match(why, 'second line');
  });
}

test('lintStagedExit: an unreadable config is an error quoting the cause, not "see above"', () => {
  const said = ['✖ Failed to read config from file "lint-staged.config.mjs".'];
  const exit = lintStagedExit({ ok: false }, said, 'its configuration lint-staged.config.mjs could not be read: boom. Fix it');
  assert.is(exit.spawnError, 'lint-staged could not run: its configuration lint-staged.config.mjs could not be read: boom. Fix it');
  assert.match(lintStagedExit({ ok: false }, said).spawnError ?? '', 'npx lint-staged --debug');
});

test("backup stashes: lint-staged's and gate-ladder's own are told apart", () => {
  const list = [
    'stash@{0} 1111111111111111111111111111111111111111 On main: lint-staged automatic backup',
    'stash@{1} 2222222222222222222222222222222222222222 gate-ladder: before lint-staged, lint',
    'stash@{2} 3333333333333333333333333333333333333333 On main: wip',
  ].join('\n');
  assert.equal(backupStashes(list), [{ name: 'stash@{0}', sha: '1111111111111111111111111111111111111111' }]);
  assert.equal(guardStashes(list), [{ name: 'stash@{1}', sha: '2222222222222222222222222222222222222222' }]);
});

test.run();
