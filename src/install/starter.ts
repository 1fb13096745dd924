/**
 * The starter config `install` writes when a repository has none, guessed from its package.json
 * scripts, and what `install --pre-commit` makes of an existing `lint-staged` hook line. Pure.
 */
import { type PackageManager, pmSays } from '../runners/package-manager.js';
import { detectRunner as readRunner, managerTarget, shellCommands, shellSegments } from '../runners/detect.js';
import { IDENTITIES } from '../runners/identities.js';
import type { LintStagedOptions, RunnerName } from '../types.js';
import { readCheckScript } from './check-twin.js';

/**
 * The test runner a package.json script starts, read by the same reading a run uses (runners/detect.ts:
 * the command's words, launchers such as `c8 -r lcov` or `cross-env`, `npm run x` followed into script
 * x): one runner, or undefined for none or several, so the starter's `runner` field and a run's reading
 * never disagree. A check (`eslint .`, a lint script) is no test runner here: a run reads it as one anyway.
 */
export function detectRunner(script: string | undefined, scripts: Readonly<Record<string, string>>): RunnerName | undefined {
  if (script === undefined) return undefined;
  const runner = readRunner(script, undefined, () => scripts).runner;
  return runner && IDENTITIES[runner].kind === 'test' ? runner : undefined;
}

/** Scripts that run a quicker part of the tests, in the order tried. */
const QUICK_TESTS = ['test:quick', 'test:unit', 'test:fast'] as const;
/** Scripts that check without running tests: each group gets its tiers from the first names it has (all of the type checks' first three). */
const LINT_SCRIPTS = ['lint', 'lint:check', 'lint:ci'] as const;
const TYPE_SCRIPTS = ['typecheck', 'type-check', 'check-types'] as const;
/** Type checks named otherwise, tried when none of TYPE_SCRIPTS is there. */
const OTHER_TYPE_SCRIPTS = ['check:types', 'types', 'tsc', 'lint:types'] as const;
const FORMAT_SCRIPTS = ['format:check', 'check:format', 'prettier:check', 'fmt:check', 'format:ci'] as const;

/** A check tier the starter writes: the script it runs, or the command that checks what a writing script rewrites. */
interface CheckTier {
  name: string;
  /** The package.json script it stands for. */
  script: string;
  kind: 'lint' | 'type' | 'format' | 'check';
  /** The tool's own command when it does not run the script: its twin that only checks, or one command of its chain. */
  command?: string;
  /** Why the script itself is not run: it writes files. */
  writes?: string;
  /** One of a chain's commands: how many there are, and whether it is the first. */
  chain?: { of: number; first: boolean };
}

/**
 * A check script that is a plain `&&` chain of tools (`eslint . && prettier -c .`): its commands, one tier
 * each, so each is read by its own runner (as one tier, no single runner reads it). Undefined for one
 * command, a script run through the manager, a `cd`, an env assignment or any other operator.
 */
function checkParts(command: string): string[] | undefined {
  if (/[`$<>\\]/.test(command)) return undefined;
  const commands = shellCommands(command);
  if (commands.length < 2) return undefined;
  const ok = commands.every(
    (c, i) =>
      c.words.length > 0 &&
      c.then === (i === commands.length - 1 ? '' : '&&') &&
      !/^\w+=/.test(c.words[0]!) &&
      !SHELL_STATE.test(c.words[0]!) &&
      !NO_TIER.test(c.words[0]!) &&
      managerTarget(c.words)?.script === undefined,
  );
  return ok ? commands.map((c) => c.text) : undefined;
}

/**
 * The check scripts the starter gates on, never one that writes files: `lint` (else `lint:check`,
 * `lint:ci`), the type checks (`typecheck`, ..., else `check:types`, `types`, `tsc`), a format check
 * (`format:check`, `prettier:check`, ...), and `check` when it runs no tests and nothing above was found.
 * A script that writes (`eslint --fix`, `biome lint --write --unsafe`) gives way to a check-named one;
 * else to its twin command (check-twin.ts); else it is left out, with why, as a comment (`left`).
 */
function checkTiers(scripts: Readonly<Record<string, string>>): { tiers: CheckTier[]; left: string[] } {
  const tiers: CheckTier[] = [];
  const left: string[] = [];
  const plain = (s: string) => scripts[s] !== undefined && !readCheckScript(scripts[s]!, scripts).writes;
  const add = (script: string, kind: CheckTier['kind'], name = tierName('t1', script)) => {
    const r = readCheckScript(scripts[script]!, scripts);
    const writes = r.writes ? { writes: r.why } : {};
    const parts = checkParts(r.writes ? (r.twin ?? '') : scripts[script]!);
    if (parts !== undefined)
      parts.forEach((part, i) => {
        const word = part.split(' ').find((w, j, all) => j === all.length - 1 || !/^(?:npx|pnpx|bunx|pnpm|yarn|exec|-.*)$/.test(w));
        const label = (word ?? String(i + 1)).replace(/^.*\//, '').replace(/[^\w-]/g, '-');
        tiers.push({ name: `${name}-${label}`, script, kind, command: part, ...writes, chain: { of: parts.length, first: i === 0 } });
      });
    else if (!r.writes) tiers.push({ name, script, kind });
    else if (r.twin !== undefined) tiers.push({ name, script, kind, command: r.twin, writes: r.why });
    else
      left.push(
        `"${script}" is left out: ${r.why}, and it has no twin that only checks (add a script that only checks, e.g. "${script}:check", and a tier for it)`,
      );
  };
  const lint = LINT_SCRIPTS.find(plain) ?? LINT_SCRIPTS.find((s) => scripts[s] !== undefined);
  if (lint !== undefined) add(lint, 'lint', 't1-lint');
  const types = TYPE_SCRIPTS.filter((s) => scripts[s] !== undefined);
  const other = OTHER_TYPE_SCRIPTS.find((s) => scripts[s] !== undefined);
  for (const s of types.length > 0 ? types : other !== undefined ? [other] : []) add(s, 'type');
  const format = FORMAT_SCRIPTS.find(plain);
  if (format !== undefined) add(format, 'format');
  const check = scripts.check;
  if (check !== undefined && tiers.length === 0 && left.length === 0 && detectRunner(check, scripts) === undefined) add('check', 'check');
  return { tiers, left };
}

/** What install reads at the repository root, for a project whose tests are not a package.json script (Python, Go, Rust, a Makefile). */
export interface RootFacts {
  /** The names in the root folder. */
  files: readonly string[];
  /** Paths of the files under `tests/` and `test/`, a few levels deep (`tests/test_x.py`, `tests/unit/test_y.py`). */
  testFiles: readonly string[];
  /** The text of the root files the detection reads: pyproject.toml, pytest.ini, tox.ini, setup.cfg, requirements*.txt, the Makefile make reads. */
  texts: Readonly<Record<string, string>>;
  /** Which Python is on PATH: `python3` when there is one, else `python`; undefined for neither. */
  python?: 'python3' | 'python';
}

/** A test command found at the root without a package.json script. */
export interface RootTests {
  /** `pytest`, `go`, `cargo`, `make`: for the tier's name when there are several. */
  tool: string;
  run: string;
  runner?: RunnerName;
  /** What it was found by, for the tier's comment. */
  why: string;
}

/** The Makefile GNU make reads, in its order. */
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'] as const;

/** Why the root says pytest runs the tests, or undefined. */
function pytestSign(facts: RootFacts): string | undefined {
  const t = facts.texts;
  const pyproject = t['pyproject.toml'];
  // pytest's own table (`[tool.pytest.ini_options]`; pytest 9 also reads `[tool.pytest]`).
  if (pyproject !== undefined && /^\s*\[tool\.pytest(?:\.ini_options)?\]/m.test(pyproject))
    return "pyproject.toml has pytest's [tool.pytest.ini_options]";
  if (facts.files.includes('pytest.ini')) return 'pytest.ini';
  if (t['tox.ini'] !== undefined && /^\s*\[pytest\]/m.test(t['tox.ini'])) return 'tox.ini has a [pytest] section';
  if (t['setup.cfg'] !== undefined && /^\s*\[tool:pytest\]/m.test(t['setup.cfg'])) return 'setup.cfg has a [tool:pytest] section';
  // A requirement string (`"pytest>=8"`, `"pytest"`), or poetry's `pytest = "^8"`.
  if (pyproject !== undefined && (/["']pytest\s*(?:[<>=!~;[]|["'])/.test(pyproject) || /^\s*pytest\s*=/m.test(pyproject)))
    return 'pyproject.toml names pytest among its dependencies';
  const req = Object.keys(t)
    .filter((f) => /^requirements[\w.-]*\.txt$/.test(f))
    .find((f) => /^\s*pytest\s*(?:[<>=!~;[]|$)/m.test(t[f]!));
  if (req !== undefined) return `${req} names pytest`;
  if (facts.files.includes('conftest.py')) return 'conftest.py';
  const file = facts.testFiles.find((f) => /^tests?\/(?:.*\/)?(?:test_[^/]*|[^/]*_test)\.py$/.test(f));
  if (file !== undefined) return `${file.split('/')[0]}/ holds test files (${file})`;
  return undefined;
}

/**
 * The tests a repository runs without a package.json `test` script, from its root (a Python, Go or
 * Rust project that adds gate-ladder with `npm i -D`): pytest (its config, pytest among the
 * dependencies, a conftest.py or `tests/test_*.py`) through the Python on PATH, `go test ./...` for a
 * go.mod, `cargo test` for a Cargo.toml, one each; else a Makefile's `test` target. Pure.
 */
export function rootTests(facts: RootFacts): RootTests[] {
  const found: RootTests[] = [];
  const pytest = pytestSign(facts);
  // python3 first: the name PEP 394 gives Python 3 everywhere on Unix, where `python` may be missing or Python 2.
  if (pytest !== undefined) found.push({ tool: 'pytest', run: `${facts.python ?? 'python3'} -m pytest -q`, runner: 'pytest', why: pytest });
  if (facts.files.includes('go.mod')) found.push({ tool: 'go', run: 'go test ./...', runner: 'go', why: 'go.mod' });
  if (facts.files.includes('Cargo.toml')) found.push({ tool: 'cargo', run: 'cargo test', runner: 'cargo', why: 'Cargo.toml' });
  const make = makeTest(facts);
  // Its runner is read when the tier runs, from what `make -n test` prints (runners/detect-io.ts).
  if (found.length === 0 && make !== undefined) found.push({ tool: 'make', run: 'make test', why: `${make} has a \`test\` target` });
  return found;
}

/** The Makefile make reads at the root, when a rule of it names a `test` target (`test:`, `check test:`). */
function makeTest(facts: RootFacts): string | undefined {
  const file = MAKEFILES.find((m) => facts.texts[m] !== undefined);
  return file !== undefined && /^(?:[^\s:#=]+[ \t]+)*test(?:[ \t]+[^\s:#=]+)*[ \t]*::?(?!=)/m.test(facts.texts[file]!) ? file : undefined;
}

export interface StarterInput {
  scripts: Record<string, string>;
  pm: PackageManager;
  /** `install --pre-commit`: also give the pre-commit hook a tier. */
  preCommit: boolean;
  /** lint-staged is configured or already run by the pre-commit hook: the pre-commit tier runs it. */
  lintStaged: boolean;
  /** The options of the hook's lint-staged line (`--config cfg.json`: configPath), for the tier that takes its place. */
  lintStagedOptions?: LintStagedOptions;
  /** The package's folder relative to the repository root, when it is not the root: each tier runs there (`cwd`). */
  packageDir?: string;
  /** The repository root, read for tests that are not a package.json script (used only when there is no `test` script). */
  root?: RootFacts;
  /** The workspaces (npm's `workspaces`, pnpm-workspace.yaml's `packages`): folder relative to the package's, name, scripts. */
  workspaces?: readonly { dir: string; name: string; scripts: Readonly<Record<string, string>> }[];
  /** Whether a command is on PATH where install runs (what the hook's shell would find): each tier's first word is asked. */
  onPath?: (name: string) => boolean;
}

/** A command the config runs that cannot start here: install says so (installMsg.cannotRunHere). */
export interface StarterWarning {
  /** The first word of the tiers' commands, not found on PATH. */
  missing: string;
  /** The tiers whose command starts with it. */
  tiers: string[];
}

export interface Starter {
  text: string;
  /** Whether a tier runs on pre-commit (false: install says none will). */
  preCommitTier: boolean;
  /** Commands the config writes that cannot run here (not on PATH); empty when all can, or when install did not ask. */
  warnings: StarterWarning[];
}

/**
 * The paths a related-tests tier hands its runner: the source files a JavaScript runner follows imports
 * from. A push that changes none (docs only) skips the tier: `{changed:GLOB}` (route/changed.ts).
 */
const RELATED_GLOB = '**/*.{js,jsx,ts,tsx,mjs,cjs,mts,cts,vue,svelte}';

/**
 * The tests a runner relates to the changed files, by its own reading of the imports: vitest's
 * `related` command (`--run`: once, not watching; it passes when none relate), jest's
 * `--findRelatedTests` (`--passWithNoTests`: a change no test imports is not an error). Other runners
 * have no such command: undefined.
 */
function relatedCommand(runner: RunnerName | undefined): string | undefined {
  if (runner === 'vitest') return `vitest related --run {changed:${RELATED_GLOB}}`;
  if (runner === 'jest') return `jest --findRelatedTests --passWithNoTests {changed:${RELATED_GLOB}}`;
  return undefined;
}

/** What the root names of pytest-testmon (pytest's plugin that runs the tests a change affects), or undefined. */
function testmonSign(facts: RootFacts | undefined): string | undefined {
  if (facts === undefined) return undefined;
  for (const [file, text] of Object.entries(facts.texts)) if (/pytest[-_]testmon/.test(text)) return file;
  return undefined;
}

const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const tierName = (prefix: string, script: string) => `${prefix}-${script.replace(/[^\w-]/g, '-')}`;
const hasTests = (script: string | undefined) => script !== undefined && !/no test specified/.test(script);

interface ChainPart {
  command: string;
  /** A word for the tier's name: the script `npm run X` runs, else the command's first word. */
  label: string;
  /** The package.json script the command runs, if it runs one. */
  script?: string;
  runner?: RunnerName;
  /** It only prints or waits: no tier. */
  noTier?: boolean;
}

/** Commands a tier runs as they are: on PATH wherever the tier runs, or a package manager's script. */
const ON_PATH =
  /^(?:npm|pnpm|yarn|bun|npx|pnpx|bunx|node|nodejs|deno|python\d*(?:\.\d+)?|sh|bash|go|cargo|make|rm|rmdir|mkdir|cp|mv|touch|ln|chmod|cat|ls|find|test|git|docker|env|false)$/;
/** Shell builtins whose effect lasts to the next command (`cd packages/core && jest`): in a tier of their own they change nothing, so the script stays one tier. */
const SHELL_STATE = /^(?:cd|pushd|popd|export|unset|set|source|\.|umask|ulimit|alias|exec|exit|shopt|trap)$/;
/** Commands that only print or wait: no tier of their own (`jest && echo done`). */
const NO_TIER = /^(?:echo|printf|true|:|sleep|clear)$/;

/**
 * A test script that is a plain chain of commands, one of them a test runner (`node --test && npm run
 * check:types`) or each of them a package.json script run through the manager (`npm run lint && npm run
 * unit && npm run unit-esm`, whatever runners those scripts start): its commands in order (one that only
 * prints, `echo done`, marked to get no tier). Anything else (one command beside what prints, `||`, `;`,
 * pipes, an expansion, a subshell, an env assignment, a `cd` or `export` the next command needs, no
 * runner or several among commands that are not scripts): undefined, and the script stays one tier.
 * Split by detect.ts's shell reading, the one a tier's runner is detected by.
 */
function chainParts(script: string, scripts: Record<string, string>): ChainPart[] | undefined {
  // What the split does not read (expansions, redirections, backslashes): the script stays one command.
  // Quotes it reads (`mocha 'test/**/*.ts' && tsc`): each command keeps its text as written.
  if (/[`$<>\\]/.test(script)) return undefined;
  const commands = shellCommands(script);
  if (
    commands.length < 2 ||
    commands.some((c, i) => c.words.length === 0 || c.then !== (i === commands.length - 1 ? '' : '&&') || /^\w+=/.test(c.words[0]!))
  )
    return undefined;
  if (commands.some((c) => SHELL_STATE.test(c.words[0]!))) return undefined;
  const parts = commands.map(({ words, text: command }): ChainPart => {
    // `npm run x`, `pnpm x`, `yarn x`: the script x; `pnpm exec tsc`: tsc; `npm ci`: ci.
    const pm = managerTarget(words);
    const script = pm?.script;
    const label = script ?? (pm?.rest[0] ?? (pm && words.slice(1).find((w) => !w.startsWith('-'))) ?? words[0]!).replace(/^.*\//, '');
    const runner = detectRunner(command, scripts);
    return {
      command,
      label,
      ...(script !== undefined && { script }),
      ...(runner && { runner }),
      ...(NO_TIER.test(words[0]!) && { noTier: true }),
    };
  });
  const tiered = parts.filter((p) => !p.noTier);
  if (tiered.length < 2) return undefined;
  const scriptsOnly = tiered.every((p) => p.script !== undefined && scripts[p.script] !== undefined);
  return scriptsOnly || parts.filter((p) => p.runner).length === 1 ? parts : undefined;
}

/** A chain's command as a tier runs it: package binaries through the package manager (a tier's PATH has no node_modules/.bin). */
function partCommand(pm: PackageManager, command: string): string {
  return ON_PATH.test(command.split(/\s+/)[0]!) ? command : pmSays.exec(pm, command);
}

/** What each step of the starter writes into: its input, the tier lines, and `run` (a command as a tier runs it, recorded for the PATH warnings). */
interface Writer {
  input: StarterInput;
  scripts: Record<string, string>;
  pm: PackageManager;
  lines: string[];
  run: (name: string, command: string) => string;
  cwdField: string;
}

const runnerField = (r: RunnerName | undefined) => (r ? `, runner: '${r}'` : '');

/** A starter ladder from package.json scripts, step by step: lint-staged, the checks, related tests, a quicker part, the whole suite. Pure. */
export function starterConfig(input: StarterInput): Starter {
  const { scripts, pm, preCommit } = input;
  // Every command a tier runs, by tier: their first words are checked against PATH for the warnings.
  const commands: [string, string][] = [];
  const w: Writer = {
    input,
    scripts,
    pm,
    lines: [],
    run: (name, command) => {
      commands.push([name, command]);
      return q(command);
    },
    cwdField: input.packageDir ? `, cwd: ${q(input.packageDir)}` : '',
  };
  let preCommitTier = false;
  if (preCommit && input.lintStaged) {
    w.lines.push(
      '    // pre-commit: lint-staged on the staged files (its own config says which tasks); `git commit --no-verify` skips it.',
      `    { name: 'lint-staged', lintStaged: ${lintStagedField(input.lintStagedOptions)}${w.cwdField} },`,
    );
    preCommitTier = true;
  }
  const checked = checkLines(w, preCommitTier);
  const full = hasTests(scripts.test);
  relatedLines(w, full);
  quickLines(w, full);
  suiteLines(w, full, checked.scripts);
  return {
    text: configText(pm, input.packageDir, w.lines),
    preCommitTier: checked.preCommitTier,
    warnings: notOnPath(commands, input.onPath),
  };
}

/** The check tiers (`checkTiers`), each with its comments; the first also on pre-commit when one is asked for and none runs there yet. */
function checkLines(w: Writer, preCommitTierBefore: boolean): { preCommitTier: boolean; scripts: Set<string> } {
  const { scripts, pm, lines, run, cwdField } = w;
  const preCommit = w.input.preCommit;
  let preCommitTier = preCommitTierBefore;
  const checks = checkTiers(scripts);
  for (const why of checks.left) lines.push(`    // ${why}.`);
  for (const c of checks.tiers) {
    const hooks = preCommit && !preCommitTier ? ", hooks: ['pre-commit', 'pre-push', 'manual', 'replay', 'seed']" : '';
    if (hooks) preCommitTier = true;
    const what =
      c.kind === 'lint' ? 'a lint error' : c.kind === 'type' ? 'a type error' : c.kind === 'format' ? 'a format error' : 'what it finds';
    if (c.chain?.first !== false)
      lines.push(
        `    // ${c.script}: runs on every push, whatever changed: ${what} is wrong even when only tests moved.${hooks ? ' Also on pre-commit.' : ''}`,
      );
    if (c.writes !== undefined && c.chain?.first !== false)
      lines.push(
        `    // package.json "${c.script}" writes files (${c.writes.replace(/`/g, '')}): a gate must judge the pushed code, not rewrite it, so ${c.chain ? 'these tiers run' : 'this tier runs'} its check.`,
      );
    if (c.chain?.first === true)
      lines.push(
        `    // package.json "${c.script}" runs ${c.chain.of} commands (${JSON.stringify(scripts[c.script]).slice(1, -1)}): one tier each, so each tool's output is read by its own runner.`,
      );
    const command = c.command !== undefined ? partCommand(pm, c.command) : pmSays.script(pm, c.script);
    lines.push(`    { name: ${q(c.name)}, run: ${run(c.name, command)}${cwdField}, timeout: 300${hooks} },`);
  }
  return { preCommitTier, scripts: new Set<string>(checks.tiers.map((c) => c.script)) };
}

/** The related-tests tier of the whole suite's runner, or one per workspace whose runner has one. */
function relatedLines(w: Writer, full: boolean): void {
  const { scripts, pm, lines, run, cwdField, input } = w;
  // The tests the push's changed source files import, through the suite's own runner: the cheap test tier.
  const related = full ? relatedCommand(suiteRunner(scripts.test!, scripts)) : undefined;
  if (related !== undefined) {
    const runnerName = related.split(' ')[0]!;
    lines.push(
      `    // Only the tests that import what the push changed (${runnerName}'s own reading of the imports; \`{changed:...}\` is each`,
      '    // changed source file, one argument). Skipped when the push changes a test-adjacent path (tests/, *.test.*,',
      '    // fixtures/, ...): the tests moved with the code, so their passing here says nothing of the patch; the whole',
      '    // suite below, which runs every test file, decides. A push that changes no source file skips it too.',
      `    // It runs ${runnerName} with its own config: add any options or variables your "test" script gives it.`,
      `    { name: 't1-related', run: ${run('t1-related', pmSays.exec(pm, related))}${cwdField}, timeout: 300, skipWhenTestAdjacent: true, allowNoTests: true, runner: '${runnerName}' },`,
    );
  }
  // A workspace project whose root runs no related tier: one per workspace whose tests run on vitest or jest, in its folder.
  const wsRelated =
    related === undefined
      ? (input.workspaces ?? []).flatMap((ws) => {
          const wsScripts = ws.scripts as Record<string, string>;
          const command = hasTests(wsScripts.test) ? relatedCommand(suiteRunner(wsScripts.test!, wsScripts)) : undefined;
          return command === undefined ? [] : [{ ws, command }];
        })
      : [];
  if (wsRelated.length > 8)
    lines.push(
      `    // No related-tests tiers: ${wsRelated.length} workspaces run vitest or jest, one tier each would be too many; add one for the workspaces that change most.`,
    );
  else if (wsRelated.length > 0) {
    lines.push(
      "    // Per workspace, only the tests that import what the push changed (its own runner's reading of the imports, in its",
      '    // folder; `{changed:...}` is each changed source file relative to that folder, so a change in another workspace it',
      '    // imports counts too). Skipped when the push changes a test-adjacent path: the whole suite below decides then.',
    );
    const used = new Set<string>();
    for (const { ws, command } of wsRelated) {
      let name = tierName('t1-related', ws.name.replace(/^@[^/]+\//, ''));
      for (let i = 2; used.has(name); i++) name = `${tierName('t1-related', ws.name)}-${i}`;
      used.add(name);
      const dir = input.packageDir ? `${input.packageDir}/${ws.dir}` : ws.dir;
      const runnerName = command.split(' ')[0]!;
      lines.push(
        `    { name: ${q(name)}, run: ${run(name, pmSays.exec(pm, command))}, cwd: ${q(dir)}, timeout: 300, skipWhenTestAdjacent: true, allowNoTests: true, runner: '${runnerName}' },`,
      );
    }
  }
}

/** A quicker part of the tests (`test:quick`, `test:unit`, ...) as a t1, unless the whole suite runs it itself. */
function quickLines(w: Writer, full: boolean): void {
  const { scripts, pm, lines, run, cwdField } = w;
  const quick = QUICK_TESTS.find((s) => hasTests(scripts[s]));
  // `"test": "npm run test:unit && npm run test:types"`: the whole suite runs the quicker part itself (a tier of
  // its own when the chain is split), so a tier for it alone would run it twice in one push.
  const quickInTest = quick !== undefined && full && shellCommands(scripts.test!).some((c) => managerTarget(c.words)?.script === quick);
  if (quick !== undefined && !quickInTest) {
    lines.push(
      `    // ${quick}: a quicker part of the tests, so most pushes get their answer sooner. Skipped when the push`,
      '    // changes a test-adjacent path (tests/, *.test.*, fixtures/, ...): the tests moved with the code, so only the',
      '    // whole suite below can vouch for it.',
      `    { name: ${q(tierName('t1', quick))}, run: ${run(tierName('t1', quick), pmSays.script(pm, quick))}${cwdField}, timeout: 300, skipWhenTestAdjacent: true${runnerField(detectRunner(scripts[quick], scripts))} },`,
    );
  }
  if (quickInTest)
    lines.push(
      `    // ${quick}: a quicker part of the tests, but "test" runs it too, so it has no tier of its own (it would run twice in a push).`,
    );
}

/** The whole suite: a tier per command of a chained `test` script, the tests the root shows, or `test` as it is. */
function suiteLines(w: Writer, full: boolean, checkScripts: ReadonlySet<string>): void {
  const { scripts, pm, lines, run, cwdField, input } = w;
  const runner = full ? detectRunner(scripts.test, scripts) : undefined;
  const found = !full && input.root ? rootTests(input.root) : [];
  const parts = full ? chainParts(scripts.test!, scripts) : undefined;
  if (parts) {
    // `node --test && tsc -p .`: one tier per command, so the one beside the runner that fails is read as a failure of its own.
    const used = new Set<string>();
    const ran = new Set<string>();
    const oneRunner = parts.filter((p) => p.runner).length === 1;
    lines.push(
      `    // package.json "test" runs ${parts.length} commands (${JSON.stringify(scripts.test).slice(1, -1)}): one tier each, in its order, so a failure of one beside the tests is not read as the test runner's.`,
    );
    for (const part of parts) {
      // `npm run lint && jest`: lint has its tier above.
      if (part.noTier) continue;
      if (!part.runner && part.script !== undefined && checkScripts.has(part.script) && scripts[part.script] !== undefined) continue;
      // `npm run unit && npm run unit`: once is enough for a push.
      const key = part.script !== undefined && scripts[part.script] !== undefined ? `script ${part.script}` : part.command;
      if (ran.has(key)) continue;
      ran.add(key);
      let name = part.runner && oneRunner ? 't2-tests' : tierName('t2', part.label);
      for (let i = 2; used.has(name); i++) name = `${tierName('t2', part.label)}-${i}`;
      used.add(name);
      lines.push(
        `    { name: ${q(name)}, run: ${run(name, partCommand(pm, part.command))}${cwdField}, timeout: 900${runnerField(part.runner)} },`,
      );
    }
  } else if (!full && found.length > 0) rootTestLines(w, found);
  else
    lines.push(
      full
        ? `    // The whole suite (package.json "test": ${JSON.stringify(scripts.test).slice(1, -1)})${runner ? `; \`runner\` names its exit codes in messages` : ''}.`
        : '    // No "test" script found in package.json, nor pytest, go.mod, Cargo.toml or a Makefile `test` target at the root: edit this command.',
      `    { name: 't2-tests', run: ${run('t2-tests', pmSays.script(pm, 'test'))}${cwdField}, timeout: 900${runnerField(runner)} },`,
    );
}

/** No `test` script, but the root says how the tests run (rootTests): at the root, where the config is (no `cwd`). */
function rootTestLines(w: Writer, found: readonly RootTests[]): void {
  const { lines, run, input } = w;
  const makefile = input.root && makeTest(input.root);
  const pytest = found.find((f) => f.tool === 'pytest');
  const testmon = pytest && testmonSign(input.root);
  if (pytest && testmon !== undefined) {
    lines.push(
      `    // ${testmon} names pytest-testmon: it runs only the tests the changes since its last run affect (its database,`,
      '    // .testmondata, is per checkout: where it has none, every test runs). Skipped when the push changes a',
      '    // test-adjacent path: the tests moved with the code, so only the whole suite below can vouch for the patch.',
      '    // When the change affects no test, pytest runs none (exit 5): allowNoTests makes that a pass.',
      `    { name: 't1-related', run: ${run('t1-related', `${pytest.run} --testmon`)}, timeout: 300, skipWhenTestAdjacent: true, allowNoTests: true, runner: 'pytest' },`,
    );
  } else if (pytest) {
    lines.push(
      '    // No tier of related tests: pytest cannot tell which tests a source change affects without a plugin',
      '    // (pytest-testmon does); and the changed test files alone are what a test-adjacent push skips anyway.',
    );
  }
  for (const f of found) {
    const also =
      f.tool !== 'make' && makefile
        ? ` Your ${makefile} also has a \`test\` target: if \`make test\` is how you run them, put it here.`
        : '';
    const python =
      f.tool === 'pytest' ? ` ${f.run.split(' ')[0]} must import pytest and your code: push where your virtualenv is active.` : '';
    lines.push(
      `    // No "test" script in package.json; ${f.why}: ${f.tool === 'make' ? `\`make test\`` : f.tool} runs the tests.${python}${also}`,
      `    { name: ${q(found.length === 1 ? 't2-tests' : tierName('t2', f.tool))}, run: ${run(found.length === 1 ? 't2-tests' : tierName('t2', f.tool), f.run)}, timeout: 900${runnerField(f.runner)} },`,
    );
  }
}

/** The config file's text around the tier lines. */
function configText(pm: PackageManager, packageDir: string | undefined, lines: readonly string[]): string {
  return [
    "import { defineConfig } from 'gate-ladder';",
    '',
    '// Tiers run cheapest first; the first `caught` (a test failed) or `error` (the check could not run) blocks the push.',
    `// Every field, and where a config may live: \`${pmSays.exec(pm, 'gate-ladder help config')}\`. Check it with \`${pmSays.exec(pm, 'gate-ladder run --dry-run')}\`.`,
    '// The order is a first guess, not measured: lint is often slower than the tests (move it down if so). Once',
    '// pushes have run, `gate-ladder report` says which order pays, from the seconds and catches in its ledger.',
    ...(packageDir
      ? [
          "// package.json is not at the repository root: each tier runs in the package's folder (`cwd`, relative to the root, where this file is).",
        ]
      : []),
    'export default defineConfig({',
    '  tiers: [',
    ...lines,
    '  ],',
    '});',
    '',
  ].join('\n');
}

/** Whether a script, or one it runs through the manager (`depth` deep), starts with a `cd`, `export` or another word whose effect lasts. */
function movesFirst(script: string, scripts: Record<string, string>, depth: number): boolean {
  return shellCommands(script).some((c) => {
    const first = c.words[0];
    if (first === undefined) return false;
    if (SHELL_STATE.test(first) || /^\w+=/.test(first)) return true;
    const target = managerTarget(c.words)?.script;
    return depth > 0 && target !== undefined && scripts[target] !== undefined && movesFirst(scripts[target]!, scripts, depth - 1);
  });
}

/** The tiers' first words that are no command on PATH (a path, `./x`, is not asked), each with its tiers. */
function notOnPath(commands: readonly [string, string][], onPath: ((name: string) => boolean) | undefined): StarterWarning[] {
  if (onPath === undefined) return [];
  const out = new Map<string, string[]>();
  for (const [tier, command] of commands) {
    const word = command.split(/\s+/)[0]!;
    if (word === '' || word.includes('/') || onPath(word)) continue;
    const tiers = out.get(word) ?? [];
    if (!tiers.includes(tier)) tiers.push(tier);
    out.set(word, tiers);
  }
  return [...out].map(([missing, tiers]) => ({ missing, tiers }));
}

/**
 * The runner the whole suite runs: the test script's, or the one runner among the commands it chains.
 * Undefined when the script (or a script it runs) changes folder or environment first (`cd packages/core
 * && jest`): the runner run from the package's folder would not be the suite's.
 */
function suiteRunner(script: string, scripts: Record<string, string>): RunnerName | undefined {
  if (movesFirst(script, scripts, 3)) return undefined;
  const runner = detectRunner(script, scripts);
  if (runner !== undefined) return runner;
  const runners = new Set((chainParts(script, scripts) ?? []).map((p) => p.runner).filter((r) => r !== undefined));
  return runners.size === 1 ? [...runners][0] : undefined;
}

/** A linter install runs `--fix` with on the starter config: one that reads the whole repository's TypeScript files. */
export interface ProjectLinter {
  linter: 'eslint' | 'xo';
  /** The script that runs it (`lint`, `test`, ...): what the user runs to see it. */
  script: string;
  /** The linter's arguments in that script (eslint 8 lints a `.ts` file only with `--ext .ts`). */
  args: string[];
}

/** `npx`, `pnpm exec`, `yarn`, `bunx`, `cross-env X=1`: words in front of the command they run. */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx', 'exec', 'pnpm', 'yarn', 'cross-env', 'dotenv']);

/** The project's eslint or xo, from its package.json scripts (`"lint": "eslint ."`, `"test": "xo && ava"`): the first script that runs one. Pure. */
export function projectLinter(scripts: Record<string, string>): ProjectLinter | undefined {
  for (const [script, body] of Object.entries(scripts)) {
    for (const words of shellSegments(body)) {
      let i = 0;
      while (i < words.length && (LAUNCHERS.has(words[i]!) || /^\w+=/.test(words[i]!) || (i > 0 && words[i]!.startsWith('-')))) i++;
      const command = words[i]?.replace(/^.*\//, '');
      if (command === 'eslint' || command === 'xo') return { linter: command, script, args: words.slice(i + 1) };
    }
  }
  return undefined;
}

/** What says a project formats with prettier: the names of files in its root (and its package's folder), and its package.json files. */
export interface PrettierFacts {
  files: readonly string[];
  packageJsons: readonly unknown[];
  /** package.yaml's text, where there is one (prettier reads a "prettier" key there too). */
  packageYaml?: string;
}

/** prettier's own config files (prettier.io/docs/configuration): `.prettierrc` (JSON or YAML), with an extension, or `prettier.config.*`. */
const PRETTIER_CONFIG = /^(?:\.prettierrc(?:\.(?:json5?|ya?ml|toml|[cm]?[jt]s))?|prettier\.config\.[cm]?[jt]s)$/;

/** Whether the project checks with biome: a biome.json(c), or @biomejs/biome among a package.json's own dependencies. Pure. */
export function usesBiome(facts: PrettierFacts): boolean {
  if (facts.files.some((f) => f === 'biome.json' || f === 'biome.jsonc')) return true;
  return facts.packageJsons.some((pkg) => {
    if (pkg === null || typeof pkg !== 'object') return false;
    const p = pkg as Record<string, unknown>;
    const has = (deps: unknown) => deps !== null && typeof deps === 'object' && '@biomejs/biome' in deps;
    return has(p.dependencies) || has(p.devDependencies);
  });
}

/**
 * Whether the project formats with prettier: prettier in a package.json's dependencies or
 * devDependencies, a "prettier" key in package.json (or package.yaml), or a prettier config file. Not
 * its mere presence in node_modules/.bin, where another tool's dependency puts it (xo's, in chalk,
 * whose style is not prettier's). Pure.
 */
export function usesPrettier(facts: PrettierFacts): boolean {
  if (facts.files.some((f) => PRETTIER_CONFIG.test(f))) return true;
  if (facts.packageYaml !== undefined && /^prettier\s*:/m.test(facts.packageYaml)) return true;
  return facts.packageJsons.some((pkg) => {
    if (pkg === null || typeof pkg !== 'object') return false;
    const p = pkg as Record<string, unknown>;
    const has = (deps: unknown) => deps !== null && typeof deps === 'object' && 'prettier' in deps;
    return 'prettier' in p || has(p.dependencies) || has(p.devDependencies);
  });
}

/** lint-staged's boolean flags that a tier's `lintStaged` options carry. */
const LS_SWITCHES: Record<string, keyof LintStagedOptions> = {
  '--continue-on-error': 'continueOnError',
  '-r': 'relative',
  '--relative': 'relative',
  '-v': 'verbose',
  '--verbose': 'verbose',
  '--fail-on-changes': 'failOnChanges',
  '--allow-empty': 'allowEmpty',
  '--hide-unstaged': 'hideUnstaged',
};

/** lint-staged's flags that change only what it prints: a tier needs none of them. */
const LS_OUTPUT_ONLY = new Set(['-q', '--quiet', '-d', '--debug', '--color', '--no-color']);

/**
 * The arguments of a hook's lint-staged line as the tier's `lintStaged` options (`--config cfg.json` is
 * `configPath`, relative to the repository root where git runs the hook, `--concurrent false`,
 * `--relative`...), or the arguments a tier cannot carry (`--cwd`, `--no-stash`, `--diff`, more than
 * one command on the line, a `$VAR`). Pure.
 */
export function lintStagedFlags(rest: string): { options: LintStagedOptions; left: string[] } {
  const commands = shellCommands(rest).filter((c) => c.words.length > 0 || c.then !== '');
  if (commands.length > 1 || (commands[0] !== undefined && commands[0].then !== '')) return { options: {}, left: [rest.trim()] };
  const words = commands[0]?.words ?? [];
  const options: Record<string, unknown> = {};
  const left: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const [flag, inline] = words[i]!.startsWith('--') && words[i]!.includes('=') ? words[i]!.split(/=(.*)/s) : [words[i]!, undefined];
    const value = () => inline ?? words[++i];
    if (flag === '-c' || flag === '--config') {
      const path = value();
      if (path === undefined || path === '-' || path.includes('$')) left.push(`${flag} ${path ?? ''}`.trim());
      else options.configPath = path.replace(/^\.\/(?=.)/, '');
    } else if (flag === '-p' || flag === '--concurrent') {
      const v = value();
      if (v === 'true' || v === 'false') options.concurrent = v === 'true';
      else if (v !== undefined && /^[1-9]\d*$/.test(v)) options.concurrent = Number(v);
      else left.push(`${flag} ${v ?? ''}`.trim());
    } else if (flag! in LS_SWITCHES && inline === undefined) options[LS_SWITCHES[flag!]!] = true;
    else if (!LS_OUTPUT_ONLY.has(flag!)) left.push(words[i]!);
  }
  return { options: options as LintStagedOptions, left };
}

/**
 * A `.husky/pre-commit` line that runs lint-staged on its own (`npx lint-staged`, `pnpm exec lint-staged`,
 * `yarn lint-staged`, `bunx lint-staged`, `npx --no -- lint-staged`, `node_modules/.bin/lint-staged`).
 * `bare`: nothing else on the line. `options`: its arguments as a tier's `lintStaged` options; `left`:
 * those a tier cannot carry (gate-ladder's line can take its place only when there are none). Pure.
 */
export function lintStagedLine(line: string): { bare: boolean; options: LintStagedOptions; left: string[] } | undefined {
  const m =
    /^\s*(?:(?:npx|bunx|pnpx|pnpm(?:\s+exec)?|yarn(?:\s+run)?|bun\s+run|npm\s+exec)\s+(?:--?[\w-]*\s+)*)?(?:\.\/)?(?:node_modules\/\.bin\/)?lint-staged\b(.*)$/.exec(
      line,
    );
  if (!m) return undefined;
  if (m[1]!.trim() === '') return { bare: true, options: {}, left: [] };
  return { bare: false, ...lintStagedFlags(m[1]!) };
}

/** The tier's `lintStaged` value as the starter writes it: `true`, or the options a hook line carried. Pure. */
export function lintStagedField(options: LintStagedOptions | undefined): string {
  const entries = Object.entries(options ?? {});
  if (entries.length === 0) return 'true';
  return `{ ${entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? q(v) : String(v)}`).join(', ')} }`;
}

/**
 * Whether a tier's `lintStaged` options are what a hook line's arguments ask (output-only flags aside):
 * then the tier runs lint-staged as that line did, and gate-ladder's line may take its place. Pure.
 */
export function sameLintStaged(line: LintStagedOptions, tier: true | LintStagedOptions | undefined): boolean {
  if (tier === undefined) return false;
  const a: Record<string, unknown> = { ...line };
  const b: Record<string, unknown> = tier === true ? {} : { ...tier };
  const norm = (p: unknown) => (typeof p === 'string' ? p.replace(/\/(?:\.?\/)+/g, '/').replace(/^(?:\.\/)+(?=.)/, '') : p);
  a.configPath = norm(a.configPath);
  b.configPath = norm(b.configPath);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k]);
}
