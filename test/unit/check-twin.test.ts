/**
 * The starter config never gates on a command that writes files (src/install/check-twin.ts, pure, and
 * its use in src/commands/starter.ts): each tool's writing flags, its twin that only checks, a script
 * read command by command, and the tiers the starter writes for the projects of issue 43.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readCheckCommand, readCheckScript } from '../../src/install/check-twin.js';
import { type StarterInput, starterConfig } from '../../src/install/starter.js';
import type { PackageManager } from '../../src/runners/package-manager.js';

const words = (s: string) => s.split(' ');

test('readCheckCommand: each tool that writes, and its twin that only checks', () => {
  const cases: [string, string | undefined][] = [
    ['eslint . --fix', 'eslint .'],
    ['npx eslint --fix --fix-type problem src', 'npx eslint src'],
    ['prettier --write .', 'prettier --check .'],
    ['prettier -w src', 'prettier --check src'],
    ['biome check --write .', 'biome check .'],
    ['biome lint --write --unsafe', 'biome lint'],
    ['pnpm exec biome check --apply src', 'pnpm exec biome check src'],
    ['ruff check --fix .', 'ruff check .'],
    ['ruff format .', 'ruff format . --check'],
    ['black src', 'black --check src'],
    ['isort .', 'isort --check-only .'],
    ['dprint fmt', 'dprint check'],
    ['cargo fmt', 'cargo fmt --check'],
    ['stylelint **/*.css --fix', 'stylelint **/*.css'],
    ['gofmt -w .', undefined],
    ['some-tool --fix', undefined],
  ];
  for (const [command, twin] of cases) {
    const r = readCheckCommand(words(command));
    assert.ok(r.writes, command);
    assert.is(r.writes ? r.twin : 'none', twin, command);
  }
  for (const command of [
    'eslint .',
    'prettier --check .',
    'prettier -c .',
    'biome check .',
    'biome ci',
    'ruff check .',
    'ruff format --check .',
    'black --check .',
    'tsc --noEmit',
    'cargo fmt --check',
    'gofmt -l .',
  ])
    assert.is(readCheckCommand(words(command)).writes, false, command);
});

test('readCheckScript: a chain read command by command; a script it runs followed; a twin only for a plain && chain of direct commands', () => {
  assert.equal(readCheckScript('eslint . --fix && prettier --write .', {}), {
    writes: true,
    why: '`--fix` rewrites files',
    twin: 'eslint . && prettier --check .',
  });
  assert.equal(readCheckScript('eslint . && prettier -c .', {}), { writes: false });
  const viaScript = readCheckScript('npm run fix', { fix: 'eslint --fix .' });
  assert.ok(viaScript.writes && viaScript.twin === undefined && /`fix`/.test(viaScript.why));
  const orChain = readCheckScript('eslint --fix . || true', {});
  assert.ok(orChain.writes && orChain.twin === undefined);
  // A quoted glob stays quoted in the twin, so the shell does not expand it.
  const quoted = readCheckScript("eslint 'src/**/*.ts' --fix", {});
  assert.is(quoted.writes ? quoted.twin : '', 'eslint "src/**/*.ts"');
});

const tiers = (scripts: Record<string, string>, pm: PackageManager = 'npm') =>
  [
    ...starterConfig({ scripts, pm, preCommit: false, lintStaged: false }).text.matchAll(/\{ name: '([^']+)', run: '((?:[^'\\]|\\.)*)'/g),
  ].map((m) => `${m[1]}: ${m[2]}`);
const text = (scripts: Record<string, string>, pm: PackageManager = 'npm') =>
  starterConfig({ scripts, pm, preCommit: false, lintStaged: false }).text;

test('starter: a lint script that rewrites files is not gated on; its twin is (issue 43: biome lint --write --unsafe gated every push and rewrote the pushed files)', () => {
  assert.equal(tiers({ lint: 'biome lint --write --unsafe', test: 'node --test' }, 'pnpm'), [
    't1-lint: pnpm exec biome lint',
    't2-tests: pnpm test',
  ]);
  assert.match(
    text({ lint: 'biome lint --write --unsafe', test: 'node --test' }),
    'package.json "lint" writes files (--write rewrites files)',
  );
  for (const tier of tiers({ lint: 'eslint --fix .', 'lint:fix': 'x', test: 'node --test' })) assert.not.match(tier, '--fix');
});

test("starter: the project's own check-named scripts: lint:check beside a writing lint, types/tsc for the type check, format:check", () => {
  assert.equal(
    tiers({
      lint: 'eslint . --fix',
      'lint:check': 'eslint .',
      types: 'tsc --noEmit',
      'format:check': 'prettier -c .',
      test: 'node --test',
    }),
    ['t1-lint: npm run lint:check', 't1-types: npm run types', 't1-format-check: npm run format:check', 't2-tests: npm test'],
  );
  assert.equal(tiers({ tsc: 'tsc -p .', test: 'node --test' }), ['t1-tsc: npm run tsc', 't2-tests: npm test']);
  // typecheck first: `types` is not run as well.
  assert.equal(tiers({ typecheck: 'tsc --noEmit', types: 'tsc --noEmit', test: 'node --test' }), [
    't1-typecheck: npm run typecheck',
    't2-tests: npm test',
  ]);
  // `check` when nothing else checks, and its twin when it writes.
  assert.equal(tiers({ check: 'biome check --write .', test: 'node --test' }), ['t1-check: npx biome check .', 't2-tests: npm test']);
});

test('starter: a writer with no twin is left out, with why, as a comment', () => {
  const t = text({ lint: 'npm run fix', fix: 'eslint --fix .', test: 'node --test' });
  assert.match(t, '// "lint" is left out: `fix`: `--fix` rewrites files, and it has no twin that only checks');
  assert.equal(tiers({ lint: 'npm run fix', fix: 'eslint --fix .', test: 'node --test' }), ['t2-tests: npm test']);
});

test('starter: a chained lint script is one tier per command, each read by its own runner (issue 43: `eslint . && prettier -c .` showed "runner: none")', () => {
  assert.equal(tiers({ lint: 'eslint . && prettier -c .', test: 'node --test' }), [
    't1-lint-eslint: npx eslint .',
    't1-lint-prettier: npx prettier -c .',
    't2-tests: npm test',
  ]);
  assert.equal(tiers({ lint: 'eslint --fix . && prettier --write .', test: 'node --test' }, 'yarn'), [
    't1-lint-eslint: yarn eslint .',
    't1-lint-prettier: yarn prettier --check .',
    't2-tests: yarn test',
  ]);
  // Scripts run through the manager stay one tier (their own tiers are elsewhere).
  assert.equal(
    tiers({ lint: 'npm run lint:js && npm run lint:css', 'lint:js': 'eslint .', 'lint:css': 'stylelint .', test: 'node --test' }),
    ['t1-lint: npm run lint', 't2-tests: npm test'],
  );
});

test('starter: a workspace project (pnpm -r test) gets a related-tests tier per workspace whose runner has one, in its folder (issue 43: none in a pnpm workspace)', () => {
  const input: StarterInput = {
    scripts: { test: 'pnpm -r test', lint: 'biome lint --write --unsafe' },
    pm: 'pnpm',
    preCommit: false,
    lintStaged: false,
    workspaces: [
      { dir: 'packages/core', name: '@acme/core', scripts: { test: 'vitest run' } },
      { dir: 'packages/web', name: '@acme/web', scripts: { test: 'jest' } },
      { dir: 'packages/docs', name: 'docs', scripts: { test: 'node --test' } },
      { dir: 'packages/empty', name: 'empty', scripts: {} as Record<string, string> },
    ],
  };
  const t = starterConfig(input).text;
  assert.match(
    t,
    "{ name: 't1-related-core', run: 'pnpm exec vitest related --run {changed:**/*.{js,jsx,ts,tsx,mjs,cjs,mts,cts,vue,svelte}}', cwd: 'packages/core', timeout: 300, skipWhenTestAdjacent: true, allowNoTests: true, runner: 'vitest' },",
  );
  assert.match(t, "{ name: 't1-related-web', run: 'pnpm exec jest --findRelatedTests --passWithNoTests {changed:");
  assert.not.match(t, 't1-related-docs');
  assert.match(t, "{ name: 't1-lint', run: 'pnpm exec biome lint', timeout: 300 },");
  // A package in a folder of the repository: the workspace's folder below it.
  assert.match(starterConfig({ ...input, packageDir: 'js' }).text, "cwd: 'js/packages/core'");
  // A root test script with a related tier of its own: no per-workspace ones.
  assert.not.match(starterConfig({ ...input, scripts: { test: 'vitest run' } }).text, 't1-related-core');
});

test.run();
