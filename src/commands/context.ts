/** What the flaky, freeze and seed commands share: the repo, its config, and where history lives. */
import { loadConfigCached } from '../config/config-cache.js';
import { refusedRepo, repoInfo } from '../git/git.js';
import { testsPath } from '../evidence/history.js';
import { ledgerPathFor } from '../ledger/ledger.js';
import { msg } from '../run/messages.js';
import type { FreezePolicy } from '../types.js';
import type { ResolvedConfig } from '../config/resolved.js';
import { EXIT } from '../config/defaults.js';

export interface CommandContext {
  root: string;
  commonDir: string;
  config?: ResolvedConfig;
  configFile?: string;
  ledger: string;
  tests: string;
  policy: Required<FreezePolicy>;
}

const DEFAULT_POLICY: Required<FreezePolicy> = { minRuns: 20, minFlipRate: 0.02, maxExpiryDays: 90 };

export const err = (line: string) => process.stderr.write(`${line}\n`);
export const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The repo and its config; an exit code (after saying why) when there is none to work with. With
 * `needConfig`, no config is such a case, and `noConfig` says so.
 */
export async function loadContext(
  cwd: string,
  needConfig: boolean,
  noConfig: () => string = msg.noConfig,
): Promise<CommandContext | number> {
  const info = repoInfo(cwd);
  if (info === null) {
    err(msg.notRepo(cwd, refusedRepo(cwd)));
    return EXIT.error;
  }
  // From the config cache when every file the config read is unchanged (as a push does), else loaded.
  const loaded = await loadConfigCached(info.root, info.commonDir);
  if (loaded.kind === 'invalid') {
    err(msg.invalidConfig(loaded.problems, 'manual'));
    return EXIT.error;
  }
  if (loaded.kind === 'none' && needConfig) {
    err(noConfig());
    return EXIT.error;
  }
  const config = loaded.kind === 'ok' ? loaded.config : undefined;
  const ledger = ledgerPathFor(info.root, info.commonDir, config?.ledger);
  return {
    root: info.root,
    commonDir: info.commonDir,
    ...(config && { config, configFile: (loaded as { file: string }).file }),
    ledger,
    tests: testsPath(ledger),
    policy: config?.freeze ?? DEFAULT_POLICY,
  };
}
