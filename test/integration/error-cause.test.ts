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

test.run();
