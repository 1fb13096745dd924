/**
 * Which test runner a tier's command starts, read from its words and, through `npm test`, `npm run X`,
 * `pnpm X`, `yarn X` and `bun run X`, from the scripts of package.json at the judged commit. Pure: the
 * caller hands in the scripts (read only when a package manager is named).
 */
import { type ParseEntry, parse as parseShell, quote } from 'shell-quote';
import type { RunnerName } from '../config/runner-names.js';
import { IDENTITY_LIST, type RunnerIdentity } from './identities.js';
import { base, goCommand, pythonModuleWords } from './command-words.js';
import { posix } from 'node:path';
import { shown } from '../util/escape.js';
import type { EnvTool } from './env-tools.js';
import { type PnpmRunArgs, pnpmRunArgs } from './pnpm-workspaces.js';
import { type NpmWorkspaceArgs, type WorkspacePackage, npmWorkspaceArgs, selectWorkspaces } from './workspaces.js';

export type Manager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** package.json's scripts; `null`: there is no readable package.json. */
export type Scripts = Readonly<Record<string, string>> | null;
/**
 * What make says a make command runs (`make -n`, read by detect-io.ts): the recipe lines, or why it
 * could not say (no make installed, no rule, a time limit).
 */
export type MakeDryRun = { recipe: readonly string[] } | { unread: string };
/**
 * The workspace's packages where the tier runs and the root package: npm's (package.json's `workspaces`,
 * in npm's order) or pnpm's (pnpm-workspace.yaml's `packages`); `null`: none declared (or unreadable).
 */
export type Workspaces = { root: WorkspacePackage; list: WorkspacePackage[] } | null;
/** Which manager's workspace declaration to read. */
export type WorkspaceManager = 'npm' | 'pnpm';

/** One workspace of an npm workspaces run: its script (absent: it has none) and the runner that script starts. */
export interface WorkspaceRunMember {
  name: string;
  /** `name@version`, as npm's banner names it. */
  id?: string;
  dir: string;
  script?: string;
  detection?: Detection;
}

/**
 * `npm test --workspaces`, `npm run test -w a -w b`: the script npm runs in each workspace, in its order;
 * `pnpm -r test`, `pnpm --filter a test`: every package of the workspace (pnpm's output says which ran).
 */
export interface WorkspaceRun {
  /** The manager that runs it: npm's output is cut by its banners, pnpm's by its line prefixes. */
  manager: WorkspaceManager;
  event: string;
  /** pnpm's options make it print no package prefix (`--silent`, `--reporter-hide-prefix`): why, in words. */
  unprefixed?: string;
  /** `--if-present`: a workspace without the script is skipped. */
  ifPresent: boolean;
  members: WorkspaceRunMember[];
}

export interface Detection {
  runner?: RunnerName;
  /** Why this profile (or none) applies, in words: for `--dry-run`, `--json` and the ledger row. */
  why: string;
  /** The package managers the command goes through: their own failures are errors whatever the runner. */
  managers: Manager[];
  /** A script the command runs that package.json does not have (at this commit). */
  missingScript?: string;
  /** A package manager is named but there is no readable package.json. */
  noPackageJson?: boolean;
  /** A script the command runs is `npm init`'s placeholder (`echo "Error: no test specified" && exit 1`): no test to run. */
  placeholderScript?: string;
  /** Every command word seen, the scripts' included: a shell's "X: not found" for one of them is the command's own. */
  words: string[];
  /** The command goes through make, which exits 2 whatever its recipe's own code was (it prints that code). */
  make?: boolean;
  /** The command runs tox or nox, which exit 1 whatever failed and print the failed command and its own code. */
  envTool?: EnvTool;
  /**
   * Commands the tier runs beside its test runner (`tsc -p .` in `node --test && tsc -p .`): when the
   * runner's summary counts no failed test yet the command fails, one of these may be what failed.
   */
  besides?: string[];
  /** The command runs a script in npm workspaces: each workspace's output is read apart, with its own runner. */
  workspaces?: WorkspaceRun;
  /** Every command the tier runs is a TypeScript type checker (`tsc`, `vue-tsc`): its diagnostics are its verdict. */
  typeCheck?: string;
  /** cargo's `--manifest-path`'s folder (`crates/rs`), relative to where the tier runs: its panics name files from there. */
  manifestDir?: string;
  /**
   * The folder the runner runs in, relative to where the tier runs, when the command moves there first
   * (`cd backend && go test ./...`, `go -C backend test ./...`): the files its output names are from there.
   */
  runDir?: string;
}

const MAX_DEPTH = 4;

/** Control characters of a script (from a file) escaped before they reach a terminal. */
const printable = shown;

/** One command of a command line: its words, its text as written, and the operator after it. */
export interface ShellCommand {
  /** Its shell words, quotes and backslashes removed; empty when nothing stands between two operators. */
  words: string[];
  /** Its text as written (quotes kept), trimmed. */
  text: string;
  /** The operator that ends it (`&&`, `||`, `;`, `|`, `&`, a newline, `(` or `)`); `''` at the end of the line. */
  then: string;
}

/** Operators that end a command (shell-quote's names for them); a process substitution `<(` too. */
const ENDS = new Set(['&&', '||', ';', ';;', '|', '|&', '&', '(', ')', '<(']);

/** A word as it would be written again: quoted only when the shell would read it otherwise, in double quotes when they keep it as it is. */
const written = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : /["$`\\!]/.test(word) ? quote([word]) : `"${word}"`);

/**
 * The commands of a command line, split at `&&`, `||`, `;`, `|`, `&`, newlines and parentheses, each
 * with the operator after it, read by shell-quote: quotes and backslashes are honoured (an operator
 * inside them splits nothing), a redirection (`2>&1`, `> out.log`) is no word of the command, a
 * `#` comment ends the line, and `$VAR` stays as written. A newline ends a command (a line continued
 * with a backslash is one line); a quoted string spanning lines is read line by line.
 */
export function shellCommands(command: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  const lines = command.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  lines.forEach((line, n) => {
    let words: string[] = [];
    let text: string[] = [];
    const end = (then: string) => {
      commands.push({ words, text: text.join(' '), then });
      words = [];
      text = [];
    };
    const tokens: ParseEntry[] = parseShell(line, (name) => `$${name}`);
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (typeof t === 'string') {
        words.push(t);
        text.push(written(t));
      } else if ('comment' in t) break;
      else if (t.op === 'glob') {
        words.push(t.pattern);
        text.push(t.pattern);
      } else if (ENDS.has(t.op)) end(t.op);
      else {
        // A redirection: the file (or descriptor) after it is no word of the command, nor is the
        // descriptor number written before it (`2>&1`: shell-quote gives `2`, `>&`, `1`).
        if (/^\d+$/.test(words.at(-1) ?? '')) {
          words.pop();
          text.pop();
        }
        if (typeof tokens[i + 1] === 'string' || (tokens[i + 1] as { op?: string } | undefined)?.op === 'glob') i++;
      }
    }
    end(n === lines.length - 1 ? '' : '\n');
  });
  return commands;
}

/** Shell words of a command line, in segments split at `&&`, `||`, `;`, `|`, `&` and newlines. Quotes are honoured; expansions are not. */
export function shellSegments(command: string): string[][] {
  return shellCommands(command)
    .map((c) => c.words)
    .filter((w) => w.length > 0);
}

/** Words that only wrap the real command. */
const WRAPPERS = new Set([
  'env',
  'cross-env',
  'npx',
  'bunx',
  'time',
  'nice',
  'exec',
  'command',
  'nohup',
  'c8',
  'nyc',
  'xvfb-run',
  'dotenv',
  'uv',
  'poetry',
  'pipenv',
  'hatch',
  'pdm',
  'rye',
]);
/**
 * A wrapper's options that take the next word as their value when written apart (`c8 -r lcov ava`,
 * `nyc --lines 90 mocha`, `nice -n 5 jest`), from each tool's own `--help`: that word is not the command.
 */
const WRAPPER_VALUES: Readonly<Record<string, ReadonlySet<string>>> = {
  c8: new Set([
    '-r',
    '--reporter',
    '-o',
    '--reports-dir',
    '--report-dir',
    '-x',
    '--exclude',
    '-n',
    '--include',
    '-e',
    '--extension',
    '--temp-directory',
    '--src',
    '--lines',
    '--functions',
    '--branches',
    '--statements',
    '--exclude-after-remap',
    '--merge-async',
    '--config',
    '--clean',
  ]),
  nyc: new Set([
    '-r',
    '--reporter',
    '-x',
    '--exclude',
    '-n',
    '--include',
    '-e',
    '--extension',
    '-i',
    '--require',
    '-t',
    '--temp-dir',
    '--temp-directory',
    '--report-dir',
    '--cwd',
    '--lines',
    '--functions',
    '--branches',
    '--statements',
    '--nycrc-path',
    '--instrumenter',
  ]),
  env: new Set(['-u', '--unset', '-C', '--chdir', '-S', '--split-string']),
  nice: new Set(['-n', '--adjustment']),
  time: new Set(['-f', '--format', '-o', '--output']),
  'xvfb-run': new Set([
    '-n',
    '--server-num',
    '-e',
    '--error-file',
    '-f',
    '--auth-file',
    '-p',
    '--xauth-protocol',
    '-s',
    '--server-args',
    '-w',
    '--wait',
  ]),
  dotenv: new Set(['-e', '-c', '-v', '-p']),
  npx: new Set(['-p', '--package', '-c', '--call']),
};
/** The test runners named by a word of the command, from their identities' `words`. */
const BY_WORD: ReadonlyMap<string, RunnerIdentity> = new Map(
  IDENTITY_LIST.flatMap((r) => (r.kind === 'check' ? [] : (r.words ?? [])).map((w) => [w, r] as const)),
);
/** The linters, formatters and type checkers a command names, from their identities (`cargo`: clippy's and cargo check's): they decide a tier only when they are all it runs. */
const CHECK_BY_WORD: ReadonlyMap<string, readonly RunnerIdentity[]> = IDENTITY_LIST.reduce((m, r) => {
  for (const w of r.kind === 'check' ? (r.words ?? []) : []) m.set(w, [...(m.get(w) ?? []), r]);
  return m;
}, new Map<string, RunnerIdentity[]>());
/** The runners whose node_modules folder a path names, from their identities' `packages`. */
const BY_PACKAGE: ReadonlyMap<string, RunnerIdentity> = new Map(
  IDENTITY_LIST.flatMap((r) => (r.packages ?? []).map((p) => [p, r] as const)),
);
const PACKAGE_PATH = new RegExp(
  `(?:^|/)node_modules/(${[...BY_PACKAGE.keys()].map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})/`,
);

/**
 * The runner a word names: `jest`, `./node_modules/.bin/vitest`, `node_modules/mocha/bin/mocha.js`,
 * `node_modules/tap/dist/esm/run.mjs`; `first`: the word is the command (not one of its arguments).
 */
function runnerWord(word: string, first: boolean): RunnerName | undefined {
  const pkg = PACKAGE_PATH.exec(word)?.[1];
  // A runner named by words (playwright is named by `playwright test`, below) is the package's.
  const owner = pkg === undefined ? undefined : BY_PACKAGE.get(pkg);
  if (owner?.words !== undefined) return owner.name;
  const b = base(word);
  const r = BY_WORD.get(b);
  if (r?.commandOnly && !first && !word.includes('/')) return undefined;
  return r?.name;
}

interface Found {
  runners: Set<RunnerName>;
  via: string[];
  managers: Set<Manager>;
  missingScript?: string;
  noPackageJson?: boolean;
  placeholderScript?: string;
  words: Set<string>;
  /** Segments that start no runner and no script (printable). */
  others: string[];
  /** The type checkers among `others` (their names, one per segment). */
  /** The commands among `others` that a check's identity names (`tsc`, `eslint`), with the word that names it. */
  checkers: { name: RunnerName; word: string }[];
  make: boolean;
  envTool?: EnvTool;
  /** cargo's or nextest's `--manifest-path` folder. */
  manifestDir?: string;
  /** The folder the first runner found runs in, when a `cd` (or go's `-C`) moved it from where the command starts. */
  runDir?: string;
  workspaces?: WorkspaceRun;
  /** Why make could not say what a make command runs. */
  makeUnread?: string;
  /** Workspace runs seen that could not be followed (why, in words), and by which manager. */
  unfollowed?: string;
  unfollowedBy?: WorkspaceManager;
}

/** Where scan reads what a command refers to: package.json's scripts, what make runs, the workspaces. */
interface Sources {
  scripts: () => Scripts;
  /** What make would run for these arguments (after `make`), asked once each. */
  make: (args: readonly string[]) => MakeDryRun;
  workspaces: (manager: WorkspaceManager) => Workspaces;
}

/** Commands beside a runner that cannot be what made it fail (they do not fail, or only prepare). */
/** TypeScript's compiler and the checkers that print its diagnostics (`file(1,7): error TS2322: ...`). */

const HARMLESS = new Set([
  'echo',
  'printf',
  'cd',
  'true',
  ':',
  'export',
  'set',
  'rm',
  'mkdir',
  'cp',
  'mv',
  'touch',
  'sleep',
  'clear',
  'exit',
]);
/** TAP reporters a runner's output is piped into (`tape test/*.js | tap-spec`): they fail when the tests do, so they are not a command beside the runner. */
const TAP_REPORTERS = new Set([
  'tap-spec',
  'faucet',
  'tap-dot',
  'tap-min',
  'tap-summary',
  'tap-difflet',
  'tap-diff',
  'tap-arc',
  'tap-nyan',
  'tap-colorize',
  'tap-mocha-reporter',
  'tap-pessimist',
]);

/** `npm init`'s test script: it fails without running anything. */
const PLACEHOLDER = /^\s*echo\s+(["']?)Error: no test specified\1\s*&&\s*exit 1\s*$/;

/** bun's own commands: any other word after `bun` is a script's name (`bun lint` runs the script lint). */
const BUN_OWN = new Set([
  'test',
  'install',
  'i',
  'add',
  'a',
  'remove',
  'rm',
  'update',
  'link',
  'unlink',
  'pm',
  'build',
  'init',
  'create',
  'upgrade',
  'repl',
  'exec',
  'outdated',
  'publish',
  'patch',
  'why',
  'audit',
  'info',
  'ci',
]);

/** A package-manager segment: the script it runs, or the command it runs instead (pnpm/yarn/bun run a binary when no script has the name). */
export function managerTarget(
  words: readonly string[],
): { manager: Manager; script?: string; strict: boolean; rest: string[] } | undefined {
  const m = base(words[0] ?? '');
  if (m !== 'npm' && m !== 'pnpm' && m !== 'yarn' && m !== 'bun') return undefined;
  const args = words.slice(1).filter((w) => !w.startsWith('-'));
  const sub = args[0];
  // Workspaces and recursive runs name no one package.json.
  if (words.some((w) => /^(?:-r|--recursive|--filter|-F|--workspaces?|-w|--prefix|-C|--dir|--cwd)(?:=|$)/.test(w)))
    return { manager: m, strict: false, rest: [] };
  if (sub === undefined) return { manager: m, strict: false, rest: [] };
  const after = (i: number) => args.slice(i);
  if (m === 'npm') {
    if (sub === 'test' || sub === 't' || sub === 'tst') return { manager: m, script: 'test', strict: true, rest: [] };
    if (sub === 'run' || sub === 'run-script' || sub === 'rum' || sub === 'urn')
      return args[1] ? { manager: m, script: args[1], strict: true, rest: [] } : { manager: m, strict: false, rest: [] };
    if (sub === 'exec' || sub === 'x') return { manager: m, strict: false, rest: after(1) };
    return { manager: m, strict: false, rest: [] };
  }
  if (m === 'bun') {
    if (sub === 'run') return args[1] ? { manager: m, script: args[1], strict: true, rest: [] } : { manager: m, strict: false, rest: [] };
    if (sub === 'x') return { manager: m, strict: false, rest: after(1) };
    if (BUN_OWN.has(sub)) return { manager: m, strict: false, rest: [] };
    return { manager: m, script: sub, strict: false, rest: after(0) };
  }
  if (sub === 'run')
    return args[1] ? { manager: m, script: args[1], strict: true, rest: after(2) } : { manager: m, strict: false, rest: [] };
  if (sub === 'test' || sub === 't') return { manager: m, script: 'test', strict: true, rest: [] };
  if (sub === 'exec' || sub === 'dlx') return { manager: m, strict: false, rest: after(1) };
  if (['install', 'i', 'add', 'ci', 'build', 'rebuild', 'why', 'list', 'ls'].includes(sub)) return { manager: m, strict: false, rest: [] };
  // `pnpm vitest`, `yarn jest`: a script of that name, else the binary.
  return { manager: m, script: sub, strict: false, rest: after(0) };
}

/** Where a scan is: what it reads, what it found so far, how deep in scripts and make recipes, and what led there. */
interface ScanAt {
  sources: Sources;
  found: Found;
  depth: number;
  via: string;
  /** The command is what `make -n` printed, a sub-make's recipe included: a make line in it is not asked again. */
  fromMake: boolean;
  /** The folder a `cd` before this command moved to, relative to where the command line starts (`.`: none). */
  cd: string;
}

/** `fromMake`: the command is what `make -n` printed, a sub-make's recipe included: a make line in it is not asked again. */
function scan(command: string, sources: Sources, found: Found, depth: number, via: string, fromMake = false): void {
  const at: ScanAt = { sources, found, depth, via, fromMake, cd: '.' };
  for (const c of shellCommands(command)) {
    if (c.words.length === 0) continue;
    const cd = cdTo(c.words);
    if (cd === undefined) scanSegment(c.words, at);
    else at.cd = cd === null ? '.' : posix.join(at.cd, cd);
    // Each line make prints runs in a shell of its own: a `cd` does not outlive its line.
    if (fromMake && c.then === '\n') at.cd = '.';
  }
}

/**
 * Where a `cd` command goes, relative to where it starts: its one folder when that is a plain relative
 * path; `null` for one that leaves the tree or cannot be read (`cd /srv`, `cd $DIR`, `cd -`, `cd ..`);
 * undefined for any other command.
 */
function cdTo(words: readonly string[]): string | null | undefined {
  if (words[0] !== 'cd') return undefined;
  const args = words.slice(1).filter((w) => w !== '--' && w !== '-P' && w !== '-L');
  const dir = args[0];
  if (args.length !== 1 || dir === undefined || dir === '-' || dir.startsWith('/') || dir.startsWith('~') || /[$`*?]/.test(dir))
    return null;
  const n = posix.normalize(dir).replace(/\/+$/, '');
  return n === '..' || n.startsWith('../') ? null : n;
}

/** One simple command: its wrappers taken off, then a make line, tox or nox, a workspace run, a script, or a runner. */
function scanSegment(seg: string[], at: ScanAt): void {
  const words = unwrapped(seg, at.found);
  for (const w of words) at.found.words.add(base(w));
  const first = words[0];
  if (first === undefined) return;
  const b = base(first);
  const ws = b === 'npm' ? npmWorkspaceArgs(words.slice(1)) : undefined;
  const pnpm = b === 'pnpm' ? pnpmRunArgs(words.slice(1)) : undefined;
  const pm = ws || pnpm ? undefined : managerTarget(words);
  if (b === 'make' || b === 'gmake') scanMake(words, at);
  // The runner is the command tox or nox says failed (runners/env-tools.ts), read from the output.
  else if (b === 'tox' || b === 'nox') at.found.envTool ??= b as EnvTool;
  else if (ws) scanNpmWorkspaces(ws, at);
  else if (pnpm) scanPnpmWorkspaces(pnpm, at);
  else if (pm) scanScript(pm, words, at);
  else scanRunner(seg, words, at);
}

/** The command's words without its variable assignments and wrappers (`npx`, `uv run`, `hatch test`...); each wrapper is counted as a word. */
function unwrapped(seg: readonly string[], found: Found): string[] {
  let words = seg.filter((w) => !/^[A-Za-z_]\w*=/.test(w));
  while (words.length > 0 && WRAPPERS.has(base(words[0]!))) {
    const w = base(words[0]!);
    // A shell's "uv: not found" names the wrapper: it is one of the command's words too.
    found.words.add(w);
    if (w === 'npx') found.managers.add('npm');
    if (w === 'bunx') found.managers.add('bun');
    words = words.slice(1);
    // `hatch test` runs pytest in hatch's own test environment, with pytest's output and exit code (hatch's docs).
    if (w === 'hatch' && words[0] === 'test') words = ['pytest', ...words.slice(1)];
    else if (w === 'uv' || w === 'poetry' || w === 'pipenv' || w === 'hatch' || w === 'pdm' || w === 'rye')
      words = words[0] === 'run' ? words.slice(1) : [];
    while (words.length > 0 && (words[0]!.startsWith('-') || /^[A-Za-z_]\w*=/.test(words[0]!)))
      words = words.slice(WRAPPER_VALUES[w]?.has(words[0]!) ? 2 : 1);
  }
  return words;
}

/** A make line: the recipe `make -n` prints is scanned in its place (once: not inside a recipe already). */
function scanMake(words: readonly string[], at: ScanAt): void {
  const { sources, found, depth } = at;
  found.make = true;
  if (at.fromMake || depth >= MAX_DEPTH) return;
  const made = sources.make(words.slice(1));
  if ('unread' in made) found.makeUnread ??= made.unread;
  else if (made.recipe.length > 0) scan(made.recipe.join('\n'), sources, found, depth + 1, `\`${printable(words.join(' '))}\``, true);
}

/** A workspace's part in a workspace run: its script for the event, and the runner that script names. */
function workspaceMember(w: WorkspacePackage, event: string): WorkspaceRunMember {
  const script = w.scripts[event];
  const detection = script === undefined ? undefined : detectRunner(script, undefined, () => w.scripts);
  return {
    name: w.name,
    ...(w.id !== undefined && { id: w.id }),
    dir: w.dir,
    ...(script !== undefined && { script }),
    ...(detection && { detection }),
  };
}

/** `npm test --workspaces`, `npm run lint -w a`: the workspaces chosen, each with the script it runs. */
function scanNpmWorkspaces(ws: NpmWorkspaceArgs, at: ScanAt): void {
  const { sources, found } = at;
  found.managers.add('npm');
  const args = ws.rest.filter((w) => !w.startsWith('-'));
  const sub = args[0];
  const event =
    sub === 'test' || sub === 't' || sub === 'tst'
      ? 'test'
      : sub === 'run' || sub === 'run-script' || sub === 'rum' || sub === 'urn'
        ? args[1]
        : undefined;
  if (event === undefined || found.workspaces !== undefined || at.depth >= MAX_DEPTH) return;
  const all = sources.workspaces('npm');
  if (all === null) {
    found.unfollowed ??= 'package.json here declares no workspaces to read';
    return;
  }
  const chosen = [...(ws.includeRoot ? [all.root] : []), ...selectWorkspaces(all.list, ws.all ? [] : ws.filters)];
  if (chosen.length === 0) {
    found.unfollowed ??= `no workspace matches ${ws.filters.map((f) => `--workspace=${printable(f)}`).join(' ')}`;
    return;
  }
  const members = chosen.map((w) => workspaceMember(w, event));
  found.workspaces = { manager: 'npm', event, ifPresent: ws.ifPresent, members };
}

/** `pnpm -r test`, `pnpm --filter a lint`: every package of pnpm-workspace.yaml, with the script it runs. */
function scanPnpmWorkspaces(pnpm: PnpmRunArgs, at: ScanAt): void {
  const { sources, found } = at;
  found.managers.add('pnpm');
  if (found.workspaces !== undefined || at.depth >= MAX_DEPTH) return;
  const why =
    pnpm.elsewhere ?? (sources.workspaces('pnpm') === null ? 'no pnpm-workspace.yaml here lists the packages to read' : undefined);
  if (why !== undefined) {
    if (found.unfollowed === undefined) Object.assign(found, { unfollowed: why, unfollowedBy: 'pnpm' });
    return;
  }
  const all = sources.workspaces('pnpm')!;
  // Every package: pnpm's output says which its filter selected; a package without the script is skipped.
  const members = all.list.map((w) => workspaceMember(w, pnpm.event));
  found.workspaces = {
    manager: 'pnpm',
    event: pnpm.event,
    ifPresent: true,
    members,
    ...(pnpm.unprefixed !== undefined && { unprefixed: pnpm.unprefixed }),
  };
}

/** `npm test`, `yarn lint`, `pnpm exec vitest`: the package.json script named (with npm's pre and post scripts), or the command after it. */
function scanScript(pm: NonNullable<ReturnType<typeof managerTarget>>, words: readonly string[], at: ScanAt): void {
  const { sources, found, depth, via, fromMake } = at;
  found.managers.add(pm.manager);
  if (pm.script === undefined) {
    if (pm.rest.length > 0) scan(quote(pm.rest), sources, found, depth, via, fromMake);
    return;
  }
  const all = sources.scripts();
  if (all === null) {
    found.noPackageJson = true;
    return;
  }
  const body = all[pm.script];
  if (body === undefined) {
    if (pm.strict) found.missingScript ??= pm.script;
    else scan(quote(pm.rest), sources, found, depth, via, fromMake);
    return;
  }
  if (PLACEHOLDER.test(body)) found.placeholderScript ??= pm.script;
  // npm runs a script's pre and post scripts around it (`pretest`: a lint, `posttest`: an audit): their output and exit code are the tier's too.
  const around =
    pm.manager === 'npm' && !words.includes('--ignore-scripts') ? [`pre${pm.script}`, pm.script, `post${pm.script}`] : [pm.script];
  for (const name of around) {
    const text = all[name];
    if (text !== undefined && depth < MAX_DEPTH) scan(text, sources, found, depth + 1, `${pm.manager} script "${name}"`, fromMake);
  }
}

/** The value of cargo's `--manifest-path X` (or `--manifest-path=X`), when given. */
function manifestPath(words: readonly string[]): string | undefined {
  const at = words.findIndex((w) => w === '--manifest-path' || w.startsWith('--manifest-path='));
  if (at === -1) return undefined;
  return words[at]!.includes('=') ? words[at]!.slice(words[at]!.indexOf('=') + 1) : words[at + 1];
}

/** Any other command: the runner its shape or words name, else a check it names, else a command we do not know. */
function scanRunner(seg: readonly string[], words: readonly string[], at: ScanAt): void {
  const { found, via } = at;
  const add = (r: RunnerName) => {
    found.runners.add(r);
    found.via.push(`${via === '' ? 'the command' : via} runs \`${printable(seg.join(' '))}\``);
  };
  const b = base(words[0]!);
  // A runner its command's shape names (`go test`, `python -m pytest`, `node --test`), from its identity.
  const shaped = IDENTITY_LIST.find((r) => r.kind === 'test' && r.command?.is(words) === true);
  const r = shaped?.name ?? words.map((w, i) => runnerWord(w, i === 0)).find((x) => x !== undefined);
  if (r !== undefined) {
    const first = found.runners.size === 0;
    add(r);
    const manifest = (r === 'cargo' || r === 'nextest') && manifestPath(words);
    if (manifest) found.manifestDir ??= posix.dirname(manifest);
    const goDir = r === 'go' ? goCommand(words)?.dir : undefined;
    const dir = goDir === undefined ? at.cd : goDir.startsWith('/') ? undefined : posix.join(at.cd, goDir);
    if (first && dir !== undefined && dir !== '.') found.runDir = dir;
    return;
  }
  if (HARMLESS.has(b) || TAP_REPORTERS.has(b)) return;
  found.others.push(printable(words.join(' ')));
  // A check run as a Python module (`python3 -m flake8 src`, `python -m ruff check`) is that check, its words from the module on.
  const own = pythonModuleWords(words) ?? words;
  const name = own === words ? b : own[0]!;
  // A check its words name (`eslint`, `cargo clippy`), else one its command's shape names (`go vet`).
  const check =
    CHECK_BY_WORD.get(name)?.find((c) => c.command === undefined || c.command.is(own)) ??
    IDENTITY_LIST.find((c) => c.kind === 'check' && c.words === undefined && c.command?.is(own) === true);
  // `cargo clippy`, not `cargo`: the word says which check (cargo's subcommand, options left out); `go vet` by its shape.
  const word =
    check?.words === undefined
      ? own.slice(0, 2).join(' ')
      : name === 'cargo'
        ? [
            'cargo',
            ...own
              .slice(1)
              .filter((w) => !w.startsWith('-') && !w.startsWith('+'))
              .slice(0, 1),
          ].join(' ')
        : name;
  if (check) found.checkers.push({ name: check.name, word });
}

/**
 * The runner behind a tier's command. `configured` (the tier's `runner`) wins; the command's words and
 * scripts still say which package managers it goes through and whether a script it names is missing.
 */
export function detectRunner(
  run: string | readonly string[],
  configured: RunnerName | undefined,
  scripts: () => Scripts,
  make: (args: readonly string[]) => MakeDryRun = () => ({ recipe: [] }),
  workspaces: (manager: WorkspaceManager) => Workspaces = () => null,
): Detection {
  const command = typeof run === 'string' ? run : quote(run);
  const found: Found = { runners: new Set(), via: [], managers: new Set(), words: new Set(), others: [], checkers: [], make: false };
  scan(command, memoSources(scripts, make, workspaces), found, 0, '');
  const rest = foundFacts(found);
  // A workspaces run is read workspace by workspace, when it is all the command runs tests with.
  if (found.workspaces && found.runners.size === 0) return workspacesDetection(found.workspaces, configured, rest);
  return detectionOf(found, configured, rest);
}

/** The package.json scripts, make's dry runs and the workspaces, each read at most once per detection. */
function memoSources(
  scripts: () => Scripts,
  make: (args: readonly string[]) => MakeDryRun,
  workspaces: (manager: WorkspaceManager) => Workspaces,
): Sources {
  let cached: Scripts | undefined;
  const made = new Map<string, MakeDryRun>();
  const wss = new Map<WorkspaceManager, Workspaces>();
  return {
    scripts: () => (cached === undefined ? (cached = scripts()) : cached),
    make: (args) => {
      const key = JSON.stringify(args);
      if (!made.has(key)) made.set(key, make(args));
      return made.get(key)!;
    },
    workspaces: (manager) => {
      if (!wss.has(manager)) wss.set(manager, workspaces(manager));
      return wss.get(manager)!;
    },
  };
}

/** What a detection says whatever runner it finds: the managers, the words, a missing script, make, tox or nox. */
function foundFacts(found: Found) {
  return {
    managers: [...found.managers],
    ...(found.missingScript !== undefined && { missingScript: found.missingScript }),
    ...(found.noPackageJson && { noPackageJson: true }),
    ...(found.placeholderScript !== undefined && { placeholderScript: found.placeholderScript }),
    words: [...found.words],
    ...(found.others.length > 0 && { besides: found.others }),
    ...(found.make && { make: true }),
    ...(found.envTool && { envTool: found.envTool }),
    ...(found.manifestDir !== undefined && found.manifestDir !== '.' && { manifestDir: found.manifestDir }),
    ...(found.runDir !== undefined && { runDir: found.runDir }),
  };
}

/** A workspaces run, read workspace by workspace, each with its own runner (or the configured one). */
function workspacesDetection(w: WorkspaceRun, configured: RunnerName | undefined, rest: ReturnType<typeof foundFacts>): Detection {
  const each = w.members.map(
    (m) =>
      `${printable(m.name)} (${m.script === undefined ? `no "${printable(w.event)}" script` : (configured ?? m.detection?.runner ?? 'no known runner')})`,
  );
  const where =
    w.manager === 'npm'
      ? `npm runs "${printable(w.event)}" in ${w.members.length} workspace${w.members.length === 1 ? '' : 's'}`
      : `pnpm runs "${printable(w.event)}" in the packages it selects of ${w.members.length}`;
  const why = `each workspace read with its own runner: ${where}: ${each.join(', ')}`;
  return {
    ...(configured !== undefined && { runner: configured }),
    why: configured !== undefined ? `\`runner: '${configured}'\` in the config, for each workspace; ${why}` : why,
    ...rest,
    workspaces: w,
  };
}

/** The runner found, and why: the configured one, the one runner the command names, or why none is read. */
function detectionOf(found: Found, configured: RunnerName | undefined, rest: ReturnType<typeof foundFacts>): Detection {
  const runners = [...found.runners];
  if (configured !== undefined) return { runner: configured, why: `\`runner: '${configured}'\` in the config`, ...rest };
  if (runners.length === 1) return { runner: runners[0]!, why: found.via[0]!, ...rest };
  if (runners.length > 1)
    return { why: `several runners (${runners.join(', ')}): set \`runner\` on the tier to read one's output`, ...rest };
  if (found.missingScript !== undefined) return { why: `package.json has no script "${printable(found.missingScript)}"`, ...rest };
  if (found.noPackageJson) return { why: 'no package.json to read the script from', ...rest };
  if (found.placeholderScript !== undefined)
    return { why: `package.json's script "${printable(found.placeholderScript)}" is npm init's placeholder: it runs no test`, ...rest };
  if (found.unfollowed !== undefined)
    return {
      why: `${found.unfollowedBy === 'pnpm' ? 'a pnpm recursive run' : 'an npm workspaces run'}, not followed (${found.unfollowed}): judged by exit code`,
      ...rest,
    };
  if (found.makeUnread !== undefined)
    return {
      why: `make could not say what it runs (${printable(found.makeUnread)}): judged by exit code; set \`runner\` on the tier to read its output`,
      ...rest,
    };
  if (found.envTool !== undefined)
    return { why: `${found.envTool} runs the tests: the command it says failed is read with its runner and its own exit code`, ...rest };
  // Every command the tier runs is the same check (`tsc -p a && tsc -p b`, `eslint .`): its findings decide.
  const check = found.checkers[0];
  if (check && found.checkers.length === found.others.length && found.checkers.every((c) => c.name === check.name)) {
    if (check.name === 'tsc')
      return {
        why: `a type check (${check.word}): its diagnostics decide, a type error is a catch and a config error an error`,
        ...rest,
        typeCheck: check.word,
      };
    return {
      runner: check.name,
      why: `a check (${check.word}): its findings decide, a finding is a catch and a config error or a crash of the tool an error`,
      ...rest,
    };
  }
  return { why: 'no known test runner in the command: judged by exit code', ...rest };
}
