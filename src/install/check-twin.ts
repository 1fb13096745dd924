/**
 * Whether a check command writes files (`eslint --fix`, `prettier --write`, `biome check --write`,
 * `ruff --fix`, `black` without `--check`, ...), and the same tool's command that only checks: what the
 * starter config gates on instead. A gate that rewrites the files it judges passes on code that was never
 * pushed, and leaves the work tree changed after the push. Pure.
 */
import { managerTarget, shellCommands } from '../runners/detect.js';

/** What a command does to files: nothing, or it writes them (with the command that only checks, when the tool has one). */
export type CheckReading = { writes: false } | { writes: true; why: string; twin?: string };

/** Words in front of the tool they run (`npx eslint`, `pnpm exec biome`, `yarn prettier`, `cross-env X=1 eslint`). */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx', 'exec', 'dlx', 'cross-env', 'dotenv', '--', 'run', 'uv', 'poetry', 'pipx']);

/** The index of the tool's own word in a command's words, after launchers, their flags and env assignments. */
function toolIndex(words: readonly string[]): number {
  let i = 0;
  while (
    i < words.length &&
    (LAUNCHERS.has(words[i]!) || /^\w+=/.test(words[i]!) || (i > 0 && words[i]!.startsWith('-')) || /^(?:pnpm|yarn|bun)$/.test(words[i]!))
  )
    i++;
  return i;
}

/** A command's text in words as written (quotes kept), so a twin changes only the flags and keeps every other word as it was. */
export const writtenWords = (text: string): string[] => text.match(/(?:[^\s"']+|"(?:[^"\\]|\\.)*"|'[^']*')+/g) ?? [];

const FIX_FLAGS = new Set(['--fix', '--write', '--apply', '--apply-unsafe', '--unsafe', '--fix-type', '--unsafe-fixes', '--fix-only']);

/**
 * One command's words as written (`writtenWords`: quotes kept), read: whether it writes files, and its
 * twin (the words joined again) that checks the same files without writing.
 */
export function readCheckCommand(words: readonly string[]): CheckReading {
  const at = toolIndex(words);
  const tool = (words[at] ?? '').replace(/^.*\//, '');
  const args = words.slice(at + 1);
  const has = (...flags: string[]) => args.some((a) => flags.includes(a) || flags.some((f) => a.startsWith(`${f}=`)));
  const head = words.slice(0, at + 1);
  const join = (rest: readonly string[]) => [...head, ...rest].join(' ');
  const dropFix = () => {
    const rest: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--fix-type') i++;
      else if (!FIX_FLAGS.has(a) && !/^--(?:fix|write|unsafe)=/.test(a)) rest.push(a);
    }
    return join(rest);
  };
  const flag = args.find((a) => FIX_FLAGS.has(a) || /^--(?:fix|write|unsafe)=/.test(a));
  switch (tool) {
    case 'eslint':
    case 'xo':
    case 'standard':
    case 'stylelint':
    case 'oxlint':
    case 'markdownlint':
    case 'markdownlint-cli2':
    case 'biome':
      return flag === undefined ? { writes: false } : { writes: true, why: `\`${flag}\` rewrites files`, twin: dropFix() };
    case 'prettier': {
      if (!has('--write', '-w')) return { writes: false };
      return {
        writes: true,
        why: '`prettier --write` rewrites files',
        twin: join(args.map((a) => (a === '--write' || a === '-w' ? '--check' : a))),
      };
    }
    case 'ruff': {
      if (args[0] === 'format')
        return has('--check', '--diff')
          ? { writes: false }
          : { writes: true, why: '`ruff format` rewrites files', twin: join([...args, '--check']) };
      return flag === undefined ? { writes: false } : { writes: true, why: `\`ruff ${flag}\` rewrites files`, twin: dropFix() };
    }
    case 'black':
      return has('--check', '--diff')
        ? { writes: false }
        : { writes: true, why: '`black` rewrites files', twin: join(['--check', ...args]) };
    case 'isort':
      return has('--check', '--check-only', '-c', '--diff')
        ? { writes: false }
        : { writes: true, why: '`isort` rewrites files', twin: join(['--check-only', ...args]) };
    case 'dprint':
      return args[0] === 'fmt'
        ? { writes: true, why: '`dprint fmt` rewrites files', twin: join(['check', ...args.slice(1)]) }
        : { writes: false };
    case 'gofmt':
    case 'goimports':
      return has('-w') ? { writes: true, why: `\`${tool} -w\` rewrites files` } : { writes: false };
    case 'cargo':
      return args[0] === 'fmt' && !has('--check')
        ? { writes: true, why: '`cargo fmt` rewrites files', twin: join([...args, '--check']) }
        : args[0] === 'clippy' && has('--fix')
          ? { writes: true, why: '`cargo clippy --fix` rewrites files', twin: dropFix() }
          : { writes: false };
    default:
      return flag === undefined ? { writes: false } : { writes: true, why: `\`${flag}\` rewrites files` };
  }
}

/**
 * A package.json script read command by command (a script it runs through the package manager, `npm
 * run fmt`, read too, a few deep): whether any of its commands writes files, and the script's twin: its
 * commands, each writing one replaced by its twin, joined by `&&`. No twin when a writing command has
 * none, when one is reached through another script, or when the commands are not a plain `&&` chain.
 */
export function readCheckScript(script: string, scripts: Readonly<Record<string, string>>, depth = 3): CheckReading {
  const commands = shellCommands(script).filter((c) => c.words.length > 0);
  let writes: { why: string } | undefined;
  let twinable = commands.every((c, i) => c.then === (i === commands.length - 1 ? '' : '&&'));
  const twin: string[] = [];
  for (const c of commands) {
    const target = managerTarget(c.words)?.script;
    if (target !== undefined && scripts[target] !== undefined && depth > 0) {
      const inner = readCheckScript(scripts[target]!, scripts, depth - 1);
      if (inner.writes) {
        writes ??= { why: `\`${target}\`: ${inner.why}` };
        twinable = false;
      }
      twin.push(c.text);
      continue;
    }
    const r = readCheckCommand(writtenWords(c.text));
    if (r.writes) {
      writes ??= { why: r.why };
      if (r.twin === undefined) twinable = false;
      else twin.push(r.twin);
    } else twin.push(c.text);
  }
  if (writes === undefined) return { writes: false };
  return { writes: true, why: writes.why, ...(twinable && { twin: twin.join(' && ') }) };
}
