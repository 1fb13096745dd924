import { writeSync } from './node.js';
import { shown } from './escape.js';

/**
 * `GATE_LADDER_DEBUG`: what a run did, on stderr, each line with the milliseconds since the process
 * started. `1` (or `*`, `all`) says everything; a comma list says only those namespaces:
 *
 * - `cache`: each cache consulted and its answer (config, tree, range, worktree pool slot)
 * - `isolation`: where the gates run, and why
 * - `git`: each git process started (its argv)
 * - `gate`: each gate process started (its argv)
 *
 * The variable is read once, when this module loads; off, `debugFor` returns undefined and a call
 * site `say?.(\`...\`)` builds no text at all.
 */
export type DebugNamespace = 'cache' | 'isolation' | 'git' | 'gate';

const wanted: ReadonlySet<string> | 'all' | undefined = parse(process.env.GATE_LADDER_DEBUG);

function parse(value: string | undefined): ReadonlySet<string> | 'all' | undefined {
  if (value === undefined || value === '' || value === '0') return undefined;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.some((n) => n === '1' || n === '*' || n === 'all' || n === 'true')) return 'all';
  return names.length === 0 ? undefined : new Set(names);
}

/** The writer of a namespace's lines, or undefined when it is off. */
export function debugFor(ns: DebugNamespace): ((line: string) => void) | undefined {
  if (wanted === undefined || (wanted !== 'all' && !wanted.has(ns))) return undefined;
  return (line) => {
    try {
      writeSync(2, `gate-ladder:debug ${performance.now().toFixed(1)}ms ${ns}: ${shown(line)}\n`);
    } catch {
      // stderr closed or full: debug lines are not worth failing a run for.
    }
  };
}

/** A process's argv as one line, each word quoted when it holds anything a shell would read (escaped when printed). */
export function argvLine(file: string, args: readonly string[]): string {
  return [file, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
