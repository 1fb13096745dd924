import { spawnSync } from 'node:child_process';
import type { ResolvedTier } from '../config/resolved.js';

export type IsolationProbe = { ok: true; prefix: string[] } | { ok: false; reason: string };

/**
 * The `unshare` commands that give a process a network namespace of its own (only a loopback that
 * is down), in the order to try: as root a plain one first; otherwise, or where root lacks the
 * capability (a container), a user namespace mapping the caller to root.
 */
export function unsharePrefixes(isRoot: boolean): string[][] {
  const userNs = ['unshare', '--net', '--map-root-user', '--'];
  return isRoot ? [['unshare', '--net', '--'], userNs] : [userNs];
}

/** A tier whose command runs under `prefix`; a command string keeps its shell. Pure. */
export function isolateTier(tier: ResolvedTier, prefix: readonly string[]): ResolvedTier {
  const argv = typeof tier.run === 'string' ? ['/bin/sh', '-c', tier.run] : tier.run;
  return { ...tier, run: [...prefix, ...argv] };
}

/** Interface names in `/proc/net/dev` text. Pure. */
export function netDevices(procNetDev: string): string[] {
  return procNetDev
    .split('\n')
    .slice(2)
    .map((line) => line.split(':')[0]?.trim() ?? '')
    .filter(Boolean);
}

/**
 * Finds a way to run gates without network, once, before any gate runs. It must not only start:
 * the namespace it makes must have no interface but loopback. Fails with the reason otherwise,
 * so a replay never runs unisolated when isolation was asked for.
 */
export function probeNetworkIsolation(platform: NodeJS.Platform = process.platform, uid = process.getuid?.()): IsolationProbe {
  if (platform !== 'linux') {
    return { ok: false, reason: `network isolation needs Linux network namespaces (unshare); this platform is ${platform}` };
  }
  const failures: string[] = [];
  for (const prefix of unsharePrefixes(uid === 0)) {
    const r = spawnSync(prefix[0]!, [...prefix.slice(1), 'cat', '/proc/net/dev'], { encoding: 'utf8', timeout: 10_000 });
    const tried = prefix.slice(0, -1).join(' ');
    if (r.error) {
      failures.push(
        `${tried}: ${(r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'unshare is not installed (util-linux)' : r.error.message}`,
      );
      continue;
    }
    if (r.status !== 0) {
      failures.push(`${tried}: ${r.stderr.trim().split('\n')[0] || `exit ${r.status}`}`);
      continue;
    }
    const others = netDevices(r.stdout).filter((d) => d !== 'lo');
    if (others.length > 0) {
      failures.push(`${tried}: the new namespace still has ${others.join(', ')}`);
      continue;
    }
    return { ok: true, prefix };
  }
  return { ok: false, reason: failures.join('; ') };
}
