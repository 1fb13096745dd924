import { shown } from '../util/escape.js';
import type { PatchOutcome } from './patch.js';

export interface Tally {
  total: number;
  done: number;
  caught: number;
  errors: number;
  notApplied: number;
}

/** `0.4 s`, `12 s`, `3 m 05 s`, `1 h 02 m`. Pure. */
export function formatSeconds(s: number): string {
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${String(Math.round(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} m`;
}

/** Seconds left at the pace so far (patches run in parallel, so wall time per done patch). Pure. */
export function estimateLeft(t: Tally, elapsed: number): number | undefined {
  return t.done === 0 ? undefined : (elapsed / t.done) * (t.total - t.done);
}

/** `replay 3/10 · caught 1 · errors 0 · 4.2 s elapsed · ~9.8 s left`. Pure. */
export function statusLine(t: Tally, elapsed: number): string {
  const left = estimateLeft(t, elapsed);
  return [
    `replay ${t.done}/${t.total}`,
    `caught ${t.caught}`,
    `errors ${t.errors}`,
    ...(t.notApplied > 0 ? [`not applied ${t.notApplied}`] : []),
    `${formatSeconds(elapsed)} elapsed`,
    left === undefined ? 'estimating…' : t.done === t.total ? 'done' : `~${formatSeconds(left)} left`,
  ].join(' · ');
}

/** What one patch came to, in words. Pure. */
export function outcomeText(o: PatchOutcome): string {
  const skipped = o.rows[0]?.skipped;
  const routed = skipped && skipped.length > 0 ? `; t0-scope skipped ${skipped.join(', ')}` : '';
  const calibrating = o.rows.some((r) => r.calibration);
  switch (o.status) {
    case 'not-applied':
      return `did not apply: ${shown(o.reason ?? 'git apply failed')}`;
    case 'interrupted':
      return 'interrupted; no rows kept, it runs again next time';
    case 'pass':
      return o.results.length === 0
        ? `no tier runs for this change${routed}`
        : `pass (${o.results.length} tier${o.results.length === 1 ? '' : 's'}, ${formatSeconds(sum(o.results.map((r) => r.seconds)))}${routed})`;
    default: {
      if (calibrating) return `calibration: ${o.results.map((r) => `${r.tier} ${r.verdict}`).join(', ')}${routed}`;
      const by = o.stoppedBy;
      if (!by) return o.status;
      return o.status === 'caught'
        ? `caught by ${by.tier} (exit ${by.exitCode}, ${formatSeconds(by.seconds)}${routed})`
        : by.cause === 'patch' && by.causeFile !== undefined
          ? `error at ${by.tier}: ${shown(by.reason ?? 'harness error')} (the patch broke the harness: ${shown(by.causeFile)}${routed})`
          : `error at ${by.tier}: ${shown(by.reason ?? 'harness error')} (not a verdict on the patch${routed})`;
    }
  }
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

export interface ProgressOut {
  write: (text: string) => unknown;
  isTTY?: boolean;
}

/**
 * Progress on stderr. On a terminal: each finished patch's line, with a live status line kept at the
 * bottom and redrawn every second. Otherwise: plain lines, each carrying the status.
 */
export class Progress {
  readonly tally: Tally;
  private timer: NodeJS.Timeout | undefined;
  private readonly started: number;

  constructor(
    total: number,
    private readonly out: ProgressOut,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.tally = { total, done: 0, caught: 0, errors: 0, notApplied: 0 };
    this.started = clock();
    if (out.isTTY) {
      this.draw();
      this.timer = setInterval(() => this.draw(), 1000);
      this.timer.unref();
    }
  }

  private elapsed(): number {
    return (this.clock() - this.started) / 1000;
  }

  private draw(): void {
    this.out.write(`\r\x1b[2K${statusLine(this.tally, this.elapsed())}`);
  }

  /** A line that is not about one patch (e.g. a warning). */
  say(line: string): void {
    if (this.out.isTTY) {
      this.out.write(`\r\x1b[2K${line}\n`);
      this.draw();
    } else {
      this.out.write(`${line}\n`);
    }
  }

  finished(o: PatchOutcome): void {
    const t = this.tally;
    if (o.status === 'interrupted') {
      this.say(`gate-ladder: ${shown(o.patch.label)}: ${outcomeText(o)}`);
      return;
    }
    t.done += 1;
    if (o.status === 'caught') t.caught += 1;
    if (o.status === 'error') t.errors += 1;
    if (o.status === 'not-applied') t.notApplied += 1;
    const line = `gate-ladder: [${t.done}/${t.total}] ${shown(o.patch.label)}: ${outcomeText(o)}`;
    this.say(this.out.isTTY ? line : `${line}  (${statusLine(t, this.elapsed())})`);
  }

  /** Stops the live line, leaving the final status on screen. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.out.isTTY) this.out.write(`\r\x1b[2K${statusLine(this.tally, this.elapsed())}\n`);
  }
}
