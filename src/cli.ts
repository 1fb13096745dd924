import yargs from 'yargs';
import { EXIT } from './defaults.js';

const EPILOG = `Verdicts: pass (exit 0); caught (the patch is wrong: a test failed, exit 1 unless the tier says otherwise);
error (the harness could not give a verdict: usage error, no tests, timeout, crash). Both block the push.
Bypass once: git push --no-verify, or GATE_LADDER=0 git push.`;

/** Parses argv and runs one command; resolves to the process exit code. Commands load lazily. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const cwd = process.cwd();
  const cli = yargs(argv)
    .scriptName('gate-ladder')
    .usage('$0 <command> [options]\n\nRuns your checks before a push, cheapest first, and keeps a ledger of what each caught.')
    .command(
      'run [hook] [remote] [url]',
      'Run the ladder: as a git hook (pre-push, pre-commit) or on --base/--head',
      (y) =>
        y
          .positional('hook', { choices: ['pre-push', 'pre-commit'] as const, describe: 'The git hook calling (omit for a manual or CI run)' })
          .positional('remote', { type: 'string', describe: 'Remote name (git passes it to pre-push)' })
          .positional('url', { type: 'string', describe: 'Remote URL (git passes it to pre-push)' })
          .option('base', { type: 'string', describe: 'Base revision (manual runs; default: config base or the remote HEAD)' })
          .option('head', { type: 'string', describe: 'Head revision (manual runs)', default: undefined })
          .option('dry-run', { type: 'boolean', describe: 'Print the plan and why, run nothing' })
          .option('calibrate', { type: 'boolean', describe: 'Run every planned tier whatever the verdicts (rows flagged, not counted in yield)' })
          .option('json', { type: 'boolean', describe: 'Print the targets, plans and verdicts as JSON on stdout' })
          .option('cache', {
            type: 'boolean',
            default: true,
            describe: 'Reuse a pass of the same tree under the same config (--no-cache runs every planned gate)',
          })
          .example('$0 run --base origin/main --head HEAD', 'Judge the current branch as CI would')
          .example('$0 run --dry-run --base HEAD~1', 'Show what the last commit would run, and why'),
      async (a) => {
        const { runCommand } = await import('./commands/run.js');
        code = await runCommand({
          cwd,
          ...(a.hook && { hook: a.hook }),
          ...(a.remote && { remote: a.remote }),
          ...(a.base && { base: a.base }),
          ...(a.head && { head: a.head }),
          dryRun: a['dry-run'] === true,
          json: a.json === true,
          calibrate: a.calibrate === true,
          ...(a.cache === false && { noCache: true }),
        });
      },
    )
    .command(
      'install',
      'Set up husky and a pre-push hook that runs gate-ladder; write a starter config if there is none',
      (y) => y.option('pre-commit', { type: 'boolean', describe: 'Also install a pre-commit hook (staged changes)' }),
      async (a) => {
        const { installCommand } = await import('./commands/install.js');
        code = await installCommand({ cwd, preCommit: a['pre-commit'] === true });
      },
    )
    .command('uninstall', 'Undo exactly what install did', {}, async () => {
      const { uninstallCommand } = await import('./commands/install.js');
      code = await uninstallCommand({ cwd });
    })
    .demandCommand(1, 'Name a command: run, install, uninstall (see --help).')
    .strict()
    .recommendCommands()
    .epilog(EPILOG)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error, y) => {
      if (error) throw error;
      process.stderr.write(`gate-ladder: ${message}\nRun \`gate-ladder --help\` for the commands and options.\n`);
      code = EXIT.error;
    });
  await cli.parseAsync();
  return code;
}
