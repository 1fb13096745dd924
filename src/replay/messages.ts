/** What replay, judge and the MCP server say. Each sentence says the next step. */
import type { ErrorCause, Verdict } from '../ledger/row.js';
import { shown, shownLines } from '../util/escape.js';
import { clipped, plural, short } from '../util/messages.js';

/** What `gate-ladder replay` says. */
export const replayMsg = {
  busy: (pid: number) =>
    `gate-ladder: another replay of these patches is running${pid > 0 ? ` (pid ${pid})` : ''}: two at once would judge them twice and count each twice. Wait for it to end (a rerun then skips what it replayed).`,
  noInputs: 'Name what to replay: a revision range (`main~50..main`), a commit, or patch files or a folder of them (`--patches DIR`).',
  needConfig: () =>
    'gate-ladder: replay judges patches by the ladder configured here, and there is no config. Create one with `npx gate-ladder install`, then replay again.',
  badInputs: (problems: readonly string[]) =>
    [
      `gate-ladder: nothing was replayed; ${problems.length === 1 ? 'one input' : `${problems.length} inputs`} could not be read:`,
      ...problems.map((p) => `  - ${shown(p)}`),
      'Name a revision range (`main~50..main`), a folder of .patch/.diff files, or patch files (with `--onto REV`).',
    ].join('\n'),
  noIsolation: (reason: string) =>
    `gate-ladder: --isolate network: cannot run gates without network on this machine (${reason}). Nothing was replayed. Run on Linux with util-linux \`unshare\` and user namespaces enabled (sysctl user.max_user_namespaces > 0), or as root; drop --isolate only for patches you trust.`,
  badJobs: (value: string) =>
    `gate-ladder: --jobs ${shown(value)}: give a whole number of patches to run at once, at least 1 (e.g. \`--jobs 2\`).`,
  merges: (n: number) =>
    `gate-ladder: left out ${n} merge commit${n === 1 ? '' : 's'}: the commits of each merged branch are replayed one by one (\`--first-parent\` replays the mainline instead, a merge as one patch).`,
  resumed: (n: number) =>
    `gate-ladder: ${n} patch${n === 1 ? ' was' : 'es were'} replayed before under this config: skipped (\`--force\` runs ${n === 1 ? 'it' : 'them'} again).`,
  start: (n: number, jobs: number, hash: string, isolate: boolean) =>
    `gate-ladder: replaying ${n} patch${n === 1 ? '' : 'es'}, ${jobs} at a time, config ${hash}${isolate ? ', gates without network' : ''}; each in a worktree of the pool.`,
  interrupted: () =>
    'gate-ladder: replay interrupted: gates stopped, worktrees given back to the pool. Finished patches are in the ledger; the same command replays the rest.',
  /** `ledgerFault`: the ledger could not be written (its error is a whole sentence of ours: quoted without its prefix and full stop). */
  failed: (err: unknown, ledgerFault = false) => {
    const why = shown((err instanceof Error ? err.message : String(err)).replace(/^gate-ladder: /, '').replace(/\.+$/, ''));
    return ledgerFault
      ? `gate-ladder: replay stopped: ${why}. Every worktree was given back to the pool; once the ledger can be written, the same command replays every patch it does not hold.`
      : `gate-ladder: replay stopped: ${why}. Every worktree was given back to the pool; finished patches are in the ledger, and the same command replays the rest.`;
  },
  summary: (patches: number, now: number, before: number, notApplied: number, seconds: string) =>
    `replay: ${patches} patch${patches === 1 ? '' : 'es'} (${now} replayed now, ${before} earlier under this config${notApplied ? `, ${notApplied} did not apply` : ''}) in ${seconds}`,
};

/** What `gate-ladder judge` and the MCP server say: the verdict first, then the next step (issue 38). */
export const judgeMsg = {
  needConfig: () =>
    'gate-ladder: judge runs the ladder configured here, and there is no config at the base nor in the working tree. Create one with `npx gate-ladder install`, commit it, then judge again.',
  invalidConfig: (base: string, problems: readonly string[]) =>
    [
      `gate-ladder: the config at ${short(base)} has ${plural(problems.length, 'problem')}; nothing was judged:`,
      ...problems.map((p) => `  - ${shownLines(p)}`),
      'Fix it, commit the fix, then judge again (`npx gate-ladder run --dry-run` checks the config).',
    ].join('\n'),
  badInputs: (problems: readonly string[]) =>
    [
      `gate-ladder: nothing was judged; ${problems.length === 1 ? 'one input' : `${problems.length} inputs`} could not be read:`,
      ...problems.map((p) => `  - ${shown(p)}`),
      'Name patch files with `--patch FILE` (`-` for standard input), a commit with `--commit REV`, or `--worktree` for the uncommitted change.',
    ].join('\n'),
  noInput: () =>
    'gate-ladder: judge: nothing to judge. Give `--patch FILE` (repeatable; `-` reads standard input), `--commit REV`, or `--worktree`.',
  emptyPatch: (names: readonly string[]) =>
    `gate-ladder: judge: ${names.map((n) => (n === 'stdin' ? 'the patch on stdin' : shown(n))).join(', ')} ${names.length === 1 ? 'is' : 'are'} empty: no change, so nothing to judge. Give the diff of a change (\`git diff\` prints nothing for a clean tree; \`judge --worktree\` judges uncommitted changes).`,
  emptyWorktree: () =>
    'gate-ladder: judge --worktree: the working tree has no change against HEAD that git would commit (ignored files are left out); nothing to judge.',
  noHead: () =>
    'gate-ladder: judge --worktree: the repository has no commit yet to judge the change against. Commit once, then judge again.',
  worktreeFailed: (why: string) =>
    `gate-ladder: judge --worktree: could not take the working tree's change (${shown(why)}); nothing was judged. Check \`git status\`, then judge again.`,
  /** The base's config is not the working tree's: said, since an agent may have edited it. */
  configAt: (base: string, file: string, working: 'differs' | 'missing') =>
    `gate-ladder: judged under ${shown(file)} as committed at ${short(base)}; the working tree's config ${working === 'missing' ? 'is missing' : 'differs'} and is not used (a patch cannot change the ladder that judges it).`,
  noIsolation: (reason: string) =>
    `gate-ladder: --isolate network: cannot run gates without network on this machine (${reason}). Nothing was judged. Run on Linux with util-linux \`unshare\` and user namespaces enabled (sysctl user.max_user_namespaces > 0), or as root; drop --isolate only for patches you trust.`,
  start: (n: number, jobs: number, isolate: boolean) =>
    `gate-ladder: judging ${plural(n, 'patch', 'patches')}${n > 1 ? `, ${jobs} at a time` : ''}${isolate ? ', gates without network' : ''}, each in a worktree of the pool.`,
  interrupted: () =>
    'gate-ladder: judge interrupted: gates stopped, worktrees given back to the pool. Patches judged before are in the ledger; judge the rest again.',
  failed: (err: unknown) =>
    `gate-ladder: judge stopped: ${shown((err instanceof Error ? err.message : String(err)).replace(/^gate-ladder: /, '').replace(/\.+$/, ''))}. Every worktree was given back to the pool; judge again once that is fixed.`,
  /** The next step an agent or a person takes after a verdict. */
  next: (v: {
    verdict: Verdict;
    applied: boolean;
    /** A catch names its failed tests (a check's finding, or a runner whose output names none, does not). */
    named?: boolean;
    refused?: boolean;
    /** A patch that did not apply: because of its base (else it is malformed, whatever its base). */
    baseLikely?: boolean;
    cause?: ErrorCause;
    file?: string;
    /** The code under test ended its test binary mid-run (an exit, an abort): the patch's, likely. */
    stopped?: boolean;
    base: string;
    configFile: string;
  }) =>
    v.verdict === 'pass'
      ? 'Every tier that runs for this change passed: propose it.'
      : v.verdict === 'caught'
        ? v.named === false
          ? "The patch is wrong: fix it (the reason says what the tier found; `--json`'s `summary` has the end of its output), then judge it again."
          : 'The patch is wrong: fix it (the failed tests say where), then judge it again.'
        : v.refused
          ? 'The patch was refused for what it writes (the reason names it), before any gate ran: change that part, then judge it again.'
          : !v.applied
            ? v.baseLikely === false
              ? 'The patch itself is malformed, whatever its base: make it again with `git diff` (whole, as git prints it), then judge it again.'
              : `Make the patch against ${short(v.base)} (\`git diff\` there), or pass \`--base\` the commit it was made on, then judge it again.`
            : v.cause === 'patch' && v.stopped
              ? `The code under test ended its test binary mid-run (it exited or aborted; the reason says where and how to find the test): likely the patch${v.file ? ` (${shown(v.file)})` : ''}. Fix it, then judge it again.`
              : v.cause === 'patch'
                ? `The patch broke the harness${v.file ? ` (${shown(v.file)})` : ''}: fix that, then judge it again.`
                : `This is not a verdict on the patch: the check itself did not complete. Fix the tier in ${shown(v.configFile)} or what it needs, then judge again.`,
  /** The first line of the text answer: the verdict, then where and why. */
  verdict: (v: { verdict: Verdict; label: string; tier?: string; reason?: string; seconds: number; tiers: number }) =>
    v.verdict === 'pass'
      ? `pass: ${shown(v.label)}: ${plural(v.tiers, 'tier')} passed in ${v.seconds.toFixed(1)} s`
      : `${v.verdict}: ${shown(v.label)}: ${v.verdict === 'caught' ? 'caught by' : 'at'} ${shown(v.tier ?? '?')}${v.reason ? `: ${shown(clipped(v.reason, REASON_MAX))}` : ''}`,
  failedTest: (t: { id: string; file?: string; line?: number; message?: string }) =>
    `  failed: ${t.file ? `${shown(t.file)}${t.line ? `:${t.line}` : ''} ` : ''}${shown(t.id)}${t.message ? `: ${shown(clipped(t.message.split('\n')[0] ?? ''))}` : ''}`,
  tiers: (tiers: readonly { tier: string; verdict: Verdict; seconds: number }[], skipped: readonly { tier: string; reason: string }[]) =>
    `  tiers: ${[...tiers.map((t) => `${shown(t.tier)} ${t.verdict} ${t.seconds.toFixed(1)} s`), ...skipped.map((s) => `${shown(s.tier)} skipped (${shown(s.reason)})`)].join('; ') || 'none ran'}`,
  /** `listed`: `--json` lists only that many of them (the rest are named in the tier's output). */
  moreTests: (n: number, listed?: number) =>
    listed === undefined
      ? `  ... and ${n} more failed (\`--json\` lists them all)`
      : `  ... and ${n} more failed (\`--json\` lists the first ${listed}; the tier's output names the rest: its log)`,
  ledger: (file: string, run: string) => `  ledger: ${shown(file)} (run ${run})`,
};

/**
 * A verdict's reason in judge's text answer: whole up to this length. It is ours (the runner's line it quotes is
 * clipped where it is read), and its end is often the step to take (go's `go test -v -run ...`); `--json` has all of it.
 */
const REASON_MAX = 1000;

/** What the MCP server (`gate-ladder mcp`) says: on stderr, and in its tools' errors. */
export const mcpMsg = {
  serving: (cwd: string) =>
    `gate-ladder: MCP server on stdin/stdout for ${shown(cwd)}: tools judge_patch, explain_order, report. An agent starts it; close its stdin to stop it.`,
  failed: (code: number | null, stderr: string) =>
    `gate-ladder could not answer (exit ${code ?? 'none'})${stderr.trim() ? `: ${shownLines(stderr.trim().split('\n').slice(-8).join('\n'))}` : ''}. Run the same command in the repository's shell to see why.`,
  parseError: (why: string) => `Parse error: the line is not JSON (${shown(why)}); send one JSON-RPC message per line.`,
  patchAndHead: () =>
    '`head` goes with `base` for a range of commits; a `patch` applies onto `base` (default HEAD). Give `patch` (and `base`), or `base` and `head`, not both.',
  emptyPatch: () => 'The patch is empty: no change, so nothing to explain. Give the diff of a change, as `git diff` prints it.',
  invalidRequest: () => 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message; send one JSON-RPC message per line.',
  tooLarge: (max: number) =>
    `a message over ${Math.round(max / (1 << 20))} MiB (a patch that large) is more than the server reads; it closes the connection. Judge such a patch with \`gate-ladder judge --patch FILE --json\` instead.`,
  badBase: (rev: string) => `base ${shown(rev)}: not a commit in this repository. Give a commit, a branch or a tag.`,
  notApplied: (base: string, why: string) =>
    `the patch does not apply onto ${short(base)}: ${shown(why)}. Make it against that commit (\`git diff\` there), or give the base it was made on.`,
};
