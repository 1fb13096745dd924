import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ChangeList } from '../../src/git/change-list.js';
import { defaultScope } from '../../src/config/defaults.js';
import { diffPaths, mergeBase, repoInfo, resolveCommit, treeOf } from '../../src/git/git.js';
import { scopeMatcher } from '../../src/route/route.js';
import { type GitFacts, commitIn, diffIn, gatherGitFacts, mergeBaseIn, treeIn } from '../../src/git/facts.js';
import { sh } from '../helpers/repo.js';

/** A bare-bones repo: main with two commits, and two branches with two merge-bases (a criss-cross). */
function repo<T>(fn: (dir: string, git: (...a: string[]) => string) => Promise<T>): () => Promise<T> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gl-prime-'));
    const git = (...args: string[]) => {
      const r = sh('git', args, dir);
      if (r.code !== 0) throw new Error(r.out);
      return r.stdout.trim();
    };
    try {
      git('init', '-q', '-b', 'main');
      git('config', 'user.name', 'T');
      git('config', 'user.email', 't@example.invalid');
      // No automatic gc in the background: it would still be writing objects while the folder is removed.
      git('config', 'gc.auto', '0');
      git('config', 'maintenance.auto', 'false');
      const commit = (file: string, msg: string) => {
        writeFileSync(join(dir, file), `${msg}\n`);
        git('add', '-A');
        git('commit', '-q', '-m', msg);
      };
      commit('a.txt', 'base');
      commit('b with space.txt', 'second');
      git('branch', 'x');
      git('branch', 'y');
      git('checkout', '-q', 'x');
      commit('x.txt', 'x1');
      git('checkout', '-q', 'y');
      commit('y.txt', 'y1');
      git('checkout', '-q', 'x');
      git('merge', '-q', '--no-edit', 'y~0');
      git('checkout', '-q', 'y');
      git('merge', '-q', '--no-edit', 'x~1');
      git('checkout', '-q', 'main');
      return await fn(dir, git);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** Every fact, asked one call at a time: of git, or of the facts gathered (which ask git for what they do not hold). */
function facts(dir: string, base: string, head: string, gathered?: GitFacts) {
  if (gathered === undefined) {
    const h = resolveCommit(dir, head)!;
    const b = resolveCommit(dir, base)!;
    const mb = mergeBase(dir, b, h);
    return { info: repoInfo(dir), h, b, mb, tree: treeOf(dir, h), treeByRev: treeOf(dir, head), diff: diffPaths(dir, mb ?? b, h) };
  }
  const h = commitIn(gathered, head)!;
  const b = commitIn(gathered, base)!;
  const mb = mergeBaseIn(gathered, b, h);
  return {
    info: gathered.repo,
    h,
    b,
    mb,
    tree: treeIn(gathered, h),
    treeByRev: treeIn(gathered, head),
    diff: diffIn(gathered, mb ?? b, h).changes(),
  };
}

/** The repo's paths the gathering found; null outside a repository. */
const repoOf = (f: GitFacts | null) => (f === null ? null : f.repo);

test(
  'primed answers equal the one-call-per-fact answers',
  repo(async (dir) => {
    const plain = facts(dir, 'main~1', 'main');
    const gathered = await gatherGitFacts(dir, { ranges: [['main~1', 'main']], trees: ['main'] });
    assert.equal(repoOf(gathered), plain.info);
    assert.equal(facts(dir, 'main~1', 'main', gathered!), plain);
    assert.equal(plain.diff, [{ status: 'A', path: 'b with space.txt' }]);
  }),
);

test(
  'several merge-bases: the choice is left to git merge-base, as without priming',
  repo(async (dir, git) => {
    const plain = facts(dir, 'x', 'y');
    assert.ok(git('merge-base', '--all', 'x', 'y').split('\n').length > 1, 'a criss-cross has two merge-bases');
    const gathered = await gatherGitFacts(dir, { ranges: [['x', 'y']], trees: ['y'] });
    assert.equal(facts(dir, 'x', 'y', gathered!), plain);
  }),
);

test(
  'a revision that does not resolve primes nothing: each call asks git and says which one failed',
  repo(async (dir) => {
    const gathered = await gatherGitFacts(dir, { ranges: [['nope', 'main']], trees: ['main'] });
    assert.equal(repoOf(gathered), repoInfo(dir));
    assert.is(commitIn(gathered!, 'nope'), null);
    assert.is(commitIn(gathered!, 'main'), sha(dir, 'main'));
  }),
);

test(
  'the changed paths of a commit pair are kept: the next run starts one git process, not two',
  repo(async (dir) => {
    const plain = facts(dir, 'main~1', 'main');
    await gatherGitFacts(dir, { ranges: [['main~1', 'main']] });
    const cache = join(dir, '.git', 'gate-ladder', 'cache');
    await diffWritten(dir);
    const [file] = readdirSync(cache).filter((f) => f.startsWith('diff-'));
    assert.ok(file, 'a diff entry');
    const text = readFileSync(join(cache, file!), 'utf8');
    const trailer = `\n${plain.mb} ${plain.h}\n`;
    // git's own listing, as it wrote it, then the line naming the pair.
    assert.ok(text.endsWith(trailer), JSON.stringify(text));
    assert.is(text.slice(0, -trailer.length), 'A\0b with space.txt\0');
    // Proof the entry is read: a doctored body is what the next run sees...
    writeFileSync(join(cache, file!), `M\0doctored.txt\0${trailer}`);
    const doctored = await gatherGitFacts(dir, { ranges: [['main~1', 'main']] });
    assert.equal(diffIn(doctored!, plain.mb!, plain.h).changes(), [{ status: 'M', path: 'doctored.txt' }]);
    // ...and an entry naming another pair is not, nor one cut short, nor one in the older header-first form.
    for (const bad of [
      `M\0doctored.txt\0\n${plain.h} ${plain.mb}\n`,
      `M\0doctored.txt${trailer}`,
      `${plain.mb} ${plain.h}\nM\0doctored.txt\0`,
    ]) {
      writeFileSync(join(cache, file!), bad);
      const gathered = await gatherGitFacts(dir, { ranges: [['main~1', 'main']] });
      assert.equal(diffIn(gathered!, plain.mb!, plain.h).changes(), plain.diff, JSON.stringify(bad));
    }
    // No temp file is left behind by the runs above, once their entries are written (in the background).
    await tempsGone(cache);
    assert.equal(
      readdirSync(cache).filter((f) => f.startsWith('.tmp-')),
      [],
    );
  }),
);

/** Runs fn with no git on PATH: any git process it starts fails. */
/** The git commands run while `fn` runs (git traces every git process that inherits GIT_TRACE). */
async function traced<T>(dir: string, fn: () => Promise<T>): Promise<{ value: T; commands: string[] }> {
  const file = join(dir, '..', `${dir.split('/').pop()}-trace.txt`);
  const before = process.env.GIT_TRACE;
  process.env.GIT_TRACE = file;
  try {
    const value = await fn();
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    return { value, commands: text.match(/trace: (?:built-in|exec|run_command): git [a-z-]+/g) ?? [] };
  } finally {
    if (before === undefined) delete process.env.GIT_TRACE;
    else process.env.GIT_TRACE = before;
    rmSync(file, { force: true });
  }
}

/** Entries are written in the background, through a temp file each: waits until none is left (a minute at most). */
async function tempsGone(cache: string): Promise<void> {
  const temps = () => readdirSync(cache).filter((f) => f.startsWith('.tmp-'));
  const end = Date.now() + 60_000;
  while (temps().length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

/** The diff is written in the background (the run's process waits for it before exiting). */
async function diffWritten(dir: string): Promise<void> {
  const cache = join(dir, '.git', 'gate-ladder', 'cache');
  const diffs = () => (existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith('diff-')) : []);
  const end = Date.now() + 60_000;
  while (diffs().length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

test(
  'a range seen before: one git rev-parse, and its changed paths from the range cache (no diff-tree)',
  repo(async (dir) => {
    const [a, b] = [sha(dir, 'main~1'), sha(dir, 'main')];
    const plain = facts(dir, a, b);
    const first = await traced(dir, () => gatherGitFacts(dir, { ranges: [[a, b]], trees: [b] }));
    assert.ok(
      first.commands.some((c) => c.endsWith('git diff-tree')),
      first.commands.join('\n'),
    );
    await diffWritten(dir);
    const again = await traced(dir, () => gatherGitFacts(dir, { ranges: [[a, b]], trees: [b] }));
    assert.equal(
      again.commands.map((c) => c.replace(/^.*: /, '')),
      ['git rev-parse'],
      again.commands.join('\n'),
    );
    assert.equal(repoOf(again.value), plain.info);
    assert.equal(facts(dir, a, b, again.value!), plain);
  }),
);

test('outside a repository: null', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-norepo-'));
  try {
    assert.is(await gatherGitFacts(dir, { commits: ['HEAD'] }), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  "a new range: the config loads while git lists it, the listing routes as git's own does, and is kept",
  repo(async (dir, git) => {
    // 6,000 changed paths, about 200 KB of listing: several pieces; a few test-adjacent ones among them.
    mkdirSync(join(dir, 'pkg', 'tests'), { recursive: true });
    for (let i = 0; i < 6000; i++)
      writeFileSync(join(dir, 'pkg', i % 997 === 0 ? 'tests' : '', `file-with-a-longish-name-${i}.ts`), `${i}\n`);
    git('add', '-A');
    git('commit', '-q', '-m', 'many');
    const [a, b] = [sha(dir, 'main~1'), sha(dir, 'main')];
    const match = scopeMatcher(defaultScope);
    let asked = 0;
    const info = await gatherGitFacts(dir, { ranges: [[a, b]], trees: [b] }, async (at) => {
      asked++;
      assert.is(at.root, realpathSync(dir));
      return match;
    });
    assert.ok(info);
    assert.is(asked, 1);
    const mb = mergeBaseIn(info!, a, b)!;
    const streamed = diffIn(info!, mb, b);
    const plain = new ChangeList(`${git('diff-tree', '-r', '--name-status', '-z', '--no-renames', mb, b, '--')}\0`);
    assert.is(streamed.count, 6000);
    assert.is(streamed.count, plain.count);
    assert.equal(streamed.paths(1000), plain.paths(1000));
    assert.equal(streamed.hits(match), plain.hits(match));
    assert.is(streamed.hits(match).length, 7);
    // Everything else about the listing comes from the entry it became.
    assert.equal(streamed.changes(), plain.changes());
    const cache = join(dir, '.git', 'gate-ladder', 'cache');
    // Written in the background: wait for the entry, then for its temporary file to be renamed away.
    await diffWritten(dir);
    await tempsGone(cache);
    assert.equal(
      readdirSync(cache).filter((f) => f.startsWith('.tmp-')),
      [],
    );
    assert.is(readdirSync(cache).filter((f) => f.startsWith('diff-')).length, 1);
  }),
);

function sha(dir: string, rev: string): string {
  return sh('git', ['rev-parse', rev], dir).stdout.trim();
}

test.run();
