/** lint-staged's backup stashes, as `git stash list` shows them: pure, so a push never loads lint-staged.ts for them. */

/** What lint-staged names the stash it keeps while it runs (and leaves behind when it is killed). */
export const BACKUP_STASH = 'lint-staged automatic backup';

export interface Stash {
  /** `stash@{N}`: what git commands take (it shifts as stashes are added). */
  name: string;
  /** The stash commit: what identifies it across runs. */
  sha: string;
}

/** lint-staged's backups among `git stash list --format='%gd %H %gs'` lines. Pure. */
export function backupStashes(stashList: string): Stash[] {
  return stashList
    .split('\n')
    .filter((line) => line.includes(BACKUP_STASH))
    .map((line) => {
      const [name = '', sha = ''] = line.split(' ');
      return { name, sha };
    });
}
