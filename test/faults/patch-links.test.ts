/**
 * Issue 44, point 2: a judged or replayed patch that adds a symlink leading out of the work tree is
 * refused before any gate runs. Before, a patch adding `nm -> <a folder of the user's>` and a test
 * writing `nm/x` wrote into that folder from inside the slot. Each way out: an absolute target, `..`
 * past the root, and a path through another symlink of the patch (`sub/b -> ..`, inside by itself, then
 * `a -> sub/b/../victim`, inside if read as text). The link's name is printed escaped.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Repo, withRepo } from '../helpers/repo.js';
import { poolLocks } from '../helpers/pool.js';

/** The gate: writes a file through every link the work tree holds (what a hostile test would do), then passes. */
const WRITE = `for l in $(find . -path ./node_modules -prune -o -path ./.git -prune -o -type l -print); do
  [ -d "$l" ] && echo planted > "$l/planted"
done
true
`;

const FILES = {
  '.gitignore': 'node_modules\n',
  'gate-ladder.config.ts': `export default { cache: false, tiers: [{ name: 't1', run: 'sh write.sh', timeout: 60 }] };\n`,
  'write.sh': WRITE,
  'docs/readme.txt': 'inside\n',
};

/** A folder of the user's outside the repository, beside it. */
const victimOf = (repo: Repo) => join(dirname(repo.dir), 'victim');

/** The patch of the links `make` adds (made in the work tree, staged, diffed, then taken back out). */
function linkPatch(repo: Repo, name: string, make: () => void): string {
  make();
  repo.gitOk('add', '-A');
  const diff = repo.gitOk('diff', '--cached', '--binary');
  repo.gitOk('reset', '-q', '--hard');
  repo.gitOk('clean', '-fdq');
  const file = join(dirname(repo.dir), name);
  writeFileSync(file, `${diff}\n`);
  return file;
}

const link = (repo: Repo, target: string, path: string) => {
  mkdirSync(dirname(join(repo.dir, path)), { recursive: true });
  symlinkSync(target, join(repo.dir, path));
};

test("judge --patch: a symlink out of the work tree (absolute, .. past the root, through another symlink) is an error of the patch before any gate runs, the link named escaped; the user's folder is untouched", () =>
  withRepo({ files: FILES, install: false, pushInitial: false }, (repo) => {
    const victim = victimOf(repo);
    mkdirSync(victim);
    const patches = [
      ['absolute', linkPatch(repo, 'absolute.diff', () => link(repo, victim, 'nm')), 'nm', victim, undefined],
      ['dotdot', linkPatch(repo, 'dotdot.diff', () => link(repo, '../../victim', 'deep/up')), 'deep/up', '../../victim', undefined],
      [
        'through a symlink',
        linkPatch(repo, 'through.diff', () => {
          link(repo, '..', 'sub/b');
          link(repo, 'sub/b/../victim', 'a');
        }),
        'a',
        'sub/b/../victim',
        'sub/b',
      ],
      ['escaped name', linkPatch(repo, 'escaped.diff', () => link(repo, victim, 'n\x1b[31mm')), 'n\\x1b[31mm', victim, undefined],
    ] as const;
    for (const [what, file, path, target, via] of patches) {
      const before = repo.ledger().length;
      const r = repo.cli(['judge', '--patch', file, '--json'], { timeoutMs: 240_000 });
      assert.equal(readdirSync(victim), [], `${what}: nothing was written into the folder outside`);
      assert.is(r.code, 2, `${what}: ${r.out}`);
      assert.not.match(r.out, '\x1b', `${what}: nothing raw reaches the terminal`);
      const doc = JSON.parse(r.stdout) as Record<string, unknown>;
      assert.equal([doc.verdict, doc.tier, doc.applied, doc.error_cause], ['error', '(apply)', false, 'patch'], what);
      const named = `it adds the symlink ${path} -> ${target}, which leads out of the work tree${via ? ` through the symlink ${via}` : ''}: refused before any gate ran`;
      assert.match(String(doc.reason), named, what);
      assert.match(String(doc.next), 'refused for what it writes', what);
      assert.equal(doc.tiers, [], `${what}: no gate ran`);
      const rows = repo.ledger().slice(before);
      assert.equal(
        rows.map((x) => [x.tier, x.verdict, x.applied, x.error_cause]),
        [['(apply)', 'error', false, 'patch']],
        what,
      );
    }
    // A link that stays inside (one of a folder's own, one up and back in) is judged as any patch is.
    const inside = linkPatch(repo, 'inside.diff', () => {
      link(repo, '../docs', 'lib/docs');
      link(repo, 'docs/readme.txt', 'readme');
    });
    const ok = repo.cli(['judge', '--patch', inside, '--json'], { timeoutMs: 240_000 });
    assert.is(ok.code, 0, ok.out);
    assert.is((JSON.parse(ok.stdout) as Record<string, unknown>).verdict, 'pass');
    assert.ok(existsSync(join(repo.dir, 'docs')) && !existsSync(join(repo.dir, 'docs', 'planted')), "the checkout's docs are untouched");
    assert.equal(poolLocks(repo), []);
  }));

test('replay of commits: the commit that adds a symlink out of the work tree is refused (applied: false, error_cause patch) before its gates run; the others are judged', () =>
  withRepo({ files: FILES }, (repo) => {
    const victim = victimOf(repo);
    mkdirSync(victim);
    const start = repo.gitOk('rev-parse', 'HEAD');
    repo.write('docs/readme.txt', 'an ordinary change\n');
    repo.commit('ordinary');
    link(repo, victim, 'nm');
    const hostile = repo.commit('a patch from outside: nm -> a folder of the user');
    rmSync(join(repo.dir, 'nm'));
    repo.commit('the link removed');
    const r = repo.cli(['replay', `${start}..HEAD`, '--force', '--jobs', '1'], { timeoutMs: 240_000 });
    assert.equal(readdirSync(victim), [], 'nothing was written into the folder outside');
    assert.is(r.code, 0, r.out);
    const rows = repo.ledger().filter((x) => x.hook === 'replay');
    assert.equal(
      rows.map((x) => [x.tier, x.verdict, x.applied ?? true]),
      [
        ['t1', 'pass', true],
        ['(apply)', 'error', false],
        ['t1', 'pass', true],
      ],
    );
    const refused = rows[1]!;
    assert.is(refused.patch, hostile);
    assert.is(refused.error_cause, 'patch');
    assert.match(String(refused.reason), `it adds the symlink nm -> ${victim}, which leads out of the work tree`);
  }));

test.run();
