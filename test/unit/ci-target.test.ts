/** `gate-ladder ci`'s range from a CI's environment: GitHub event payloads, GitLab variables, flags. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type CiEvent, ciTarget } from '../../src/run/ci-target.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const ZERO = '0'.repeat(40);
const ok = (payload: unknown): CiEvent => ({ kind: 'ok', payload });
const none: CiEvent = { kind: 'none' };
const gha = (event: string, extra: Record<string, string> = {}) => ({
  GITHUB_ACTIONS: 'true',
  GITHUB_EVENT_NAME: event,
  GITHUB_EVENT_PATH: '/x/event.json',
  GITHUB_SHA: C,
  GITHUB_REF: 'refs/heads/feature',
  ...extra,
});
const gitlab = (extra: Record<string, string>) => ({
  GITLAB_CI: 'true',
  CI: 'true',
  CI_COMMIT_SHA: B,
  CI_DEFAULT_BRANCH: 'main',
  ...extra,
});

/** The fields that decide what is judged. */
const pick = (t: ReturnType<typeof ciTarget>) =>
  t.kind === 'range'
    ? { kind: t.kind, source: t.source, base: t.base, head: t.head, ref: t.ref, ...(t.baseIsBranch && { branch: true }) }
    : t.kind === 'nothing'
      ? { kind: t.kind, source: t.source }
      : { kind: t.kind };

const cases: [string, ReturnType<typeof ciTarget>, Record<string, unknown>][] = [
  [
    'GitHub pull_request: head.sha against base.sha (not the merge commit GITHUB_SHA)',
    ciTarget(
      gha('pull_request', { GITHUB_REF: 'refs/pull/7/merge' }),
      ok({
        action: 'synchronize',
        number: 7,
        pull_request: { number: 7, head: { sha: B, ref: 'feature' }, base: { sha: A, ref: 'main' } },
      }),
    ),
    { kind: 'range', source: 'github-pr', base: A, head: B, ref: 'refs/pull/7/head' },
  ],
  [
    'GitHub pull_request_target reads the same fields',
    ciTarget(gha('pull_request_target'), ok({ number: 9, pull_request: { head: { sha: B }, base: { sha: A } } })),
    { kind: 'range', source: 'github-pr', base: A, head: B, ref: 'refs/pull/9/head' },
  ],
  [
    'GitHub push: after against before',
    ciTarget(gha('push'), ok({ ref: 'refs/heads/feature', before: A, after: B, created: false, deleted: false })),
    { kind: 'range', source: 'github-push', base: A, head: B, ref: 'refs/heads/feature' },
  ],
  [
    'GitHub push of a new branch (before all zeros): the merge-base with the default branch',
    ciTarget(
      gha('push'),
      ok({ ref: 'refs/heads/feature', before: ZERO, after: B, created: true, repository: { default_branch: 'trunk' } }),
    ),
    { kind: 'range', source: 'github-push', base: 'origin/trunk', head: B, ref: 'refs/heads/feature', branch: true },
  ],
  [
    'GitHub push creating the default branch itself: the last commit',
    ciTarget(gha('push'), ok({ ref: 'refs/heads/main', before: ZERO, after: B, repository: { default_branch: 'main' } })),
    { kind: 'range', source: 'github-push', base: `${B}~1`, head: B, ref: 'refs/heads/main' },
  ],
  [
    'GitHub push deleting a branch: nothing to judge',
    ciTarget(gha('push'), ok({ ref: 'refs/heads/old', before: A, after: ZERO, deleted: true })),
    { kind: 'nothing', source: 'github-push' },
  ],
  [
    'GitHub merge_group: head_sha against base_sha',
    ciTarget(gha('merge_group'), ok({ merge_group: { head_sha: B, base_sha: A, head_ref: 'refs/heads/gh-readonly-queue/main/pr-7' } })),
    { kind: 'range', source: 'github-merge-group', base: A, head: B, ref: 'refs/heads/gh-readonly-queue/main/pr-7' },
  ],
  [
    'GitHub workflow_dispatch: the last commit, GITHUB_SHA',
    ciTarget(gha('workflow_dispatch'), ok({ inputs: {} })),
    { kind: 'range', source: 'github-other', base: `${C}~1`, head: C, ref: 'refs/heads/feature' },
  ],
  [
    'GitHub pull_request without a readable event file: a problem',
    ciTarget(gha('pull_request'), { kind: 'unreadable', path: '/x/event.json', why: 'ENOENT' }),
    { kind: 'problem' },
  ],
  ['GitHub pull_request with no GITHUB_EVENT_PATH: a problem', ciTarget(gha('pull_request'), none), { kind: 'problem' }],
  [
    'GitHub pull_request whose payload lacks the shas: a problem',
    ciTarget(gha('pull_request'), ok({ pull_request: { head: {}, base: { sha: 'main' } } })),
    { kind: 'problem' },
  ],
  ['GitHub push whose payload is not an object: a problem', ciTarget(gha('push'), ok([1, 2])), { kind: 'problem' }],
  [
    'GitLab merge request pipeline: CI_COMMIT_SHA against the diff base',
    ciTarget(
      gitlab({
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_IID: '12',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: A,
        CI_COMMIT_BEFORE_SHA: ZERO,
      }),
      none,
    ),
    { kind: 'range', source: 'gitlab-mr', base: A, head: B, ref: 'refs/merge-requests/12/head' },
  ],
  [
    'GitLab merged results pipeline: the source branch head, not the merge commit',
    ciTarget(
      gitlab({
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_IID: '12',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: A,
        CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: C,
      }),
      none,
    ),
    { kind: 'range', source: 'gitlab-mr', base: A, head: C, ref: 'refs/merge-requests/12/head' },
  ],
  [
    'GitLab merge request pipeline without the diff base: a problem',
    ciTarget(gitlab({ CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '12' }), none),
    { kind: 'problem' },
  ],
  [
    'GitLab push pipeline: CI_COMMIT_SHA against CI_COMMIT_BEFORE_SHA',
    ciTarget(gitlab({ CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BEFORE_SHA: A, CI_COMMIT_BRANCH: 'feature' }), none),
    { kind: 'range', source: 'gitlab-push', base: A, head: B, ref: 'refs/heads/feature' },
  ],
  [
    'GitLab push of a new branch: the merge-base with CI_DEFAULT_BRANCH',
    ciTarget(gitlab({ CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BEFORE_SHA: ZERO, CI_COMMIT_BRANCH: 'feature' }), none),
    { kind: 'range', source: 'gitlab-push', base: 'origin/main', head: B, ref: 'refs/heads/feature', branch: true },
  ],
  [
    'GitLab scheduled pipeline: the last commit',
    ciTarget(gitlab({ CI_PIPELINE_SOURCE: 'schedule', CI_COMMIT_BRANCH: 'main' }), none),
    { kind: 'range', source: 'gitlab-other', base: `${B}~1`, head: B, ref: 'refs/heads/main' },
  ],
  [
    '--base/--head win over the event',
    ciTarget(gha('pull_request'), none, { base: 'v1', head: 'v2' }),
    { kind: 'range', source: 'flags', base: 'v1', head: 'v2', ref: 'v2' },
  ],
  [
    "outside CI without flags: HEAD, against run's default base",
    ciTarget({}, none),
    { kind: 'range', source: 'flags', base: undefined, head: 'HEAD', ref: 'HEAD' },
  ],
  [
    'GITHUB_ACTIONS other than "true" is not GitHub',
    ciTarget({ GITHUB_ACTIONS: '1', GITHUB_EVENT_NAME: 'push' }, none),
    { kind: 'range', source: 'flags', base: undefined, head: 'HEAD', ref: 'HEAD' },
  ],
];

for (const [title, got, want] of cases) test(title, () => assert.equal(pick(got), want));

test('every problem says the next step (pass --base/--head, or the rule to add)', () => {
  for (const [, got] of cases) if (got.kind === 'problem') assert.match(got.message, /--base <sha> --head <sha>/);
});

test('how a range was chosen is said in words', () => {
  const t = ciTarget(gha('push'), ok({ ref: 'refs/heads/feature', before: ZERO, after: B, repository: { default_branch: 'main' } }));
  assert.ok(t.kind === 'range');
  assert.match(t.how, 'new branch: against its merge-base with origin/main');
  const other = ciTarget(gha('schedule'), ok({}));
  assert.ok(other.kind === 'range');
  assert.match(other.how, 'GitHub schedule event names no range: the last commit');
});

test.run();
