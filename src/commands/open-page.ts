/** `report --open`: the page handed to a browser where there is one, never blocking on it. */
import { statSync } from '../util/node.js';
import { delimiter, isAbsolute, join } from 'node:path';
import { parse as parseShell } from 'shell-quote';
import { startProcess } from '../util/spawn.js';

/** A command that opens a file: what to start, and what to call it in a message. */
export interface Opener {
  file: string;
  args: string[];
  /** `$BROWSER (name)`, `xdg-open`, `open`, `start`. */
  by: string;
}

/**
 * How to open `page` here: each command of `$BROWSER` (colon-separated, as its convention has it; `%s`
 * stands for the page, else the page is the last argument) that `found` finds, else the platform's
 * opener (`open` on macOS, `start` through cmd on Windows, `xdg-open` elsewhere) when found. A
 * `$BROWSER` that is set is the user's choice: the platform's opener is not tried in its place.
 * Undefined when nothing is found. Pure: `found` says whether a command exists.
 */
export function openerFor(
  page: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  found: (command: string) => boolean,
): Opener | undefined {
  const browser = env.BROWSER?.trim();
  if (browser) {
    for (const entry of browser.split(':')) {
      const words = parseShell(entry.trim()).filter((w): w is string => typeof w === 'string');
      const [file, ...rest] = words;
      if (file === undefined || !found(file)) continue;
      const args = rest.some((w) => w.includes('%s')) ? rest.map((w) => w.replaceAll('%s', page)) : [...rest, page];
      return { file, args, by: `$BROWSER (${file})` };
    }
    return undefined;
  }
  if (platform === 'win32')
    return found('cmd') || found('cmd.exe') ? { file: 'cmd', args: ['/c', 'start', '""', page], by: 'start' } : undefined;
  const file = platform === 'darwin' ? 'open' : 'xdg-open';
  return found(file) ? { file, args: [page], by: file } : undefined;
}

/** Whether `command` names an executable file: a path as it is, else in a folder of PATH. */
export function commandFound(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const executable = (path: string) => {
    try {
      const st = statSync(path);
      return st.isFile() && (process.platform === 'win32' || (st.mode & 0o111) !== 0);
    } catch {
      return false;
    }
  };
  if (command.includes('/') || isAbsolute(command)) return executable(command);
  const exts = process.platform === 'win32' ? ['', '.exe', '.cmd', '.bat'] : [''];
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && exts.some((ext) => executable(join(dir, `${command}${ext}`))));
}

/** How long an opener may take to say it failed (xdg-open without a browser exits at once); past it, it is left to run. */
const SETTLE_MS = 2000;

export type OpenOutcome = { kind: 'opened'; by: string } | { kind: 'none' } | { kind: 'failed'; by: string; why: string };

/**
 * Starts the opener in its own process group, its output discarded, and waits at most a moment for it
 * to fail; one still running then (a browser started in the foreground) is left running, and node does
 * not wait for it.
 */
export async function openPage(page: string, cwd: string): Promise<OpenOutcome> {
  const opener = openerFor(page, process.platform, process.env, (c) => commandFound(c));
  if (opener === undefined) return { kind: 'none' };
  const started = startProcess({
    file: opener.file,
    args: opener.args,
    cwd,
    env: process.env,
    stdout: 'ignore',
    stderr: 'ignore',
    detached: true,
  });
  let timer: NodeJS.Timeout | undefined;
  const later = new Promise<'running'>((resolve) => {
    timer = setTimeout(() => resolve('running'), SETTLE_MS);
  });
  const end = await Promise.race([started.ended, later]);
  clearTimeout(timer);
  started.unref();
  if (end === 'running') return { kind: 'opened', by: opener.by };
  if ('error' in end) return { kind: 'failed', by: opener.by, why: end.error.code ?? end.error.message };
  if (end.exitCode === 0) return { kind: 'opened', by: opener.by };
  return { kind: 'failed', by: opener.by, why: end.signal ? `killed by ${end.signal}` : `exit ${end.exitCode}` };
}
