/** The runner behind a tier, read where the gate runs: package.json there is the judged commit's. */
import { readFileSync } from 'node:fs';
import { join, posix, resolve, sep } from 'node:path';
import { git } from '../git/git.js';
import { type Detection, type Scripts, detectRunner } from './detect.js';
import type { ResolvedTier } from '../types.js';

/** package.json's scripts in `dir`; `null` when there is no readable package.json. */
export function readScripts(dir: string): Scripts {
  let text: string;
  try {
    text = readFileSync(join(dir, 'package.json'), 'utf8');
  } catch {
    return null;
  }
  return scriptsOf(text);
}

/** The string-valued scripts of package.json's text; `null` when it is not JSON. */
function scriptsOf(text: string): Scripts {
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown } | null)?.scripts;
    if (scripts === null || typeof scripts !== 'object') return {};
    return Object.fromEntries(Object.entries(scripts).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  } catch {
    return null;
  }
}

/** Detects a tier's runner in the folder it runs in (`root` joined with the tier's `cwd`). */
export function detectTier(tier: ResolvedTier, root: string): Detection {
  const dir = resolve(root, tier.cwd);
  return detectRunner(tier.run, tier.runner, () => readScripts(dir));
}

/**
 * Detects a tier's runner from a commit (or tree) without checking it out: package.json is read with
 * `git show`, only when the command names a package manager. For `--dry-run` and `--json` plans.
 */
export function detectAtCommit(tier: ResolvedTier, root: string, rev: string): Detection {
  const path = posix.normalize(posix.join(tier.cwd.split(sep).join('/'), 'package.json'));
  return detectRunner(tier.run, tier.runner, () => {
    const r = git(root, ['show', `${rev}:${path}`]);
    return r.ok ? scriptsOf(r.stdout) : null;
  });
}
