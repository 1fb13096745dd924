import { type RunOptions, judge } from '../ladder/judge.js';
import { wroteToStream } from '../util/early-exit.js';

export { EXIT, type Judged, type RunOptions, type TargetReport, judge } from '../ladder/judge.js';

/** The hook and manual entry point: refs → ranges → route → gates → rows → exit code (the judgement: ladder/judge.ts). */
export async function runCommand(opts: RunOptions): Promise<number> {
  const judged = await judge(opts);
  if (opts.json && judged.targets) {
    process.stdout.write(`${JSON.stringify({ exit: judged.code, ledger: judged.ledger, targets: judged.targets }, null, 2)}\n`);
    wroteToStream();
  }
  return judged.code;
}
