/**
 * `judge` takes the patches agents produce (issue 42): a diff without its final newline (what
 * `$(cat p.diff)` hands over), CRLF line ends, `git format-patch` mail (one commit and two), `diff -u`
 * output, hunk headers whose line counts are off; each is judged, not refused. A patch that does not
 * apply names the hunk, the file and git's reason, and suggests `--base` only when the base is the likely
 * cause (not for a malformed patch). The packed CLI, a real repository, real git.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Repo, sh, withRepo } from '../helpers/repo.js';

const FILES: Record<string, string> = {
  '.gitignore': 'node_modules\n',
  'package.json': `${JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'node --test test/' } }, null, 2)}\n`,
  'gate-ladder.config.mjs': `export default { tiers: [{ name: 't1-unit', run: 'node --test test/math.test.js', timeout: 120 }] };\n`,
  'src/math.js': 'exports.add = (a, b) => a + b;\n// one\n// two\n// three\n',
  'test/math.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math.js');\ntest('adds', () => {\n  assert.equal(add(1, 2), 3);\n});\n",
};

type Answer = { label: string; verdict: string; applied: boolean; reason: string | null; next: string };

/** Writes `text` beside the repo as `name`; returns its path. */
function put(repo: Repo, name: string, text: string): string {
  const file = join(dirname(repo.dir), name);
  writeFileSync(file, text);
  return file;
}

test('a diff without its final newline, CRLF, format-patch mail (one commit, two), diff -u, wrong hunk counts: each applies and is judged', () =>
  withRepo({ files: FILES, install: false, pushInitial: false }, (repo) => {
    // A good change: the comment lines say more; the test still passes.
    repo.write('src/math.js', 'exports.add = (a, b) => a + b;\n// one, said more\n// two\n// three\n');
    const diff = repo.gitOk('diff');
    // format-patch: the same change as one commit, then as two.
    repo.commit('one');
    repo.write('src/math.js', 'exports.add = (a, b) => a + b;\n// one, said more\n// two\n// three, said more\n');
    repo.commit('two');
    const mail1 = repo.gitOk('format-patch', '-1', '--stdout', 'HEAD~1');
    const mail2 = repo.gitOk('format-patch', '-2', '--stdout');
    repo.gitOk('reset', '-q', '--hard', 'HEAD~2');
    // diff -u of a copy beside the file, as a person or a tool makes it.
    repo.write('src/math.js.orig', FILES['src/math.js']!);
    repo.write('src/math.js', 'exports.add = (a, b) => a + b;\n// one\n// two, said by diff -u\n// three\n');
    const u = sh('diff', ['-u', 'src/math.js.orig', 'src/math.js'], repo.dir).stdout;
    repo.gitOk('checkout', '--', '.');
    repo.git('clean', '-fdq', 'src');
    const crlf = `${diff.replace(/\n/g, '\r\n')}\r\n`;
    // A model's hunk header: the new side's count one too many.
    const counts = `${diff.replace(/@@ -1,4 \+1,4 @@/, '@@ -1,4 +1,5 @@')}\n`;
    assert.ok(counts.includes('+1,5'), counts);
    const patches = {
      'no-newline.diff': diff.replace(/\n$/, ''),
      'crlf.diff': crlf,
      'one.mbox': `${mail1}\n`,
      'two.mbox': `${mail2}\n`,
      'diff-u.diff': u,
      'counts.diff': counts,
    };
    const args = Object.entries(patches).flatMap(([name, text]) => ['--patch', put(repo, name, text)]);
    const r = repo.cli(['judge', ...args, '--jobs', '2', '--json'], { timeoutMs: 300_000 });
    const doc = JSON.parse(r.stdout) as { patches: Answer[] };
    for (const a of doc.patches) assert.is(a.verdict, 'pass', `${a.label}: ${a.reason} / ${a.next}`);
    assert.is(r.code, 0, r.out);
    assert.equal(doc.patches.map((a) => a.label).sort(), Object.keys(patches).sort());
  }));

test("a patch that does not apply names the hunk, the file and git's reason and suggests --base; a malformed one does not suggest --base", () =>
  withRepo({ files: FILES, install: false, pushInitial: false }, (repo) => {
    repo.write('src/math.js', 'exports.add = (a, b) => a + b;\n// one, said more\n// two\n// three\n');
    const diff = `${repo.gitOk('diff')}\n`;
    repo.gitOk('checkout', '--', '.');
    // Made against another base: its context line is not the file's.
    const stale = put(repo, 'stale.diff', diff.replace(' // two\n', ' // deux\n'));
    // Malformed: a context line lost its leading space (as a tool trimming lines does).
    const broken = put(repo, 'broken.diff', diff.replace(' // two\n', '// two\n'));
    const r = repo.cli(['judge', '--patch', stale, '--patch', broken, '--json'], { timeoutMs: 300_000 });
    assert.is(r.code, 2, r.out);
    const doc = JSON.parse(r.stdout) as { patches: Answer[] };
    const byLabel = Object.fromEntries(doc.patches.map((a) => [a.label, a]));
    const s = byLabel['stale.diff']!;
    assert.is(s.applied, false);
    assert.match(String(s.reason), 'the hunk `@@ -1,4 +1,4 @@` of src/math.js does not match src/math.js at the base');
    assert.match(String(s.reason), 'git: src/math.js: patch does not apply');
    assert.match(s.next, '`--base`');
    const b = byLabel['broken.diff']!;
    assert.is(b.applied, false);
    assert.match(String(b.reason), 'the patch is malformed: git: corrupt patch at line');
    assert.not.match(b.next, '--base');
    assert.match(b.next, 'malformed');
  }));

test('an empty patch (`git diff` of a clean tree) is nothing to judge: exit 0, said, no ledger row; beside another patch, a mistake', () =>
  withRepo({ files: FILES, install: false, pushInitial: false }, (repo) => {
    const alone = repo.cli(['judge', '--patch', '-', '--json'], { input: '' });
    assert.is(alone.code, 0, alone.out);
    const doc = JSON.parse(alone.stdout) as { judged: boolean; message: string };
    assert.is(doc.judged, false);
    assert.match(doc.message, 'the patch on stdin is empty: no change, so nothing to judge');
    assert.is(repo.ledger().length, 0, 'nothing ran, so no row');
    repo.write('src/math.js', 'exports.add = (a, b) => a + b;\n// one, said more\n// two\n// three\n');
    const diff = put(repo, 'real.diff', `${repo.gitOk('diff')}\n`);
    repo.gitOk('checkout', '--', '.');
    const both = repo.cli(['judge', '--patch', diff, '--patch', put(repo, 'blank.diff', '\n')]);
    assert.is(both.code, 2, both.out);
    assert.match(both.stderr, '--patch blank.diff: empty (no change to judge)');
    assert.is(repo.ledger().length, 0);
  }));

test.run();
