import { decodeText } from '../util/cache-files.js';
import { startProcess } from '../util/spawn.js';
import type { GitResult } from './git.js';
import { argvLine, debugFor } from '../util/debug.js';

const sayGit = debugFor('git');

/**
 * Runs git in a process group of its own, so a Ctrl-C the terminal sends to the hook's group cannot
 * stop it half-way: for the commands that save and put back a user's uncommitted work (a `git
 * read-tree -u` killed between its files is the loss it exists to prevent). The hook's own signal
 * handling decides when to stop; git, once started here, finishes. Never rejects.
 */
export async function gitShielded(cwd: string, args: readonly string[]): Promise<GitResult & { signal?: NodeJS.Signals }> {
  const env = { ...process.env, GATE_LADDER: '0' };
  sayGit?.(`${argvLine('git', args)} (in ${cwd}, in a process group of its own)`);
  const proc = startProcess({ file: 'git', args, cwd, env, stdout: 'pipe', stderr: 'pipe', detached: true });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  proc.stdout?.on('data', (c: Buffer) => out.push(c));
  proc.stderr?.on('data', (c: Buffer) => err.push(c));
  const closed = (s: typeof proc.stdout) => (s ? new Promise<void>((r) => s.once('close', () => r())) : Promise.resolve());
  const [end] = await Promise.all([proc.ended, closed(proc.stdout), closed(proc.stderr)]);
  if ('error' in end) return { ok: false, code: null, stdout: '', stderr: end.error.message };
  return {
    ok: end.exitCode === 0,
    code: end.exitCode,
    stdout: decodeText(Buffer.concat(out)),
    stderr: decodeText(Buffer.concat(err)),
    ...(end.signal !== null && { signal: end.signal }),
  };
}

/**
 * `gitShielded` for a command that may simply run again (a listing, a lookup, a drop found by commit):
 * one killed by a signal from outside (a tool that kills by process group id, which a recycled pid can
 * make ours) is run again, up to three times in all.
 */
export async function gitShieldedAgain(cwd: string, args: readonly string[]): Promise<GitResult & { signal?: NodeJS.Signals }> {
  for (let tries = 1; ; tries++) {
    const r = await gitShielded(cwd, args);
    if (r.signal === undefined || tries === 3) return r;
  }
}
