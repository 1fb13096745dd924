/** `gate-ladder gc`: removes the repository's worktree pool (slots, their caches), earlier versions' throwaway worktrees, and the pools of repositories that are gone. */
import { refusedRepo, repoInfo } from '../git/git.js';
import { poolDir, removePool, sweepOrphanPools } from '../slots/worktree-pool.js';
import { msg } from '../run/messages.js';
import { poolMsg } from '../slots/messages.js';
import { err, out } from './context.js';
import { EXIT } from '../config/defaults.js';
import { stopLeftovers } from '../gates/gate-records.js';

/**
 * Stops what killed runs left running (their gates), then removes the pool and says what it removed;
 * slots in use by a live run are kept and named. `leftoversOnly`: the first step alone. Exit 0, or 2
 * outside a repository.
 */
export function gcCommand(opts: { cwd: string; leftoversOnly?: boolean }): number {
  const info = repoInfo(opts.cwd);
  if (info === null) {
    err(msg.notRepo(opts.cwd, refusedRepo(opts.cwd)));
    return EXIT.error;
  }
  stopLeftovers(info.commonDir, err);
  if (opts.leftoversOnly === true) return EXIT.pass;
  out(poolLines(info.root, info.commonDir).join('\n'));
  return EXIT.pass;
}

/** What removing the pool did, as lines to print (uninstall prints them too). */
export function poolLines(root: string, commonDir: string): string[] {
  const r = removePool(root, commonDir, err);
  // The pools of repositories deleted or moved since: nothing else would ever remove them.
  const orphans = sweepOrphanPools(poolDir(commonDir));
  return [
    poolMsg.gcDone(r.removed, r.legacy, poolDir(commonDir)),
    ...r.busy.map((b) => poolMsg.gcBusy(b.slot, b.pid)),
    ...(orphans > 0 ? [poolMsg.gcOrphans(orphans)] : []),
  ];
}
