import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Repo, withRepo } from '../helpers/repo.js';

// A cheap tier that runs only what the diff touches: `{changed:src/**}` through a real push. check.mjs
// writes the arguments it was given and GATE_LADDER_CHANGED to the file ARGV_OUT names.
const FILES: Record<string, string> = {
  'gate-ladder.config.ts': `export default {
  tiers: [
    { name: 't1-changed', run: 'node check.mjs {changed:src/**}', timeout: 30 },
    { name: 't2-all', run: 'node -e "process.exit(0)"', timeout: 30 },
  ],
};
`,
  'check.mjs': `import { writeFileSync } from 'node:fs';
writeFileSync(process.env.ARGV_OUT, JSON.stringify({ argv: process.argv.slice(2), env: process.env.GATE_LADDER_CHANGED ?? null }));
`,
  'src/old.ts': 'export const old = 1;\n',
  'src/kept.ts': 'export const kept = 1;\n',
  'docs/a.md': 'a\n',
};

const withOut = <T>(fn: (repo: Repo, out: string) => T) =>
  withRepo({ files: FILES }, (repo) => {
    const dir = mkdtempSync(join(tmpdir(), 'gl-argv-'));
    try {
      return fn(repo, join(dir, 'argv.json'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

test('{changed:src/**}: the gate gets exactly the changed src/ paths still there, one argument each, whatever their characters', () =>
  withOut((repo, out) => {
    const odd = `src/it's a "file".ts`;
    const dollar = 'src/$HOME `x`.ts';
    repo.write(odd, 'export const x = 1;\n');
    repo.write(dollar, 'export const y = 1;\n');
    repo.write('docs/a.md', 'b\n');
    repo.gitOk('rm', '-q', 'src/old.ts');
    repo.commit('odd names');
    const r = repo.push(['origin', 'HEAD'], { ARGV_OUT: out });
    assert.is(r.code, 0, r.out);
    const seen = JSON.parse(readFileSync(out, 'utf8')) as { argv: string[]; env: string };
    assert.equal([...seen.argv].sort(), [dollar, odd].sort());
    assert.equal(seen.env.split('\n').sort(), ['docs/a.md', dollar, odd].sort(), 'the variable holds every path still there, unfiltered');
    assert.equal(
      repo.ledger().map((x) => [x.tier, x.verdict]),
      [
        ['t1-changed', 'pass'],
        ['t2-all', 'pass'],
      ],
    );
  }));

test('a push that changes no src/ path skips the {changed:src/**} tier with the reason; the later tier runs and its row says so', () =>
  withOut((repo, out) => {
    repo.write('docs/a.md', 'c\n');
    repo.gitOk('rm', '-q', 'src/old.ts');
    repo.commit('docs only, and a deletion');
    const r = repo.push(['origin', 'HEAD'], { ARGV_OUT: out });
    assert.is(r.code, 0, r.out);
    assert.match(r.out, 't1-changed skipped: no changed path matches src/**');
    const rows = repo.ledger();
    assert.equal(
      rows.map((x) => [x.tier, x.verdict]),
      [['t2-all', 'pass']],
    );
    assert.equal(rows[0]!.skipped_no_changed, ['t1-changed']);
    assert.is(rows[0]!.routed, false, 'not t0-scope routing: the report does not count it as a route');
  }));

test("a tier's `paths`: a docs-only push skips it, said and in its row; a push touching src/ runs it and is blocked by it", () =>
  withRepo(
    {
      files: {
        ...FILES,
        'gate-ladder.config.ts': `export default {
  tiers: [
    { name: 't1-code', run: 'node -e "process.exit(require(\\'fs\\').existsSync(\\'src/bug\\') ? 1 : 0)"', paths: ['src/**', '!src/**/*.md'], timeout: 30 },
    { name: 't2-all', run: 'true', timeout: 30 },
  ],
};
`,
      },
    },
    (repo) => {
      repo.write('docs/a.md', 'c\n');
      repo.write('src/notes.md', 'n\n');
      repo.commit('docs only');
      const docs = repo.push(['origin', 'HEAD']);
      assert.is(docs.code, 0, docs.out);
      assert.match(docs.out, 't1-code skipped: no changed path matches its paths (src/**, !src/**/*.md)');
      assert.match(docs.out, 'widen its `paths`');
      const rows = repo.ledger();
      assert.equal(
        rows.map((x) => [x.tier, x.verdict]),
        [['t2-all', 'pass']],
      );
      assert.equal(rows[0]!.skipped_no_changed, ['t1-code']);
      repo.write('src/bug', 'x\n');
      repo.commit('code');
      const code = repo.push(['origin', 'HEAD']);
      assert.is(code.code, 1, code.out);
      assert.match(code.out, 't1-code caught a problem');
      repo.write('gate-ladder.config.ts', "export default { tiers: [{ name: 't1', run: 'true', paths: ['!docs/**'] }] };\n");
      const refused = repo.cli(['run', '--dry-run', '--base', 'HEAD~1', '--head', 'HEAD']);
      assert.is(refused.code, 2, refused.out);
      assert.match(refused.out, 'tiers[0].paths must name at least one glob that is not a `!` exclusion');
    },
  ));

test('--dry-run shows the command as the gate would get it', () =>
  withOut((repo) => {
    repo.write('src/a b.ts', 'x\n');
    repo.commit('a space');
    const r = repo.cli(['run', '--dry-run', '--base', 'origin/main', '--head', 'HEAD']);
    assert.is(r.code, 0, r.out);
    assert.match(r.out, `command: node check.mjs 'src/a b.ts'`);
  }));

test.run();
