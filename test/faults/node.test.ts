/**
 * Issue 16, point 1 and 13: public Node APIs only, on every supported Node; deprecation flags
 * neither warn nor crash.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LADDER_FILES, PROJECT, withRepo } from '../helpers/repo.js';

/** Every file under `dir` whose name ends in one of `exts`. */
function files(dir: string, exts: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, exts));
    else if (exts.some((e) => name.endsWith(e))) out.push(path);
  }
  return out;
}

const INTERNALS =
  /process\s*\.\s*binding\b|process\s*\[\s*['"]binding['"]\s*\]|\binternalBinding\b|_linkedBinding|process\s*\.\s*_[A-Za-z]\w*|process_wrap|GATE_LADDER_NODE_INTERNALS/;

test('no Node internal anywhere: src, scripts, and every shipped file (bundled packages included)', () => {
  const found: string[] = [];
  const scan = [
    ...files(join(PROJECT, 'src'), ['.ts']),
    ...files(join(PROJECT, 'scripts'), ['.cjs', '.mjs', '.js']),
    ...files(join(PROJECT, 'dist'), ['.cjs', '.js']),
  ];
  assert.ok(scan.length > 20, 'the build is there');
  for (const file of scan) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const m = INTERNALS.exec(line);
        if (m) found.push(`${relative(PROJECT, file)}:${i + 1}: ${m[0]}`);
      });
  }
  assert.equal(found, []);
});

const CONFIG = `export default {
  tiers: [
    { name: 't1-properties', run: 'sh check.sh properties', timeout: 30 },
    { name: 't2-fixtures', run: ['sh', 'check.sh', 'fixtures'], timeout: 30 },
  ],
};
`;

test(`a real push through the installed hook runs on the Node under test (${process.version}): every gate, a catch and a pass`, () =>
  withRepo({ files: { ...LADDER_FILES, 'gate-ladder.config.ts': CONFIG } }, (repo) => {
    // Every Node process the push starts says which Node it is.
    const probe = join(repo.dir, '.git', 'probe.cjs');
    const seen = join(repo.dir, '.git', 'versions.txt');
    writeFileSync(
      probe,
      `require('fs').appendFileSync(${JSON.stringify(seen)}, process.version + ' ' + process.argv.slice(1, 4).join(' ') + '\\n');\n`,
    );
    const env = { NODE_OPTIONS: `--require ${probe}` };
    repo.write('src/value.txt', 'bug\n');
    repo.commit('bug');
    const caught = repo.push(['origin', 'HEAD'], env);
    assert.is(caught.code, 1, caught.out);
    assert.match(caught.out, 't1-properties caught a problem');
    // A new value, not the first one back: a range whose changes cancel out has nothing to judge.
    repo.write('src/value.txt', 'fine\n');
    repo.commit('fix');
    const ok = repo.push(['origin', 'HEAD'], env);
    assert.is(ok.code, 0, ok.out);
    assert.match(ok.out, '2 tiers passed');
    const lines = readFileSync(seen, 'utf8').trim().split('\n');
    const hooks = lines.filter((l) => l.includes('cli.cjs run pre-push'));
    assert.is(hooks.length, 2, lines.join('\n'));
    for (const l of hooks) assert.ok(l.startsWith(`${process.version} `), l);
    assert.equal(
      repo.ledger().map((r) => r.verdict),
      ['caught', 'pass', 'pass'],
    );
  }));

const DEPRECATION_ENVS: Record<string, string>[] = [
  { NODE_PENDING_DEPRECATION: '1' },
  { NODE_OPTIONS: '--throw-deprecation' },
  { NODE_PENDING_DEPRECATION: '1', NODE_OPTIONS: '--throw-deprecation' },
  { NODE_OPTIONS: '--pending-deprecation --throw-deprecation' },
];

test('NODE_PENDING_DEPRECATION=1, --pending-deprecation, --throw-deprecation: no warning, no crash (config loaded and cached, gates run, --help, report)', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    const clean = (what: string, r: { code: number | null; out: string }) => {
      assert.is(r.code, 0, `${what}: ${r.out}`);
      assert.not.match(r.out, /Deprecation|deprecated|DEP0/i, what);
    };
    for (const env of DEPRECATION_ENVS) {
      const name = JSON.stringify(env);
      repo.write('src/value.txt', `good ${name}\n`);
      repo.commit(`change ${name}`);
      clean(`${name}, a push`, repo.push(['origin', 'HEAD'], env));
      clean(`${name}, config changed, gates run`, repo.cli(['run', '--base', 'HEAD~1', '--head', 'HEAD', '--no-cache'], { env }));
      clean(`${name}, tree cached`, repo.cli(['run', '--base', 'HEAD~1', '--head', 'HEAD'], { env }));
    }
    const env = DEPRECATION_ENVS[2]!;
    clean('--help', repo.cli(['--help'], { env }));
    clean('report', repo.cli(['report'], { env }));
  }));

test.run();
