/** The runner behind a tier, read where the gate runs: package.json there is the judged commit's. */
import { readFileSync } from 'node:fs';
import { join, posix, resolve, sep } from 'node:path';
import { git } from '../git/git.js';
import { type Detection, type Makefile, type Scripts, detectRunner } from './detect.js';
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

/** The names GNU make looks for, in its order. */
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

/** The Makefile make would read in `dir`; `null` when there is none. */
function readMakefile(dir: string): Makefile {
  for (const name of MAKEFILES) {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      // the next name
    }
  }
  return null;
}

/** Detects a tier's runner in the folder it runs in (`root` joined with the tier's `cwd`). */
export function detectTier(tier: ResolvedTier, root: string): Detection {
  const dir = resolve(root, tier.cwd);
  return detectRunner(tier.run, tier.runner, () => readScripts(dir), () => readMakefile(dir));
}

/**
 * Detects a tier's runner from a commit (or tree) without checking it out: package.json (or the
 * Makefile) is read with `git show`, only when the command names a package manager (or make). For `--dry-run` and `--json` plans.
 */
export function detectAtCommit(tier: ResolvedTier, root: string, rev: string): Detection {
  const at = (name: string) => posix.normalize(posix.join(tier.cwd.split(sep).join('/'), name));
  const show = (name: string) => {
    const r = git(root, ['show', `${rev}:${at(name)}`]);
    return r.ok ? r.stdout : null;
  };
  return detectRunner(
    tier.run,
    tier.runner,
    () => {
      const text = show('package.json');
      return text === null ? null : scriptsOf(text);
    },
    () => {
      for (const name of MAKEFILES) {
        const text = show(name);
        if (text !== null) return text;
      }
      return null;
    },
  );
}
