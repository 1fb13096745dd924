import { shown } from '../util/escape.js';
import { replayMsg } from '../replay/messages.js';
import yargs, { type Argv } from 'yargs';
import { EXIT } from '../config/defaults.js';
import { configHelp } from './config-help.js';
import { RUN_FLAGS, RUN_POSITIONALS, runOptionsOf } from './run-args.js';

const EPILOG = `Verdicts: pass (exit 0); caught (the patch is wrong: a test failed, exit 1 unless the tier says otherwise);
error (the harness could not give a verdict: usage error, no tests, timeout, crash). Both block the push.
Bypass once: git push --no-verify, or GATE_LADDER=0 git push.`;

class UsageError extends Error {}

/** gate-ladder's own version, set by the build (yargs would guess it from the nearest package.json: the host project's). */
declare const __GATE_LADDER_VERSION__: string | undefined;
export const VERSION = typeof __GATE_LADDER_VERSION__ === 'string' ? __GATE_LADDER_VERSION__ : 'dev';

/** Parses argv and runs one command; resolves to the process exit code. Commands load lazily. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const cwd = process.cwd();
  const set = (c: number) => {
    code = c;
  };
  // yargs reads a lone `-` as no value at all: judge's `--patch -` (standard input) goes to it as `--patch=-`.
  const args = argv.flatMap((a, i) =>
    a === '-' && argv[i - 1] === '--patch' ? [] : a === '--patch' && argv[i + 1] === '-' ? ['--patch=-'] : [a],
  );
  const cli = yargs(args)
    .scriptName('gate-ladder')
    .usage('$0 <command> [options]\n\nRuns your checks before a push, cheapest first, and keeps a ledger of what each caught.');
  for (const commands of [judgeCommands, setupCommands, testCommands, corpusCommands, agentCommands, ledgerCommands])
    commands(cli, cwd, set);
  cli
    .demandCommand(
      1,
      'Name a command: run, ci, install, uninstall, report, flaky, freeze, unfreeze, seed, replay, judge, mcp, gc, merge, sync, help (see --help).',
    )
    .strict()
    .version(VERSION)
    .recommendCommands()
    .epilog(EPILOG)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      // Throwing stops yargs here; returning would let it run the command with the arguments it just refused.
      throw new UsageError(message);
    });
  try {
    await cli.parseAsync();
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    // Line by line: yargs' own line breaks stay breaks, anything else unprintable is escaped.
    process.stderr.write(
      `gate-ladder: ${e.message.split('\n').map(shown).join('\n')}\nRun \`gate-ladder --help\` for the commands and options.\n`,
    );
    return EXIT.error;
  }
  return code;
}

/** `run` (a hook, a manual run) and `ci` (a CI step): the judgement. */
function judgeCommands(cli: Argv, cwd: string, set: (code: number) => void): Argv {
  return cli
    .command(
      'run [hook] [remote] [url]',
      'Run the ladder: as a git hook (pre-push, pre-commit) or on --base/--head',
      (y) =>
        y
          .positional('hook', RUN_POSITIONALS.hook)
          .positional('remote', RUN_POSITIONALS.remote)
          .positional('url', RUN_POSITIONALS.url)
          .options(RUN_FLAGS)
          .example('$0 run --base origin/main --head HEAD', 'Judge the current branch as CI would')
          .example('$0 run --dry-run --base HEAD~1', 'Show what the last commit would run, and why')
          .epilog(
            'The config: its file names and every field: gate-ladder help config.\nFor one push: GATE_LADDER_SKIP=t2-full git push (a comma list of tiers), GATE_LADDER_NO_CACHE=1 git push, GATE_LADDER=0 git push.',
          ),
      async (a) => {
        const { runCommand } = await import('../commands/run.js');
        set(await runCommand({ cwd, ...runOptionsOf(a) }));
      },
    )
    .command(
      'ci',
      "One CI step: judge what this pipeline's event changed (GitHub Actions' pull request or push, GitLab's merge request or push; else --base/--head), annotate failed tests, append the verdicts to the step summary; exit 0/1/2 as run",
      (y) =>
        y
          .option('base', {
            type: 'string',
            describe:
              "Base revision: overrides the CI's event (outside CI: default the config base, else the remote's HEAD, main or master, else the branch's upstream)",
          })
          .option('head', { type: 'string', describe: "Head revision: overrides the CI's event (default HEAD outside CI)" })
          .option('calibrate', {
            type: 'boolean',
            describe: 'Run every planned tier whatever the verdicts (default: at the config `calibrate` rate)',
          })
          .option('summary', {
            type: 'string',
            describe: 'Append the markdown summary to this file (default $GITHUB_STEP_SUMMARY when set)',
          })
          .option('json', {
            type: 'boolean',
            describe: 'Print the range found, the verdicts, the annotations and the exit code as JSON on stdout (no annotation lines)',
          })
          .option('cache', {
            type: 'boolean',
            default: true,
            describe: 'Reuse a pass of the same tree under the same config (--no-cache: run every planned gate)',
          })
          .epilog(
            `Reads GITHUB_EVENT_NAME and the payload at GITHUB_EVENT_PATH (pull_request, pull_request_target: head.sha against base.sha; push: after against before; merge_group), or GitLab's CI_MERGE_REQUEST_DIFF_BASE_SHA, CI_COMMIT_SHA and CI_COMMIT_BEFORE_SHA. A new branch is judged from its merge-base with the default branch; other events judge the last commit. The clone needs the history of the range: actions/checkout with fetch-depth: 0, GitLab GIT_DEPTH: 0 (a missing commit is exit 2, with the fix). Workflow files: docs/ci.md.`,
          )
          .example('$0 ci', 'In a GitHub Actions or GitLab CI job: the range comes from the event')
          .example('$0 ci --base origin/main --head HEAD --summary summary.md', 'Anywhere else, with a markdown summary'),
      async (a) => {
        const { ciCommand } = await import('../commands/ci.js');
        set(
          await ciCommand({
            cwd,
            ...(a.base !== undefined && { base: a.base }),
            ...(a.head !== undefined && { head: a.head }),
            json: a.json === true,
            calibrate: a.calibrate === true,
            ...(a.cache === false && { noCache: true }),
            ...(a.summary !== undefined && { summary: a.summary }),
          }),
        );
      },
    );
}

/** `install`, `uninstall` and `gc`: what gate-ladder puts in a repository, and takes out. */
function setupCommands(cli: Argv, cwd: string, set: (code: number) => void): Argv {
  return cli
    .command(
      'install',
      'Set up husky and a pre-push hook that runs gate-ladder; write a starter config if there is none',
      (y) =>
        y
          .option('pre-commit', { type: 'boolean', describe: 'Also install a pre-commit hook (staged changes)' })
          .option('force', { type: 'boolean', describe: 'Replace a core.hooksPath that another tool set (uninstall puts it back)' })
          .option('gitignore', {
            type: 'boolean',
            describe:
              'When git does not ignore node_modules (a repository without package.json), add node_modules/ to .gitignore without asking',
          })
          .option('yes', {
            alias: 'y',
            type: 'boolean',
            describe: "Yes to install's questions (the .gitignore line); without a terminal, none is asked",
          }),
      async (a) => {
        const { installCommand } = await import('../commands/install.js');
        set(
          await installCommand({
            cwd,
            preCommit: a['pre-commit'] === true,
            force: a.force === true,
            gitignore: a.gitignore === true,
            yes: a.yes === true,
          }),
        );
      },
    )
    .command(
      'uninstall',
      'Undo exactly what install did and remove the worktree pool; say what stays under the git dir (the ledger, caches, logs), with --purge remove it too',
      (y) =>
        y
          .option('purge', {
            type: 'boolean',
            describe:
              "Also remove the ledger (your verdicts: this is the only way it goes), the per-test history, caches and logs under the git dir, and sync's refs (refs/gate-ladder/; the remote keeps its copies)",
          })
          .example('$0 uninstall --purge', "Leave nothing of gate-ladder's in the repository"),
      async (a) => {
        const { uninstallCommand } = await import('../commands/uninstall.js');
        set(await uninstallCommand({ cwd, purge: a.purge === true }));
      },
    )
    .command(
      'gc',
      'Remove the worktree pool: the kept worktrees isolated runs use, with their caches (the next isolated run makes one again)',
      (y) =>
        y
          .option('leftovers', {
            type: 'boolean',
            describe:
              'Only stop what runs killed outright (kill -9) left running, their gates; keep the pool. Every run does this when it starts, and replay and judge have it done as soon as they are killed',
          })
          .example('$0 gc --leftovers', 'Stop the gates a killed run left running, now'),
      async (a) => {
        const { gcCommand } = await import('../commands/gc.js');
        set(gcCommand({ cwd, leftoversOnly: a.leftovers === true }));
      },
    );
}

/** `flaky`, `freeze`, `unfreeze` and `seed`: the evidence about tests. */
function testCommands(cli: Argv, cwd: string, set: (code: number) => void): Argv {
  return cli
    .command(
      'flaky',
      'Per test: runs, flips, flip rate, seeded-bug evidence, and whether it may be frozen',
      (y) =>
        y
          .option('json', { type: 'boolean', describe: 'Print { "tests": [...] } as JSON on stdout' })
          .option('local', { type: 'boolean', describe: "This clone's history only, not the team's fetched by `sync`" }),
      async (a) => {
        const { flakyCommand } = await import('../commands/flaky.js');
        set(await flakyCommand({ cwd, json: a.json === true, local: a.local === true }));
      },
    )
    .command(
      'freeze <test>',
      'Freeze a flaky test (only when `flaky` says it is eligible), with an expiry and a re-entry condition',
      (y) =>
        y
          .positional('test', {
            type: 'string',
            demandOption: true,
            describe: 'Test id as `gate-ladder flaky` prints it (or as pytest prints it)',
          })
          .option('tier', { type: 'string', describe: 'The tier, when the test has history in more than one' })
          .option('expires', {
            type: 'string',
            describe: 'YYYY-MM-DD (a UTC day): from this day on the freeze no longer counts (required)',
          })
          .option('reentry', { type: 'string', describe: 'What must be true for the test to count again (required)' }),
      async (a) => {
        const { freezeCommand } = await import('../commands/flaky.js');
        set(
          await freezeCommand({
            cwd,
            test: a.test,
            ...(a.tier !== undefined && { tier: a.tier }),
            ...(a.expires !== undefined && { expires: a.expires }),
            ...(a.reentry !== undefined && { reentry: a.reentry }),
          }),
        );
      },
    )
    .command(
      'unfreeze <test>',
      "Remove a freeze: the test's failures count again",
      (y) =>
        y
          .positional('test', { type: 'string', demandOption: true, describe: 'Test id as in .gate-ladder/freezes.json' })
          .option('tier', { type: 'string', describe: 'Only its freeze in this tier' }),
      async (a) => {
        const { unfreezeCommand } = await import('../commands/flaky.js');
        set(await unfreezeCommand({ cwd, test: a.test, ...(a.tier !== undefined && { tier: a.tier }) }));
      },
    )
    .command(
      'seed [target]',
      'Run a known-bad change (a commit, or a patch file on HEAD) through every tier in a throwaway worktree; failing tests gain sensitivity evidence',
      (y) =>
        y.positional('target', { type: 'string', describe: 'A commit that introduces a bug, or a patch file' }).option('stryker', {
          type: 'string',
          describe: 'Import a Stryker mutation report (JSON) instead: Killed mutants credit the tests that killed them',
        }),
      async (a) => {
        const { seedCommand } = await import('../commands/seed.js');
        set(
          await seedCommand({
            cwd,
            ...(a.target !== undefined && { target: a.target }),
            ...(a.stryker !== undefined && { stryker: a.stryker }),
          }),
        );
      },
    );
}

/** `replay` and `report`: a corpus judged, and what the ledger says. */
function corpusCommands(cli: Argv, cwd: string, set: (code: number) => void): Argv {
  return cli
    .command(
      'replay [inputs..]',
      'Replay a corpus through the ladder: commits of a range, or patch files, each in a throwaway worktree',
      (y) =>
        y
          .positional('inputs', {
            type: 'string',
            array: true,
            describe: 'A revision range (main~50..main), a commit, a folder of .patch/.diff files, or patch files',
          })
          .option('patches', {
            type: 'string',
            array: true,
            describe: "A folder of .patch/.diff files (or one patch file): candidate patches, e.g. an agent's for one failing test",
          })
          .check((a) => {
            if ((a.inputs ?? []).length + (a.patches ?? []).length > 0) return true;
            throw new UsageError(replayMsg.noInputs);
          })
          .option('onto', { type: 'string', describe: 'The commit patch files apply onto (default HEAD)' })
          .option('jobs', { alias: 'j', type: 'number', describe: 'Patches replayed in parallel (default: the number of cores)' })
          .option('calibrate', { type: 'boolean', describe: 'Run every planned tier on every patch (rows flagged, not counted in yield)' })
          .option('force', { type: 'boolean', describe: 'Replay patches the ledger already has under this config' })
          .option('isolate', {
            choices: ['network'] as const,
            describe: 'Run each gate without network access (Linux: unshare); fails rather than run unisolated',
          })
          .option('first-parent', {
            type: 'boolean',
            describe: 'Walk ranges by first parent: a merge is one patch against its first parent',
          })
          .option('shard', {
            type: 'string',
            describe: 'i/n: replay only this share of the corpus (CI matrix job i of n); merge the shard ledgers with `merge`',
          })
          .example('$0 replay main~60..main --shard 2/3', 'Job 2 of a 3-job CI matrix (docs/ci.md)')
          .example('$0 replay main~50..main', 'Judge the last 50 commits, each against its parent, with the ladder configured today')
          .example('$0 replay --patches candidates/ --onto v1.2 --isolate network', 'Judge a folder of agent-made patches without network'),
      async (a) => {
        const { replayCommand } = await import('../commands/replay.js');
        set(
          await replayCommand({
            cwd,
            inputs: [...(a.inputs ?? []), ...(a.patches ?? [])].map(String),
            ...(a.onto && { onto: a.onto }),
            ...(a.jobs !== undefined && { jobs: a.jobs }),
            calibrate: a.calibrate === true,
            force: a.force === true,
            ...(a.isolate && { isolate: a.isolate }),
            firstParent: a['first-parent'] === true,
            ...(a.shard !== undefined && { shard: a.shard }),
          }),
        );
      },
    )
    .command(
      'report',
      'Per tier: runs, catches, errors, median and total seconds, yield per second; what t0-scope saved; the order the ledger recommends',
      (y) =>
        y
          .option('ledger', { type: 'string', describe: "Ledger file (default: the repository's)" })
          .option('since', { type: 'string', describe: 'Only rows at or after this date (e.g. 2025-01-31)' })
          .option('hook', {
            choices: ['pre-push', 'pre-commit', 'manual', 'replay', 'seed', 'judge'] as const,
            describe: 'Only rows from this hook',
          })
          .option('json', { type: 'boolean', describe: 'Print the report as JSON on stdout' })
          .option('markdown', { type: 'boolean', describe: 'Print the report as markdown (also for a CI job summary)' })
          .option('html', {
            type: 'string',
            describe:
              'Write a self-contained HTML page to this file (relative to here); without a file, to <git dir>/gate-ladder/report.html (never the work tree), and print where',
          })
          .option('open', {
            type: 'boolean',
            describe:
              'Open the HTML page in a browser ($BROWSER, else xdg-open, open or start); implies --html; says where the page is when none opens it',
          })
          .option('local', { type: 'boolean', describe: "This clone's rows only, not the team's fetched by `sync`" })
          .option('by-origin', {
            type: 'boolean',
            describe: "Each origin's figures apart: this clone's and each synced clone's or CI job's",
          })
          .option('exclude-origin', {
            type: 'string',
            array: true,
            describe: "Leave out an origin's rows (repeatable; its id as `--by-origin` names it)",
          })
          .conflicts('json', 'markdown')
          .conflicts('html', ['json', 'markdown'])
          .conflicts('open', ['json', 'markdown'])
          .example('$0 report --since 2025-01-01 --markdown', 'This year, as markdown for a pull request')
          .example('$0 report --html report.html', 'Charts and tables in one file that loads nothing from the network')
          .example('$0 report --open', 'The same page, written under the git dir and opened in your browser'),
      async (a) => {
        const { reportCommand } = await import('../commands/report.js');
        set(
          await reportCommand({
            cwd,
            ...(a.ledger !== undefined && { ledger: a.ledger }),
            ...(a.since !== undefined && { since: a.since }),
            ...(a.hook && { hook: a.hook }),
            json: a.json === true,
            markdown: a.markdown === true,
            ...(a.html !== undefined && { html: a.html }),
            open: a.open === true,
            local: a.local === true,
            byOrigin: a.byOrigin === true,
            ...(a.excludeOrigin !== undefined && { excludeOrigins: a.excludeOrigin.map(String) }),
          }),
        );
      },
    );
}

/** `judge` and `mcp`: candidate patches judged for a coding agent, from the shell or over the Model Context Protocol (docs/agents.md). */
function agentCommands(cli: Argv, cwd: string, set: (code: number) => void): Argv {
  return cli
    .command(
      'judge',
      "Judge candidate patches as a push would, without a push: each applied in a worktree slot at its base, under the base's committed config; exit 0 pass, 1 caught, 2 error (several: the worst)",
      (y) =>
        y
          .option('patch', {
            type: 'string',
            array: true,
            describe: 'A patch file (git diff or git format-patch); `-` reads standard input; repeatable (run in parallel slots)',
          })
          .option('base', { type: 'string', describe: 'The commit patches apply onto (default HEAD)' })
          .option('commit', { type: 'string', describe: 'Judge this commit against its first parent' })
          .option('worktree', {
            type: 'boolean',
            describe:
              "Judge the working tree's change against HEAD: what `git add -A` would commit (untracked files too, ignored ones not); your index is not touched",
          })
          .option('jobs', { alias: 'j', type: 'number', describe: 'Patches judged in parallel (default: the number of cores)' })
          .option('isolate', {
            choices: ['network'] as const,
            describe: 'Run each gate without network access (Linux: unshare); fails rather than run unisolated',
          })
          .option('json', {
            type: 'boolean',
            describe:
              'Print one JSON object on stdout: exit, verdict, tier (the deciding one), reason, failed_tests (id, file, line, message), tiers (verdict, seconds), skipped, error_cause, ledger rows, next; for several patches { exit, verdict, patches: [one such object per patch] }; nothing judged: { exit, judged: false, message }',
          })
          .conflicts('commit', ['base', 'worktree'])
          .conflicts('worktree', 'base')
          .example('git diff | $0 judge --patch - --json', 'Judge an uncommitted change, as JSON')
          .example('$0 judge --worktree', 'The same, untracked files included, as text (verdict first)')
          .example('$0 judge --patch a.diff --patch b.diff --jobs 2', 'Two candidate patches at once')
          .epilog(
            'Never touches your working tree, index or dependency folders: each patch runs in a slot of the worktree pool with its own copies. Gates still run as you, with your network unless --isolate network (docs/agents.md says what is and is not sandboxed). Rows go to the ledger with hook `judge`.',
          ),
      async (a) => {
        const { judgeCommand } = await import('../commands/judge.js');
        set(
          await judgeCommand({
            cwd,
            ...(a.patch !== undefined && { patches: a.patch.map(String) }),
            ...(a.base !== undefined && { base: a.base }),
            ...(a.commit !== undefined && { commit: a.commit }),
            worktree: a.worktree === true,
            ...(a.jobs !== undefined && { jobs: a.jobs }),
            ...(a.isolate && { isolate: a.isolate }),
            json: a.json === true,
          }),
        );
      },
    )
    .command(
      'mcp',
      'A Model Context Protocol server on stdin/stdout for coding agents: tools judge_patch, explain_order and report (docs/agents.md)',
      (y) =>
        y.epilog(
          'An agent starts it itself: in its config, { "mcpServers": { "gate-ladder": { "command": "npx", "args": ["gate-ladder", "mcp"] } } }, run from the repository. stdout carries only the protocol; everything else goes to stderr.',
        ),
      async () => {
        const { mcpCommand } = await import('../commands/mcp.js');
        set(await mcpCommand({ cwd }));
      },
    );
}

/** `merge`, `sync` and `help`: ledgers combined, the team's rows shared, and help. */
function ledgerCommands(cli: Argv, cwd: string, set: (code: number) => void): Argv {
  return cli
    .command(
      'merge <files..>',
      "Merge ledgers (replay shards, exported ledgers) into this repository's ledger or --into FILE; each row once, malformed lines skipped and counted",
      (y) =>
        y
          .positional('files', { type: 'string', array: true, describe: 'Ledger files (JSON lines)' })
          .option('into', { type: 'string', describe: "The ledger to merge into (default: the repository's)" })
          .example('$0 merge shards/*/ledger.jsonl', 'Combine the ledgers of a replay matrix, then run `report`'),
      async (a) => {
        const { mergeCommand } = await import('../commands/merge.js');
        set(await mergeCommand({ cwd, files: (a.files ?? []).map(String), ...(a.into !== undefined && { into: a.into }) }));
      },
    )
    .command(
      'sync [remote]',
      "Share ledger rows through the git remote: push this clone's under refs/gate-ladder/ledgers/<origin>, fetch every other origin's (never branches or tags)",
      (y) =>
        y
          .positional('remote', { type: 'string', describe: 'Remote name or URL (default: origin)' })
          .option('origin', {
            type: 'string',
            describe: "This writer's id (default: GATE_LADDER_ORIGIN, the CI job, else this clone's stored id)",
          })
          .option('restore', {
            type: 'boolean',
            describe: "Add the rows of this origin's ref that the local ledger lacks (a lost ledger); says how many",
          })
          .example('$0 sync', "Before `report`: the team's rows, this clone's shared"),
      async (a) => {
        const { syncCommand } = await import('../commands/sync.js');
        set(
          await syncCommand({
            cwd,
            ...(a.remote !== undefined && { remote: a.remote }),
            ...(a.origin !== undefined && { origin: a.origin }),
            restore: a.restore === true,
          }),
        );
      },
    )
    .command(
      'help [topic]',
      'Show help; `help config` lists the config file names and every field',
      (y) => y.positional('topic', { choices: ['config'] as const, describe: 'config: the config file names and fields' }),
      async (a) => {
        if (a.topic === 'config') process.stdout.write(configHelp());
        else cli.showHelp('log');
      },
    );
}
