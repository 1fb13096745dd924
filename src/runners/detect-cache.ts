/**
 * A tier's detection kept between runs, so that a push whose tier and package.json are as before
 * loads no detection code (detect.ts, shell-quote: about 50 KB of dist/). Kept in
 * `<git common dir>/gate-ladder/cache/detect-<key>.json`, the key hashing this build, the tier's
 * command, runner and folder, and the text of package.json there (the judged commit's). Only a
 * detection that read nothing else is kept: one that asked `make -n` or read workspaces is made afresh
 * each time (detect-io.ts `detectTierReading`). A cache that cannot be read or written costs time, never
 * a verdict.
 */
import { join, resolve } from 'node:path';
import { cacheDir, readJson, readText, writeJsonAtomic } from '../util/cache-files.js';
import { hash } from '../util/hash.js';
import { BUILD_ID } from '../config/config-cache.js';
import type { ResolvedTier } from '../config/resolved.js';
import type { Detection } from './detect.js';
import { RUNNER_NAMES } from '../config/runner-names.js';

const PREFIX = 'detect-';
/** Entries kept: a few per tier and package.json version. */
const KEEP = 64;

/**
 * An entry's detection as this module writes them: the fields every detection has, a runner this build
 * knows, and nothing that only make or a workspaces run gives (those are never kept). Anything else in
 * the file (an older format, a hand edit) is a miss.
 */
function keepable(d: unknown): d is Detection {
  if (typeof d !== 'object' || d === null) return false;
  const x = d as Partial<Detection>;
  return (
    typeof x.why === 'string' &&
    Array.isArray(x.words) &&
    x.words.every((w) => typeof w === 'string') &&
    Array.isArray(x.managers) &&
    (x.runner === undefined || (RUNNER_NAMES as readonly string[]).includes(x.runner)) &&
    x.make === undefined &&
    x.workspaces === undefined
  );
}

/** The tier's detection where it runs (`root` joined with its `cwd`): kept from a run before, or made (and kept). */
export async function detectCached(tier: ResolvedTier, root: string, commonDir: string): Promise<Detection> {
  const dir = resolve(root, tier.cwd);
  const pkg = readText(join(dir, 'package.json')) ?? null;
  const key = hash(JSON.stringify([BUILD_ID, tier.run, tier.runner ?? null, tier.cwd, pkg]));
  const path = join(cacheDir(commonDir), `${PREFIX}${key}.json`);
  const kept = readJson<{ key?: unknown; detection?: unknown }>(path);
  if (kept?.key === key && keepable(kept.detection)) return kept.detection;
  const { detectTierReading } = await import('./detect-io.js');
  const { detection, scriptsOnly } = await detectTierReading(tier, root);
  if (scriptsOnly) writeJsonAtomic(path, { key, detection }, { prefix: PREFIX, keep: KEEP });
  return detection;
}
