/**
 * The hook setup a project has before `install`, and how each of its hooks keeps running once git takes
 * hooks from husky's folder (core.hooksPath `.husky/_`): husky 4 (its config in package.json or
 * .huskyrc), simple-git-hooks, lefthook, the pre-commit framework, or a hook written by hand in git's
 * own hooks folder. Pure: install reads the files (`hook-managers-io.ts`), this decides.
 */
import { shellWord } from '../util/shell-words.js';
import { refsCopy } from './refs-copy.js';

/** The hooks git runs (githooks(5)). */
export const GIT_HOOKS: ReadonlySet<string> = new Set([
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
]);

/** The hooks husky 9 writes a wrapper for in `.husky/_`: only these run a `.husky/<hook>` file. */
export const HUSKY_HOOKS: readonly string[] = [
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-rebase',
  'post-rewrite',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-auto-gc',
];

/** A hook file in git's own hooks folder. */
export interface GitHookFile {
  name: string;
  text: string;
  executable: boolean;
}

/** What install reads to find the hook setup. */
export interface HookFacts {
  /** The package's package.json, parsed (undefined: none, or not JSON). */
  packageJson?: unknown;
  /** The names in the repository root and the package's folder. */
  files: readonly string[];
  /** The text of the hook managers' config files that are there (`.huskyrc`, `lefthook.yml`, ...), by name. */
  texts: Readonly<Record<string, string>>;
  /** The files in git's hooks folder named as git's hooks (its `.sample` files are not). */
  gitHooks: readonly GitHookFile[];
}

export type Manager = 'husky 4' | 'simple-git-hooks' | 'lefthook' | 'pre-commit' | 'a hook of your own';

/** One hook the project runs today, and how the husky hook of the same name keeps running it. */
export interface CarriedHook {
  hook: string;
  manager: Manager;
  /** Where it was found, for the messages: `package.json "husky".hooks`, `.git/hooks/pre-commit`. */
  from: string;
  /**
   * `call`: the old hook file is run from the husky hook (in git's hooks folder, or `dir`: the folder a
   * core.hooksPath named, as the hook's shell reaches it from the work tree's root); `command`: its command
   * is written there.
   */
  how: { kind: 'call'; dir?: string } | { kind: 'command'; command: string };
}

/** A hook of the project's that install cannot keep running, and why. */
export interface LeftHook {
  hook: string;
  manager: Manager;
  why: string;
}

export interface HookSetup {
  /** The managers found, in the order the messages name them. */
  managers: Manager[];
  carried: CarriedHook[];
  left: LeftHook[];
  /** The files husky 4 wrote into git's hooks folder: its config stands for them (carried, or named in `left`). */
  husky4Files: string[];
  /**
   * simple-git-hooks' config: `read` (its hooks' commands carried), `javascript` (its files called, as it
   * cannot be read without running it). Absent: none. What install makes of a script that runs simple-git-hooks.
   */
  simple?: 'read' | 'javascript';
}

/** husky 4's config files that are JSON (its JavaScript ones cannot be read without running them). */
const HUSKYRC_JSON = ['.huskyrc', '.huskyrc.json'] as const;
const HUSKYRC_JS = ['.huskyrc.js', '.huskyrc.cjs', 'husky.config.js', 'husky.config.cjs'] as const;
const SIMPLE_JSON = ['.simple-git-hooks.json', 'simple-git-hooks.json'] as const;
const SIMPLE_JS = [
  '.simple-git-hooks.cjs',
  '.simple-git-hooks.js',
  '.simple-git-hooks.mjs',
  'simple-git-hooks.cjs',
  'simple-git-hooks.js',
  'simple-git-hooks.mjs',
] as const;
const LEFTHOOK = [
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook.json',
  '.lefthook.json',
  'lefthook.toml',
  '.lefthook.toml',
  '.config/lefthook.yml',
] as const;
const PRE_COMMIT = '.pre-commit-config.yaml';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `{ "pre-commit": "cmd" }`: the hooks and their commands (a value that is no string is no command). */
function commandsOf(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string' && v.trim() !== '') out[k] = v;
  return out;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** husky 4's config: package.json's `"husky": { "hooks": {...} }`, or a JSON .huskyrc. */
function husky4Config(facts: HookFacts): { hooks: Record<string, string>; from: string } | { js: string } | undefined {
  const pkg = facts.packageJson;
  if (isObject(pkg) && isObject(pkg.husky) && isObject(pkg.husky.hooks))
    return { hooks: commandsOf(pkg.husky.hooks), from: 'package.json "husky".hooks' };
  for (const f of HUSKYRC_JSON) {
    const parsed = parseJson(facts.texts[f]);
    if (isObject(parsed) && isObject(parsed.hooks)) return { hooks: commandsOf(parsed.hooks), from: `${f} "hooks"` };
  }
  const js = HUSKYRC_JS.find((f) => facts.files.includes(f));
  return js === undefined ? undefined : { js };
}

/** simple-git-hooks' config: package.json's `"simple-git-hooks"` key or its JSON file; its JavaScript files are named only. */
function simpleConfig(facts: HookFacts): { hooks: Record<string, string>; from: string } | { js: string } | undefined {
  const pkg = facts.packageJson;
  if (isObject(pkg) && isObject(pkg['simple-git-hooks']))
    return { hooks: commandsOf(pkg['simple-git-hooks']), from: 'package.json "simple-git-hooks"' };
  for (const f of SIMPLE_JSON) {
    const parsed = parseJson(facts.texts[f]);
    if (isObject(parsed)) return { hooks: commandsOf(parsed), from: f };
  }
  const js = SIMPLE_JS.find((f) => facts.files.includes(f));
  return js === undefined ? undefined : { js };
}

/** A script's words that run simple-git-hooks (its bin, through npx or a package manager's exec, or not). */
export const RUNS_SIMPLE = /(?:^|[\s;&|(])simple-git-hooks(?:$|[\s;&|)])/;

/** Whether one of the scripts a package manager runs on install (`prepare`, `postinstall`, ...) runs simple-git-hooks. */
function simpleOnInstall(pkg: unknown): boolean {
  if (!isObject(pkg) || !isObject(pkg.scripts)) return false;
  const scripts = pkg.scripts;
  return ['preinstall', 'install', 'postinstall', 'prepare'].some((k) => typeof scripts[k] === 'string' && RUNS_SIMPLE.test(scripts[k]));
}

/** The top-level keys of a lefthook YAML file that name git hooks (`pre-commit:`): its hooks, without a YAML parser. */
export function lefthookHooks(text: string, gitHooks: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^(["']?)([a-z-]+)\1[ \t]*:/gm)) if (gitHooks.has(m[2]!) && !found.includes(m[2]!)) found.push(m[2]!);
  return found;
}

/** Whose hook file this is, by what its tool writes into it; undefined for one written by hand (or an unknown tool). */
export function hookFileManager(text: string): Exclude<Manager, 'a hook of your own'> | undefined {
  // husky 4's (`# husky`, sourcing its husky.sh) and husky 1 to 3's (`node_modules/husky/run.js`).
  if (/^# husky\b/m.test(text) || /husky-run|node_modules\/husky\/(?:run|lib\/runner)/.test(text)) return 'husky 4';
  if (/lefthook/.test(text)) return 'lefthook';
  if (/File generated by pre-commit|pre_commit|hook-impl/.test(text)) return 'pre-commit';
  if (/SKIP_SIMPLE_GIT_HOOKS|simple-git-hooks/.test(text)) return 'simple-git-hooks';
  return undefined;
}

/**
 * The project's hooks and how each keeps running under husky's core.hooksPath. A hook a tool installed
 * in git's hooks folder (lefthook, the pre-commit framework, simple-git-hooks) or one written there by
 * hand is called from the husky hook of its name: the tool keeps reading its own config. husky 4's hook
 * files run husky 4's runner, which is gone once husky is upgraded: its config's commands are written into
 * the husky hook instead. A hook husky has no wrapper for, or a config read only by running JavaScript,
 * is left, with why. `gitHookNames`: the names git runs as hooks; `dir`: the folder core.hooksPath named, where
 * the hook files were read (relative to the work tree's root, or absolute), when it is not git's own.
 */
export function hookSetup(facts: HookFacts, gitHookNames: ReadonlySet<string> = GIT_HOOKS, dir?: string): HookSetup {
  const managers: Manager[] = [];
  const carried: CarriedHook[] = [];
  const left: LeftHook[] = [];
  const seen = (m: Manager) => {
    if (!managers.includes(m)) managers.push(m);
  };
  const husky4 = husky4Config(facts);
  const files = new Map(facts.gitHooks.filter((h) => h.executable).map((h) => [h.name, h]));
  const husky4Files = [...files.values()].filter((f) => hookFileManager(f.text) === 'husky 4');
  if (husky4 !== undefined || husky4Files.length > 0) seen('husky 4');
  if (husky4 !== undefined && 'hooks' in husky4) {
    for (const [hook, command] of Object.entries(husky4.hooks)) {
      if (!HUSKY_HOOKS.includes(hook)) left.push({ hook, manager: 'husky 4', why: `husky runs no ${hook} hook` });
      else carried.push({ hook, manager: 'husky 4', from: husky4.from, how: { kind: 'command', command } });
    }
  } else if (husky4 !== undefined) {
    left.push({
      hook: '*',
      manager: 'husky 4',
      why: `its config, ${husky4.js}, is JavaScript, which install does not run: write each of its hooks' commands into .husky/<hook>`,
    });
  }
  const simple = simpleConfig(facts);
  if (simple !== undefined) seen('simple-git-hooks');
  const fromSimple = simple !== undefined && 'hooks' in simple ? simpleCommands(simple, files, facts.packageJson, gitHookNames) : undefined;
  if (fromSimple) {
    carried.push(...fromSimple.carried);
    left.push(...fromSimple.left);
  }
  const lefthookFile = LEFTHOOK.find((f) => facts.files.includes(f) || facts.texts[f] !== undefined);
  if (lefthookFile !== undefined) seen('lefthook');
  if (facts.files.includes(PRE_COMMIT)) seen('pre-commit');

  for (const file of [...files.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const by = hookFileManager(file.text);
    // husky 4's files run its runner, which reads the config carried above (a hook it has no command for does nothing).
    if (by === 'husky 4') continue;
    const manager: Manager =
      by ??
      (simple !== undefined && 'hooks' in simple && simple.hooks[file.name] !== undefined && file.text.includes(simple.hooks[file.name]!)
        ? 'simple-git-hooks'
        : 'a hook of your own');
    // simple-git-hooks' own file, for a hook whose command its config gives: that command is carried (above).
    if (manager === 'simple-git-hooks' && fromSimple?.hooks.has(file.name)) continue;
    seen(manager);
    if (!HUSKY_HOOKS.includes(file.name)) {
      left.push({
        hook: file.name,
        manager,
        why: `husky runs no ${file.name} hook, so git stops running it while core.hooksPath is husky's`,
      });
      continue;
    }
    carried.push({
      hook: file.name,
      manager,
      from: `${dir ?? '.git/hooks'}/${file.name}`,
      how: dir === undefined ? { kind: 'call' } : { kind: 'call', dir },
    });
  }
  // Hooks a tool's config names that git's folder does not hold: they did not run before install either.
  const installed = (hook: string) => files.has(hook) || fromSimple?.hooks.has(hook) === true;
  const configured: [Manager, string[], string][] = [];
  if (simple !== undefined && 'hooks' in simple)
    configured.push(['simple-git-hooks', Object.keys(simple.hooks).filter((h) => gitHookNames.has(h)), 'npx simple-git-hooks']);
  if (lefthookFile !== undefined && facts.texts[lefthookFile] !== undefined)
    configured.push(['lefthook', lefthookHooks(facts.texts[lefthookFile]!, gitHookNames), 'lefthook install']);
  for (const [manager, hooks, setUp] of configured)
    for (const hook of hooks.filter((h) => !installed(h)))
      left.push({
        hook,
        manager,
        why: `its config names it, but git's hooks folder has no ${hook} file (\`${setUp}\` was not run), so it did not run before install either`,
      });
  return {
    managers,
    carried,
    left,
    husky4Files: husky4Files.map((f) => f.name).sort(),
    ...(simple !== undefined && { simple: 'hooks' in simple ? ('read' as const) : ('javascript' as const) }),
  };
}

/**
 * simple-git-hooks' hooks, from its config, carried as commands: it writes its hooks into git's hooks
 * folder (core.hooksPath), which is husky's after install, so it must not run again, and its files in
 * `.git/hooks` would go stale. A hook of its config runs today when its file is there, or in every fresh
 * clone when an install script runs simple-git-hooks; `hooks`: each of those (carried or, where husky
 * runs no such hook, left).
 */
function simpleCommands(
  simple: { hooks: Record<string, string>; from: string },
  files: ReadonlyMap<string, GitHookFile>,
  packageJson: unknown,
  gitHookNames: ReadonlySet<string>,
): { carried: CarriedHook[]; left: LeftHook[]; hooks: Set<string> } {
  const onInstall = simpleOnInstall(packageJson);
  const carried: CarriedHook[] = [];
  const left: LeftHook[] = [];
  const hooks = new Set<string>();
  for (const [hook, command] of Object.entries(simple.hooks)) {
    const file = files.get(hook);
    const its = file !== undefined && (hookFileManager(file.text) === 'simple-git-hooks' || file.text.includes(command));
    if (!gitHookNames.has(hook) || (!its && !onInstall)) continue;
    hooks.add(hook);
    if (HUSKY_HOOKS.includes(hook))
      carried.push({ hook, manager: 'simple-git-hooks', from: simple.from, how: { kind: 'command', command } });
    else
      left.push({
        hook,
        manager: 'simple-git-hooks',
        why: `husky runs no ${hook} hook, so git stops running it while core.hooksPath is husky's`,
      });
  }
  return { carried, left, hooks };
}

/** The marker lines around what install carries into a husky hook: uninstall takes out what is between them. */
export const CARRIED_START = '# gate-ladder: carried over from';
export const CARRIED_END = '# gate-ladder: end of what was carried over';

/** What simple-git-hooks 2 writes before each hook's command: its skip switch and its rc file. */
const SIMPLE_HEAD = [
  'if [ "$SKIP_SIMPLE_GIT_HOOKS" = "1" ]; then echo "[INFO] SKIP_SIMPLE_GIT_HOOKS is set to 1, skipping hook."; exit 0; fi',
  'if [ -f "$SIMPLE_GIT_HOOKS_RC" ]; then . "$SIMPLE_GIT_HOOKS_RC"; fi',
];

/** Hooks whose input comes on stdin and that gate-ladder also reads: the carried part reads a copy of it. */
const READS_STDIN = new Set(['pre-push']);

/**
 * The lines a husky hook gets for the hooks carried into it (one hook name; several managers may each
 * have one). A called hook file gets the hook's arguments; husky 4's command gets them as
 * HUSKY_GIT_PARAMS, as husky 4 gave them, in a subshell so its `exit` or `cd` does not end the hook. In
 * pre-push, whose refs gate-ladder reads on stdin after it, stdin is kept in a temporary file (`refsCopy`),
 * given to each, and then to gate-ladder's line. husky 4's command runs without `-e` (`set +e`), as husky 4 ran it.
 */
export function carriedBlock(hook: string, items: readonly CarriedHook[]): string {
  const parts: string[] = [];
  const stdin = READS_STDIN.has(hook);
  if (stdin) parts.push(refsCopy.save);
  const feed = stdin ? refsCopy.feed : '';
  for (const c of items) {
    parts.push(`${CARRIED_START} ${c.manager} (${c.from}); gate-ladder uninstall takes it out`);
    if (c.how.kind === 'call')
      parts.push(
        `${c.how.dir === undefined ? `"$(git rev-parse --git-common-dir)/hooks/${hook}"` : shellWord(`${c.how.dir}/${hook}`)} "$@"${feed}`,
      );
    else if (c.manager === 'simple-git-hooks') parts.push('(', 'set +e', ...SIMPLE_HEAD, c.how.command, `)${feed}`);
    else parts.push('(', 'set +e', 'export HUSKY_GIT_PARAMS="$*"', c.how.command, `)${feed}`);
  }
  if (stdin) parts.push(refsCopy.again);
  parts.push(CARRIED_END);
  return `${parts.join('\n')}\n`;
}

/**
 * `text` with the carried part taken out (from the first line naming `gl_in` or the first start marker
 * to the end marker); undefined when it holds none.
 */
export function withoutCarried(text: string): string | undefined {
  const lines = text.split('\n');
  const end = lines.indexOf(CARRIED_END);
  if (end < 0) return undefined;
  let start = lines.findIndex((l) => l.startsWith(CARRIED_START));
  if (start < 0 || start > end) return undefined;
  if (start > 0 && refsCopy.saves(lines[start - 1]!)) start--;
  lines.splice(start, end - start + 1);
  return lines.join('\n');
}
