import { git } from './git.js';

/** The paths of `git apply --numstat -z` records (`added\tdeleted\tpath`), the name after the patch for a rename. Pure. */
export function parseNumstatZ(z: string): string[] {
  const out: string[] = [];
  for (const record of z.split('\0')) {
    const m = /^(?:\d+|-)\t(?:\d+|-)\t(.+)$/s.exec(record);
    if (m) out.push(m[1]!);
  }
  return out;
}

/** The paths a patch file writes, read by git without applying it; null when git cannot read the patch (applying it says why). */
export function patchPaths(cwd: string, file: string): string[] | null {
  const r = git(cwd, ['apply', '--numstat', '-z', file], { scrub: true });
  return r.ok ? parseNumstatZ(r.stdout) : null;
}
