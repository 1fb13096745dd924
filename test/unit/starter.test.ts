import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type RootFacts,
  detectRunner,
  lintStagedField,
  lintStagedLine,
  sameLintStaged,
  projectLinter,
  rootTests,
  starterConfig,
  usesPrettier,
} from '../../src/install/starter.js';
import { pickPackageManager, pmSays } from '../../src/runners/package-manager.js';
import { colourWanted, paint } from '../../src/util/colour.js';
import { skipTiers, type Plan } from '../../src/route/route.js';
import { gitErrorReason } from '../../src/lint-staged/tier.js';
import { validateConfig } from '../../src/config/load.js';

const RUNNERS: [string, string | undefined, Record<string, string>?][] = [
  ['uvu -r esm test', 'uvu'],
  ['jest --ci', 'jest'],
  ['vitest run', 'vitest'],
  ['npx vitest', 'vitest'],
  ['mocha "test/**/*.js"', 'mocha'],
  ['node --test', 'node'],
  ['node --import tsx --test test/', 'node'],
  ['node node_modules/uvu/bin.js test', 'uvu'],
  ['./node_modules/.bin/jest', 'jest'],
  ['c8 uvu tests', 'uvu'],
  ['c8 --100 node --test', 'node'],
  ['cross-env NODE_ENV=test jest', 'jest'],
  ['NODE_ENV=test jest', 'jest'],
  ['pytest -q', 'pytest'],
  ['python3 -m pytest tests', 'pytest'],
  ['python3 -m unittest discover -s tests', 'unittest'],
  ['go test ./...', 'go'],
  ['cargo test', 'cargo'],
  ['cargo nextest run', 'nextest'],
  ['playwright test', 'playwright'],
  ['ava --verbose', 'ava'],
  ['npx ava', 'ava'],
  ['jasmine', 'jasmine'],
  ['node node_modules/jasmine/bin/jasmine.js', 'jasmine'],
  ['tap --disable-coverage', 'tap'],
  ['c8 tap', 'tap'],
  ['./node_modules/.bin/tap test/*.js', 'tap'],
  ['pnpm exec jest', 'jest'],
  ['tsc && jest', 'jest'],
  ['npm run build && npm run test:unit', 'uvu', { 'test:unit': 'uvu test/unit', build: 'tsc' }],
  ['npm run a', undefined, { a: 'npm run a' }],
  ['jest && playwright test', undefined],
  ['bun test', undefined],
  ['echo "Error: no test specified" && exit 1', undefined],
  ['node scripts/test.mjs', undefined],
  ['make test', undefined],
  // Launchers with options that take a value, read as a run reads them (the starter once had its own reading).
  ['c8 -r lcov ava', 'ava'],
  ['nyc --reporter text mocha', 'mocha'],
  ['tsx --test', 'node'],
];

for (const [script, runner, scripts] of RUNNERS) {
  test(`detectRunner: ${script} -> ${runner}`, () => {
    assert.is(detectRunner(script, scripts ?? {}), runner);
  });
}

test('lintStagedLine: a hook line that runs lint-staged on its own, bare or with arguments', () => {
  for (const l of [
    'npx lint-staged',
    'npx --no -- lint-staged',
    'npx --no-install lint-staged',
    'pnpm exec lint-staged',
    'pnpm lint-staged',
    'yarn lint-staged',
    'yarn run lint-staged',
    'bunx lint-staged',
    'node_modules/.bin/lint-staged',
    './node_modules/.bin/lint-staged',
    'lint-staged',
    '  npx lint-staged  ',
  ]) {
    assert.equal(lintStagedLine(l), { bare: true, options: {}, left: [] }, l);
  }
  assert.equal(lintStagedLine('npx lint-staged --concurrent false'), { bare: false, options: { concurrent: false }, left: [] });
  for (const l of ['npm test', '# npx lint-staged', 'echo lint-staged', 'npx eslint .', '']) assert.is(lintStagedLine(l), undefined, l);
});

test("lintStagedLine: the line's arguments as a lintStaged tier's options, and those a tier cannot take", () => {
  const line = (l: string) => {
    const r = lintStagedLine(l)!;
    return { options: r.options, left: r.left };
  };
  assert.equal(line('npx lint-staged --config path/to/cfg.json'), { options: { configPath: 'path/to/cfg.json' }, left: [] });
  assert.equal(line('npx lint-staged -c ./cfg/ls.json -q'), { options: { configPath: 'cfg/ls.json' }, left: [] });
  assert.equal(line("pnpm exec lint-staged --config='my cfg.json' --relative -p 2 --continue-on-error --verbose"), {
    options: { configPath: 'my cfg.json', relative: true, concurrent: 2, continueOnError: true, verbose: true },
    left: [],
  });
  assert.equal(line('npx lint-staged --allow-empty --fail-on-changes --hide-unstaged --debug --no-color'), {
    options: { allowEmpty: true, failOnChanges: true, hideUnstaged: true },
    left: [],
  });
  assert.equal(line('npx lint-staged -c cfg.json --no-stash --cwd web'), {
    options: { configPath: 'cfg.json' },
    left: ['--no-stash', '--cwd', 'web'],
  });
  assert.equal(line('npx lint-staged --config "$CFG"'), { options: {}, left: ['--config $CFG'] });
  assert.equal(line('npx lint-staged && echo done').left, ['&& echo done']);
  assert.is(lintStagedField({ configPath: "it's.json", concurrent: false }), "{ configPath: 'it\\'s.json', concurrent: false }");
  assert.is(lintStagedField({}), 'true');
});

test('sameLintStaged: a tier runs lint-staged as the hook line did (paths compared as written from the root)', () => {
  assert.ok(sameLintStaged({ configPath: 'cfg/ls.json' }, { configPath: './cfg//ls.json' }));
  assert.ok(sameLintStaged({}, true));
  assert.not.ok(sameLintStaged({ configPath: 'cfg/ls.json' }, true));
  assert.not.ok(sameLintStaged({}, { configPath: 'cfg/ls.json' }));
  assert.not.ok(sameLintStaged({ configPath: 'a.json', relative: true }, { configPath: 'a.json' }));
  assert.not.ok(sameLintStaged({}, undefined));
});

test("starterConfig with a hook line's lint-staged arguments: the lintStaged tier carries them", () => {
  const { text } = starterConfig({
    scripts: { test: 'jest' },
    pm: 'npm',
    preCommit: true,
    lintStaged: true,
    lintStagedOptions: { configPath: 'path/to/cfg.json', concurrent: false },
  });
  assert.match(text, "{ name: 'lint-staged', lintStaged: { configPath: 'path/to/cfg.json', concurrent: false } },");
});

test('starterConfig: a quick test script as t1 with skipWhenTestAdjacent and a comment, lint on every push, the runner, the manager', () => {
  const { text, preCommitTier } = starterConfig({
    scripts: { test: 'jest', 'test:unit': 'jest unit', lint: 'eslint .' },
    pm: 'yarn',
    preCommit: false,
    lintStaged: false,
  });
  assert.match(text, "{ name: 't1-lint', run: 'yarn lint', timeout: 300 },");
  assert.match(text, "{ name: 't1-test-unit', run: 'yarn test:unit', timeout: 300, skipWhenTestAdjacent: true, runner: 'jest' },");
  assert.match(text, "{ name: 't2-tests', run: 'yarn test', timeout: 900, runner: 'jest' },");
  assert.match(text, '// test:unit: a quicker part of the tests');
  assert.match(text, '`yarn gate-ladder help config`');
  assert.is(preCommitTier, false);
  assert.ok(
    text.indexOf('t1-lint') < text.indexOf('t1-test-unit') && text.indexOf('t1-test-unit') < text.indexOf('t2-tests'),
    'cheapest first',
  );
});

test("starterConfig never sets `output`: a blocked push shows one screen of the failing tier's output (the default, 'summary'), never the whole stream", () => {
  const shapes: Record<string, string>[] = [
    { test: 'jest', lint: 'eslint .' },
    { test: 'vitest', 'test:unit': 'vitest unit' },
    { test: 'node --test' },
    {},
  ];
  for (const scripts of shapes) {
    for (const preCommit of [false, true]) {
      const { text } = starterConfig({ scripts, pm: 'npm', preCommit, lintStaged: preCommit });
      assert.not.match(text, /\boutput\s*:/, text);
    }
  }
});

test('starterConfig: test:quick is preferred to test:unit; no test script says so; bun runs scripts with `bun run`', () => {
  const quick = starterConfig({
    scripts: { test: 'vitest', 'test:unit': 'vitest unit', 'test:quick': 'vitest --changed' },
    pm: 'bun',
    preCommit: false,
    lintStaged: false,
  }).text;
  assert.match(quick, "{ name: 't1-test-quick', run: 'bun run test:quick'");
  assert.not.match(quick, 't1-test-unit');
  assert.match(quick, "run: 'bun run test'");
  const none = starterConfig({
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    pm: 'npm',
    preCommit: false,
    lintStaged: false,
  }).text;
  assert.match(
    none,
    'No "test" script found in package.json, nor pytest, go.mod, Cargo.toml or a Makefile `test` target at the root: edit this command.',
  );
  assert.not.match(none, 'runner:');
});

test('starterConfig with --pre-commit: a lintStaged tier when lint-staged is there, else the first check on pre-commit, else none', () => {
  const ls = starterConfig({ scripts: { test: 'jest', lint: 'eslint .' }, pm: 'npm', preCommit: true, lintStaged: true });
  assert.match(ls.text, "{ name: 'lint-staged', lintStaged: true },");
  assert.not.match(ls.text, "hooks: ['pre-commit'");
  // A package in a folder: lint-staged runs there, where its config and its tasks' paths are.
  const inFolder = starterConfig({ scripts: { test: 'jest' }, pm: 'npm', preCommit: true, lintStaged: true, packageDir: 'web' });
  assert.match(inFolder.text, "{ name: 'lint-staged', lintStaged: true, cwd: 'web' },");
  assert.is(ls.preCommitTier, true);
  const lint = starterConfig({
    scripts: { test: 'jest', lint: 'eslint .', typecheck: 'tsc' },
    pm: 'npm',
    preCommit: true,
    lintStaged: false,
  });
  assert.match(
    lint.text,
    "{ name: 't1-lint', run: 'npm run lint', timeout: 300, hooks: ['pre-commit', 'pre-push', 'manual', 'replay', 'seed'] },",
  );
  assert.match(lint.text, "{ name: 't1-typecheck', run: 'npm run typecheck', timeout: 300 },");
  assert.is(lint.preCommitTier, true);
  assert.is(starterConfig({ scripts: { test: 'jest' }, pm: 'npm', preCommit: true, lintStaged: false }).preCommitTier, false);
});

test('starterConfig: a test script that chains a runner with other commands gets a tier per command, in order; other scripts stay one tier', () => {
  const scripts = { test: 'node --test && npm run check:type:ts', 'check:type:ts': 'tsd && tsc -p tsconfig.ts.json' };
  const chain = starterConfig({ scripts, pm: 'npm', preCommit: false, lintStaged: false }).text;
  assert.match(
    chain,
    "{ name: 't2-tests', run: 'node --test', timeout: 900, runner: 'node' },\n    { name: 't2-check-type-ts', run: 'npm run check:type:ts', timeout: 900 },",
  );
  assert.match(chain, 'package.json "test" runs 2 commands (node --test && npm run check:type:ts): one tier each');
  // A package's binary goes through the manager; a lint script with its own tier is not run twice.
  const built = starterConfig({
    scripts: { test: 'pnpm run lint && tsc -p . && vitest run', lint: 'eslint .' },
    pm: 'pnpm',
    preCommit: false,
    lintStaged: false,
  }).text;
  assert.match(built, "{ name: 't1-lint', run: 'pnpm run lint', timeout: 300 },");
  assert.match(
    built,
    "{ name: 't2-tsc', run: 'pnpm exec tsc -p .', timeout: 900 },\n    { name: 't2-tests', run: 'pnpm exec vitest run', timeout: 900, runner: 'vitest' },",
  );
  assert.is(built.match(/run lint'/g)?.length, 1, built);
  // pnpm and yarn run a script by its name.
  const yarn = starterConfig({
    scripts: { test: 'yarn lint && yarn test:types && yarn vitest run', lint: 'x', 'test:types': 'tsc' },
    pm: 'yarn',
    preCommit: false,
    lintStaged: false,
  }).text;
  assert.match(
    yarn,
    "{ name: 't2-test-types', run: 'yarn test:types', timeout: 900 },\n    { name: 't2-tests', run: 'yarn vitest run', timeout: 900, runner: 'vitest' },",
  );
  assert.is(yarn.match(/lint'/g)?.length, 2, 'yarn lint is t1-lint only');
  for (const test of [
    'jest || true',
    'CI=1 jest && tsc',
    'jest && playwright test',
    'tsc && eslint .',
    "jest && echo 'done'",
    'jest',
    'jest & tsc',
  ]) {
    const one = starterConfig({ scripts: { test }, pm: 'npm', preCommit: false, lintStaged: false }).text;
    assert.match(one, "{ name: 't2-tests', run: 'npm test'", test);
    assert.not.match(one, 'commands (', test);
  }
});

test("starterConfig: a chain is split by detect.ts's shell reading: what it cannot split faithfully stays one tier; a manager's command is named by its script or command", () => {
  const tiers = (test: string, more: Record<string, string> = {}, pm: 'npm' | 'bun' | 'pnpm' = 'npm') =>
    [
      ...starterConfig({ scripts: { test, ...more }, pm, preCommit: false, lintStaged: false }).text.matchAll(
        /\{ name: '([^']+)', run: '((?:[^'\\]|\\.)*)'/g,
      ),
    ]
      .map((m) => `${m[1]}: ${m[2]}`)
      .filter((t) => !t.startsWith('t1-related'));
  // A plain `&&` split whatever the spaces; an operator the split reads as another command's edge keeps the script whole.
  assert.equal(tiers('jest&&tsc'), ['t2-tests: npx jest', 't2-tsc: npx tsc']);
  for (const test of [
    '(jest && tsc)',
    'jest && (tsc)',
    'jest && tsc &',
    'jest &&',
    '&& jest && tsc',
    'jest && && tsc',
    'jest && tsc\nlint',
    'jest && tsc > out',
    'jest && tsc $X',
    'jest \\&\\& tsc && x',
  ]) {
    assert.equal(tiers(test), ['t2-tests: npm test'], test);
  }
  // Quotes: an operator inside them splits nothing, and each command keeps its words, quoted again where needed (before: the script stayed one tier).
  assert.equal(tiers(`jest -t "a && b" && tsc`), ['t2-tests: npx jest -t "a && b"', 't2-tsc: npx tsc']);
  assert.equal(tiers(`tsc && mocha 'test/**/*.ts'`), ['t2-tsc: npx tsc', 't2-tests: npx mocha "test/**/*.ts"']);
  assert.equal(tiers(`jest 'a;b' && tsc`), ['t2-tests: npx jest "a;b"', 't2-tsc: npx tsc']);
  const { text } = starterConfig({
    scripts: { test: `tsc && mocha 'test/**/*.ts' -g "a b"` },
    pm: 'npm',
    preCommit: false,
    lintStaged: false,
  });
  const config = new Function(
    `return (${text.slice(text.indexOf('defineConfig(') + 'defineConfig('.length, text.lastIndexOf(');'))});`,
  )() as { tiers: { run: string }[] };
  assert.equal(
    config.tiers.map((t) => t.run),
    ['npx tsc', `npx mocha "test/**/*.ts" -g "a b"`],
  );
  // The script a manager runs, by each manager's rules: `bun lint` runs the script lint, which has its own tier.
  assert.equal(tiers('bun lint && bun run vitest', { lint: 'x', vitest: 'vitest run' }, 'bun'), [
    't1-lint: bun run lint',
    't2-tests: bun run vitest',
  ]);
  assert.equal(tiers('pnpm exec tsc -p . && npm ci && vitest', {}, 'pnpm'), [
    't2-tsc: pnpm exec tsc -p .',
    't2-ci: npm ci',
    't2-tests: pnpm exec vitest',
  ]);
});

test('starterConfig: a chain whose `cd` or `export` the next command needs stays one tier; what only prints gets no tier; system commands run as they are, not through npx', () => {
  const tiers = (test: string) =>
    [
      ...starterConfig({ scripts: { test }, pm: 'npm', preCommit: false, lintStaged: false }).text.matchAll(
        /\{ name: '([^']+)', run: '((?:[^'\\]|\\.)*)'/g,
      ),
    ]
      .map((m) => `${m[1]}: ${m[2]}`)
      .filter((t) => !t.startsWith('t1-related'));
  // Before: `npx cd packages/core` (npx looks for a package named cd) then jest at the root.
  for (const test of ['cd packages/core && jest', 'export CI=1 && jest && tsc', 'jest && . ./env.sh && tsc', 'pushd a && jest'])
    assert.equal(tiers(test), ['t2-tests: npm test'], test);
  // Before: a tier `npx echo done`.
  assert.equal(tiers('jest && echo done'), ['t2-tests: npm test']);
  assert.equal(tiers('echo start && tsc && jest && echo done'), ['t2-tsc: npx tsc', 't2-tests: npx jest']);
  assert.match(
    starterConfig({ scripts: { test: 'echo start && tsc && jest' }, pm: 'npm', preCommit: false, lintStaged: false }).text,
    'runs 3 commands',
  );
  // Before: `npx rm -rf coverage`.
  assert.equal(tiers('rm -rf coverage && mkdir -p out && jest'), [
    't2-rm: rm -rf coverage',
    't2-mkdir: mkdir -p out',
    't2-tests: npx jest',
  ]);
});

test('starterConfig: a test script that chains package.json scripts (npm run, pnpm, yarn, bun run) gets a tier per script, its runner detected through it; lint and a quicker part are not run twice', () => {
  const config = (scripts: Record<string, string>, pm: 'npm' | 'pnpm' | 'yarn' | 'bun' = 'npm') =>
    starterConfig({ scripts, pm, preCommit: false, lintStaged: false }).text;
  const tiers = (text: string) =>
    [...text.matchAll(/\{ name: '([^']+)', run: '((?:[^'\\]|\\.)*)'(?:[^}]*?runner: '(\w+)')?[^}]*\}/g)]
      .map((m) => `${m[1]}: ${m[2]}${m[3] ? ` (${m[3]})` : ''}`)
      .filter((t) => !t.startsWith('t1-related'));
  // fs-extra. Before: t1-lint and `t2-tests: npm test`, which ran lint again and unit and unit-esm as one tier.
  const fsExtra = config({
    lint: 'standard',
    test: 'npm run lint && npm run unit && npm run unit-esm',
    unit: 'nyc node test.js',
    'unit-esm': 'node test.mjs',
  });
  assert.equal(tiers(fsExtra), ['t1-lint: npm run lint', 't2-unit: npm run unit', 't2-unit-esm: npm run unit-esm']);
  assert.match(fsExtra, 'package.json "test" runs 3 commands (npm run lint && npm run unit && npm run unit-esm): one tier each');
  // fastify-plugin. Before: t1-test-unit (skipWhenTestAdjacent) and `t2-tests: npm test`, which ran test:unit again.
  const fp = config({
    lint: 'eslint',
    test: 'npm run test:unit && npm run test:typescript',
    'test:unit': 'c8 --100 node --test',
    'test:typescript': 'tstyche',
  });
  assert.equal(tiers(fp), ['t1-lint: npm run lint', 't2-tests: npm run test:unit (node)', 't2-test-typescript: npm run test:typescript']);
  assert.not.match(fp, 'skipWhenTestAdjacent');
  assert.match(fp, '// test:unit: a quicker part of the tests, but "test" runs it too, so it has no tier of its own');
  // Each manager as written; several runners, each on its own tier; a script named twice runs once.
  assert.equal(tiers(config({ test: 'pnpm unit && pnpm e2e && pnpm unit', unit: 'vitest run', e2e: 'playwright test' }, 'pnpm')), [
    't2-unit: pnpm unit (vitest)',
    't2-e2e: pnpm e2e (playwright)',
  ]);
  assert.equal(tiers(config({ test: 'yarn typecheck && yarn jest:ci', typecheck: 'tsc', 'jest:ci': 'jest --ci' }, 'yarn')), [
    't1-typecheck: yarn typecheck',
    't2-tests: yarn jest:ci (jest)',
  ]);
  assert.equal(tiers(config({ test: 'bun run build && bun run spec', build: 'tsc', spec: 'mocha' }, 'bun')), [
    't2-build: bun run build',
    't2-tests: bun run spec (mocha)',
  ]);
  // The quicker part the whole suite runs without being split (an expansion): still no tier of its own.
  assert.equal(tiers(config({ test: 'npm run test:unit && tsc $FLAGS', 'test:unit': 'jest' })), ['t2-tests: npm test (jest)']);
  // A script the chain names that package.json lacks, or a binary beside scripts with no runner: one tier, as before.
  assert.equal(tiers(config({ test: 'npm run unit && npm run gone', unit: 'jest' })), [
    't2-tests: npm run unit (jest)',
    't2-gone: npm run gone',
  ]);
  assert.equal(tiers(config({ test: 'npm run unit && npm run nope', unit: 'node test.js' })), ['t2-tests: npm test']);
  assert.equal(tiers(config({ test: 'tsc && npm run unit', unit: 'node test.js' })), ['t2-tests: npm test']);
});

test("projectLinter: the project's eslint or xo, from the first script that runs one, through npx, pnpm exec or an env assignment", () => {
  assert.equal(projectLinter({ test: 'jest', lint: 'eslint . --ext .ts' }), {
    linter: 'eslint',
    script: 'lint',
    args: ['.', '--ext', '.ts'],
  });
  assert.equal(projectLinter({ test: 'xo && c8 ava && tsd' }), { linter: 'xo', script: 'test', args: [] });
  assert.equal(projectLinter({ check: 'tsc && TIMING=1 npx --no eslint --max-warnings 0 src' })?.args, ['--max-warnings', '0', 'src']);
  assert.equal(projectLinter({ lint: 'pnpm exec ./node_modules/.bin/eslint .' })?.linter, 'eslint');
  for (const none of [{ lint: 'biome check .' }, { lint: 'eslint-config-prettier-check' }, { lint: 'echo eslint' }, {}] as Record<
    string,
    string
  >[])
    assert.is(projectLinter(none), undefined, JSON.stringify(none));
});

test('rootTests / starterConfig: without a package.json test script, pytest, go, cargo or a Makefile test target found at the root', () => {
  const facts = (over: Partial<RootFacts>): RootFacts => ({ files: [], testFiles: [], texts: {}, python: 'python3', ...over });
  const found = (over: Partial<RootFacts>) => rootTests(facts(over)).map((f) => `${f.run} (${f.runner ?? '-'}): ${f.why}`);
  const pytest = (why: string, python = 'python3') => [`${python} -m pytest -q (pytest): ${why}`];
  assert.equal(found({}), []);
  // pytest, by each of its signs.
  assert.equal(
    found({
      files: ['pyproject.toml'],
      texts: { 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n' },
    }),
    pytest("pyproject.toml has pytest's [tool.pytest.ini_options]"),
  );
  assert.equal(found({ texts: { 'pyproject.toml': '[tool.pytest]\n' } }), pytest("pyproject.toml has pytest's [tool.pytest.ini_options]"));
  assert.equal(found({ files: ['pytest.ini'] }), pytest('pytest.ini'));
  assert.equal(
    found({ texts: { 'tox.ini': '[tox]\nenvlist = py3\n\n[pytest]\naddopts = -q\n' } }),
    pytest('tox.ini has a [pytest] section'),
  );
  assert.equal(found({ texts: { 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\n' } }), pytest('setup.cfg has a [tool:pytest] section'));
  assert.equal(found({ texts: { 'tox.ini': '[tox]\n', 'setup.cfg': '[metadata]\n' } }), []);
  for (const deps of [
    '[dependency-groups]\ntests = ["freezegun", "pytest"]\n',
    '[project.optional-dependencies]\ntest = ["pytest>=8", "x"]\n',
    '[tool.poetry.group.dev.dependencies]\npytest = "^8.0"\n',
    'dev = ["pytest[testing]; python_version > \'3.9\'"]\n',
  ]) {
    assert.equal(found({ texts: { 'pyproject.toml': deps } }), pytest('pyproject.toml names pytest among its dependencies'), deps);
  }
  assert.equal(found({ texts: { 'pyproject.toml': '[project]\ndependencies = ["pytest-cov-helper", "requests"]\n' } }), []);
  assert.equal(found({ texts: { 'requirements-dev.txt': 'ruff\npytest==8.3.0\n' } }), pytest('requirements-dev.txt names pytest'));
  assert.equal(found({ files: ['conftest.py'] }), pytest('conftest.py'));
  assert.equal(
    found({ testFiles: ['tests/__init__.py', 'tests/unit/test_parse.py'] }),
    pytest('tests/ holds test files (tests/unit/test_parse.py)'),
  );
  assert.equal(
    found({ testFiles: ['test/parse_test.py'], python: 'python' }),
    pytest('test/ holds test files (test/parse_test.py)', 'python'),
  );
  assert.equal(found({ testFiles: ['test/a.test.js', 'tests/helpers.py'] }), []);
  assert.equal(
    rootTests(facts({ files: ['pytest.ini'], python: undefined }))[0]!.run,
    'python3 -m pytest -q',
    'python3 when neither is on PATH',
  );
  // Go, Rust; several toolchains: one each.
  assert.equal(found({ files: ['go.mod'] }), ['go test ./... (go): go.mod']);
  assert.equal(found({ files: ['Cargo.toml', 'pytest.ini'] }), [...pytest('pytest.ini'), 'cargo test (cargo): Cargo.toml']);
  // A Makefile's test target when nothing else is found (its runner is read when it runs, from make -n); the Makefile make reads.
  assert.equal(
    found({ texts: { Makefile: 'PY = python3\n.PHONY: test\ntest: build\n\t$(PY) -m unittest discover\nbuild:\n\techo built\n' } }),
    ['make test (-): Makefile has a `test` target'],
  );
  assert.equal(found({ texts: { Makefile: 'check test: build\n\tjest\n' } }), ['make test (-): Makefile has a `test` target']);
  assert.equal(found({ texts: { Makefile: 'test := x\nunit:\n\tjest\n' } }), [], 'a variable named test is no target');
  assert.equal(found({ texts: { Makefile: 'check:\n\t./run.sh\n' } }), []);
  assert.equal(
    found({ texts: { GNUmakefile: 'all:\n\ttrue\n', Makefile: 'test:\n\tjest\n' } }),
    [],
    'make reads GNUmakefile, which has no test target',
  );
  assert.equal(found({ files: ['go.mod'], texts: { Makefile: 'test:\n\tgo test -race ./...\n' } }), ['go test ./... (go): go.mod']);

  const tiers = (root: Partial<RootFacts>, scripts: Record<string, string> = {}, packageDir?: string) =>
    starterConfig({ scripts, pm: 'npm', preCommit: false, lintStaged: false, root: facts(root), ...(packageDir && { packageDir }) }).text;
  const py = tiers({ files: ['pyproject.toml'], texts: { 'pyproject.toml': '[tool.pytest.ini_options]\n' } });
  assert.match(
    py,
    "    // No \"test\" script in package.json; pyproject.toml has pytest's [tool.pytest.ini_options]: pytest runs the tests. python3 must import pytest and your code: push where your virtualenv is active.\n    { name: 't2-tests', run: 'python3 -m pytest -q', timeout: 900, runner: 'pytest' },",
  );
  assert.not.match(py, 'edit this command');
  const both = tiers({ files: ['go.mod', 'Cargo.toml'], texts: { Makefile: 'test:\n\tgo test ./...\n' } }, { lint: 'eslint .' }, 'web');
  assert.match(both, "{ name: 't1-lint', run: 'npm run lint', cwd: 'web', timeout: 300 },");
  assert.match(both, "{ name: 't2-go', run: 'go test ./...', timeout: 900, runner: 'go' },");
  assert.match(both, "{ name: 't2-cargo', run: 'cargo test', timeout: 900, runner: 'cargo' },");
  assert.match(both, 'Your Makefile also has a `test` target: if `make test` is how you run them, put it here.');
  // A package.json test script wins: the root is not read.
  assert.match(tiers({ files: ['go.mod'] }, { test: 'jest' }), "{ name: 't2-tests', run: 'npm test', timeout: 900, runner: 'jest' },");
  assert.match(tiers({ files: ['go.mod'] }, { test: 'echo "Error: no test specified" && exit 1' }), "run: 'go test ./...'");
});

test('usesPrettier: prettier in package.json\'s dependencies or devDependencies, a "prettier" key, or a prettier config file; not another file\'s name', () => {
  const no = { files: [], packageJsons: [] };
  assert.is(usesPrettier(no), false);
  for (const f of [
    '.prettierrc',
    '.prettierrc.json',
    '.prettierrc.yml',
    '.prettierrc.yaml',
    '.prettierrc.json5',
    '.prettierrc.js',
    '.prettierrc.cjs',
    '.prettierrc.mjs',
    '.prettierrc.ts',
    '.prettierrc.mts',
    '.prettierrc.cts',
    '.prettierrc.toml',
    'prettier.config.js',
    'prettier.config.cjs',
    'prettier.config.mjs',
    'prettier.config.ts',
    'prettier.config.mts',
    'prettier.config.cts',
  ]) {
    assert.ok(usesPrettier({ ...no, files: ['package.json', f] }), f);
  }
  for (const f of ['.prettierignore', 'prettier.config.json', '.prettierrc.txt', 'node_modules', '.editorconfig'])
    assert.not.ok(usesPrettier({ ...no, files: [f] }), f);
  assert.ok(usesPrettier({ ...no, packageJsons: [{ devDependencies: { prettier: '^3' } }] }));
  assert.ok(usesPrettier({ ...no, packageJsons: [{}, { dependencies: { prettier: '^3' } }] }));
  assert.ok(usesPrettier({ ...no, packageJsons: [{ prettier: '@company/prettier-config' }] }));
  assert.ok(usesPrettier({ ...no, packageYaml: 'name: x\nprettier:\n  semi: false\n' }));
  // chalk: xo brings prettier in, the project does not name it.
  assert.not.ok(
    usesPrettier({
      files: ['package.json', '.editorconfig'],
      packageJsons: [{ devDependencies: { xo: '^0.56', 'eslint-config-prettier': '^9' }, scripts: { test: 'xo && ava' } }, null],
    }),
  );
});

test('the starter config is a valid config once its import is resolved', () => {
  const { text } = starterConfig({
    scripts: { test: "uvu -r esm test 'x'", 'test:unit': 'uvu a', lint: 'x', typecheck: 'y' },
    pm: 'pnpm',
    preCommit: true,
    lintStaged: true,
  });
  const body = text.slice(text.indexOf('defineConfig(') + 'defineConfig('.length, text.lastIndexOf(');'));
  const raw = new Function(`return (${body});`)() as unknown;
  const r = validateConfig(raw, 'gate-ladder.config.ts');
  assert.ok(r.ok, r.ok ? '' : r.problems.join('\n'));
  // No `output` written: the default, one screen of a blocked tier's output with all of it in a log.
  if (r.ok) assert.is(r.config.output, 'summary');
});

test('pickPackageManager: packageManager field, then lockfile, then npm; each manager says its commands', () => {
  const has =
    (...files: string[]) =>
    (f: string) =>
      files.includes(f);
  assert.is(pickPackageManager(undefined, has()), 'npm');
  assert.is(pickPackageManager(undefined, has('pnpm-lock.yaml')), 'pnpm');
  assert.is(pickPackageManager(undefined, has('yarn.lock')), 'yarn');
  assert.is(pickPackageManager(undefined, has('bun.lockb')), 'bun');
  assert.is(pickPackageManager(undefined, has('bun.lock', 'package-lock.json')), 'bun');
  assert.is(pickPackageManager('pnpm@9.1.0', has('package-lock.json')), 'pnpm');
  assert.is(pickPackageManager('deno@2', has('yarn.lock')), 'yarn');
  assert.equal(
    ['npm', 'pnpm', 'yarn', 'bun'].map((pm) => pmSays.exec(pm as 'npm', 'gate-ladder install')),
    ['npx gate-ladder install', 'pnpm exec gate-ladder install', 'yarn gate-ladder install', 'bunx gate-ladder install'],
  );
  assert.equal(
    ['npm', 'pnpm', 'yarn', 'bun'].map((pm) => pmSays.script(pm as 'npm', 'test')),
    ['npm test', 'pnpm test', 'yarn test', 'bun run test'],
  );
  assert.equal(
    ['npm', 'pnpm', 'yarn', 'bun'].map((pm) => pmSays.install(pm as 'npm')),
    ['npm install', 'pnpm install', 'yarn install', 'bun install'],
  );
});

test('colourWanted: FORCE_COLOR wins over NO_COLOR, NO_COLOR over a terminal, TERM=dumb is plain, else a terminal decides', () => {
  const yes = () => true;
  const no = () => false;
  assert.is(colourWanted({ FORCE_COLOR: '1', NO_COLOR: '1' }, no), true);
  assert.is(colourWanted({ FORCE_COLOR: '0' }, yes), false);
  assert.is(colourWanted({ FORCE_COLOR: 'false' }, yes), false);
  assert.is(colourWanted({ FORCE_COLOR: '' }, no), true);
  assert.is(colourWanted({ NO_COLOR: '1' }, yes), false);
  assert.is(colourWanted({ NO_COLOR: '' }, yes), true);
  assert.is(colourWanted({ TERM: 'dumb' }, yes), false);
  assert.is(colourWanted({}, yes), true);
  assert.is(colourWanted({}, no), false);
  assert.is(paint('a\n\nb', 'red', true), '\u001b[0m\u001b[31ma\u001b[0m\n\n\u001b[0m\u001b[31mb\u001b[0m');
  assert.is(paint('a', 'red', false), 'a');
});

test('skipTiers: named tiers that would run are skipped with skip "env"; others keep their own reason', () => {
  const tier = (name: string) => ({
    name,
    run: 'true',
    timeout: 1,
    env: {},
    cwd: '.',
    caught: [1],
    skipWhenTestAdjacent: false,
    hooks: [],
  });
  const plan: Plan = {
    files: [],
    fileCount: 1,
    hits: [],
    tiers: [
      { tier: tier('a'), run: true },
      { tier: tier('b'), run: false, skip: 'scope', reason: 'test-adjacent' },
      { tier: tier('c'), run: true },
    ],
  };
  const out = skipTiers(plan, ['b', 'c', 'zz'], 'GATE_LADDER_SKIP');
  assert.equal(
    out.tiers.map((t) => [t.tier.name, t.run, t.skip, t.reason]),
    [
      ['a', true, undefined, undefined],
      ['b', false, 'scope', 'test-adjacent'],
      ['c', false, 'env', 'GATE_LADDER_SKIP names it'],
    ],
  );
  assert.is(skipTiers(plan, [], 'x'), plan);
});

test("gitErrorReason quotes lint-staged's failed steps, not its generic lines", () => {
  const text = `[STARTED] Backing up original state...\n[FAILED] error: Entry 'new.txt' not uptodate. Cannot merge.\n[FAILED] Cannot save the current worktree state\n[SKIPPED]   ✖ lint-staged failed due to a git error.\n\n  ✖ lint-staged failed due to a git error.`;
  assert.is(
    gitErrorReason(text),
    `lint-staged stopped: it said "error: Entry 'new.txt' not uptodate. Cannot merge.", "Cannot save the current worktree state"`,
  );
  assert.is(
    gitErrorReason('  ✖ lint-staged failed due to a git error.'),
    'lint-staged stopped: it said "lint-staged failed due to a git error"',
  );
});

test.run();
