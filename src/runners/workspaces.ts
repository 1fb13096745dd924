/**
 * npm workspaces: which workspaces `npm test --workspaces` (`-ws`, `--workspace X`, `-w X`) runs, in
 * npm's order, and its output cut into one segment per workspace by npm's banners (`> a@1.0.0 test`)
 * and its error blocks (`npm error workspace a@1.0.0`, with the script's `npm error code N`). Pure: the
 * caller hands in the workspaces' folders and package.json texts (detect-io reads them at the judged
 * commit). Read off npm 10.9 and 11 (npm 9 and earlier's `npm ERR!` lines are read alike).
 */
import { compileGlob } from '../util/glob.js';

/** A workspace's package.json, as detection needs it. */
export interface WorkspacePackage {
  /** Its folder, relative to the root package.json's, with `/`. */
  dir: string;
  /** Its name (npm's: the package's, else the folder's). */
  name: string;
  /** `name@version`, as npm's banner and error blocks name it; absent without a version. */
  id?: string;
  /** Its string-valued scripts. */
  scripts: Readonly<Record<string, string>>;
}

/** What an npm command line says about workspaces. */
export interface NpmWorkspaceArgs {
  /** `--workspaces`, `-ws`, `--ws`: every workspace. */
  all: boolean;
  /** `--workspace X`, `-w X`, `--workspace=X`: the workspaces named (a name, a folder, or a folder holding them). */
  filters: string[];
  /** `--if-present`: a workspace without the script is skipped (else npm fails it). */
  ifPresent: boolean;
  /** `--include-workspace-root`, `-iwr`: the root's script runs first. */
  includeRoot: boolean;
  /** `--silent`, `-s`, `--loglevel silent`: npm prints no banner, so its output cannot be cut by workspace. */
  silent: boolean;
  /** The command's words with the workspace options and their values taken out. */
  rest: string[];
}

/** The workspace options of an npm command's words (after `npm`); undefined when it names none. */
export function npmWorkspaceArgs(words: readonly string[]): NpmWorkspaceArgs | undefined {
  const out: NpmWorkspaceArgs = { all: false, filters: [], ifPresent: false, includeRoot: false, silent: false, rest: [] };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') {
      out.rest.push(...words.slice(i));
      break;
    }
    if (w === '--workspaces' || w === '-ws' || w === '--ws' || w === '--workspaces=true') out.all = true;
    else if (w === '--workspace' || w === '-w') {
      if (words[i + 1] !== undefined) out.filters.push(words[++i]!);
    } else if (/^(?:--workspace|-w)=/.test(w)) out.filters.push(w.slice(w.indexOf('=') + 1));
    else if (w === '--if-present') out.ifPresent = true;
    else if (w === '--include-workspace-root' || w === '-iwr') out.includeRoot = true;
    else if (w === '--silent' || w === '-s' || w === '--loglevel=silent') out.silent = true;
    else if (w === '--loglevel') {
      if (words[i + 1] === 'silent') out.silent = true;
      i++;
    } else out.rest.push(w);
  }
  return out.all || out.filters.length > 0 ? out : undefined;
}

/** The root package.json's `workspaces` globs (an array, or yarn's `{ packages: [...] }`); undefined when it has none. */
export function workspacePatterns(pkg: unknown): string[] | undefined {
  const ws = (pkg as { workspaces?: unknown } | null)?.workspaces;
  const list = Array.isArray(ws)
    ? ws
    : Array.isArray((ws as { packages?: unknown } | null)?.packages)
      ? (ws as { packages: unknown[] }).packages
      : undefined;
  if (list === undefined) return undefined;
  return list.filter((p): p is string => typeof p === 'string');
}

const clean = (p: string) =>
  p
    .replace(/\\/g, '/')
    .replace(/^\.?\/+/, '')
    .replace(/\/+$/, '');

/**
 * The folders (holding a package.json, `dirs`) the workspaces globs match, in npm's order: sorted, then
 * grouped by the first glob that matches them, in the globs' order; `!glob` leaves folders out.
 */
export function orderWorkspaces(patterns: readonly string[], dirs: readonly string[]): string[] {
  const positive: string[] = [];
  const negated: string[] = [];
  for (const p of patterns) {
    const bang = /^!+/.exec(p)?.[0].length ?? 0;
    (bang % 2 === 1 ? negated : positive).push(clean(p.slice(bang)));
  }
  const excluded = (d: string) => negated.some((n) => compileGlob(n)(d));
  const sorted = [...new Set(dirs.map(clean))]
    .filter((d) => !d.split('/').includes('node_modules') && !excluded(d))
    .sort((a, b) => a.localeCompare(b, 'en'));
  const out: string[] = [];
  for (const p of positive) {
    const match = compileGlob(p);
    for (const d of sorted) if (match(d) && !out.includes(d)) out.push(d);
  }
  return out;
}

/**
 * The workspaces a filter list selects, as npm does: by name, by folder, or every workspace inside a
 * folder named (`--workspace packages`). Every workspace without filters.
 */
export function selectWorkspaces<T extends WorkspacePackage>(all: readonly T[], filters: readonly string[]): T[] {
  if (filters.length === 0) return [...all];
  return all.filter((w) =>
    filters.some((f) => f === w.name || clean(f) === w.dir || (clean(f) !== '' && w.dir.startsWith(`${clean(f)}/`))),
  );
}

/** One workspace of a run, as the output is cut for it. */
export interface WorkspaceMember {
  name: string;
  id?: string;
  /** It has the script (else npm skips it with `--if-present`, or fails it). */
  hasScript: boolean;
  /** The script's text: npm's banner shows it on its second line (`> node --test`). */
  script?: string;
}

/** What the output says of one workspace. */
export interface WorkspaceSegment {
  /** Its script's output, from its banner to the next workspace's (npm's error block left out). */
  lines: string[];
  /** It printed its banner: its script started. */
  ran: boolean;
  /** npm's error block named it: the script's exit code (`npm error code N`), or the signal that killed it. */
  failed?: { code?: number; signal?: string; missingScript?: boolean; line: string };
}

/** npm's banner before a script: `> a@1.0.0 test` (`> test` for a package without a version). */
const BANNER = /^> (?:(\S+) )?(\S+)$/;
/** The first line of npm's error block for a workspace whose script failed. */
const BLOCK_START = /^npm (?:error|ERR!) Lifecycle script `([^`]+)` failed with error:/;
const NPM_LINE = /^npm (?:error|ERR!)/;

/** Lines a reading of a workspaces run needs wherever they fall in a long output: npm's banners (both lines) and error blocks. */
export const NPM_WORKSPACE_KEEP = /^> \S|^npm (?:error|ERR!) /;

/** npm's error block that starts at line `i`: the workspace it names, its code, signal or missing script, and where it ends. */
function errorBlock(
  lines: readonly string[],
  i: number,
  byId: (id: string) => WorkspaceMember | undefined,
): { member: WorkspaceMember; failed: NonNullable<WorkspaceSegment['failed']>; end: number } | { why: string } {
  let end = i + 1;
  while (end < lines.length && NPM_LINE.test(lines[end]!)) end++;
  const block = lines.slice(i, end);
  // npm 10 and 11: `npm error workspace a@1.0.0`; npm 9 and earlier: `npm ERR!   in workspace: a@1.0.0`.
  const named = block.map((b) => /^npm (?:error|ERR!)\s+(?:workspace|in workspace:) (\S+)$/.exec(b)?.[1]).find((x) => x !== undefined);
  const member = named === undefined ? undefined : byId(named);
  if (member === undefined) return { why: `npm's error block names no workspace of the run: ${named ?? lines[i]}` };
  const code = block.map((b) => /^npm (?:error|ERR!) code (\d+)$/.exec(b)?.[1]).find((x) => x !== undefined);
  const signal = block.map((b) => /^npm (?:error|ERR!) signal (SIG[A-Z0-9]+)$/.exec(b)?.[1]).find((x) => x !== undefined);
  const missing = block.find((b) => /Missing script: /.test(b));
  const failed = {
    ...(code !== undefined && { code: Number(code) }),
    ...(signal !== undefined && { signal }),
    ...(missing !== undefined && { missingScript: true }),
    line: missing ?? lines[i]!,
  };
  return { member, failed, end };
}

/**
 * The output of `npm run EVENT` over `members` (in npm's order) cut into one segment per workspace.
 * A `{ why }` when it cannot be cut: npm printed no banner (`--silent`), or a banner or error block
 * names no workspace of the run. Pure.
 */
export function splitWorkspaces(
  lines: readonly string[],
  event: string,
  members: readonly WorkspaceMember[],
): Map<string, WorkspaceSegment> | { why: string } {
  const out = new Map<string, WorkspaceSegment>(members.map((m) => [m.name, { lines: [], ran: false }]));
  const byId = (id: string) => members.find((m) => m.id === id || m.name === id);
  const running = members.filter((m) => m.hasScript);
  const events = new Set([`pre${event}`, event, `post${event}`]);
  let next = 0;
  let current: WorkspaceMember | undefined;
  let lastEvent: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const start = BLOCK_START.exec(l);
    if (start) {
      const block = errorBlock(lines, i, byId);
      if ('why' in block) return block;
      out.get(block.member.name)!.failed = block.failed;
      i = block.end - 1;
      continue;
    }
    const banner = BANNER.exec(l);
    // A banner is followed by the script's command, on a line of its own that starts with `> `.
    if (banner && events.has(banner[2]!) && lines[i + 1]?.startsWith('> ')) {
      const id = banner[1];
      const ev = banner[2]!;
      // pretest, test and posttest of one workspace share its segment.
      const same =
        current !== undefined &&
        ((ev === event && lastEvent === `pre${event}`) || ev === `post${event}`) &&
        (id === undefined || id === current.id || id === current.name);
      let member: WorkspaceMember | undefined = same ? current : undefined;
      if (member === undefined) {
        if (id !== undefined) {
          member = byId(id);
          // A nested npm run (a script that runs `npm test` in another folder) names a package outside the run: its lines are the current segment's.
          if (member === undefined || !member.hasScript) {
            if (current !== undefined) out.get(current.name)!.lines.push(l);
            continue;
          }
          next = Math.max(next, running.indexOf(member) + 1);
        } else {
          // Without a version the banner names no package: the next workspace's, when it shows that
          // workspace's script (not the root's `> test` / `> npm test --workspaces` before them all).
          const candidate = running[next];
          const command = lines[i + 1]!.slice(2);
          if (candidate === undefined || (ev === event && candidate.script !== undefined && !command.startsWith(candidate.script))) {
            if (current !== undefined) out.get(current.name)!.lines.push(l);
            continue;
          }
          member = candidate;
          next++;
        }
      }
      current = member;
      lastEvent = ev;
      out.get(member.name)!.ran = true;
      out.get(member.name)!.lines.push(l);
      continue;
    }
    if (current !== undefined) out.get(current.name)!.lines.push(l);
  }
  if (
    running.length > 0 &&
    running.every((m) => !out.get(m.name)!.ran) &&
    [...out.values()].every((s) => s.failed === undefined || s.failed.missingScript)
  ) {
    return {
      why: `npm printed no \`> NAME ${event}\` banner (quiet: --silent or --loglevel silent?), so its output cannot be told apart by workspace`,
    };
  }
  return out;
}
