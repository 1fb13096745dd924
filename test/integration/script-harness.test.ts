/**
 * A tier whose command is a script that runs the tests itself (`node test.js`, as fs-extra's `nyc node
 * test.js` drives mocha), judged through a real `git push`: no runner is named, so its exit code decides,
 * except where its output is unambiguous. A test file that does not compile kills the script with exit
 * 1 before any test ran: an error, not a catch. mocha driven from the script exits with the number of
 * failed tests: a catch, read off mocha's summary.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT, withRepo } from '../helpers/repo.js';

const MOCHA = JSON.stringify(join(PROJECT, 'node_modules', 'mocha'));

/** The script: mocha, from this project's node_modules, over every `*.spec.js` of `test/`; exits with its failures. */
const TEST_JS = `const { readdirSync } = require('node:fs');
const Mocha = require(${MOCHA});
const mocha = new Mocha({ reporter: 'dot' });
for (const f of readdirSync(__dirname + '/test')) if (f.endsWith('.spec.js')) mocha.addFile(__dirname + '/test/' + f);
mocha.run((failures) => process.exit(failures));
`;
const SPEC = `const assert = require('node:assert');
const { add } = require('../lib.js');
describe('add', () => {
  // Its message, printed after mocha's \`2 failing\`, puts that line more than 64 kB from the output's end.
  it('adds', () => assert.strictEqual(add(1, 1), 2, 'add(1, 1) is not 2: ' + 'x'.repeat(70000)));
  it('adds zero', () => assert.strictEqual(add(2, 1), 3));
});
`;

const files = {
  'package.json': JSON.stringify({ name: 'harness', private: true, scripts: { test: 'node test.js' } }, null, 2),
  'gate-ladder.config.mjs': "export default { tiers: [{ name: 't2-tests', run: 'npm test', timeout: 120 }] };\n",
  'test.js': TEST_JS,
  'lib.js': 'exports.add = (a, b) => a + b;\n',
  'test/add.spec.js': SPEC,
};

test('a script harness: a pass, two failed tests (exit 2, read off mocha) caught, a file that does not compile an error', () =>
  withRepo({ files }, (repo) => {
    repo.write('lib.js', 'exports.add = (a, b) => a + b; // same\n');
    repo.commit('a clean change');
    const pass = repo.push();
    assert.is(pass.code, 0, pass.out);

    repo.write('lib.js', 'exports.add = (a, b) => a - b;\n');
    repo.commit('a bug');
    const caught = repo.push();
    assert.is.not(caught.code, 0);
    assert.match(caught.out, 't2-tests caught in');
    assert.match(caught.out, '(mocha: `2 failing`)');

    repo.write('lib.js', 'exports.add = (a, b) => a + b;\nthis is not js (\n');
    repo.commit('a file that does not compile');
    const broken = repo.push();
    assert.is.not(broken.code, 0);
    assert.match(broken.out, 't2-tests error');
    assert.match(broken.out, 'node could not load the code in `');
    assert.match(broken.out, "lib.js:2`, so no test ran to give a verdict: `SyntaxError: Unexpected identifier 'is'`");
    assert.equal(
      repo.ledger().map((r) => r.verdict),
      ['pass', 'caught', 'error'],
    );
  }));

const C8 = join(PROJECT, 'node_modules', '.bin', 'c8');
const c8Files = {
  'package.json': JSON.stringify({ name: 'covered', private: true, scripts: { test: `${C8} --100 node --test` } }, null, 2),
  'gate-ladder.config.mjs': "export default { tiers: [{ name: 't2-tests', run: 'npm test', timeout: 120 }] };\n",
  'lib.js': 'exports.add = (a, b) => a + b;\n',
  'test/add.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../lib.js');\ntest('adds', () => assert.strictEqual(add(1, 1), 2));\n",
};

test('c8 --100 around node --test: code the tests do not cover is an error that quotes c8 (no test failed), a failed test is caught', () =>
  withRepo({ files: c8Files }, (repo) => {
    repo.write('lib.js', 'exports.add = (a, b) => {\n  if (a === 42) return 0;\n  return a + b;\n};\n');
    repo.commit('a branch no test covers');
    const short = repo.push();
    assert.is.not(short.code, 0);
    assert.match(short.out, 't2-tests error');
    assert.match(short.out, 'coverage is below its threshold: `ERROR: Coverage for ');
    assert.match(short.out, 'does not meet global threshold (100%)`; no test failed (`');

    repo.write('lib.js', 'exports.add = (a, b) => a * b;\n');
    repo.commit('a bug');
    const caught = repo.push();
    assert.is.not(caught.code, 0);
    assert.match(caught.out, 't2-tests caught in');
    assert.equal(
      repo.ledger().map((r) => r.verdict),
      ['error', 'caught'],
    );
  }));

const TSC = join(PROJECT, 'node_modules', '.bin', 'tsc');
const tscFiles = {
  'package.json': JSON.stringify({ name: 'typed', private: true, scripts: { typecheck: `${TSC} --noEmit` } }, null, 2),
  'gate-ladder.config.mjs': "export default { tiers: [{ name: 't1-typecheck', run: 'npm run typecheck', timeout: 120 }] };\n",
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, types: [] }, include: ['src'] }),
  'src/add.ts': 'export const add = (a: number, b: number): number => a + b;\n',
};

test('a type check tier (tsc --noEmit, exit 2 on type errors): a type error is caught, a broken tsconfig an error, a clean change a pass', () =>
  withRepo({ files: tscFiles }, (repo) => {
    repo.write('src/add.ts', 'export const add = (a: number, b: number): number => a + b; // same\n');
    repo.commit('a clean change');
    const pass = repo.push();
    assert.is(pass.code, 0, pass.out);

    repo.write('src/add.ts', 'export const add = (a: number, b: number): number => `${a}${b}`;\n');
    repo.commit('a type error');
    const caught = repo.push();
    assert.is.not(caught.code, 0);
    assert.match(caught.out, 't1-typecheck caught in', caught.out);
    assert.match(
      caught.out,
      "(tsc: 1 type error: `src/add.ts(1,54): error TS2322: Type 'string' is not assignable to type 'number'.`)",
      caught.out,
    );

    repo.write('src/add.ts', 'export const add = (a: number, b: number): number => a + b;\n');
    repo.write('tsconfig.json', JSON.stringify({ compilerOptions: { strictt: true }, include: ['src'] }));
    repo.commit('an option tsc does not know');
    const broken = repo.push();
    assert.is.not(broken.code, 0);
    assert.match(broken.out, 't1-typecheck error');
    assert.match(
      broken.out,
      "tsc could not check the code as configured: `tsconfig.json(1,21): error TS5025: Unknown compiler option 'strictt'.",
    );
    assert.equal(
      repo.ledger().map((r) => r.verdict),
      ['pass', 'caught', 'error'],
    );
  }));

test.run();
