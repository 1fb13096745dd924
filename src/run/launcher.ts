import { commandName, isAlive, procStat, startTime } from '../util/proc.js';

/**
 * Calls `onGone` when the git process that started this run (the `git push` or `git commit` above
 * the hook, a few processes up) exits: killed, or interrupted without us. The run then judges a push
 * that no longer exists, and should stop rather than write rows for it. Linux only (/proc); looked at
 * once a second. Returns a function that stops watching.
 */
export function watchLauncher(onGone: (name: string, pid: number) => void, everyMs = 1000): () => void {
  // Found now: once git is gone, the shells between it and us are adopted by another process.
  const git = findGit();
  if (git === undefined) return () => {};
  const interval = setInterval(() => {
    if (isAlive(git.pid, git.start)) return;
    clearInterval(interval);
    onGone('git', git.pid);
  }, everyMs);
  interval.unref();
  return () => clearInterval(interval);
}

/** The nearest `git` among our first few ancestors (husky puts one or two shells between). */
function findGit(): { pid: number; start?: string } | undefined {
  let pid = process.ppid;
  for (let depth = 0; depth < 5 && pid > 1; depth++) {
    if (commandName(pid) === 'git') {
      const start = startTime(pid);
      return start === undefined ? { pid } : { pid, start };
    }
    const up = procStat(pid);
    if (up === undefined) return undefined;
    pid = up.ppid;
  }
  return undefined;
}
