import { shown } from '../util/escape.js';
import { plural } from '../util/messages.js';

/** Faults met outside the gates: the ledger, gates left by a run that was killed, a push abandoned (issue 16). */
export const faultMsg = {
  ledgerUnwritable: (path: string, why: string) =>
    `gate-ladder: cannot write the ledger ${shown(path)}: ${shown(why)}. This run's rows are not recorded; the verdicts still decide. Fix the path (config \`ledger\`), its folder or the disk, and later runs record again.`,
  /** The per-test records beside the ledger (tests.jsonl), not the ledger itself. */
  testsUnwritable: (path: string, why: string) =>
    `gate-ladder: cannot write the per-test records ${shown(path)}: ${shown(why)}. This run's test outcomes are not recorded (its ledger rows are); the verdicts still decide. Move it away or fix its folder, and later runs record them again.`,
  ledgerLockWait: (lock: string, holder: string, staleS: number) =>
    `gate-ladder: waiting for the ledger's lock ${shown(lock)}, held by ${holder}; it is taken over after ${staleS} s. If no gate-ladder is running, remove that file.`,
  ledgerLockTaken: (lock: string, holder: string) =>
    `gate-ladder: took over the ledger's lock ${shown(lock)}: ${holder}, which held it, is no longer running.`,
  leftover: (tier: string, owner: number, since: string, killed: number, pgid?: number) =>
    `gate-ladder: a run that was killed (pid ${owner}) left ${shown(tier)} running since ${shown(since)}${pgid !== undefined ? ` (process group ${pgid})` : ''}; stopped ${killed} process${killed === 1 ? '' : 'es'}.`,
  leftoverUnverified: (tier: string, owner: number, since: string) =>
    `gate-ladder: a run that was killed (pid ${owner}) may have left ${shown(tier)} running since ${shown(since)}; this system has no /proc to find its processes by their GATE_LADDER_GATE variable, so nothing was stopped. Look for them with \`ps\`.`,
  abandoned: (name: string, pid: number) =>
    `gate-ladder: ${shown(name)} (pid ${pid}), which started this run, has exited: the push no longer exists. The gates were stopped, and the gate that was running has no row.`,
};

/** Issue 18: merge, replay --shard, sync and ci. */
export const teamMsg = {
  badShard: (problem: string) => `gate-ladder: ${problem}. Nothing was replayed.`,
  shard: (index: number, count: number, mine: number, all: number, balanced: boolean) =>
    `gate-ladder: shard ${index}/${count}: ${mine} of ${all} patch${all === 1 ? '' : 'es'} (${balanced ? 'balanced by the durations the ledger knows' : 'round-robin: the ledger knows no durations for them'}). Merge the shards' ledgers with \`gate-ladder merge\`.`,
  mergeNoFiles: () => 'gate-ladder: merge needs at least one ledger file (e.g. `gate-ladder merge shard-1.jsonl shard-2.jsonl`).',
  mergeMissing: (files: readonly string[]) =>
    `gate-ladder: nothing was merged; no such file: ${files.join(', ')}. Check the paths (a CI artifact is often one folder deeper).`,
  mergeNotFiles: (files: readonly string[]) =>
    `gate-ladder: nothing was merged; not a file: ${files.join(', ')}. Name the ledger files (a folder's: \`gate-ladder merge <folder>/*.jsonl\`).`,
  mergeSource: (file: string, rows: number, added: number, duplicates: number, skipped: number) =>
    `  ${file}: ${plural(rows, 'row')}, ${added} added, ${duplicates} already there${skipped ? `, ${plural(skipped, 'malformed line')} skipped` : ''}`,
  merged: (added: number, into: string) => `gate-ladder: merged ${plural(added, 'new row')} into ${into}. \`gate-ladder report\` reads it.`,
  mergeFailed: (into: string, why: string) =>
    `gate-ladder: cannot write ${into}: ${why}. Check the folder and its permissions, or pass another with --into.`,
  badOrigin: (id: string) =>
    `gate-ladder: "${id}" cannot name a ledger ref: use letters, digits, ".", "_" and "-" (set GATE_LADDER_ORIGIN to such an id).`,
  syncFetchFailed: (remote: string, detail: string) =>
    `gate-ladder: sync: cannot fetch the team's ledgers from ${remote} (${detail}); nothing changed. Check the remote's name and access (\`git fetch ${remote}\`), then sync again.`,
  syncPushRefused: (remote: string, ref: string, detail: string) =>
    `gate-ladder: sync: ${remote} refused ${ref} (${detail}); nothing changed there or here. Ask for push rights to refs/gate-ladder/* (or exempt them from the hosting rule); \`gate-ladder report --local\` meanwhile.`,
  synced: (remote: string, origin: string, pushed: number, recovered: number, teamRows: number, origins: number) =>
    `gate-ladder: synced with ${remote} as ${origin}: pushed ${plural(pushed, 'new row')}${recovered ? `, restored ${plural(recovered, 'row')} from this origin's ref into the ledger` : ''}; ${plural(teamRows, 'row')} from ${plural(origins, 'other origin')} now read by report and flaky (\`--local\` leaves them out).`,
  syncNotRestored: (n: number, ref: string) =>
    `gate-ladder: sync: the remote's ${ref} holds ${plural(n, 'row')} this clone's ledger lacks; they were not added (anyone who can push there can write them). If this clone lost its ledger, \`gate-ladder sync --restore\` adds them and says how many.`,
  syncRestored: (n: number, ref: string, ledger: string, first: string | undefined, last: string | undefined) =>
    `gate-ladder: sync --restore: added ${plural(n, 'row')} from the remote's ${ref} to ${ledger}${first ? ` (run from ${first} to ${last})` : ''}; they count in \`gate-ladder report\` as this clone's.`,
  syncRefused: (origin: string, n: number, reason: string) =>
    `gate-ladder: sync: refused ${plural(n, 'row')} from ${origin} (${reason}); they are not counted. See each origin's figures with \`gate-ladder report --by-origin\`; leave one out with \`--exclude-origin ${origin}\`.`,
  syncRace: (remote: string, ref: string, detail: string) =>
    `gate-ladder: sync: other syncs of the same origin kept moving ${ref} on ${remote} (${detail}); this clone's new rows are not pushed yet, nothing else changed. Run \`gate-ladder sync\` again (and give each clone or CI job its own GATE_LADDER_ORIGIN).`,
  reportRefused: (origin: string, n: number, reason: string) =>
    `gate-ladder: the last sync refused ${plural(n, 'row')} from ${origin} (${reason}); they are not counted. \`--exclude-origin ${origin}\` leaves out the rest of its rows too.`,
  reportExcluded: (origins: readonly string[], rows: number) =>
    `gate-ladder: left out ${plural(rows, 'row')} of ${origins.join(', ')} (--exclude-origin).`,
  syncSkipped: (n: number) =>
    `gate-ladder: sync: skipped ${plural(n, 'malformed row')} from other origins; they are not counted. Whoever wrote them should update gate-ladder.`,
  teamAfter: () =>
    "gate-ladder: the team's test records are counted after this clone's, not in time order (this clone's raw records are too many to read again, or some were removed from tests-archive/): a flip between two clones' runs of the same code may be counted differently.",
  teamRead: (local: number, team: number, origins: number) =>
    `gate-ladder: ${plural(local + team, 'row')} from ${plural(origins + 1, 'origin')} (${local} this clone's, ${team} synced from ${plural(origins, 'other')}); \`--local\` reads this clone's only.`,
};
