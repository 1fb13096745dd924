import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATE_MARKER, type GateTracker, killMarked } from './gate.js';
import { groupMembers, isAlive, isMarked, ownStartTime, procStat } from '../util/proc.js';
import { signalQuietly } from '../util/spawn.js';
import { faultMsg } from '../util/messages.js';

/**
 * The gates running now, one small file each in `<git common dir>/gate-ladder/gates/`: its process
 * group, the run that started it, and its marker. A run that ends removes its files; a run killed
 * outright (`kill -9`) cannot, so the next run finds them, and when their run is gone, kills what is
 * left of those gates and says so.
 */

interface GateRecord {
  pgid: number;
  owner: number;
  ownerStart?: string;
  tier: string;
  marker: string;
  since: string;
}

export function gatesDir(commonDir: string): string {
  return join(commonDir, 'gate-ladder', 'gates');
}

/** Records each gate as it starts; best effort: a folder that cannot be written costs only the clean-up after a kill -9. */
export function gateTracker(dir: string): GateTracker {
  return {
    started: ({ pgid, marker, tier }) => {
      const file = join(dir, `${marker}.json`);
      const rec: GateRecord = { pgid, owner: process.pid, tier, marker, since: new Date().toISOString() };
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
      return () => {
        try {
          unlinkSync(file);
        } catch {
          // removed by a sweep, or never written
        }
      };
    },
  };
}

export interface Leftover {
  tier: string;
  pgid: number;
  owner: number;
  since: string;
  /** Processes killed; undefined when this system cannot tell the group is still the gate's (no /proc). */
  killed?: number;
}

/**
 * Kills what gates of runs that no longer exist left running: their process group (only while it is
 * provably still theirs: its leader carries the gate's marker, or the leader is gone and the group
 * still has members, whose id no new process can then take) and every process carrying their marker.
 * Returns one entry per gate that had something left (or could not be checked).
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
    if (typeof rec?.pgid !== 'number' || typeof rec.owner !== 'number' || typeof rec.marker !== 'string') continue;
    if (isAlive(rec.owner, rec.ownerStart)) continue;
    // Claimed by renaming: of two runs sweeping at once, one stops it and says so.
    const claimed = `${file}.${process.pid}.sweep`;
    try {
      renameSync(file, claimed);
    } catch {
      continue;
    }
    const found = stopLeftover(rec);
    try {
      unlinkSync(claimed);
    } catch {
      // nothing to remove
    }
    if (found === undefined || found > 0) out.push({ tier: String(rec.tier), pgid: rec.pgid, owner: rec.owner, since: String(rec.since), ...(found !== undefined && { killed: found }) });
  }
  return out;
}

/** Kills what is left of one gate; the number of processes, or undefined when it cannot be told (no /proc). */
function stopLeftover(rec: GateRecord): number | undefined {
  if (procStat(process.pid) === undefined) return undefined;
  let killed = 0;
  const leader = procStat(rec.pgid);
  const leaderIsOurs = leader !== undefined && isMarked(rec.pgid, GATE_MARKER, rec.marker);
  const group = leader === undefined || leaderIsOurs ? groupMembers(rec.pgid) : [];
  if (group.length > 0 && signalQuietly(-rec.pgid, 'SIGKILL')) killed += group.length;
  killed += killMarked(rec.marker, 'SIGKILL');
  return killed;
}

/** Sweeps `<commonDir>/gate-ladder/gates` and says, through `say`, what it stopped (what commands call first). */
export function stopLeftovers(commonDir: string, say: (line: string) => void): void {
  for (const l of sweepLeftovers(gatesDir(commonDir))) {
    say(l.killed === undefined ? faultMsg.leftoverUnverified(l.tier, l.pgid, l.owner, l.since) : faultMsg.leftover(l.tier, l.pgid, l.owner, l.since, l.killed));
  }
}
