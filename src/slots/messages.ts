import { shown } from '../util/escape.js';

/** The worktree pool (slots/worktree-pool.ts), `gate-ladder gc`, and patches refused before they are applied. */
export const poolMsg = {
  waiting: (pid: number, pool: string) =>
    `gate-ladder: waiting for process ${pid}, which is adding or removing a worktree of this repository (${pool}); if it is stuck, stop it, or run \`gate-ladder gc\` once it has gone.`,
  note: (note: string) => `gate-ladder: ${note}.`,
  repaired: (dir: string) =>
    `gate-ladder: ${shown(dir)} was left mid-checkout by a run that died; it was set right, and git status agrees, before any gate ran.`,
  remade: (dir: string) =>
    `gate-ladder: ${shown(dir)} could not be set right (left broken by a run that died, or changed by hand); it was made anew before any gate ran.`,
  intoLinks: (path: string, link: string) =>
    `it touches ${path}, inside ${link}, a dependency folder the worktree copies from your checkout's: refused, so a patch never changes the dependencies it is judged with`,
  linkOut: (path: string, target: string, via?: string) =>
    `it adds the symlink ${shown(path)} -> ${shown(target)}, which leads out of the work tree${via === undefined ? '' : ` through the symlink ${shown(via)}`}: refused before any gate ran, so nothing a test writes through it lands outside the worktree; make the link relative and keep it inside the repository`,
  linksUnread: (why: string) =>
    `git could not list the symlinks it adds (${shown(why)}), so none could be checked: refused before any gate ran; check the patch with \`git apply --check\``,
  notCopied: (rel: string, why: string) =>
    `${shown(rel)} could not be copied into the worktree (${shown(why)}), so gates there run without it; free some disk space, or run \`gate-ladder gc\` and push again`,
  legacyPool: (pool: string) =>
    `gate-ladder: worktree slots of an earlier gate-ladder are still in ${shown(pool)} (under .git, a path some tools treat as hidden; slots are now made outside it): \`gate-ladder gc\` removes them.`,
  gcDone: (removed: number, legacy: number, pool: string) =>
    removed === 0 && legacy === 0
      ? `gate-ladder: no worktree slot to remove (the pool ${shown(pool)} is empty or not made yet).`
      : `gate-ladder: removed ${removed} worktree slot${removed === 1 ? '' : 's'} of the pool (${shown(pool)})${legacy > 0 ? ` and ${legacy} throwaway worktree${legacy === 1 ? '' : 's'} of an earlier version` : ''}. The next isolated run makes a slot again.`,
  gcOrphans: (n: number) =>
    `gate-ladder: also removed the worktree pool${n === 1 ? '' : 's'} of ${n} repositor${n === 1 ? 'y' : 'ies'} that no longer exist${n === 1 ? 's' : ''} (deleted or moved).`,
  gcBusy: (slot: string, pid: number) =>
    `gate-ladder: kept ${slot}: process ${pid} is using it. Run \`gate-ladder gc\` again once that run has finished.`,
};
