/** The words of a command that name a runner by its shape: the command's own name, and the module a Python command runs. Pure. */

/** A command word without its path: `./node_modules/.bin/jest` is `jest`. */
export const base = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/**
 * The module a Python command runs: `python3 -m unittest`, `python -X dev -W error -m pytest`,
 * `python -munittest`, and through coverage (`coverage run -m unittest`, `python -m coverage run
 * --branch -m pytest`). Undefined for a script (`python manage.py test`) or no `-m`.
 */
export function pythonModule(words: readonly string[]): string | undefined {
  return pythonModuleWords(words)?.[0];
}

/**
 * The words of a Python command from the module it runs on, as though the module were the command:
 * `python3 -m ruff check src` is `ruff check src`. Undefined where pythonModule is.
 */
export function pythonModuleWords(words: readonly string[]): readonly string[] | undefined {
  const b = base(words[0] ?? '');
  let i = 1;
  if (b === 'coverage') {
    if (words[1] !== 'run') return undefined;
    i = 2;
  } else if (!/^python[\d.]*$/.test(b)) return undefined;
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-m') {
      if (words[i + 1] === undefined) return undefined;
      return words[i + 1] === 'coverage' && b !== 'coverage' ? pythonModuleWords(['coverage', ...words.slice(i + 2)]) : words.slice(i + 1);
    }
    if (/^-m\w/.test(w)) return [w.slice(2), ...words.slice(i + 1)];
    if (w === '-c' || !w.startsWith('-')) return undefined;
    // Options that take the next word (python's -W and -X; coverage's, when written apart from their value).
    if (/^(?:-[WX]|--(?:rcfile|source|include|omit|data-file|context|concurrency))$/.test(w)) i++;
  }
  return undefined;
}

/**
 * go's subcommand and the folder `-C dir` (go 1.20: first, before the subcommand) makes it run in:
 * `go -C backend test ./...` is `test` in `backend`. Undefined for a command that is not go's.
 */
export function goCommand(words: readonly string[]): { sub?: string; dir?: string } | undefined {
  if (base(words[0] ?? '') !== 'go') return undefined;
  const w = words[1];
  if (w === '-C' || w === '--C')
    return { ...(words[3] !== undefined && { sub: words[3] }), ...(words[2] !== undefined && { dir: words[2] }) };
  if (w !== undefined && /^--?C=/.test(w)) return { ...(words[2] !== undefined && { sub: words[2] }), dir: w.slice(w.indexOf('=') + 1) };
  return w === undefined ? {} : { sub: w };
}

/** `python manage.py test`, `python -W error manage.py test app`, `./manage.py test`, `django-admin test`. */
export function djangoTest(words: readonly string[]): boolean {
  const b = base(words[0] ?? '');
  if (b === 'manage.py' || b === 'django-admin') return words[1] === 'test';
  if (!/^python\d*(?:\.\d+)?$/.test(b)) return false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-m' || w === '-c' || /^-[mc]./.test(w)) return false;
    if (w === '-W' || w === '-X') i++;
    else if (!w.startsWith('-')) return base(w) === 'manage.py' && words[i + 1] === 'test';
  }
  return false;
}
