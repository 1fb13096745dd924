/**
 * `gate-ladder ci` through the packed CLI, in real repositories with a bare remote: recorded GitHub
 * event payloads (pull_request, push) and GitLab variables, a tier whose JUnit report names the failed
 * test, the step summary file, exit codes 0/1/2, and a shallow clone that lacks the base.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/sets.js';
import * as assert from 'uvu/assert';
import { type Repo, sh, withRepo } from '../helpers/repo.js';

const ZERO = '0'.repeat(40);

/** A test runner in miniature: writes junit.xml as jest-junit does (a file attribute, the stack in CDATA). */
const TEST_SH = `#!/bin/sh
if [ -f harness.txt ]; then exit "$(cat harness.txt)"; fi
if grep -q bug src/value.txt; then
  cat > junit.xml <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="tests" tests="2" failures="1">
  <testsuite name="value" tests="2" failures="1">
    <testcase classname="value is good" name="value is good" file="test/value.test.js" time="0.002">
      <failure><![CDATA[Error: expected "good", got "bug, 100%"
    at Object.<anonymous> ($PWD/test/value.test.js:3:9)
    at node:internal/main/run_main_module:28:49]]></failure>
    </testcase>
    <testcase classname="value has no tabs" name="value has no tabs" file="test/value.test.js" time="0.001"/>
  </testsuite>
</testsuites>
EOF
  exit 1
fi
cat > junit.xml <<EOF
<testsuites><testsuite name="value"><testcase classname="value is good" name="value is good" file="test/value.test.js"/><testcase classname="value has no tabs" name="value has no tabs" file="test/value.test.js"/></testsuite></testsuites>
EOF
`;

const FILES: Record<string, string> = {
  '.gitignore': 'node_modules\njunit.xml\n',
  'gate-ladder.config.ts': `export default {
  tiers: [
    { name: 't1-lint', run: 'sh lint.sh', timeout: 30 },
    { name: 't2-unit', run: 'sh test.sh', junit: 'junit.xml', timeout: 30 },
  ],
};
`,
  'lint.sh': '#!/bin/sh\nif [ -f harness.txt ]; then exit "$(cat harness.txt)"; fi\necho lint ok\n',
  'test.sh': TEST_SH,
  'test/value.test.js': "const assert = require('node:assert');\n\nassert.equal(read('src/value.txt'), 'good');\n",
  'src/value.txt': 'good\n',
};

/** No CI variable of the machine running the tests may leak in: each test names its own. */
const NO_CI = {
  GITHUB_ACTIONS: '',
  GITHUB_EVENT_NAME: '',
  GITHUB_EVENT_PATH: '',
  GITHUB_STEP_SUMMARY: '',
  GITLAB_CI: '',
  CI_PIPELINE_SOURCE: '',
  CI_MERGE_REQUEST_IID: '',
};

/** Writes a recorded event payload next to the work clone; returns GitHub's environment for it. */
function github(repo: Repo, event: string, payload: unknown, extra: Record<string, string> = {}): Record<string, string> {
  const path = join(repo.dir, '..', `${event}-event.json`);
  writeFileSync(path, JSON.stringify(payload, null, 2));
  return {
    ...NO_CI,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: path,
    GITHUB_WORKSPACE: repo.dir,
    GITHUB_REPOSITORY: 'acme/widget',
    GITHUB_RUN_ID: '9876543210',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'ladder',
    ...extra,
  };
}

const repository = {
  id: 123456,
  name: 'widget',
  full_name: 'acme/widget',
  private: false,
  default_branch: 'main',
  html_url: 'https://github.com/acme/widget',
};
const sender = { login: 'dev', id: 42, type: 'User' };

const errorLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::error'));

test('GitHub pull_request: the PR head is judged (not the merge checkout), the failed test annotated at its line, the summary appended', () =>
  withRepo({ files: FILES }, (repo) => {
    const init = repo.gitOk('rev-parse', 'HEAD');
    repo.gitOk('checkout', '-q', '-b', 'feature');
    repo.write('src/value.txt', 'bug\n');
    const head = repo.commit('value: bug');
    repo.push(['-q', 'origin', 'feature'], { GATE_LADDER: '0' });
    repo.gitOk('checkout', '-q', 'main');
    repo.write('docs/notes.md', 'main moved on\n');
    const base = repo.commit('docs on main');
    repo.push(['-q', 'origin', 'main'], { GATE_LADDER: '0' });
    // What actions/checkout checks out for a pull request: the test merge commit (refs/pull/7/merge).
    repo.gitOk('checkout', '-q', '--detach', 'main');
    repo.gitOk('merge', '-q', '--no-ff', '--no-edit', 'feature');
    const merge = repo.gitOk('rev-parse', 'HEAD');
    const summary = join(repo.dir, '..', 'step-summary.md');
    writeFileSync(summary, '# Build\n\nan earlier step wrote this\n');
    const env = github(
      repo,
      'pull_request',
      {
        action: 'synchronize',
        number: 7,
        before: init,
        after: head,
        pull_request: {
          url: 'https://api.github.com/repos/acme/widget/pulls/7',
          id: 1900000007,
          number: 7,
          state: 'open',
          draft: false,
          title: 'Value: handle the new input',
          user: sender,
          head: { label: 'acme:feature', ref: 'feature', sha: head, repo: repository },
          base: { label: 'acme:main', ref: 'main', sha: base, repo: repository },
          merge_commit_sha: merge,
          commits: 1,
          changed_files: 1,
        },
        repository,
        sender,
      },
      {
        GITHUB_SHA: merge,
        GITHUB_REF: 'refs/pull/7/merge',
        GITHUB_HEAD_REF: 'feature',
        GITHUB_BASE_REF: 'main',
        GITHUB_STEP_SUMMARY: summary,
      },
    );

    const r = repo.cli(['ci'], { env });
    assert.is(r.code, 1, r.out);
    // What is judged: the PR's own change since its merge-base with the base (not main's docs commit).
    assert.match(
      r.stderr,
      `gate-ladder: ci: GitHub pull_request event #7: its head against its base: judging ${head.slice(0, 12)} against ${base.slice(0, 12)}.`,
    );
    assert.match(r.stderr, `refs/pull/7/head at ${head.slice(0, 12)}: 1 changed path since ${init.slice(0, 12)}`);
    assert.match(r.stderr, 'gate-ladder: check failed: t2-unit caught a problem in refs/pull/7/head');
    assert.not.match(r.out, 'push blocked');
    assert.not.match(r.out, '--no-verify');
    assert.match(r.stderr, `to see it on your machine: \`npx gate-ladder run --base ${base} --head ${head}\``);
    // One annotation, at the test file's line, escaped as GitHub reads it.
    assert.equal(errorLines(r.stdout), [
      '::error file=test/value.test.js,line=3,title=t2-unit%3A value is good::Error: expected "good", got "bug, 100%25"',
    ]);
    // The step summary was appended to, not replaced.
    const md = readFileSync(summary, 'utf8');
    assert.ok(md.startsWith('# Build\n\nan earlier step wrote this\n'), md);
    assert.match(md, '## gate-ladder: check failed: a tier caught a problem (exit 1)');
    assert.match(md, `refs/pull/7/head at \`${head.slice(0, 12)}\` against \`${init.slice(0, 12)}\`: 1 changed path.`);
    assert.match(md, /\| t1-lint \| pass \| \d+\.\d \| {2}\|/);
    assert.match(md, /\| t2-unit \| \*\*caught\*\* \| \d+\.\d \| 1 failed test: test\/value\.test\.js::value is good \|/);
    assert.match(md, '- `test/value.test.js:3` value is good (t2-unit): Error: expected "good", got "bug, 100%"');
    assert.match(md, '### Ledger figures per tier');
    assert.match(md, /\| t2-unit \| 1 \| 1 \| 0 \|/);
    // The rows: the PR head under its PR ref, the test named.
    assert.equal(
      repo.ledger().map((x) => [x.hook, x.ref, x.patch, x.tier, x.verdict, x.failed]),
      [
        ['manual', 'refs/pull/7/head', head, 't1-lint', 'pass', undefined],
        ['manual', 'refs/pull/7/head', head, 't2-unit', 'caught', ['test/value.test.js::value is good']],
      ],
    );
  }));

test('GitHub push events: a range passes (exit 0, --json), a new branch is judged from the default branch, a deletion judges nothing, a missing event file is exit 2', () =>
  withRepo({ files: FILES }, (repo) => {
    const init = repo.gitOk('rev-parse', 'HEAD');
    repo.write('src/other.txt', 'x\n');
    const c1 = repo.commit('other');
    repo.push(['-q', 'origin', 'main'], { GATE_LADDER: '0' });
    const push = (ref: string, before: string, after: string, extra: Record<string, unknown> = {}) => ({
      ref,
      before,
      after,
      base_ref: null,
      created: before === ZERO,
      deleted: after === ZERO,
      forced: false,
      compare: `https://github.com/acme/widget/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
      commits: after === ZERO ? [] : [{ id: after, message: 'a change', author: { name: 'Dev', email: 'dev@example.invalid' } }],
      head_commit: after === ZERO ? null : { id: after, message: 'a change' },
      pusher: { name: 'dev', email: 'dev@example.invalid' },
      repository: { ...repository, master_branch: 'main' },
      sender,
      ...extra,
    });
    const summary = join(repo.dir, '..', 'push-summary.md');

    const ok = repo.cli(['ci', '--json'], {
      env: github(repo, 'push', push('refs/heads/main', init, c1), {
        GITHUB_SHA: c1,
        GITHUB_REF: 'refs/heads/main',
        GITHUB_STEP_SUMMARY: summary,
      }),
    });
    assert.is(ok.code, 0, ok.out);
    const doc = JSON.parse(ok.stdout) as {
      exit: number;
      ci: { source: string; base: string; head: string; ref: string };
      targets: { verdict: string; files: number; base: string }[];
      annotations: unknown[];
      summary: string;
    };
    assert.equal([doc.exit, doc.ci.source, doc.ci.base, doc.ci.head, doc.ci.ref], [0, 'github-push', init, c1, 'refs/heads/main']);
    assert.equal(
      doc.targets.map((t) => [t.verdict, t.files]),
      [['pass', 1]],
    );
    assert.equal(doc.annotations, []);
    assert.is(doc.summary, summary);
    assert.match(readFileSync(summary, 'utf8'), '## gate-ladder: passed');
    assert.not.match(ok.stdout, '::error');

    repo.gitOk('checkout', '-q', '-b', 'topic');
    repo.write('src/topic.txt', 'y\n');
    const t1 = repo.commit('topic');
    const fresh = repo.cli(['ci', '--json'], {
      env: github(repo, 'push', push('refs/heads/topic', ZERO, t1), { GITHUB_SHA: t1, GITHUB_REF: 'refs/heads/topic' }),
    });
    assert.is(fresh.code, 0, fresh.out);
    const f = JSON.parse(fresh.stdout) as typeof doc;
    assert.equal([f.ci.source, f.ci.base, f.ci.head], ['github-push', 'origin/main', t1]);
    assert.equal(
      f.targets.map((t) => [t.verdict, t.files, t.base]),
      [['pass', 1, c1]],
    );

    const gone = repo.cli(['ci'], { env: github(repo, 'push', push('refs/heads/old', c1, ZERO)) });
    assert.is(gone.code, 0, gone.out);
    assert.match(gone.stderr, 'gate-ladder: ci: the push deleted refs/heads/old: no commit to judge; nothing checked.');

    const lost = repo.cli(['ci'], { env: { ...github(repo, 'push', {}), GITHUB_EVENT_PATH: join(repo.dir, '..', 'no-such-event.json') } });
    assert.is(lost.code, 2, lost.out);
    assert.match(lost.stderr, 'no-such-event.json cannot be read');
    assert.match(lost.stderr, '`gate-ladder ci --base <sha> --head <sha>`');
    assert.is(repo.ledger().length, 4, 'two passing runs of two tiers, nothing for the deletion or the missing event');
  }));

test('GitHub push: a test file the patch broke (a syntax error) is annotated at that file and line, as the patch\'s, not "not a verdict"', () =>
  withRepo(
    {
      files: {
        'gate-ladder.config.ts': "export default { tiers: [{ name: 't1-unit', run: 'node --test', timeout: 60 }] };\n",
        'test/sum.test.js':
          "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.equal(1 + 1, 2));\n",
      },
    },
    (repo) => {
      const init = repo.gitOk('rev-parse', 'HEAD');
      repo.write('test/sum.test.js', "const test = require('node:test');\n\ntest('adds', () => {\n  assert.equal(1 + 1, 2);;)\n});\n");
      const c1 = repo.commit('broken test file');
      const run = repo.cli(['ci', '--json'], {
        env: github(
          repo,
          'push',
          {
            ref: 'refs/heads/main',
            before: init,
            after: c1,
            created: false,
            deleted: false,
            forced: false,
            commits: [],
            repository,
            sender,
          },
          { GITHUB_SHA: c1, GITHUB_REF: 'refs/heads/main' },
        ),
      });
      assert.is(run.code, 2, run.out);
      const doc = JSON.parse(run.stdout) as { annotations: { file?: string; line?: number; title: string; message: string }[] };
      assert.equal(
        doc.annotations.map((a) => [a.file, a.line, a.title]),
        [['test/sum.test.js', 4, 'gate-ladder: t1-unit: the patch broke test/sum.test.js']],
        run.out,
      );
      assert.match(doc.annotations[0]!.message, 'Fix test/sum.test.js');
      const lines = errorLines(
        repo.cli(['ci'], {
          env: github(
            repo,
            'push',
            { ref: 'refs/heads/main', before: init, after: c1, repository, sender },
            { GITHUB_SHA: c1, GITHUB_REF: 'refs/heads/main' },
          ),
        }).stdout,
      );
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(
        lines[0]!,
        /^::error file=test\/sum\.test\.js,line=4,title=gate-ladder%3A t1-unit%3A the patch broke test\/sum\.test\.js::/,
      );
    },
  ));

test('GitLab: a merge request whose tier cannot give a verdict is exit 2 with no annotation; a push pipeline that passes is exit 0; --summary writes the markdown', () =>
  withRepo({ files: FILES }, (repo) => {
    const init = repo.gitOk('rev-parse', 'HEAD');
    repo.gitOk('checkout', '-q', '-b', 'feature');
    repo.write('harness.txt', '4\n');
    const head = repo.commit('break the harness');
    const summary = join(repo.dir, '..', 'gitlab-summary.md');
    const gitlab = (vars: Record<string, string>) => ({
      ...NO_CI,
      CI: 'true',
      GITLAB_CI: 'true',
      CI_SERVER_NAME: 'GitLab',
      CI_PROJECT_PATH: 'acme/widget',
      CI_DEFAULT_BRANCH: 'main',
      CI_JOB_ID: '555',
      CI_PIPELINE_ID: '777',
      ...vars,
    });
    const mr = repo.cli(['ci', '--summary', summary], {
      env: gitlab({
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_IID: '3',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: init,
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
        CI_COMMIT_SHA: head,
        CI_COMMIT_BEFORE_SHA: ZERO,
        CI_COMMIT_REF_NAME: 'feature',
      }),
    });
    assert.is(mr.code, 2, mr.out);
    assert.match(
      mr.stderr,
      `gate-ladder: ci: GitLab merge request !3: its head against its diff base: judging ${head.slice(0, 12)} against ${init.slice(0, 12)}.`,
    );
    assert.match(mr.stderr, 'gate-ladder: check failed: t1-lint could not give a verdict on refs/merge-requests/3/head');
    assert.not.match(mr.out, 'push blocked');
    assert.is(mr.stdout, '', 'GitLab has no annotation command: nothing on stdout');
    const md = readFileSync(summary, 'utf8');
    assert.match(md, '## gate-ladder: check failed: no verdict, the check itself did not complete (exit 2)');
    assert.match(md, /\| t1-lint \| \*\*error\*\* \| \d+\.\d \| exit 4/);
    assert.match(md, '| t2-unit | not run |  | not reached: an earlier tier stopped the ladder |');

    repo.gitOk('rm', '-q', 'harness.txt');
    const fixed = repo.commit('mend the harness');
    const push = repo.cli(['ci'], {
      env: gitlab({ CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'feature', CI_COMMIT_SHA: fixed, CI_COMMIT_BEFORE_SHA: head }),
    });
    assert.is(push.code, 0, push.out);
    assert.match(push.stderr, 'GitLab push pipeline: CI_COMMIT_SHA against CI_COMMIT_BEFORE_SHA');
    assert.equal(
      repo.ledger().map((x) => [x.ref, x.tier, x.verdict]),
      [
        ['refs/merge-requests/3/head', 't1-lint', 'error'],
        ['refs/heads/feature', 't1-lint', 'pass'],
        ['refs/heads/feature', 't2-unit', 'pass'],
      ],
    );
  }));

test('a shallow clone that lacks the base: exit 2 with the fix for each CI, no gate run; after the fix it judges', () =>
  withRepo({ files: FILES }, (repo) => {
    const init = repo.gitOk('rev-parse', 'HEAD');
    repo.write('src/a.txt', '1\n');
    repo.commit('one');
    repo.write('src/b.txt', '2\n');
    const head = repo.commit('two');
    repo.push(['-q', 'origin', 'main'], { GATE_LADDER: '0' });
    const shallow = repo.clone('shallow', ['--depth', '1']);
    assert.is(shallow.gitOk('rev-parse', '--is-shallow-repository'), 'true');

    const env = github(
      shallow,
      'push',
      { ref: 'refs/heads/main', before: init, after: head, created: false, deleted: false, repository, sender },
      { GITHUB_SHA: head },
    );
    const gh = shallow.cli(['ci'], { env });
    assert.is(gh.code, 2, gh.out);
    assert.match(
      gh.stderr,
      `gate-ladder: ci: cannot judge: the base ${init} is not in this clone (a shallow clone). Give the actions/checkout step \`with: fetch-depth: 0\``,
    );
    assert.match(gh.stderr, 'This is not a verdict on the patch.');
    assert.not.match(gh.out, 'passed');

    const gl = shallow.cli(['ci'], {
      env: {
        ...NO_CI,
        GITLAB_CI: 'true',
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_IID: '4',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: init,
        CI_COMMIT_SHA: head,
      },
    });
    assert.is(gl.code, 2, gl.out);
    assert.match(gl.stderr, "Set `GIT_DEPTH: 0` in the job's `variables:`");
    assert.equal(shallow.ledger(), [], 'no gate ran');

    shallow.gitOk('fetch', '-q', '--unshallow');
    const after = shallow.cli(['ci'], { env });
    assert.is(after.code, 0, after.out);
    assert.match(after.stderr, `main at ${head.slice(0, 12)}: 2 changed paths since ${init.slice(0, 12)}`);
  }));

test('a step summary path naming a FIFO with no reader: the job returns with its verdict and a line saying why nothing was written', () =>
  withRepo({ files: FILES }, (repo) => {
    const init = repo.gitOk('rev-parse', 'HEAD');
    repo.write('src/other.txt', 'x\n');
    const head = repo.commit('a change');
    const fifo = join(repo.dir, '..', 'summary.fifo');
    assert.is(sh('mkfifo', [fifo], repo.dir).code, 0);
    // The time limit only keeps a hang from holding the suite: before the fix the job never returned.
    const r = repo.cli(['ci', '--base', init, '--head', head], { env: { ...NO_CI, GITHUB_STEP_SUMMARY: fifo }, timeoutMs: 120_000 });
    assert.is(r.code, 0, r.out);
    assert.match(r.stderr, 'cannot append the summary to');
    assert.match(r.stderr, 'not a regular file (a FIFO');
    assert.ok(statSync(fifo).isFIFO());
  }));

test.run();
