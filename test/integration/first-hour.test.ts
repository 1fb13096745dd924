/**
 * A new user's first hour, through the packed CLI: install into a project (an existing prepare script,
 * a lint-staged hook, pnpm), the starter config, config mistakes, the messages, and uninstall.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LADDER_FILES, PROJECT, type Repo, installedModules, sh, withRepo, linkGateLadderAlone } from '../helpers/repo.js';

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ name: 'host', version: '9.9.9', private: true, ...extra, scripts }, null, 2)}\n`;

test("--version prints gate-ladder's own version, not the host project's", () =>
  withRepo({ install: false, pushInitial: false, files: { 'package.json': pkg({ test: 'node check.js' }) } }, (repo) => {
    const own = (JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8')) as { version: string }).version;
    assert.is.not(own, '9.9.9');
    const r = repo.cli(['--version']);
    assert.is(r.code, 0, r.out);
    assert.is(r.stdout.trim(), own);
  }));

test('install composes an existing prepare script (a fresh clone gets the hooks and its build); uninstall restores package.json and a hook file byte for byte', () =>
  withRepo(
    {
      install: false,
      files: {
        'package.json': pkg({ prepare: 'node build.js', test: 'node check.js' }),
        'build.js': "require('fs').writeFileSync('built.txt', 'yes')\n",
        'check.js': 'process.exit(0)\n',
        '.gitignore': 'node_modules\nbuilt.txt\n',
        // No final newline: uninstall must give exactly this back.
        '.husky/pre-push': 'echo "my own check"',
      },
    },
    (repo) => {
      const before = { pkg: repo.read('package.json'), hook: repo.read('.husky/pre-push') };
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, '"prepare" was "node build.js"; it is now "husky || true && node build.js"');
      assert.is(
        (JSON.parse(repo.read('package.json')) as { scripts: Record<string, string> }).scripts.prepare,
        'husky || true && node build.js',
      );
      // gate-ladder's line goes before the hook's own (an `exit` there cannot skip it), which reads git's refs again after it.
      assert.ok(repo.read('.husky/pre-push').endsWith('\necho "my own check"'), "the hook's own line is kept, last");

      // A fresh clone: `npm install` runs prepare. The hooks are set up and the project's own build still runs.
      repo.commit('adopt gate-ladder');
      const pushed = repo.push(['-q', 'origin', 'main'], { GATE_LADDER: '0' });
      assert.is(pushed.code, 0, pushed.out);
      const clone = join(repo.dir, '..', 'fresh');
      const c = sh('git', ['clone', '-q', `file://${repo.remote}`, clone], join(repo.dir, '..'));
      assert.is(c.code, 0, c.out);
      symlinkSync(installedModules(), join(clone, 'node_modules'), 'dir');
      const prepare = sh('npm', ['run', 'prepare'], clone);
      assert.is(prepare.code, 0, prepare.out);
      assert.is(sh('git', ['config', 'core.hooksPath'], clone).stdout.trim(), '.husky/_');
      assert.is(readFileSync(join(clone, 'built.txt'), 'utf8'), 'yes');
      // A production install (`npm ci --omit=dev`: no husky in node_modules): prepare still succeeds, and builds.
      const prod = join(repo.dir, '..', 'prod');
      assert.is(sh('git', ['clone', '-q', `file://${repo.remote}`, prod], join(repo.dir, '..')).code, 0);
      const prodPrepare = sh('npm', ['run', 'prepare'], prod);
      assert.is(prodPrepare.code, 0, prodPrepare.out);
      assert.is(readFileSync(join(prod, 'built.txt'), 'utf8'), 'yes');

      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.is(repo.read('package.json'), before.pkg);
      assert.is(repo.read('.husky/pre-push'), before.hook, 'byte for byte: no final newline added');
      assert.match(u.stdout, '.husky/pre-push: restored as it was before install');
      assert.match(u.stdout, 'package.json: restored as it was before install');
    },
  ));

test('uninstall gives one truthful summary: what it undid, and what it kept because it was edited since', () =>
  withRepo({ install: false, pushInitial: false, files: { 'src/a.txt': 'x\n' } }, (repo) => {
    assert.is(repo.cli(['install']).code, 0);
    writeFileSync(join(repo.dir, 'gate-ladder.config.ts'), `${repo.read('gate-ladder.config.ts')}// my edit\n`);
    writeFileSync(join(repo.dir, '.husky', 'pre-push'), `${repo.read('.husky/pre-push')}echo after\n`);
    const u = repo.cli(['uninstall']);
    assert.is(u.code, 0, u.out);
    assert.is(u.stdout.match(/uninstalled/g)?.length, 1, u.stdout);
    assert.not.match(u.stdout, 'as they were before install');
    assert.match(u.stdout, 'gate-ladder.config.ts: kept, it was edited since install');
    assert.match(u.stdout, ".husky/pre-push: took out gate-ladder's line; your edits since install are kept");
    // The hook's own line still runs: husky stays set up for it.
    assert.match(u.stdout, 'core.hooksPath (.husky/_) and "prepare" in package.json kept: husky still runs your own .husky/pre-push');
    assert.is(repo.read('.husky/pre-push'), 'echo after\n');
    assert.match(repo.read('gate-ladder.config.ts'), '// my edit');
  }));

test('config mistakes: a syntax error shows file, line, column and the line; null exports nothing usable; a duplicate name comes with the other problems', () =>
  withRepo({ install: false, files: { 'src/a.txt': 'x\n' } }, (repo) => {
    const source = '    { name: "a" run: "true" },';
    repo.write('gate-ladder.config.ts', `export default {\n  tiers: [\n${source}\n  ],\n};\n`);
    const syntax = repo.cli(['run', '--dry-run', '--base', 'HEAD']);
    assert.is(syntax.code, 2, syntax.out);
    const col = source.indexOf('run') + 1;
    assert.match(syntax.stderr, `gate-ladder.config.ts:3:${col}: syntax error: Unexpected token, expected ","`);
    const lines = syntax.stderr.split('\n');
    const at = lines.findIndex((l) => l.endsWith(`3 | ${source}`));
    assert.ok(at > 0, syntax.stderr);
    assert.is(lines[at + 1]!.indexOf('^'), lines[at]!.indexOf(source) + col - 1, 'the caret is under the column');

    repo.write('gate-ladder.config.ts', 'export default null;\n');
    const nul = repo.cli(['run', '--dry-run', '--base', 'HEAD']);
    assert.is(nul.code, 2, nul.out);
    assert.match(nul.stderr, 'gate-ladder.config.ts: exports nothing usable (its default export is null)');
    assert.not.match(nul.stderr, 'reading');

    repo.write(
      'gate-ladder.config.ts',
      "export default { tiers: [{ name: 't1', run: 'true' }, { name: 't1', run: 'true', tmeout: 5 }] };\n",
    );
    const dup = repo.cli(['run', '--dry-run', '--base', 'HEAD']);
    assert.is(dup.code, 2, dup.out);
    assert.match(dup.stderr, 'the config has 2 problems');
    assert.match(dup.stderr, 'tiers[1].tmeout is not a known field (did you mean timeout?)');

    // A typo'd field names the one it most likely meant (top level, a tier, a nested object); a word near none names none.
    repo.write(
      'gate-ladder.config.ts',
      "export default { ouptut: 'all', banana: 1, report: { minAttempt: 3 }, tiers: [{ name: 't1', run: 'true', skipWhenTestAdjacant: true }] };\n",
    );
    const typo = repo.cli(['run', '--dry-run', '--base', 'HEAD']);
    assert.is(typo.code, 2, typo.out);
    assert.match(typo.stderr, 'ouptut is not a known field (did you mean output?)');
    assert.match(typo.stderr, 'report.minAttempt is not a known field (did you mean minAttempts?)');
    assert.match(typo.stderr, 'tiers[0].skipWhenTestAdjacant is not a known field (did you mean skipWhenTestAdjacent?)');
    assert.match(typo.stderr, /banana is not a known field\n/);
    assert.match(dup.stderr, 'tiers[1].name "t1" is used by an earlier tier (tiers[0])');
    assert.not.match(dup.stderr, 'To push anyway', 'a manual run blocks no push');

    // On the pre-commit path the staged config judges the commit.
    repo.gitOk('add', 'gate-ladder.config.ts');
    const commit = repo.cli(['run', 'pre-commit']);
    assert.is(commit.code, 2, commit.out);
    assert.match(commit.stderr, 'To commit anyway: `git commit --no-verify`');
    assert.not.match(commit.stderr, 'git push');
  }));

test("the starter config is formatted with the project's prettier, in its style, only when the project uses prettier; uninstall still knows it as its own", () =>
  withRepo({ install: false, files: { 'package.json': pkg({ test: 'node --test' }) } }, (repo) => {
    // The project's prettier (here a stand-in: it makes every single quote a double one, as prettier's default does).
    linkGateLadderAlone(repo);
    const bin = join(repo.dir, 'node_modules', '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'prettier'), '#!/bin/sh\n[ "$1" = --write ] || exit 2\nsed -i "s/\'/\\"/g" "$2"\n');
    chmodSync(join(bin, 'prettier'), 0o755);
    // Only another tool's dependency (chalk's xo brings prettier into node_modules/.bin): not the project's style, so left alone.
    // Before: "formatted gate-ladder.config.ts with your prettier" and double quotes that xo then rejected.
    const other = repo.cli(['install']);
    assert.is(other.code, 0, other.out);
    assert.not.match(other.out, 'prettier');
    assert.match(repo.read('gate-ladder.config.ts'), "{ name: 't2-tests', run: 'npm test'");
    assert.match(repo.cli(['uninstall']).out, 'gate-ladder.config.ts: removed (install wrote it)');
    // Each sign that the project uses prettier: its config file, a "prettier" key, or prettier in its devDependencies.
    for (const [file, text] of [
      ['.prettierrc.json', '{}\n'],
      ['prettier.config.mjs', 'export default {};\n'],
      ['package.json', pkg({ test: 'node --test' }, { prettier: { semi: true } })],
      ['package.json', pkg({ test: 'node --test' }, { devDependencies: { prettier: '^3.0.0' } })],
    ] as const) {
      const before = file === 'package.json' ? repo.read('package.json') : undefined;
      repo.write(file, text);
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, 'formatted gate-ladder.config.ts with your prettier', file);
      assert.match(repo.read('gate-ladder.config.ts'), '{ name: "t2-tests", run: "npm test"', file);
      assert.match(repo.cli(['uninstall']).out, 'gate-ladder.config.ts: removed (install wrote it)');
      if (before === undefined) rmSync(join(repo.dir, file));
      else repo.write(file, before);
    }
    repo.write('.prettierrc', 'semi: true\n');
    const r = repo.cli(['install']);
    assert.is(r.code, 0, r.out);
    assert.match(r.stdout, 'formatted gate-ladder.config.ts with your prettier');
    assert.match(repo.read('gate-ladder.config.ts'), '{ name: "t2-tests", run: "npm test", timeout: 900, runner: "node" },');
    assert.match(repo.cli(['uninstall']).out, 'gate-ladder.config.ts: removed (install wrote it)');
    // A prettier that fails: the config stays as written, and install says so.
    writeFileSync(join(bin, 'prettier'), '#!/bin/sh\necho "[error] No parser could be inferred" >&2\nexit 2\n');
    const failed = repo.cli(['install']);
    assert.is(failed.code, 0, failed.out);
    assert.match(failed.out, 'your prettier could not format gate-ladder.config.ts ([error] No parser could be inferred)');
    assert.match(repo.read('gate-ladder.config.ts'), "{ name: 't2-tests'");
  }));

test("the starter config is put through the project's biome (`biome check --write`), so a lint tier running `biome check` passes it on the first push", () =>
  withRepo({ install: false, files: { 'package.json': pkg({ lint: 'biome check .', test: 'node --test' }) } }, (repo) => {
    linkGateLadderAlone(repo);
    const bin = join(repo.dir, 'node_modules', '.bin');
    mkdirSync(bin);
    // The real biome (this project's own devDependency), in a style that differs from the starter's: tabs, double quotes.
    symlinkSync(realpathSync(join(PROJECT, 'node_modules', '.bin', 'biome')), join(bin, 'biome'));
    repo.write('biome.json', '{ "formatter": { "indentStyle": "tab" }, "javascript": { "formatter": { "quoteStyle": "double" } } }\n');
    const r = repo.cli(['install']);
    assert.is(r.code, 0, r.out);
    assert.match(r.stdout, 'ran your biome (`biome check --write`) on gate-ladder.config.ts: it passes, in your style.');
    assert.match(repo.read('gate-ladder.config.ts'), '\t\t{ name: "t2-tests", run: "npm test"');
    const check = sh(join(bin, 'biome'), ['check', 'gate-ladder.config.ts'], repo.dir);
    assert.is(check.code, 0, check.out);
    assert.match(repo.cli(['uninstall']).out, 'gate-ladder.config.ts: removed (install wrote it)');
  }));

test("the starter config is run through the project's eslint or xo with --fix, and install says what is left for the first push's lint tier", () =>
  withRepo({ install: false, files: { 'package.json': pkg({ lint: 'eslint .', test: 'node --test' }) } }, (repo) => {
    // Stand-ins for the project's linter, each as it answers `--fix --format json FILE` (real eslint 10 and xo 0.54 were run by hand the same way).
    linkGateLadderAlone(repo);
    const bin = join(repo.dir, 'node_modules', '.bin');
    mkdirSync(bin);
    const linter = (name: string, body: string) => {
      writeFileSync(join(bin, name), `#!/bin/sh\nfor a in "$@"; do f="$a"; done\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    const json = (messages: unknown[]) => `echo '${JSON.stringify([{ filePath: 'x', messages }])}'`;
    // It fixes our style to the project's (single quotes to double) and then passes.
    linter('eslint', `[ "$1 $2 $3" = "--fix --format json" ] || exit 2\nsed -i "s/'/\\"/g" "$f"\n${json([])}`);
    const fixed = repo.cli(['install']);
    assert.is(fixed.code, 0, fixed.out);
    assert.match(fixed.stdout, 'ran your eslint with --fix on gate-ladder.config.ts: it now passes, in your style.');
    assert.match(repo.read('gate-ladder.config.ts'), '{ name: "t1-lint", run: "npm run lint", timeout: 300 },');
    assert.match(repo.cli(['uninstall']).out, 'gate-ladder.config.ts: removed (install wrote it)');
    // Typed linting whose tsconfig leaves the file out: what no --fix can mend, with the step that does.
    const projectService =
      'Parsing error: /r/gate-ladder.config.ts was not found by the project service. Consider either including it in the tsconfig.json or including it in allowDefaultProject';
    linter('eslint', `${json([{ severity: 2, message: projectService, line: 0, column: 0, ruleId: null }])}\nexit 1`);
    const typed = repo.cli(['install']);
    assert.is(typed.code, 0, typed.out);
    assert.match(
      typed.stdout,
      `your eslint still flags gate-ladder.config.ts after --fix (1 error; ${projectService}), so your lint tier would block your first push; add the file to your tsconfig.json "include" (or to typescript-eslint's allowDefaultProject), then check with \`npm run lint\`.`,
    );
    repo.cli(['uninstall']);
    // A rule it cannot fix; a file its config does not lint (said nothing); a linter that crashes.
    linter(
      'eslint',
      `${json([
        {
          severity: 2,
          message: 'Unsafe call of an `any` typed value.',
          line: 6,
          column: 16,
          ruleId: '@typescript-eslint/no-unsafe-call',
        },
        { severity: 2, message: 'b', line: 7 },
      ])}\nexit 1`,
    );
    assert.match(
      repo.cli(['install']).stdout,
      '(2 errors; line 6: Unsafe call of an `any` typed value. (@typescript-eslint/no-unsafe-call)), so your lint tier would block your first push; add the file to your eslint ignores, or fix what it names, then check with `npm run lint`.',
    );
    repo.cli(['uninstall']);
    linter('eslint', json([{ severity: 1, message: 'File ignored because no matching configuration was supplied.' }]));
    assert.not.match(repo.cli(['install']).stdout, 'eslint');
    repo.cli(['uninstall']);
    linter('eslint', 'echo "Oops! Something went wrong! :(" >&2\nexit 2');
    assert.match(
      repo.cli(['install']).stdout,
      'your eslint could not check gate-ladder.config.ts (Oops! Something went wrong! :(); run `npm run lint` to see whether it flags the file before your first push.',
    );
    repo.cli(['uninstall']);
    // eslint 8 lints a .ts file under `eslint .` only with `--ext .ts`: without it, not run.
    mkdirSync(join(repo.dir, 'node_modules', 'eslint'));
    writeFileSync(join(repo.dir, 'node_modules', 'eslint', 'package.json'), '{"version":"8.57.1"}');
    linter('eslint', 'echo ran > eslint-ran\nexit 2');
    assert.not.match(repo.cli(['install']).stdout, 'eslint');
    repo.cli(['uninstall']);
    repo.write('package.json', pkg({ lint: 'eslint . --ext .js,.ts', test: 'node --test' }));
    assert.match(repo.cli(['install']).stdout, 'your eslint could not check');
    repo.cli(['uninstall']);
    // xo, named by the test script's chain: its own JSON flag.
    repo.write('package.json', pkg({ test: 'xo && node --test' }));
    linter('xo', `[ "$1 $2" = "--fix --reporter=json" ] || exit 2\n${json([])}`);
    assert.match(repo.cli(['install']).stdout, 'gate-ladder.config.ts passes your xo as written.');
  }));

test('the starter config: the runner from the test script, a quicker test script as t1 skipped when tests move, pnpm spoken; `help config` lists the fields', () =>
  withRepo(
    {
      install: false,
      files: {
        'package.json': pkg({ test: 'uvu -r esm test', 'test:unit': 'uvu -r esm test/unit', lint: 'node lint.js' }),
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      },
    },
    (repo) => {
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, '`pnpm exec gate-ladder run --dry-run`');
      assert.match(r.stdout, '`pnpm exec gate-ladder uninstall` undoes it');
      const cfg = repo.read('gate-ladder.config.ts');
      assert.match(cfg, "{ name: 't1-test-unit', run: 'pnpm run test:unit', timeout: 300, skipWhenTestAdjacent: true, runner: 'uvu' },");
      assert.match(cfg, "{ name: 't2-tests', run: 'pnpm test', timeout: 900, runner: 'uvu' },");
      assert.match(cfg, "{ name: 't1-lint', run: 'pnpm run lint', timeout: 300 },");
      assert.match(cfg, '// test:unit: a quicker part of the tests');
      assert.match(cfg, 'the tests moved with the code');
      assert.match(cfg, '`pnpm exec gate-ladder help config`');
      assert.match(repo.read('.husky/pre-push'), 'run `pnpm install` first');

      // The starter loads, and routes: a test change skips the quick tier.
      repo.commit('adopt');
      repo.write('test/unit/a.js', 'x\n');
      repo.commit('a test');
      const dry = repo.cli(['run', '--dry-run', '--base', 'HEAD~1']);
      assert.is(dry.code, 0, dry.out);
      assert.match(dry.stdout, 'skip t1-test-unit: test-adjacent: test/unit/a.js');
      assert.match(dry.stdout, 'run  t2-tests');

      const help = repo.cli(['help', 'config']);
      assert.is(help.code, 0, help.out);
      for (const word of [
        'gate-ladder.config.ts',
        '.gate-ladderrc',
        '"gate-ladder" key in package.json',
        'skipWhenTestAdjacent',
        'runner',
        'output',
        'runOnEmpty',
        'GATE_LADDER_SKIP',
        'GATE_LADDER_NO_CACHE',
      ]) {
        assert.match(help.stdout, word);
      }
      const runHelp = repo.cli(['run', '--help']);
      assert.match(runHelp.stdout, 'gate-ladder help config');

      rmSync(join(repo.dir, 'gate-ladder.config.ts'));
      const none = repo.cli(['run', '--base', 'HEAD~1']);
      assert.match(none.stderr, 'Create one with `pnpm exec gate-ladder install`');
    },
  ));

test('with node_modules missing, the hook says in one line what is missing, what to run and how to bypass; GATE_LADDER=0 still bypasses', () =>
  withRepo({ files: { ...LADDER_FILES, 'yarn.lock': '# yarn lockfile v1\n' } }, (repo) => {
    rmSync(join(repo.dir, 'node_modules'));
    repo.write('src/other.txt', 'fine\n');
    repo.commit('a change');
    const r = repo.push();
    assert.is.not(r.code, 0, r.out);
    assert.match(
      r.stderr,
      'gate-ladder: node_modules/gate-ladder/dist/cli.cjs is missing, so the pre-push checks cannot run: run `yarn install` first (to push once without them: git push --no-verify).',
    );
    assert.not.match(r.out, 'MODULE_NOT_FOUND');
    assert.not.match(r.out, /\n\s+at /, 'no stack');
    const bypass = repo.push(['origin', 'HEAD'], { GATE_LADDER: '0' });
    assert.is(bypass.code, 0, bypass.out);
  }));

test('pnpm\'s layout (node_modules holds the project\'s own dependencies only): install leaves "prepare" alone (husky could not run: every `pnpm install` would fail) and says how to get it; once husky is there, install adds it', () =>
  withRepo({ install: false, pushInitial: false, files: { 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" } }, (repo) => {
    linkGateLadderAlone(repo);
    const before = repo.read('package.json');
    const r = repo.cli(['install']);
    assert.is(r.code, 0, r.out);
    assert.match(r.stdout, 'package.json: "prepare" left as it is: node_modules/.bin has no husky');
    assert.match(r.stdout, '`pnpm add -D husky`');
    assert.match(r.stdout, 'run `pnpm exec gate-ladder install` again');
    assert.is(repo.read('package.json'), before, 'no "prepare" that would fail');
    const prepare = sh('npm', ['run', 'prepare', '--if-present'], repo.dir);
    assert.is(prepare.code, 0, prepare.out);
    const modules = join(repo.dir, 'node_modules');
    symlinkSync(installedModules(), join(repo.dir, 'hoisted'), 'dir');
    rmSync(modules, { recursive: true });
    symlinkSync(join(repo.dir, 'hoisted'), modules, 'dir');
    const again = repo.cli(['install']);
    assert.not.match(again.stdout, 'has no husky', 'said only when it is so');
    assert.match(again.stdout, 'added "prepare": "husky || true"');
    const added = sh('npm', ['run', 'prepare'], repo.dir);
    assert.is(added.code, 0, added.out);
  }));

test('a package in a folder of the repository (its name has a space): install from there hooks the root, runs each tier in the folder, and a push is judged; uninstall undoes it there', () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        '.gitignore': 'node_modules\n',
        'web app/package.json': pkg({ test: 'node --test' }),
        'web app/v.mjs': 'export const v = 1;\n',
        'web app/test/v.test.mjs':
          "import test from 'node:test';\nimport assert from 'node:assert';\nimport { v } from '../v.mjs';\ntest('v', () => assert.equal(v, 1));\n",
      },
    },
    (repo) => {
      // node_modules is the package's, not the root's.
      rmSync(join(repo.dir, 'node_modules'));
      const app = join(repo.dir, 'web app');
      symlinkSync(installedModules(), join(app, 'node_modules'), 'dir');
      const before = repo.read('web app/package.json');
      const r = sh(process.execPath, [join(app, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'install'], app);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, 'web app/package.json: added "prepare": "cd .. && husky || true"');
      assert.is(
        (JSON.parse(repo.read('web app/package.json')) as { scripts: Record<string, string> }).scripts.prepare,
        'cd .. && husky || true',
      );
      assert.match(
        repo.read('.husky/pre-push'),
        'node --preserve-symlinks-main \'web app/node_modules/gate-ladder/dist/cli.cjs\' run pre-push "$@"',
      );
      assert.match(
        repo.read('gate-ladder.config.ts'),
        "{ name: 't2-tests', run: 'npm test', cwd: 'web app', timeout: 900, runner: 'node' }",
      );
      assert.is(sh('git', ['config', 'core.hooksPath'], repo.dir).stdout.trim(), '.husky/_');

      repo.commit('adopt gate-ladder');
      const first = repo.push(['origin', 'HEAD']);
      assert.is(first.code, 0, first.out);
      assert.match(first.stderr, 't2-tests pass');
      repo.write('web app/v.mjs', 'export const v = 2;\n');
      repo.commit('a bug');
      const blocked = repo.push(['origin', 'HEAD']);
      assert.is.not(blocked.code, 0, blocked.out);
      assert.match(blocked.stderr, 't2-tests caught');
      assert.equal(
        repo.ledger().map((row) => [row.tier, row.verdict]),
        [
          ['t2-tests', 'pass'],
          ['t2-tests', 'caught'],
        ],
      );

      // Without the package's node_modules, the hook names the folder to install in.
      rmSync(join(app, 'node_modules'));
      const missing = repo.push(['origin', 'HEAD']);
      assert.match(
        missing.stderr,
        'gate-ladder: web app/node_modules/gate-ladder/dist/cli.cjs is missing, so the pre-push checks cannot run: run `npm install` in `web app` first',
      );
      symlinkSync(installedModules(), join(app, 'node_modules'), 'dir');

      // A teammate's clone: install's record is not there (it is in the git dir), prepare already runs husky.
      // install from the folder, twice: the second is up to date, and the hook still runs the folder's runner.
      const record = join(repo.dir, '.git', 'gate-ladder', 'install.json');
      const kept = readFileSync(record, 'utf8');
      rmSync(record);
      const hook = repo.read('.husky/pre-push');
      for (const round of [1, 2]) {
        const again = sh(process.execPath, [join(app, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'install'], app);
        assert.is(again.code, 0, again.out);
        assert.is(repo.read('.husky/pre-push'), hook, `round ${round}: the hook as it was`);
        assert.not.match(again.out, 'runs from outside the project', `round ${round}`);
      }
      writeFileSync(record, kept);

      const u = sh(process.execPath, [join(app, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'uninstall'], app);
      assert.is(u.code, 0, u.out);
      assert.match(u.stdout, 'web app/package.json: restored as it was before install');
      assert.is(repo.read('web app/package.json'), before);
      assert.is(sh('git', ['config', 'core.hooksPath'], repo.dir).code, 1, 'unset');
    },
  ));

test('a Python project with no package.json test script (gate-ladder added with npm i -D): the starter runs pytest, whose failing test is caught, passing one passes, and a python without pytest is an error', () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        '.gitignore': 'node_modules\n__pycache__/\n.pytest_cache/\n',
        'package.json': `${JSON.stringify({ devDependencies: { 'gate-ladder': '*' } }, null, 2)}\n`,
        'pyproject.toml': '[project]\nname = "demo"\nversion = "0.1.0"\n\n[dependency-groups]\ntests = ["pytest"]\n',
        'demo.py': 'def add(a, b):\n    return a + b\n',
        'tests/test_x.py': 'from demo import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
      },
    },
    (repo) => {
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      // Before: `npm test` and "No \"test\" script found", so the first push failed on npm's missing script.
      const config = repo.read('gate-ladder.config.ts');
      assert.match(config, "{ name: 't2-tests', run: 'python3 -m pytest -q', timeout: 900, runner: 'pytest' },");
      assert.match(
        config,
        '// No "test" script in package.json; pyproject.toml names pytest among its dependencies: pytest runs the tests.',
      );
      assert.not.match(config, 'edit this command');
      assert.not.match(config, 'npm test');

      repo.commit('adopt gate-ladder');
      const first = repo.push(['origin', 'HEAD']);
      assert.is(first.code, 0, first.out);
      assert.match(first.stderr, 't2-tests pass');
      repo.write('demo.py', 'def add(a, b):\n    return a - b\n');
      repo.commit('a bug');
      const blocked = repo.push(['origin', 'HEAD']);
      assert.is.not(blocked.code, 0, blocked.out);
      assert.match(blocked.stderr, 't2-tests caught');
      repo.write('demo.py', 'def add(a, b):\n    return a + b\n');
      repo.commit('the fix');
      const fixed = repo.push(['origin', 'HEAD']);
      assert.is(fixed.code, 0, fixed.out);

      // A python that cannot import pytest (the real python with its site-packages off, as outside the virtualenv): exit 1, no catch.
      const python = sh('python3', ['-c', 'import sys; print(sys.executable)'], repo.dir).stdout.trim();
      const bin = mkdtempSync(join(tmpdir(), 'gl-nopytest-'));
      writeFileSync(join(bin, 'python3'), `#!/bin/sh\nexec '${python}' -S "$@"\n`);
      chmodSync(join(bin, 'python3'), 0o755);
      repo.write('notes.txt', 'a change\n');
      repo.commit('a change');
      const bare = repo.push(['origin', 'HEAD'], { PATH: `${bin}:${process.env.PATH ?? ''}` });
      rmSync(bin, { recursive: true });
      assert.is.not(bare.code, 0, bare.out);
      assert.match(bare.stderr, 't2-tests error');
      assert.match(bare.stderr, 'this python cannot import pytest, so no test ran');
      assert.match(bare.stderr, 'No module named pytest');
      // The fix's tree is the first push's: its pass is reused, with no row of its own.
      assert.equal(
        repo.ledger().map((row) => [row.tier, row.verdict]),
        [
          ['t2-tests', 'pass'],
          ['t2-tests', 'caught'],
          ['t2-tests', 'error'],
        ],
      );
    },
  ));

test("a workspace's package, gate-ladder hoisted to the root's node_modules: install from the package's folder runs the root's runner, the package's tests", () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        '.gitignore': 'node_modules\n',
        'package.json': pkg({}, { workspaces: ['packages/*'] }),
        'packages/web/package.json': pkg({ test: 'node --test' }),
        'packages/web/test/ok.test.mjs': "import test from 'node:test';\ntest('ok', () => {});\n",
      },
    },
    (repo) => {
      const web = join(repo.dir, 'packages', 'web');
      const r = sh(process.execPath, [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'install'], web);
      assert.is(r.code, 0, r.out);
      assert.match(
        repo.read('.husky/pre-push'),
        'if [ -f node_modules/gate-ladder/dist/cli.cjs ]; then node --preserve-symlinks-main node_modules/gate-ladder/dist/cli.cjs run pre-push',
      );
      assert.match(repo.read('.husky/pre-push'), 'run `npm install` in `packages/web` first');
      assert.match(repo.read('gate-ladder.config.ts'), "cwd: 'packages/web'");
      assert.is(
        (JSON.parse(repo.read('packages/web/package.json')) as { scripts: Record<string, string> }).scripts.prepare,
        'cd ../.. && husky || true',
      );
      assert.not.match(r.stdout, 'has no husky', "the root's .bin is on the package's PATH");
      repo.commit('adopt gate-ladder');
      const pushed = repo.push(['origin', 'HEAD']);
      assert.is(pushed.code, 0, pushed.out);
      assert.match(pushed.stderr, 't2-tests pass');
    },
  ));

test("install carries git's own hooks (a hand-made pre-commit and commit-msg) into .husky/, so they keep running; uninstall gives .husky/ and git's hooks back and they run from there again", () =>
  withRepo(
    { install: false, pushInitial: false, files: { 'package.json': pkg({ test: 'node check.js' }), 'check.js': 'process.exit(0)\n' } },
    (repo) => {
      const hooks = join(repo.dir, '.git', 'hooks');
      mkdirSync(hooks, { recursive: true });
      writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\necho own-pre-commit-ran >> ../own.log\n', { mode: 0o755 });
      writeFileSync(join(hooks, 'commit-msg'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      writeFileSync(join(hooks, 'notes.txt'), 'not a hook\n', { mode: 0o755 });
      writeFileSync(join(hooks, 'pre-push.sample'), '#!/bin/sh\n', { mode: 0o755 });
      const r = repo.cli(['install']);
      assert.is(r.code, 0, r.out);
      assert.match(r.stdout, "this project's hooks come from hooks of your own in git's hooks folder");
      assert.match(r.stdout, '.husky/commit-msg runs .git/hooks/commit-msg (your own) first, as git ran it before.');
      assert.match(r.stdout, '.husky/pre-commit runs .git/hooks/pre-commit (your own) first');
      assert.not.match(r.stdout, 'no longer run');
      assert.not.match(r.stdout, 'notes.txt');
      repo.write('a.txt', 'a\n');
      repo.commit('a commit');
      assert.is(readFileSync(join(repo.dir, '..', 'own.log'), 'utf8'), 'own-pre-commit-ran\n');
      // Run again: nothing more to say, nothing carried twice.
      const again = repo.cli(['install']);
      assert.not.match(again.stdout, 'carried');
      repo.write('b.txt', 'b\n');
      repo.commit('b commit');
      assert.is(readFileSync(join(repo.dir, '..', 'own.log'), 'utf8'), 'own-pre-commit-ran\nown-pre-commit-ran\n');
      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.match(u.stdout, '.husky/pre-commit: removed (install created it)');
      assert.is(repo.git('config', 'core.hooksPath').code, 1, 'core.hooksPath unset: nothing of the project needs husky');
      repo.write('c.txt', 'c\n');
      repo.commit('c commit');
      assert.is(
        readFileSync(join(repo.dir, '..', 'own.log'), 'utf8'),
        'own-pre-commit-ran\n'.repeat(3),
        'git runs it from its own folder again',
      );
    },
  ));

/** lint-staged's task appends a line to ../lint-staged-runs.log each time it runs. */
const COUNTING = {
  '.lintstagedrc.json': '{ "src/*.txt": "sh count.sh" }\n',
  'count.sh': 'echo run >> ../lint-staged-runs.log\n',
  '.husky/pre-commit': 'npx lint-staged\n',
};
const runs = (repo: Repo) => {
  try {
    return readFileSync(join(repo.dir, '..', 'lint-staged-runs.log'), 'utf8')
      .split('\n')
      .filter(Boolean).length;
  } catch {
    return 0;
  }
};

test('install --pre-commit replaces `npx lint-staged` with a lint-staged tier (one run per commit), and uninstall puts the hook back byte for byte', () =>
  withRepo({ install: false, files: { ...COUNTING, 'src/a.txt': 'a\n' } }, (repo) => {
    const r = repo.cli(['install', '--pre-commit']);
    assert.is(r.code, 0, r.out);
    assert.match(r.stdout, 'replaced `npx lint-staged`');
    assert.match(repo.read('gate-ladder.config.ts'), "{ name: 'lint-staged', lintStaged: true },");
    assert.not.match(repo.read('.husky/pre-commit'), 'npx lint-staged');
    assert.not.match(r.stdout, 'no tier runs on pre-commit');
    repo.write('src/a.txt', 'b\n');
    repo.gitOk('add', 'src/a.txt');
    const c = sh('git', ['commit', '-m', 'a change'], repo.dir);
    assert.is(c.code, 0, c.out);
    assert.is(runs(repo), 1, 'lint-staged ran once');
    assert.equal(
      repo.ledger().map((x) => [x.hook, x.tier, x.verdict]),
      [['pre-commit', 'lint-staged', 'pass']],
    );
    const u = repo.cli(['uninstall']);
    assert.is(u.code, 0, u.out);
    assert.is(repo.read('.husky/pre-commit'), 'npx lint-staged\n');
  }));

test('install --pre-commit over `npx lint-staged --config cfg/ls.json`: the starter tier runs lint-staged with that config (once per commit), and catches what it catches', () =>
  withRepo(
    {
      install: false,
      files: {
        'cfg/ls.json': '{ "src/*.txt": ["sh count.sh", "sh check.sh"] }\n',
        'count.sh': 'echo run >> ../lint-staged-runs.log\n',
        'check.sh': 'for f in "$@"; do if grep -q bug "$f"; then echo "$f: buggy"; exit 1; fi; done\n',
        '.husky/pre-commit': 'npx lint-staged --config cfg/ls.json --concurrent false\n',
        'src/a.txt': 'a\n',
      },
    },
    (repo) => {
      const r = repo.cli(['install', '--pre-commit']);
      assert.is(r.code, 0, r.out);
      assert.match(
        repo.read('gate-ladder.config.ts'),
        "{ name: 'lint-staged', lintStaged: { configPath: 'cfg/ls.json', concurrent: false } },",
      );
      assert.match(r.stdout, 'replaced `npx lint-staged --config cfg/ls.json --concurrent false`');
      assert.match(r.stdout, "the lintStaged tier runs lint-staged with that line's arguments");
      assert.not.match(repo.read('.husky/pre-commit'), 'npx lint-staged');
      repo.write('src/a.txt', 'b\n');
      repo.gitOk('add', 'src/a.txt');
      const c = sh('git', ['commit', '-m', 'a change'], repo.dir);
      assert.is(c.code, 0, c.out);
      assert.is(runs(repo), 1, 'lint-staged ran once, with cfg/ls.json');
      repo.write('src/a.txt', 'bug\n');
      repo.gitOk('add', 'src/a.txt');
      const b = sh('git', ['commit', '-m', 'a bug'], repo.dir);
      assert.is.not(b.code, 0, b.out);
      assert.match(b.out, 'src/a.txt: buggy');
      assert.match(b.out, 'commit blocked: lint-staged caught a problem in the staged changes');
      assert.equal(
        repo.ledger().map((x) => [x.hook, x.tier, x.verdict]),
        [
          ['pre-commit', 'lint-staged', 'pass'],
          ['pre-commit', 'lint-staged', 'caught'],
        ],
      );
      const u = repo.cli(['uninstall']);
      assert.is(u.code, 0, u.out);
      assert.is(repo.read('.husky/pre-commit'), 'npx lint-staged --config cfg/ls.json --concurrent false\n');
    },
  ));

test("install --pre-commit over a `lint-staged -c` line that a config's lintStaged tier does not match: the line stays, and install says the options to give the tier", () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: {
        'cfg/ls.json': '{ "src/*.txt": "sh count.sh" }\n',
        'count.sh': 'echo run >> ../lint-staged-runs.log\n',
        '.husky/pre-commit': 'npx lint-staged -c cfg/ls.json\n',
        'gate-ladder.config.ts': "export default { tiers: [{ name: 'lint', lintStaged: true }] };\n",
      },
    },
    (repo) => {
      const r = repo.cli(['install', '--pre-commit']);
      assert.is(r.code, 0, r.out);
      assert.match(repo.read('.husky/pre-commit'), /^npx lint-staged -c cfg\/ls.json\n/);
      assert.match(r.stdout, "Give the tier `lintStaged: { configPath: 'cfg/ls.json' }` in the gate-ladder config and remove that line.");
    },
  ));

test('install --pre-commit with a config that has no pre-commit tier: the lint-staged line is kept and the user is told what to do; with nothing for pre-commit, says no tier runs', () =>
  withRepo(
    {
      install: false,
      pushInitial: false,
      files: { ...COUNTING, 'gate-ladder.config.ts': "export default { tiers: [{ name: 't1', run: 'true' }] };\n" },
    },
    (repo) => {
      const r = repo.cli(['install', '--pre-commit']);
      assert.is(r.code, 0, r.out);
      assert.match(repo.read('.husky/pre-commit'), /^npx lint-staged\n/);
      assert.match(
        r.stdout,
        ".husky/pre-commit runs `npx lint-staged` on its own, before gate-ladder. To have lint-staged judged as a tier (a verdict and a row in the ledger), add `{ name: 'lint-staged', lintStaged: true }`",
      );
      assert.match(r.stdout, 'no tier runs on pre-commit, so the pre-commit hook allows every commit');
    },
  ));

test('a starter pre-commit tier without lint-staged: the first quick check runs on pre-commit too', () =>
  withRepo(
    { install: false, pushInitial: false, files: { 'package.json': pkg({ test: 'node check.js', lint: 'node lint.js' }) } },
    (repo) => {
      const r = repo.cli(['install', '--pre-commit']);
      assert.is(r.code, 0, r.out);
      assert.match(
        repo.read('gate-ladder.config.ts'),
        "{ name: 't1-lint', run: 'npm run lint', timeout: 300, hooks: ['pre-commit', 'pre-push', 'manual', 'replay', 'seed'] },",
      );
      assert.not.match(r.stdout, 'no tier runs on pre-commit');
    },
  ));

test('the packed package.json carries no prepare script, and the package ships its LICENSE', () =>
  withRepo({ install: false, pushInitial: false }, (repo) => {
    const dir = join(repo.dir, 'node_modules', 'gate-ladder');
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    assert.is(manifest.scripts?.prepare, undefined);
    assert.match(readFileSync(join(dir, 'LICENSE'), 'utf8'), 'Copyright (c) 2026 gate-ladder contributors');
    const own = JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.ok(own.scripts.prepare, "the project's own package.json keeps it (a fresh clone's hooks and build)");
  }));

test('report --ledger of a file that is not there exits 2 with one clear line', () =>
  withRepo({ install: false, pushInitial: false }, (repo) => {
    const r = repo.cli(['report', '--ledger', '/nonexistent/ledger.jsonl']);
    assert.is(r.code, 2, r.out);
    assert.is(
      r.stderr.trim(),
      "gate-ladder: --ledger /nonexistent/ledger.jsonl: no such file. Check the path (without --ledger, the report reads the repository's own ledger).",
    );
  }));

test('a repository without commits gets a sentence a person understands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gl-empty-'));
  try {
    sh('git', ['init', '-q', '-b', 'main'], dir);
    symlinkSync(installedModules(), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'gate-ladder.config.ts'), "export default { tiers: [{ name: 't1', run: 'true' }] };\n");
    const r = sh(process.execPath, [join(dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'run', '--base', 'HEAD'], dir);
    assert.is(r.code, 2, r.out);
    assert.match(r.stderr, 'this repository has no commits yet, so there is no change to judge. Make a first commit');
    assert.not.match(r.stderr, 'is not a commit');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a manual run that catches says what to do, never "push blocked"', () =>
  withRepo({ files: LADDER_FILES }, (repo) => {
    repo.write('src/value.txt', 'bug\n');
    repo.commit('a bug');
    const r = repo.cli(['run', '--base', 'HEAD~1']);
    assert.is(r.code, 1, r.out);
    assert.match(r.stderr, 'gate-ladder: t1-properties caught a problem in HEAD (exit 1: the check failed).');
    assert.match(r.stderr, 'The patch is wrong: fix it, then run it again.');
    assert.not.match(r.stderr, 'blocked');
    assert.not.match(r.stderr, 'To push anyway');
  }));

test("`npm test`'s runner prints no NO_COLOR/FORCE_COLOR warning (uvu sets FORCE_COLOR unless told --no-color)", () => {
  const root = mkdtempSync(join(tmpdir(), 'gl-runner-'));
  // A folder named `unit`: scripts/test.mjs then packs and installs no gate-ladder for it (about 4 s of CPU).
  const dir = join(root, 'unit');
  mkdirSync(dir);
  try {
    // execa, as the test helper loads it, asks node about colours: with both variables set, node warns.
    writeFileSync(
      join(dir, 'a.test.js'),
      `import '${PROJECT}/node_modules/execa/index.js';\nimport { test } from '${PROJECT}/node_modules/uvu/dist/index.mjs';\ntest('loads execa', () => {});\ntest.run();\n`,
    );
    const r = sh(process.execPath, ['scripts/test.mjs', dir], PROJECT, { env: { NO_COLOR: '' } });
    assert.is(r.code, 0, r.out);
    assert.match(r.stdout, '1 passed, 0 failed');
    assert.not.match(r.out, 'NO_COLOR');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
