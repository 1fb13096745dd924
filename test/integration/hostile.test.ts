import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installedModules, sh, withRepo } from '../helpers/repo.js';

// Odd and hostile inputs through real pushes: what a push is made of (names, sizes) and what the
// gates are handed.

const RELATED = {
  'gate-ladder.config.ts': `export default {
  tiers: [
    { name: 'related', run: 'node -e "process.exit(0)" {changed:src/**}', timeout: 30 },
    { name: 'full', run: 'node -e "process.exit(0)"', timeout: 30 },
  ],
};
`,
};

test('a {changed} list too long to start a command is an error that says why and the next step, and that step pushes', () =>
  withRepo({ files: RELATED }, (repo) => {
    // 800 paths of about 200 bytes: a /bin/sh command of about 160 KB, past Linux's 128 KiB for one argument.
    mkdirSync(join(repo.dir, 'src'));
    for (let i = 0; i < 800; i++) writeFileSync(join(repo.dir, 'src', `${'m'.repeat(190)}${i}.ts`), '');
    repo.commit('a vendored drop');
    const r = repo.push();
    assert.is(r.code, 1, r.out);
    assert.ok(!r.out.includes('E2BIG'), r.out);
    assert.match(r.out, /related could not give a verdict on refs\/heads\/main: its command is too long to start/);
    assert.match(r.out, /`GATE_LADDER_SKIP=related git push`/);
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict]),
      [['related', 'error']],
    );
    const skipped = repo.push(['origin', 'HEAD'], { GATE_LADDER_SKIP: 'related' });
    assert.is(skipped.code, 0, skipped.out);
  }));

const BYTES = {
  'gate-ladder.config.ts': `export default {
  tiers: [
    { name: 'cheap', run: 'node -e "process.exit(0)"', timeout: 30, skipWhenTestAdjacent: true },
    { name: 'exists', run: 'sh exists.sh {changed:src/**}', timeout: 30 },
  ],
};
`,
  // Each argument must name a file that is there: a name handed with U+FFFD in place of its bytes is not.
  'exists.sh': 'for f; do [ -e "$f" ] || { echo "missing: $f"; exit 1; }; done\necho "$# present"\n',
};

test('a file name that is not UTF-8 reaches a {changed} gate as its own bytes, and is shown escaped', () =>
  withRepo({ files: BYTES }, (repo) => {
    const named = (dir: string, name: number[], tail: string) =>
      Buffer.concat([Buffer.from(join(repo.dir, dir, '/')), Buffer.from(name), Buffer.from(tail)]);
    mkdirSync(join(repo.dir, 'src'));
    mkdirSync(join(repo.dir, 'tests'));
    writeFileSync(named('src', [0x63, 0x61, 0x66, 0xe9], '.ts'), 'latin1\n');
    writeFileSync(named('src', [0xff, 0xfe, 0x27], ' q.ts'), 'bytes and a quote\n');
    writeFileSync(named('tests', [0xe9, 0x1b], '[2J.test.ts'), 'a test\n');
    repo.write('src/plain.ts', 'plain\n');
    repo.commit('names from a latin1 system');
    const r = repo.push();
    assert.is(r.code, 0, r.out);
    assert.match(r.out, /refs\/heads\/main at /);
    assert.match(r.out, /t0-scope skips cheap: test-adjacent: tests\/\\xe9\\x1b\[2J\.test\.ts matches/);
    assert.ok(!r.out.includes('\u001b'), 'an escape byte of a name reached the terminal');
    assert.ok(!r.out.includes('\ufffd'), r.out);
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict]),
      [['exists', 'pass']],
    );
    // A branch whose name is not UTF-8 either: named by its bytes.
    assert.is(sh('sh', ['-c', `git checkout -qb "$(printf 'b\\377x')"`], repo.dir).code, 0);
    repo.write('src/plain.ts', 'plainer\n');
    repo.commit('on an odd branch');
    const odd = repo.push(['origin', 'HEAD']);
    assert.is(odd.code, 0, odd.out);
    assert.match(odd.out, /refs\/heads\/b\\xffx at /);
    // (git's own `HEAD -> b?x` line is git's to print.)
    assert.ok(!odd.out.split('\n').some((l) => l.startsWith('gate-ladder') && l.includes('\ufffd')), odd.out);
  }));

test("a repository git refuses as another user's (safe.directory) is named as such, with git's own fix, not as no repository", () =>
  withRepo({}, (repo) => {
    // git's own switch for its ownership check: the repository looks owned by someone else.
    const env = { GIT_TEST_ASSUME_DIFFERENT_OWNER: '1' };
    const fix = `\`git config --global --add safe.directory '${repo.dir}'\``;
    for (const args of [['run', '--base', 'HEAD', '--head', 'HEAD'], ['install'], ['gc']]) {
      const r = repo.cli(args, { env });
      assert.is(r.code, 2, `${args[0]}: ${r.out}`);
      assert.ok(!r.out.includes('not inside a git'), `${args[0]}: ${r.out}`);
      assert.ok(r.out.includes(`git refuses the repository at ${repo.dir}: another user owns it`), `${args[0]}: ${r.out}`);
      assert.ok(r.out.includes(fix), `${args[0]}: ${r.out}`);
    }
  }));

test('a repository in a folder whose name holds a newline, an escape sequence and a quote: install works, a kept slot is reused, nothing raw is printed', () =>
  withRepo({ files: { 'check.js': 'process.exit(0);\n' } }, (repo) => {
    const base = mkdtempSync(join(tmpdir(), 'gl-odd-'));
    try {
      const dir = join(base, "a\nb \u001b[31m'q");
      const ok = (cmd: string, args: string[], env: Record<string, string> = {}) => {
        const r = sh(cmd, args, dir, { env });
        assert.is(r.code, 0, `${cmd} ${args.join(' ')}: ${r.out}`);
        return r.out;
      };
      assert.is(sh('git', ['clone', '-q', `file://${repo.remote}`, dir], base).code, 0);
      symlinkSync(installedModules(), join(dir, 'node_modules'), 'dir');
      ok(process.execPath, [join(dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'install']);
      // A branch that is not checked out: judged in a slot of the pool, twice.
      ok('git', ['checkout', '-qb', 'side']);
      writeFileSync(join(dir, 'side.txt'), 'side\n');
      ok('git', ['add', '-A']);
      ok('git', ['commit', '-qm', 'side']);
      ok('git', ['checkout', '-q', 'main']);
      const first = ok('git', ['push', 'origin', 'side']);
      ok('git', ['checkout', '-q', 'side']);
      writeFileSync(join(dir, 'side.txt'), 'side, again\n');
      ok('git', ['commit', '-qam', 'again']);
      ok('git', ['checkout', '-q', 'main']);
      const again = ok('git', ['push', 'origin', 'side']);
      for (const out of [first, again]) {
        assert.match(out, /gates run in a temporary worktree/);
        assert.ok(!out.includes('\u001b'), out);
      }
      assert.ok(!again.includes('made anew'), `the kept slot was remade: ${again}`);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }));

test.run();
