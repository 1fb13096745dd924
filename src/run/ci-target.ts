/**
 * What a CI job judges, read from the CI's own environment: GitHub Actions' event payload (the file
 * at GITHUB_EVENT_PATH) or GitLab CI's predefined variables; `--base/--head` win over both. Pure:
 * the caller reads the event file and hands in its parsed JSON (or why it could not).
 */
import { ciMsg } from '../report/messages.js';

export type CiName = 'github' | 'gitlab' | 'none';
export type CiSource =
  | 'github-pr'
  | 'github-push'
  | 'github-merge-group'
  | 'github-other'
  | 'gitlab-mr'
  | 'gitlab-push'
  | 'gitlab-other'
  | 'flags';

/** The event file as the caller found it. */
export type CiEvent = { kind: 'ok'; payload: unknown } | { kind: 'none' } | { kind: 'unreadable'; path: string; why: string };

export interface CiRange {
  kind: 'range';
  ci: CiName;
  source: CiSource;
  /** A commit or a ref (`origin/main` for a new branch); absent: `run`'s default (config `base`, else the remote's HEAD). */
  base?: string;
  /** A commit, or `HEAD`. */
  head: string;
  /** The ref the rows are recorded under: `refs/pull/12/head`, `refs/heads/feature`... */
  ref: string;
  /** How the range was chosen, for one line of output (and the step summary). */
  how: string;
  /** The base is a branch taken for want of a range (a new branch): its merge-base is judged. */
  baseIsBranch?: boolean;
}

/** A push that deleted its branch: there is no commit to judge. */
export interface CiNothing {
  kind: 'nothing';
  ci: CiName;
  source: CiSource;
  why: string;
}

/** No range can be found; `message` says the next step. */
export interface CiProblem {
  kind: 'problem';
  ci: CiName;
  message: string;
}

export type CiTarget = CiRange | CiNothing | CiProblem;

export interface CiFlags {
  base?: string;
  head?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const ZEROS = /^0+$/;
const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const isSha = (v: unknown): v is string => typeof v === 'string' && SHA.test(v);
const isZeros = (v: unknown): boolean => typeof v === 'string' && ZEROS.test(v);

/** Which CI runs this job. */
export function ciName(env: Env): CiName {
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  if (env.GITLAB_CI === 'true') return 'gitlab';
  return 'none';
}

/** The range a CI job judges. Pure. */
export function ciTarget(env: Env, event: CiEvent, flags: CiFlags = {}): CiTarget {
  const ci = ciName(env);
  if (flags.base !== undefined || flags.head !== undefined) {
    return {
      kind: 'range',
      ci,
      source: 'flags',
      ...(flags.base !== undefined && { base: flags.base }),
      head: flags.head ?? 'HEAD',
      ref: flags.head ?? 'HEAD',
      how: ciMsg.howFlags(ci),
    };
  }
  if (ci === 'github') return githubTarget(env, event);
  if (ci === 'gitlab') return gitlabTarget(env);
  return { kind: 'range', ci, source: 'flags', head: 'HEAD', ref: 'HEAD', how: ciMsg.howNoCi() };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

function githubTarget(env: Env, event: CiEvent): CiTarget {
  const name = env.GITHUB_EVENT_NAME ?? '';
  const ci = 'github';
  const ranged = name === 'pull_request' || name === 'pull_request_target' || name === 'push' || name === 'merge_group';
  if (ranged && event.kind !== 'ok') {
    const where = event.kind === 'unreadable' ? ciMsg.eventUnreadable(event.path, event.why) : ciMsg.noEventPath();
    return { kind: 'problem', ci, message: ciMsg.noEvent(name, where) };
  }
  const payload = event.kind === 'ok' ? obj(event.payload) : {};
  if (name === 'pull_request' || name === 'pull_request_target') {
    const pr = obj(payload.pull_request);
    const base = obj(pr.base).sha;
    const head = obj(pr.head).sha;
    if (!isSha(base) || !isSha(head)) return malformed(name, 'pull_request.base.sha and pull_request.head.sha');
    const n = typeof pr.number === 'number' ? pr.number : typeof payload.number === 'number' ? payload.number : undefined;
    // The checkout is the test merge commit (refs/pull/N/merge) by default; the PR's own head is judged.
    return {
      kind: 'range',
      ci,
      source: 'github-pr',
      base,
      head,
      ref: n === undefined ? 'pull request' : `refs/pull/${n}/head`,
      how: ciMsg.howPullRequest(name, n),
    };
  }
  if (name === 'merge_group') {
    const group = obj(payload.merge_group);
    if (!isSha(group.base_sha) || !isSha(group.head_sha)) return malformed(name, 'merge_group.base_sha and merge_group.head_sha');
    const ref = typeof group.head_ref === 'string' ? group.head_ref : 'merge group';
    return { kind: 'range', ci, source: 'github-merge-group', base: group.base_sha, head: group.head_sha, ref, how: ciMsg.howMergeGroup() };
  }
  if (name === 'push') {
    const ref = typeof payload.ref === 'string' ? payload.ref : (env.GITHUB_REF ?? 'HEAD');
    const { before, after } = payload;
    if (isZeros(after) || payload.deleted === true) return { kind: 'nothing', ci, source: 'github-push', why: ciMsg.deleted(ref) };
    if (!isSha(after) || !(isSha(before) || isZeros(before))) return malformed(name, 'before and after');
    if (isSha(before) && !isZeros(before))
      return { kind: 'range', ci, source: 'github-push', base: before, head: after, ref, how: ciMsg.howGithubPush() };
    const main = str(obj(payload.repository).default_branch);
    return newBranch('github-push', ci, after, ref, main, 'GitHub push event');
  }
  // workflow_dispatch, schedule, release...: no range in the event.
  return lastCommit('github-other', ci, env.GITHUB_SHA, env.GITHUB_REF, `GitHub ${name || 'unnamed'} event`);
}

function gitlabTarget(env: Env): CiTarget {
  const ci = 'gitlab';
  const head = env.CI_COMMIT_SHA;
  const mr = env.CI_PIPELINE_SOURCE === 'merge_request_event' || (env.CI_MERGE_REQUEST_IID ?? '') !== '';
  if (mr) {
    // A merged results pipeline builds a merge commit (CI_COMMIT_SHA); the MR's own head is CI_MERGE_REQUEST_SOURCE_BRANCH_SHA.
    const own = isSha(env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA) ? env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA : head;
    const base = env.CI_MERGE_REQUEST_DIFF_BASE_SHA;
    if (!isSha(own) || !isSha(base)) {
      return { kind: 'problem', ci, message: ciMsg.gitlabMrVars() };
    }
    const iid = env.CI_MERGE_REQUEST_IID;
    return {
      kind: 'range',
      ci,
      source: 'gitlab-mr',
      base,
      head: own,
      ref: iid ? `refs/merge-requests/${iid}/head` : 'merge request',
      how: ciMsg.howGitlabMr(iid),
    };
  }
  const ref = env.CI_COMMIT_BRANCH ? `refs/heads/${env.CI_COMMIT_BRANCH}` : env.CI_COMMIT_TAG ? `refs/tags/${env.CI_COMMIT_TAG}` : 'HEAD';
  if (env.CI_PIPELINE_SOURCE === 'push' && isSha(head)) {
    const before = env.CI_COMMIT_BEFORE_SHA;
    if (isSha(before) && !isZeros(before))
      return { kind: 'range', ci, source: 'gitlab-push', base: before, head, ref, how: ciMsg.howGitlabPush() };
    if (env.CI_COMMIT_BRANCH) return newBranch('gitlab-push', ci, head, ref, env.CI_DEFAULT_BRANCH, 'GitLab push pipeline');
  }
  return lastCommit('gitlab-other', ci, head, ref, `GitLab ${env.CI_PIPELINE_SOURCE ?? 'unknown'} pipeline`);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The first push of a branch has no "before": it is judged from its merge-base with the default branch. */
function newBranch(source: CiSource, ci: CiName, head: string, ref: string, main: string | undefined, what: string): CiTarget {
  const branch = ref.replace(/^refs\/heads\//, '');
  if (main === undefined || main === branch)
    return lastCommit(source, ci, head, ref, `${what} of a new branch${main === undefined ? ' (no default branch named)' : ''}`);
  return { kind: 'range', ci, source, base: `origin/${main}`, baseIsBranch: true, head, ref, how: ciMsg.howNewBranch(what, main) };
}

/** No range in the event: the last commit, said so. */
function lastCommit(source: CiSource, ci: CiName, sha: string | undefined, ref: string | undefined, what: string): CiTarget {
  const head = isSha(sha) ? sha : 'HEAD';
  return { kind: 'range', ci, source, base: `${head}~1`, head, ref: ref ?? head, how: ciMsg.howLastCommit(what, head) };
}

function malformed(name: string, fields: string): CiProblem {
  return { kind: 'problem', ci: 'github', message: ciMsg.malformed(name, fields) };
}
