/**
 * Whose fault an error is, on real pushes with real jest (issue 35): a test file the push changed
 * that cannot load is the patch's error, named in the message and the row (`error_cause`,
 * `error_file`); the same kind of error from a piece the push did not touch (a jest config committed
 * earlier) points at the tier. The report counts the two apart.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, withRepo } from '../helpers/repo.js';

const JEST = join(PROJECT, 'node_modules', 'jest', 'bin', 'jest.js');

const FILES: Record<string, string> = {
  '.gitignore': 'node_modules\n',
  'package.json': `${JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, scripts: { test: `node ${JEST} --ci` } }, null, 2)}\n`,
  'jest.config.js': "module.exports = { testEnvironment: 'node' };\n",
  'gate-ladder.config.mjs': "export default { tiers: [{ name: 'unit', run: 'npm test', timeout: 120 }] };\n",
  'src/sum.js': 'module.exports = (a, b) => a + b;\n',
  'test/parse.test.js': "const sum = require('../src/sum');\ntest('adds', () => { expect(sum(1, 2)).toBe(3); });\n",
};

test('a test file the push broke: the error names it and says the push changed it; one the push did not touch points at the tier; the report counts them apart', () =>
  withRepo({ files: FILES }, (repo) => {
    // The patch's error: a syntax error in the test file it changed.
    repo.write('test/parse.test.js', "const sum = require('../src/sum');\ntest('adds', () => { expect(sum(1, 2)).toBe(3);\n");
    repo.commit('a broken test file');
    const mine = repo.push();
    assert.is.not(mine.code, 0, mine.out);
    assert.match(mine.stderr, 'unit could not give a verdict on refs/heads/main: a test file could not run (test/parse.test.js)');
    assert.match(mine.stderr, '  The push changed test/parse.test.js, which cannot load: the patch broke the harness.');
    assert.match(mine.stderr, '  Fix test/parse.test.js, commit, and push again.');
    assert.not.match(mine.stderr, 'This is not a verdict on the patch');
    assert.not.match(mine.stderr, 'Fix the tier in');
    const first = repo.ledger().at(-1)!;
    assert.equal([first.verdict, first.error_cause, first.error_file], ['error', 'patch', 'test/parse.test.js'], JSON.stringify(first));

    // The harness's error: a jest config broken earlier (pushed past the hook), untouched by the push judged.
    repo.write('test/parse.test.js', FILES['test/parse.test.js']!);
    repo.write('jest.config.js', "module.exports = { testEnvironment: 'node',\n");
    repo.commit('fix the test, break the config');
    const bypassed = repo.push(['origin', 'HEAD'], { GATE_LADDER: '0' });
    assert.is(bypassed.code, 0, bypassed.out);
    repo.write('src/sum.js', 'module.exports = (a, b) => b + a;\n');
    repo.commit('an innocent change');
    const theirs = repo.push();
    assert.is.not(theirs.code, 0, theirs.out);
    assert.match(
      theirs.stderr,
      'unit could not give a verdict on refs/heads/main: jest could not load its config (jest.config.js): `SyntaxError: Unexpected end of input`',
    );
    assert.match(theirs.stderr, 'This is not a verdict on the patch');
    assert.match(theirs.stderr, 'Fix the tier in gate-ladder.config.mjs');
    assert.not.match(theirs.stderr, 'the patch broke the harness');
    const second = repo.ledger().at(-1)!;
    assert.equal([second.verdict, second.error_cause, second.error_file], ['error', 'harness', undefined], JSON.stringify(second));

    const json = JSON.parse(repo.cli(['report', '--json']).stdout) as {
      errors: { patch: number; harness: number };
      tiers: { tier: string; errors: number }[];
    };
    assert.equal(json.errors, { patch: 1, harness: 1 });
    assert.is(json.tiers.find((t) => t.tier === 'unit')!.errors, 2, 'the tier figures count both as errors');
    const line =
      "errors: 1 caused by the patches (a file the patch changed cannot load, or the patch removed the tier's script), 1 of the harness";
    assert.match(repo.cli(['report']).stdout, `  ${line}`);
    assert.match(repo.cli(['report', '--markdown']).stdout, `- ${line}`);
  }));

test("coverage below its threshold in a run that names the changed file (jest's related tests): no file to blame, the harness's error", () =>
  withRepo(
    {
      files: {
        ...FILES,
        'jest.config.js': "module.exports = { testEnvironment: 'node', coverageThreshold: { global: { statements: 90 } } };\n",
        'test/parse.test.js': "const sum = require('../src/sum');\ntest('adds', () => { expect(sum(1, 2)).toBe(3); });\n",
        'gate-ladder.config.mjs': `export default { tiers: [{ name: 'related', run: ${JSON.stringify(`node ${JEST} --ci --coverage --findRelatedTests src/sum.js`)}, timeout: 120 }] };\n`,
      },
    },
    (repo) => {
      // Two functions no test calls: coverage falls below 90% of statements; every test passes.
      repo.write(
        'src/sum.js',
        'const sum = (a, b) => a + b;\nmodule.exports = sum;\nmodule.exports.twice = (a) => {\n  const d = a * 2;\n  return d;\n};\nmodule.exports.thrice = (a) => {\n  const t = a * 3;\n  return t;\n};\n',
      );
      repo.commit('untested functions');
      const r = repo.push();
      assert.is.not(r.code, 0, r.out);
      assert.match(r.stderr, 'coverage is below its threshold');
      assert.match(r.stderr, 'Ran all test suites related to files matching src/sum.js', 'the output names the changed file');
      assert.not.match(r.stderr, 'cannot load');
      assert.not.match(r.stderr, 'the patch broke the harness');
      const row = repo.ledger().at(-1)!;
      assert.equal([row.verdict, row.error_cause, row.error_file], ['error', 'harness', undefined], JSON.stringify(row));
    },
  ));

test("a script the push changed to run a command that is not there (a typo): the patch's error, naming package.json and the command", () =>
  withRepo({ files: FILES }, (repo) => {
    const pkg = JSON.parse(FILES['package.json']!) as { scripts: Record<string, string> };
    repo.write('package.json', `${JSON.stringify({ ...pkg, scripts: { test: 'jestt --ci' } }, null, 2)}\n`);
    repo.commit('a typo in the test script');
    const r = repo.push();
    assert.is.not(r.code, 0, r.out);
    assert.match(r.stderr, 'command not found: jestt');
    assert.match(
      r.stderr,
      '  The push changed package.json, whose scripts now run `jestt`, a command not found here: the patch broke the harness',
    );
    assert.match(r.stderr, '  Fix package.json, commit, and push again.');
    assert.not.match(r.stderr, 'This is not a verdict on the patch');
    const row = repo.ledger().at(-1)!;
    assert.equal([row.verdict, row.error_cause, row.error_file], ['error', 'patch', 'package.json'], JSON.stringify(row));

    // The same command missing since before the push judged (the typo pushed past the hook): the harness's.
    const bypassed = repo.push(['origin', 'HEAD'], { GATE_LADDER: '0' });
    assert.is(bypassed.code, 0, bypassed.out);
    repo.write('README.md', 'a note\n');
    repo.commit('an innocent change');
    const later = repo.push();
    assert.is.not(later.code, 0, later.out);
    assert.match(later.stderr, 'command not found: jestt');
    assert.match(later.stderr, 'This is not a verdict on the patch');
    assert.equal([repo.ledger().at(-1)!.error_cause, repo.ledger().at(-1)!.error_file], ['harness', undefined]);
  }));

test.run();
