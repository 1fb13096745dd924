/** lint-staged's backup stashes and gate-ladder's own, as `git stash list` shows them: pure, so a push never loads lint-staged.ts for them. */

/** What lint-staged names the stash it keeps while it runs (and leaves behind when it is killed). */
export const BACKUP_STASH = 'lint-staged automatic backup';

/** The start of the message of the stash gate-ladder keeps while a lint-staged tier runs (lint-staged-guard.ts). */
export const GUARD_STASH = 'gate-ladder: before lint-staged,';

export interface Stash {
  /** `stash@{N}`: what git commands take (it shifts as stashes are added). */
  name: string;
  /** The stash commit: what identifies it across runs. */
  sha: string;
}

/** lint-staged's backups among `git stash list --format='%gd %H %gs'` lines. Pure. */
export function backupStashes(stashList: string): Stash[] {
  return stashesNamed(stashList, BACKUP_STASH);
}

/** gate-ladder's own backups (a hook killed outright while lint-staged ran leaves one) among the same lines. Pure. */
export function guardStashes(stashList: string): Stash[] {
  return stashesNamed(stashList, GUARD_STASH);
}

function stashesNamed(stashList: string, text: string): Stash[] {
  return stashList
    .split('\n')
    .filter((line) => line.includes(text))
    .map((line) => {
      const [name = '', sha = ''] = line.split(' ');
      return { name, sha };
    });
}
