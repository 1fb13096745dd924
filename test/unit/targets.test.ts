import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EMPTY_TREE } from '../../src/git/git.js';
import type { PushRef } from '../../src/git/push-refs.js';
import { type RangeContext, type RangeGit, type RefPlan, SHALLOW_REASON, planPush, planRef } from '../../src/git/targets.js';

const Z = '0'.repeat(40);

/** A clone's history, small enough to read: commits with their parents (a shallow commit has none listed). */
interface History {
  parents: Record<string, string[]>;
  refs?: Record<string, string>;
  /** Annotated tag objects, peeled to their commit. */
  tags?: Record<string, string>;
  /** Objects that are not commits (a tagged tree). */
  trees?: string[];
  shallow?: boolean;
  remoteHead?: string;
}

function fakeGit(h: History): RangeGit {
  const refs = h.refs ?? {};
  const commit = (rev: string): string | null => {
    if (h.tags?.[rev]) return h.tags[rev]!;
    if (h.parents[rev]) return rev;
    if (refs[rev]) return commit(refs[rev]!);
    return null;
  };
  const ancestors = (sha: string): string[] => {
    const seen: string[] = [];
    const queue = [sha];
    while (queue.length > 0) {
      const c = queue.shift()!;
      if (seen.includes(c) || !h.parents[c]) continue;
      seen.push(c);
      queue.push(...h.parents[c]!);
    }
    return seen;
  };
  const mergeBase = (a: string, b: string): string | null => {
    const inB = new Set(ancestors(b));
    const common = ancestors(a).filter((c) => inB.has(c));
    const best = common.filter((c) => !common.some((o) => o !== c && ancestors(o).includes(c)));
    return best[0] ?? null;
  };
  return {
    commit,
    mergeBase,
    shallow: () => h.shallow === true,
    newCommits: (head, remote) => {
      const known = new Set(
        Object.entries(refs)
          .filter(([k]) => k.startsWith(`refs/remotes/${remote}/`))
          .flatMap(([, v]) => ancestors(v)),
      );
      const commits = ancestors(head).filter((c) => !known.has(c));
      const boundary = [...new Set(commits.flatMap((c) => h.parents[c]!).filter((p) => known.has(p)))];
      return { commits, boundary };
    },
    remoteHead: () => h.remoteHead ?? null,
    diff: (base, head) => [{ status: 'M', path: `${base}..${head}` }],
  };
}

const ctx: RangeContext = { remote: 'origin' };
const push = (localRef: string, localSha: string, remoteRef: string, remoteSha: string): PushRef => ({
  localRef,
  localSha,
  remoteRef,
  remoteSha,
});
const branch = (name: string, local: string, remote: string) => push(`refs/heads/${name}`, local, `refs/heads/${name}`, remote);

/** main: c1 ← c2 on the remote (origin/main, origin/HEAD), as after a clone. */
const cloned: History = {
  parents: { c1: [], c2: ['c1'] },
  refs: { 'refs/remotes/origin/main': 'c2' },
  remoteHead: 'refs/remotes/origin/main',
};
const extend = (h: History, more: Partial<History>): History => ({
  ...h,
  ...more,
  parents: { ...h.parents, ...more.parents },
  refs: { ...h.refs, ...more.refs },
});

type Expect = { test: string; note?: RegExp | undefined } | { skip: RegExp } | { error: string };

const cases: { title: string; history: History; ref: PushRef; ctx?: RangeContext; expect: Expect }[] = [
  {
    title: 'ordinary update: remote_sha...local_sha',
    history: extend(cloned, { parents: { c3: ['c2'] } }),
    ref: branch('main', 'c3', 'c2'),
    expect: { test: 'c2' },
  },
  {
    title: 'update to the commit the remote already has',
    history: cloned,
    ref: branch('main', 'c2', 'c2'),
    expect: { skip: /already has this commit/ },
  },
  {
    title: 'forced push moving the ref back: nothing new',
    history: cloned,
    ref: branch('main', 'c1', 'c2'),
    expect: { skip: /moves back/ },
  },
  {
    title: 'forced push after a rewrite, old commit still here: base is the fork point',
    history: extend(cloned, { parents: { c2x: ['c1'] } }),
    ref: branch('main', 'c2x', 'c2'),
    expect: { test: 'c1' },
  },
  {
    title: 'forced push over a commit this clone never fetched: merge-base with the tracking ref, noted',
    history: extend(cloned, { parents: { c3x: ['c2'] } }),
    ref: branch('main', 'c3x', 'f'.repeat(40)),
    expect: {
      test: 'c2',
      note: /remote sha ffffffffffff is not in this clone \(forced push\?\); base is the merge-base with refs\/remotes\/origin\/main/,
    },
  },
  {
    title: 'forced push, unknown remote sha, no tracking ref (a tag): the new-branch rule, noted',
    history: extend(cloned, { parents: { c3: ['c2'] } }),
    ref: push('refs/tags/v2', 'c3', 'refs/tags/v2', 'f'.repeat(40)),
    expect: { test: 'c2', note: /not in this clone.*merge-base with refs\/remotes\/origin\/main/ },
  },
  {
    title: 'new branch off main: merge-base with the remote default branch, no note',
    history: extend(cloned, { parents: { f1: ['c2'], f2: ['f1'] } }),
    ref: branch('feature', 'f2', Z),
    expect: { test: 'c2' },
  },
  {
    title: 'new branch off an older main commit: still the merge-base',
    history: extend(cloned, { parents: { f1: ['c1'] } }),
    ref: branch('feature', 'f1', Z),
    expect: { test: 'c1' },
  },
  {
    title: 'new branch whose commits the remote already has: nothing to test',
    history: cloned,
    ref: branch('copy-of-main', 'c2', Z),
    expect: { skip: /already has every commit/ },
  },
  {
    title: 'new branch to an empty remote: every file of the pushed tree',
    history: { parents: { c1: [], c2: ['c1'] } },
    ref: branch('main', 'c2', Z),
    expect: { test: EMPTY_TREE, note: /first push/ },
  },
  {
    title: 'new branch with a configured base',
    history: extend(cloned, { parents: { d1: ['c1'], f1: ['d1'] }, refs: { 'refs/remotes/origin/develop': 'd1' } }),
    ref: branch('feature', 'f1', Z),
    ctx: { remote: 'origin', base: 'refs/remotes/origin/develop' },
    expect: { test: 'd1' },
  },
  {
    title: 'new branch, no origin/HEAD: where the push meets commits the remote has',
    history: extend(cloned, { remoteHead: undefined, parents: { f1: ['c2'] } }),
    ref: branch('feature', 'f1', Z),
    expect: { test: 'c2', note: /where this push meets commits the remote has/ },
  },
  {
    title: 'lightweight tag on a commit the remote has: nothing new',
    history: cloned,
    ref: push('refs/tags/v1', 'c2', 'refs/tags/v1', Z),
    expect: { skip: /already has every commit/ },
  },
  {
    title: 'annotated tag on a commit the remote has: peeled, nothing new',
    history: extend(cloned, { tags: { t1: 'c2' } }),
    ref: push('refs/tags/v1', 't1', 'refs/tags/v1', Z),
    expect: { skip: /already has every commit/ },
  },
  {
    title: 'annotated tag on a new commit: the peeled commit is tested',
    history: extend(cloned, { parents: { c3: ['c2'] }, tags: { t3: 'c3' } }),
    ref: push('refs/tags/v3', 't3', 'refs/tags/v3', Z),
    expect: { test: 'c2' },
  },
  {
    title: 'a tag of a tree: nothing to test',
    history: extend(cloned, { trees: ['tree1'] }),
    ref: push('refs/tags/tree', 'tree1', 'refs/tags/tree', Z),
    expect: { skip: /does not point at a commit/ },
  },
  {
    title: 'deleting a branch: nothing to test',
    history: cloned,
    ref: push('(delete)', Z, 'refs/heads/old', 'c2'),
    expect: { skip: /deleting/ },
  },
  {
    title: 'shallow clone, new branch whose base is cut off: an error saying to fetch more',
    // origin/main was fetched at depth 1 (c4 without parents); the branch grew from c3, also cut off.
    history: {
      parents: { c3: [], n: ['c3'], c4: [] },
      refs: { 'refs/remotes/origin/main': 'c4' },
      remoteHead: 'refs/remotes/origin/main',
      shallow: true,
    },
    ref: branch('topic', 'n', Z),
    expect: { error: SHALLOW_REASON },
  },
  {
    title: 'shallow clone, forced update whose merge-base is cut off: an error',
    history: {
      parents: { c3: [], n: ['c3'], c4: [] },
      refs: { 'refs/remotes/origin/main': 'c4' },
      remoteHead: 'refs/remotes/origin/main',
      shallow: true,
    },
    ref: branch('main', 'n', 'c4'),
    expect: { error: SHALLOW_REASON },
  },
  {
    title: 'shallow clone whose base is present: tested as usual',
    history: {
      parents: { c2: [], c3: ['c2'] },
      refs: { 'refs/remotes/origin/main': 'c2' },
      remoteHead: 'refs/remotes/origin/main',
      shallow: true,
    },
    ref: branch('main', 'c3', 'c2'),
    expect: { test: 'c2' },
  },
  {
    title: 'update over an unrelated history (not shallow): noted, judged as a new history',
    history: { parents: { c1: [], u1: [] }, refs: { 'refs/remotes/origin/main': 'c1' } },
    ref: branch('main', 'u1', 'c1'),
    expect: { test: EMPTY_TREE, note: /shares no history.*first push/ },
  },
];

for (const c of cases) {
  test(`planRef: ${c.title}`, () => {
    const plan: RefPlan = planRef(c.ref, c.ctx ?? ctx, fakeGit(c.history));
    if ('test' in c.expect) {
      assert.is(plan.kind, 'test', JSON.stringify(plan));
      if (plan.kind !== 'test') return;
      assert.is(plan.base, c.expect.test);
      assert.is(plan.ref, c.ref.remoteRef);
      assert.equal(plan.changes, [{ status: 'M', path: `${c.expect.test}..${plan.head}` }]);
      if (c.expect.note) assert.match(plan.note ?? '', c.expect.note);
      else assert.is(plan.note, undefined, `unexpected note: ${plan.note}`);
    } else if ('skip' in c.expect) {
      assert.is(plan.kind, 'skip', JSON.stringify(plan));
      if (plan.kind === 'skip') assert.match(plan.why, c.expect.skip);
    } else {
      assert.is(plan.kind, 'error', JSON.stringify(plan));
      if (plan.kind === 'error') assert.is(plan.reason, c.expect.error);
    }
  });
}

test('the annotated tag is tested at its commit, not its tag object', () => {
  const plan = planRef(
    push('refs/tags/v3', 't3', 'refs/tags/v3', Z),
    ctx,
    fakeGit(extend(cloned, { parents: { c3: ['c2'] }, tags: { t3: 'c3' } })),
  );
  assert.is(plan.kind === 'test' && plan.head, 'c3');
});

test('planPush: every ref is planned, in order; refs at the same commit are tested once', () => {
  const g = fakeGit(extend(cloned, { parents: { a1: ['c2'], b1: ['c2'] }, tags: { ta: 'a1' } }));
  const plans = planPush(
    [
      branch('a', 'a1', Z),
      branch('b', 'b1', Z),
      push('refs/tags/va', 'ta', 'refs/tags/va', Z),
      branch('a-copy', 'a1', Z),
      push('(delete)', Z, 'refs/heads/old', 'c1'),
    ],
    ctx,
    g,
  );
  assert.equal(
    plans.map((p) => [p.kind, p.ref, p.kind === 'test' ? p.sameAs : undefined]),
    [
      ['test', 'refs/heads/a', ['refs/tags/va', 'refs/heads/a-copy']],
      ['test', 'refs/heads/b', undefined],
      ['skip', 'refs/heads/old', undefined],
    ],
  );
});

test.run();
