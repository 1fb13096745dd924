/**
 * pnpm's recursive runs (`pnpm -r test`, `pnpm --filter a test`, `pnpm -r --parallel run test`): the
 * script they run, pnpm-workspace.yaml's package globs, and the output cut into one segment per package.
 * pnpm prefixes each line of a package's script with its folder and the script's name
 * (`packages/a test: ok 1`, `packages/a test$ node --test` as it starts, `packages/a test: Done` or
 * `Failed` as it ends; a folder longer than 40 characters is cut to `.../its-end`), lines of packages
 * run at once interleaved; a run that selects one package prints npm's banner instead
 * (`> a@1.0.0 test /repo/packages/a`) and the script's lines bare. A failed package's exit code is in
 * pnpm's error block (`ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  b@1.0.0 test: ...` or, with `--no-bail`,
 * ` ERROR  b@1.0.0 test: ...`, then `Exit status 2`). Pure. Read off pnpm 9.15 and 10.34.
 */
import type { WorkspaceSegment } from './workspaces.js';

/** What a pnpm command line says about a recursive run. */
export interface PnpmRunArgs {
  /** The script it runs in each package. */
  event: string;
  /** Set when the options make pnpm print no package prefix (`--silent`, `--reporter-hide-prefix`, another reporter): why, in words. */
  unprefixed?: string;
  /** Set when it runs somewhere the tier's folder does not say (`-C dir`): why, in words. */
  elsewhere?: string;
}

/** pnpm's options that take a value in the next word. */
const VALUE_OPTIONS = new Set([
  '--filter',
  '-F',
  '--filter-prod',
  '--workspace-concurrency',
  '--reporter',
  '--resume-from',
  '--test-pattern',
  '--changed-files-ignore-pattern',
  '--loglevel',
  '-C',
  '--dir',
  '--config',
]);
/** pnpm's own commands: any other word is the name of a script to run. */
const PNPM_OWN = new Set([
  'install',
  'i',
  'add',
  'update',
  'up',
  'upgrade',
  'remove',
  'rm',
  'uninstall',
  'un',
  'link',
  'ln',
  'unlink',
  'exec',
  'dlx',
  'list',
  'ls',
  'll',
  'why',
  'outdated',
  'publish',
  'pack',
  'rebuild',
  'rb',
  'deploy',
  'audit',
  'store',
  'env',
  'setup',
  'import',
  'fetch',
  'prune',
  'licenses',
  'patch',
  'patch-commit',
  'create',
  'init',
  'server',
  'bin',
  'root',
  'config',
  'c',
  'get',
  'set',
  'doctor',
  'dedupe',
  'install-test',
  'it',
  'approve-builds',
  'self-update',
  'help',
]);

/**
 * The recursive run a pnpm command's words (after `pnpm`) start: `-r`, `--recursive`, `--filter X`,
 * `-F X` before the script's name (options after it are the script's). Undefined when it is not a
 * recursive run of a script (`pnpm -r exec ...`, `pnpm -r install`, `pnpm test`). Pure.
 */
export function pnpmRunArgs(words: readonly string[]): PnpmRunArgs | undefined {
  let recursive = false;
  let unprefixed: string | undefined;
  let elsewhere: string | undefined;
  const args: string[] = [];
  for (let i = 0; i < words.length && args.length < (args[0] === 'run' || args[0] === 'run-script' ? 2 : 1); i++) {
    const w = words[i]!;
    if (w === '--') break;
    if (!w.startsWith('-')) {
      args.push(w);
      continue;
    }
    const [opt, inline] = w.includes('=') ? [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)] : [w, undefined];
    const value = inline ?? (VALUE_OPTIONS.has(opt) ? words[++i] : undefined);
    if (opt === '-r' || opt === '--recursive' || opt === '--filter' || opt === '-F' || opt === '--filter-prod') recursive = true;
    else if (
      opt === '--silent' ||
      opt === '-s' ||
      (opt === '--reporter' && value === 'silent') ||
      (opt === '--loglevel' && value === 'silent')
    )
      unprefixed = "--silent: pnpm prints none of the scripts' output";
    else if (opt === '--reporter-hide-prefix')
      unprefixed = "--reporter-hide-prefix: pnpm prints the scripts' lines without the package's prefix";
    else if (opt === '--reporter' && value === 'ndjson')
      unprefixed = "--reporter=ndjson: pnpm prints its log as JSON, not the scripts' lines";
    else if (opt === '-C' || opt === '--dir')
      elsewhere = `${opt} ${value ?? ''}: pnpm runs in another folder than the tier's`.replace(/ :/, ':');
  }
  if (!recursive) return undefined;
  const sub = args[0];
  const event =
    sub === 'test' || sub === 't' || sub === 'tst'
      ? 'test'
      : sub === 'run' || sub === 'run-script'
        ? args[1]
        : sub !== undefined && !PNPM_OWN.has(sub)
          ? sub
          : undefined;
  if (event === undefined) return undefined;
  return { event, ...(unprefixed !== undefined && { unprefixed }), ...(elsewhere !== undefined && { elsewhere }) };
}

/** pnpm-workspace.yaml's `packages` globs, from the document the yaml package read; undefined when it lists none. Pure. */
export function pnpmWorkspacePatterns(doc: unknown): string[] | undefined {
  const packages = doc !== null && typeof doc === 'object' ? (doc as { packages?: unknown }).packages : undefined;
  if (!Array.isArray(packages)) return undefined;
  const out = packages.filter((p): p is string => typeof p === 'string' && p !== '');
  return out.length > 0 ? out : undefined;
}

/** A package of the workspace, as the output is cut for it. */
export interface PnpmMember {
  name: string;
  /** `name@version`, as pnpm's error blocks and banner name it. */
  id?: string;
  /** Its folder, relative to where pnpm runs, with `/`: pnpm's prefix. */
  dir: string;
}

/** What the output says of one package. */
export interface PnpmSegment extends WorkspaceSegment {
  /** It started but printed no `Done` or `Failed`: pnpm stopped it when another package failed (it bails at the first failure). */
  stopped?: boolean;
}

/** A pnpm output that cannot be cut by package: why, and the line where pnpm says it ran no script at all. */
export interface PnpmUnsplit {
  why: string;
  /** `None of the selected packages has a "test" script`, `No projects matched the filters in "..."`. */
  ranNone?: string;
}

/** pnpm's prefix: folder, script, then `$ command` as it starts or `: line` for each line it prints. */
const PREFIXED = /^(\S+) (\S+)(\$ |: ?)(.*)$/;
/** pnpm's lines about a recursive run that ran no script. */
const RAN_NONE = /^None of the selected packages has an? "[^"]*" script|^No projects matched the filters /;
/** pnpm's error block for a package whose script failed. */
const ERROR_HEAD = /^\s*(?:ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL|ERROR)\s+(\S+) (\S+): /;
/** pnpm's own lines beside the scripts': kept out of a package's segment when it prints bare lines. */
const PNPM_OWN_LINE =
  /^\s*(?:WARN|ERR_PNPM_\w+|ERROR)\s|^Exit status \d+|^Summary: \d+ fails?, |^Scope: |^(?:\/|[A-Za-z]:\\).*:$|^\s*ELIFECYCLE\s/;

/** Lines a reading of a pnpm run needs wherever they fall in a long output: its banners, error blocks and "ran none" lines (the prefixed ones are kept by `pnpmPrefixed`). */
export const PNPM_WORKSPACE_KEEP =
  /^> \S|ERR_PNPM_|^\s*ERROR\s|^Exit status \d+|^None of the selected packages|^No projects matched the filters/;

/** A line's pnpm prefix for `event` (or its pre and post scripts) and the rest; undefined when it has none. */
export function pnpmPrefixed(line: string, event: string): { prefix: string; start: boolean; text: string } | undefined {
  const m = PREFIXED.exec(line);
  if (!m || (m[2] !== event && m[2] !== `pre${event}` && m[2] !== `post${event}`)) return undefined;
  return { prefix: m[1]!, start: m[3] === '$ ', text: m[4]! };
}

/** The package a pnpm prefix names: its folder, or the end of it after `...`. */
function byPrefix(members: readonly PnpmMember[], prefix: string): PnpmMember | undefined {
  const exact = members.find((m) => m.dir === prefix);
  if (exact || !prefix.startsWith('...')) return exact;
  const end = prefix.slice(3);
  const found = members.filter((m) => m.dir.endsWith(end));
  return found.length === 1 ? found[0] : undefined;
}

/** The package pnpm's banner or error block names (`a@1.0.0`, `@s/e@` without a version). */
function byId(members: readonly PnpmMember[], id: string): PnpmMember | undefined {
  const at = id.lastIndexOf('@');
  const name = at > 0 ? id.slice(0, at) : id;
  return members.find((m) => m.id === id || m.name === id) ?? members.find((m) => m.name === name);
}

/**
 * The output of a pnpm recursive run of `event` over the workspace's packages, cut into one segment per
 * package that ran (the others are absent from the map: not selected, or without the script). A
 * `PnpmUnsplit` when it cannot be cut: no package's line or banner (quiet options), the scripts' lines
 * printed bare (`--reporter-hide-prefix`), or pnpm saying it ran none. `code` is pnpm's exit code: a
 * lone package's, when one was selected. Pure.
 */
export function splitPnpm(
  lines: readonly string[],
  event: string,
  members: readonly PnpmMember[],
  code: number,
): Map<string, PnpmSegment> | PnpmUnsplit {
  const out = new Map<string, PnpmSegment>();
  const seg = (m: PnpmMember) => {
    let s = out.get(m.name);
    if (s === undefined) out.set(m.name, (s = { lines: [], ran: false }));
    return s;
  };
  const ended = new Map<string, 'Done' | 'Failed'>();
  const codes = new Map<string, PnpmFailure>();
  const prefixed = lines.some((l) => {
    const p = pnpmPrefixed(l, event);
    return p?.start && byPrefix(members, p.prefix) !== undefined;
  });
  let bare = 0;
  let current: PnpmMember | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const head = ERROR_HEAD.exec(l);
    if (head) {
      const m = byId(members, head[1]!);
      if (m) codes.set(m.name, errorStatus(lines, i));
      continue;
    }
    if (prefixed) {
      const p = pnpmPrefixed(l, event);
      const m = p && byPrefix(members, p.prefix);
      if (!p || !m) {
        if (current !== undefined && l.trim() !== '' && !PNPM_OWN_LINE.test(l) && !RAN_NONE.test(l)) bare++;
        continue;
      }
      const s = seg(m);
      current = m;
      if (p.start) {
        s.ran = true;
        ended.delete(m.name);
      } else if (p.text === 'Done' || p.text === 'Failed') ended.set(m.name, p.text);
      else {
        s.lines.push(p.text);
        ended.delete(m.name);
      }
      continue;
    }
    // One package selected: npm's banner (`> a@1.0.0 test /repo/packages/a`, then `> its command`), its lines bare.
    const banner = /^> (\S+) (\S+)(?: .*)?$/.exec(l);
    if (banner && (banner[2] === event || banner[2] === `pre${event}` || banner[2] === `post${event}`) && lines[i + 1]?.startsWith('> ')) {
      const m = byId(members, banner[1]!);
      if (m) {
        current = m;
        seg(m).ran = true;
        i++;
        continue;
      }
    }
    if (current !== undefined && !PNPM_OWN_LINE.test(l)) seg(current).lines.push(l);
  }
  return segmentsRan(out, { lines, event, code, prefixed, bare, ended, codes });
}

/** pnpm's error block for a package (`ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL`, then `Exit status N` or a signal): its code, signal and first line. */
function errorStatus(lines: readonly string[], i: number): PnpmFailure {
  const status = lines.slice(i + 1, i + 4).find((x) => /^Exit status \d+|signal/i.test(x));
  const n = status === undefined ? undefined : /^Exit status (\d+)/.exec(status)?.[1];
  const signal = status === undefined ? undefined : /(SIG[A-Z0-9]+)/.exec(status)?.[1];
  return { ...(n !== undefined && { code: Number(n) }), ...(signal !== undefined && { signal }), line: lines[i]!.trim() };
}

/** The failure of one package as pnpm's error block says it. */
interface PnpmFailure {
  code?: number;
  signal?: string;
  line: string;
}

/**
 * The packages that ran, each with its lines and how it ended (failed, or stopped by pnpm at the first
 * failure), or why the output cannot be told apart by package.
 */
function segmentsRan(
  out: Map<string, PnpmSegment>,
  read: {
    lines: readonly string[];
    event: string;
    code: number;
    prefixed: boolean;
    bare: number;
    ended: ReadonlyMap<string, 'Done' | 'Failed'>;
    codes: ReadonlyMap<string, PnpmFailure>;
  },
): Map<string, PnpmSegment> | PnpmUnsplit {
  const { lines, event, code, prefixed, bare, ended, codes } = read;
  const ran = [...out.entries()].filter(([, s]) => s.ran);
  if (ran.length === 0) {
    const none = lines.find((l) => RAN_NONE.test(l));
    if (none !== undefined) return { why: 'pnpm ran no script', ranNone: none };
    return {
      why: `pnpm printed no \`DIR ${event}: \` prefix nor \`> NAME ${event}\` banner (quiet: --silent, --reporter-hide-prefix, another reporter?), so its output cannot be told apart by package`,
    };
  }
  if (prefixed && bare > 0 && ran.every(([, s]) => s.lines.length === 0)) {
    return {
      why: `pnpm printed the scripts' lines without their \`DIR ${event}: \` prefix (reporter-hide-prefix?), so its output cannot be told apart by package`,
    };
  }
  const anyFailed = [...ended.values()].includes('Failed') || codes.size > 0;
  for (const [name, s] of ran) {
    const c = codes.get(name);
    const end = ended.get(name);
    if (c !== undefined)
      s.failed = { ...(c.code !== undefined && { code: c.code }), ...(c.signal !== undefined && { signal: c.signal }), line: c.line };
    else if (end === 'Failed') s.failed = { line: `${name} ${event}: Failed` };
    else if (!prefixed && code !== 0) s.failed = { code, line: `exit ${code}` };
    else if (prefixed && end === undefined && anyFailed) s.stopped = true;
  }
  return new Map(ran);
}
