import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from '../util/node.js';
import { join } from 'node:path';
import { groupMembers, isAlive, ownStartTime, procStat, processesMarked } from '../util/proc.js';
import { signalQuietly, whenKilled } from '../util/spawn.js';
import { faultMsg } from '../ledger/messages.js';

/**
 * Every gate's environment carries this variable, holding a token per gate-ladder gate it runs
 * under (colon-separated, outermost first). A process that left the gate's group and session
 * (`setsid`) still carries it, so a timeout, Ctrl-C or the clean-up after a killed run finds it there.
 */
export const GATE_MARKER = 'GATE_LADDER_GATE';

/** Told when a gate is about to start, so that a run killed outright can be cleaned up after (gate-records.ts). */
export interface GateTracker {
  /** Called before the gate starts (its marker names every process of it); returns the function to call once it is gone. */
  starting: (gate: { marker: string; tier: string }) => () => void;
}

/**
 * The gates running now, one small file each in `<git common dir>/gate-ladder/gates/`: the run that
 * started it, its tier, and its marker (the token every process of the gate carries in
 * GATE_LADDER_GATE). A run that ends removes its files; a run killed outright (`kill -9`) cannot, so
 * the next run finds them, and when their run is gone, kills what is left of those gates and says so.
 */

interface GateRecord {
  owner: number;
  ownerStart?: string;
  tier: string;
  marker: string;
  since: string;
}

export function gatesDir(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'gates');
}

/** How long a gate runs before the watcher that stops it after a kill -9 is started: a quick gate (most pushes') never starts one. */
const WATCH_AFTER_MS = 1000;

/**
 * Records each gate before it starts; best effort: a folder that cannot be written costs only the
 * clean-up after a kill -9. With `root` (the repository's), a gate still running after a second has
 * a watcher started (once per process, `stopGatesIfKilled`), so a run killed outright leaves no gate
 * running until the next run sweeps it.
 */
export function gateTracker(dir: string, root?: string): GateTracker {
  let watching = false;
  const watch = () => {
    if (watching || root === undefined) return;
    watching = true;
    stopGatesIfKilled(root);
  };
  return {
    starting: ({ marker, tier }) => {
      const file = join(dir, `${marker}.json`);
      const rec: GateRecord = { owner: process.pid, tier, marker, since: new Date().toISOString() };
      const ownerStart = ownStartTime();
      if (ownerStart !== undefined) rec.ownerStart = ownerStart;
      const text = JSON.stringify(rec);
      try {
        writeFileSync(file, text);
      } catch {
        try {
          mkdirSync(dir, { recursive: true });
          writeFileSync(file, text);
        } catch {
          return () => {};
        }
      }
      const soon = watching || root === undefined ? undefined : setTimeout(watch, WATCH_AFTER_MS).unref();
      return () => {
        clearTimeout(soon);
        try {
          unlinkSync(file);
        } catch {
          // removed by a sweep, or never written
        }
      };
    },
  };
}

/**
 * Has this process's gates stopped at once if it is killed outright (`kill -9`, no handler runs):
 * a watcher (util/spawn.ts `whenKilled`) runs `gate-ladder gc --leftovers` with this same CLI
 * (`cli`) in `root`, which sweeps the gates whose run is gone and says so on stderr. Nothing when
 * the CLI's path is not known.
 */
export function stopGatesIfKilled(root: string, cli: string | undefined = process.argv[1]): void {
  if (cli === undefined || !existsSync(cli)) return;
  whenKilled(process.execPath, [cli, 'gc', '--leftovers'], root);
}

export interface Leftover {
  tier: string;
  /** The gate's process group, when its leader was still there. */
  pgid?: number;
  owner: number;
  since: string;
  /** Processes killed; undefined when this system cannot tell (no /proc). */
  killed?: number;
}

/**
 * Kills what gates of runs that no longer exist left running: every process carrying their marker,
 * and the whole process group of each one that leads a group (the gate's own, with what in it cleaned
 * its environment). Returns one entry per gate that had something left (or could not be checked).
 */
export function sweepLeftovers(dir: string): Leftover[] {
  if (!existsSync(dir)) return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Leftover[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const file = join(dir, name);
    let rec: GateRecord;
    try {
      rec = JSON.parse(readFileSync(file, 'utf8')) as GateRecord;
    } catch {
      continue; // being written, or removed meanwhile
    }
    if (typeof rec?.owner !== 'number' || typeof rec.marker !== 'string') continue;
    if (isAlive(rec.owner, rec.ownerStart)) continue;
    // Claimed by renaming: of two runs sweeping at once, one stops it and says so.
    const claimed = `${file}.${process.pid}.sweep`;
    try {
      renameSync(file, claimed);
    } catch {
      continue;
    }
    const found = stopLeftover(rec.marker);
    try {
      unlinkSync(claimed);
    } catch {
      // nothing to remove
    }
    if (found === undefined || found.killed > 0) {
      out.push({
        tier: String(rec.tier),
        owner: rec.owner,
        since: String(rec.since),
        ...(found && { killed: found.killed, ...(found.pgid !== undefined && { pgid: found.pgid }) }),
      });
    }
  }
  return out;
}

/** Kills what is left of one gate; how many processes, and its group; undefined when it cannot be told (no /proc). */
function stopLeftover(marker: string): { killed: number; pgid?: number } | undefined {
  if (procStat(process.pid) === undefined) return undefined;
  const killed = new Set<number>();
  let pgid: number | undefined;
  const marked = processesMarked(GATE_MARKER, marker);
  for (const pid of marked) {
    if (procStat(pid)?.pgid !== pid) continue;
    pgid ??= pid;
    const members = groupMembers(pid);
    if (signalQuietly(-pid, 'SIGKILL')) for (const m of members) killed.add(m);
  }
  for (const pid of marked) if (!killed.has(pid) && signalQuietly(pid, 'SIGKILL')) killed.add(pid);
  return { killed: killed.size, ...(pgid !== undefined && { pgid }) };
}

/** Sweeps `<commonDir>/gate-ladder/gates` and says, through `say`, what it stopped (what commands call first). */
export function stopLeftovers(commonDir: string, say: (line: string) => void): void {
  for (const l of sweepLeftovers(gatesDir(commonDir))) {
    say(
      l.killed === undefined
        ? faultMsg.leftoverUnverified(l.tier, l.owner, l.since)
        : faultMsg.leftover(l.tier, l.owner, l.since, l.killed, l.pgid),
    );
  }
}
