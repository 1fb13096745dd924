/**
 * Issue 16, points 3, 8, 9, 11 and 12, through real pushes: a config that never settles, exits or
 * loops; a timeout past Node's timers; install over another tool's hooks folder; control characters
 * in names; a tier folder that does not exist. Issue 33, point 7: a config kept alive (a timer, a
 * loop) costs one limit per push, not one per load, and what it started does not outlive the push.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nodeTest, test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { CHECK_SH, type Repo, withRepo } from '../helpers/repo.js';
import { alive, killQuietly } from './wait.js';

const BASE = { 'check.sh': CHECK_SH, 'src/value.txt': 'good\n' };
const gatesRan = (out: string) => / running \(timeout /.test(out);

/** Pushes a change under `config` (committed with it); returns the push. */
function pushWith(repo: Repo, config: string, env: Record<string, string> = {}) {
  repo.write('gate-ladder.config.ts', config);
  repo.write('src/value.txt', `good ${Math.random()}\n`);
  repo.commit('change');
  return repo.push(['origin', 'HEAD'], env);
}

/**
 * Each ends the config's worker thread (src/config/load-worker.ts) another way, and how a worker ends
 * is Node's: Node-sensitive (nodeTest), all but the loop, whose terminated worker the kept-alive loop
 * below shows on every Node too, at one limit's cost instead of two (a loop spins a core until then).
 */
const HOSTILE: [string, string, typeof nodeTest][] = [
  ['a default export that never settles', 'export default new Promise(() => {});\n', nodeTest],
  [
    'a top-level await that never resolves',
    "await new Promise(() => {});\nexport default { tiers: [{ name: 't1', run: 'true' }] };\n",
    nodeTest,
  ],
  ['process.exit(0) while loading', "process.exit(0);\nexport default { tiers: [{ name: 't1', run: 'true' }] };\n", nodeTest],
  ['an endless loop', "while (true) {}\nexport default { tiers: [{ name: 't1', run: 'true' }] };\n", test],
];

for (const [what, config, declare] of HOSTILE) {
  declare(`a config with ${what} blocks the push with an error naming the file; no gate runs, no row`, () =>
    withRepo({ files: BASE }, (repo) => {
      const r = pushWith(repo, config, { GATE_LADDER_CONFIG_TIMEOUT: '5' });
      assert.is(r.code, 1, r.out); // git push fails when the hook does
      // The pushed commit's own config judges it (config-at.ts): the block names the commit it came from.
      assert.match(
        r.out,
        /gate-ladder: push blocked: refs\/heads\/main: the config has 1 problem \(as committed at [0-9a-f]{12}\); no gate ran for it:/,
      );
      assert.match(
        r.out,
        /- gate-ladder\.config\.ts: (never finished loading|ended the process while loading|did not finish loading within 5 s)/,
      );
      assert.match(r.out, 'GATE_LADDER=0 git push');
      assert.not.ok(gatesRan(r.out), r.out);
      assert.equal(repo.ledger(), []);
      assert.is(repo.git('ls-remote', 'origin', 'refs/heads/main').stdout.slice(0, 40), repo.gitOk('rev-parse', 'HEAD~1'), 'not pushed');
    }),
  );
}

/** A config that records each load and starts a `sleep` before it never ends: by a timer, or a loop. */
const KEPT_ALIVE: [string, string][] = [
  ['a timer', 'await new Promise(() => setInterval(() => {}, 1000));'],
  ['an endless loop', 'while (true) {}'],
];

// Node-sensitive: a worker ended by its limit, and the processes its config started, killed.
for (const [what, end] of KEPT_ALIVE) {
  nodeTest(
    `a config kept alive by ${what} is loaded once per push (one limit, not one per load), and the process it started does not outlive the push`,
    () =>
      withRepo({ files: BASE }, (repo) => {
        const loads = join(dirname(repo.dir), 'loads');
        const config = [
          "import { spawn } from 'node:child_process';",
          "import { appendFileSync } from 'node:fs';",
          "const child = spawn('sleep', ['300'], { stdio: 'ignore' });",
          'appendFileSync(process.env.GL_LOADS!, `${child.pid}\\n`);',
          end,
          "export default { tiers: [{ name: 't1', run: 'true' }] };",
          '',
        ].join('\n');
        const r = pushWith(repo, config, { GATE_LADDER_CONFIG_TIMEOUT: '8', GL_LOADS: loads });
        try {
          assert.is(r.code, 1, r.out);
          assert.match(r.out, 'gate-ladder.config.ts: did not finish loading within 8 s');
          assert.not.ok(gatesRan(r.out), r.out);
          const pids = readFileSync(loads, 'utf8').trim().split('\n').map(Number);
          assert.is(pids.length, 1, `loaded ${pids.length} times`);
          for (const pid of pids) assert.not.ok(alive(pid), `the config's sleep (pid ${pid}) outlived the push`);
        } finally {
          if (existsSync(loads)) for (const pid of readFileSync(loads, 'utf8').trim().split('\n').map(Number)) killQuietly(pid);
        }
      }),
  );
}

test('the manual run says the same, with exit code 2 (and `flaky`, which loads the config too)', () =>
  withRepo({ files: BASE }, (repo) => {
    repo.write('gate-ladder.config.ts', HOSTILE[2]![1]);
    repo.commit('exits');
    const r = repo.cli(['run', '--base', 'HEAD~1']);
    assert.is(r.code, 2, r.out);
    assert.match(r.out, 'gate-ladder.config.ts: ended the process while loading (process.exit(0))');
    const f = repo.cli(['flaky']);
    assert.is(f.code, 2, f.out);
    assert.match(f.out, 'ended the process while loading');
  }));

// Node-sensitive: what a worker thread prints goes through the main thread's streams.
nodeTest(
  'a config that prints while loading: its words go to stderr, escaped, and `run --json` stays JSON; install --pre-commit does not hang on an endless loop',
  () =>
    withRepo({ files: BASE }, (repo) => {
      repo.write(
        'gate-ladder.config.ts',
        "console.log('loading\\u001b[2J'); console.error('warned'); export default { tiers: [{ name: 't1', run: 'true' }] };\n",
      );
      repo.write('src/value.txt', 'good 2\n');
      repo.commit('a chatty config');
      const r = repo.cli(['run', '--json', '--no-cache', '--base', 'HEAD~1']);
      assert.is(r.code, 0, r.out);
      assert.is((JSON.parse(r.stdout) as { exit: number }).exit, 0, r.stdout);
      assert.match(r.stderr, 'loading\\x1b[2J');
      assert.match(r.stderr, 'warned');
      assert.not.match(r.stderr, '\u001b');
      repo.write('gate-ladder.config.ts', HOSTILE[3]![1]);
      const i = repo.cli(['install', '--pre-commit'], { env: { GATE_LADDER_CONFIG_TIMEOUT: '2' }, timeoutMs: 30_000 });
      assert.is(i.code, 0, i.out);
      assert.ok(repo.read('.husky/pre-commit').includes('run pre-commit'));
    }),
);

test("timeout: 2147484 or 1e300 is refused by validation (Node's timers would fire at once)", () =>
  withRepo({ files: BASE }, (repo) => {
    for (const timeout of ['2147484', '1e300']) {
      const r = pushWith(repo, `export default { tiers: [{ name: 't1', run: 'sleep 1', timeout: ${timeout} }] };\n`);
      assert.is(r.code, 1, r.out);
      assert.match(r.out, 'gate-ladder.config.ts: tiers[0].timeout must be at most 2147483 seconds');
      assert.not.ok(gatesRan(r.out), r.out);
    }
    const ok = pushWith(repo, "export default { tiers: [{ name: 't1', run: 'true', timeout: 2147483 }] };\n");
    assert.is(ok.code, 0, ok.out);
  }));

// Node-sensitive: the error a spawn in a missing folder gives (libuv's ENOENT, as for a missing command).
nodeTest('a tier whose cwd does not exist is an error that names the folder, not "command not found: /bin/sh"', () =>
  withRepo({ files: BASE }, (repo) => {
    for (const run of ["'true'", "['true']"]) {
      const r = pushWith(repo, `export default { tiers: [{ name: 't1', run: ${run}, cwd: 'no-such-folder' }] };\n`);
      assert.is(r.code, 1, r.out);
      assert.match(r.out, "the tier's cwd does not exist: no-such-folder");
      assert.not.match(r.out, 'command not found');
      const row = repo.ledger().at(-1)!;
      assert.is(row.verdict, 'error');
      assert.match(String(row.reason), "the tier's cwd does not exist");
    }
  }),
);

test("install refuses to replace another tool's core.hooksPath, names it and how to proceed; --force replaces it and uninstall puts it back", () =>
  withRepo({ files: BASE, install: false }, (repo) => {
    repo.write('.githooks/pre-push', '#!/bin/sh\necho other tool\n');
    repo.gitOk('config', 'core.hooksPath', '.githooks');
    const r = repo.cli(['install']);
    assert.is(r.code, 2, r.out);
    assert.match(r.out, `core.hooksPath is already ".githooks"`);
    assert.match(r.out, '.githooks/pre-push');
    assert.match(r.out, 'node --preserve-symlinks-main node_modules/gate-ladder/dist/cli.cjs run pre-push "$@"');
    assert.match(r.out, 'npx gate-ladder install --force');
    assert.is(repo.gitOk('config', 'core.hooksPath'), '.githooks', 'unchanged');
    // a folder name with control characters is shown escaped once (not JSON's doubled backslashes)
    repo.gitOk('config', 'core.hooksPath', 'h\u001b]0;x\u0007\nfake');
    const odd = repo.cli(['install']);
    assert.is(odd.code, 2, odd.out);
    assert.match(odd.out, 'core.hooksPath is already "h\\x1b]0;x\\x07\\nfake"');
    assert.not.match(odd.out, '\\\\');
    repo.gitOk('config', 'core.hooksPath', '.githooks');
    assert.not.ok(repo.git('ls-files', '--others', '.husky').stdout.trim(), 'no .husky made');
    const forced = repo.cli(['install', '--force']);
    assert.is(forced.code, 0, forced.out);
    assert.is(repo.gitOk('config', 'core.hooksPath'), '.husky/_');
    const again = repo.cli(['install']);
    assert.is(again.code, 0, "husky's own folder is not foreign: install stays idempotent");
    const un = repo.cli(['uninstall']);
    assert.is(un.code, 0, un.out);
    assert.is(repo.gitOk('config', 'core.hooksPath'), '.githooks');
  }));

/** Text that would fake a line of ours on a terminal, if printed raw. */
const FAKE = 'x\n\u001b[2Kgate-ladder: all tiers passed\u001b[0m\r\u202e';
const raw = (out: string) => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/.test(out.replace(/\r?\n/g, ''));

test('control characters in a file name, a command and a ref never reach the terminal raw: no fake gate-ladder line', () =>
  withRepo(
    {
      files: {
        ...BASE,
        'gate-ladder.config.ts': `export default { tiers: [{ name: 't1', run: 'true', skipWhenTestAdjacent: true }, { name: 't2', run: [${JSON.stringify(`./no${FAKE}`)}] }] };\n`,
      },
    },
    (repo) => {
      repo.write(`tests/odd${FAKE}.txt`, 'x\n');
      repo.commit('odd name');
      const dry = repo.cli(['run', '--dry-run', '--base', 'HEAD~1']);
      assert.is(dry.code, 0, dry.out);
      assert.not.ok(raw(dry.out), JSON.stringify(dry.out));
      assert.match(dry.out, 'tests/oddx\\n\\x1b[2Kgate-ladder: all tiers passed\\x1b[0m\\r\\u202e.txt');
      assert.not.match(dry.out, /^gate-ladder: all tiers passed/m);
      const r = repo.push(['origin', `HEAD:refs/heads/odd`]);
      assert.is(r.code, 1, r.out);
      assert.not.ok(raw(r.out.replace(/^(remote|To|!|error|hint).*$/gm, '')), JSON.stringify(r.out));
      assert.not.match(r.out, /^gate-ladder: all tiers passed/m);
      assert.match(r.out, 'command not found: ./nox\\n\\x1b[2K');
      // The ledger keeps the exact name (JSON escapes it); only what is printed is escaped.
      assert.ok(readFileSync(repo.ledgerPath, 'utf8').includes('\\u001b[2Kgate-ladder'));
    },
  ));

test.run();
