/**
 * tox and nox run the tests inside environments they make themselves, and exit 1 whatever failed: a
 * test, a test module that cannot import, no tests collected, or the environment itself (a dependency
 * pip cannot install, an interpreter not found). Their output says which command failed and its own
 * exit code; that command names the runner whose output is read, with that code. Pure.
 */

export type EnvTool = 'tox' | 'nox';

/** What tox or nox said failed first: a command with its own exit code, or the environment itself. */
export type EnvToolFailure = { command: string; code: number } | { setup: string };

// tox 3: `ERROR: InvocationError for command /p/.tox/py/bin/python -m pytest tests (exited with code 2)`.
const TOX3_COMMAND = /^ERROR: InvocationError for command (.+) \(exited with code (\d+)\)$/;
// tox 4: `py: exit 2 (0.41 seconds) /p> python -m pytest tests pid=123`.
const TOX4_COMMAND = /^[\w.-]+: exit (\d+) \([\d.]+ seconds\) .*?> (.+?) pid=\d+$/;
// nox: `nox > Command python -m pytest failed with exit code 2`.
const NOX_COMMAND = /^nox > Command (.+) failed with exit code (\d+):?$/;
/** A command that installs or makes the environment, not tests: its failure is the environment's. */
const INSTALL =
  /(?:^|\s|[\\/])(?:pip\d*(?:\.\d+)?|-m pip|uv(?:\.exe)? pip) install\b|(?:^|\s|[\\/])(?:poetry|pdm|uv(?:\.exe)?) (?:install|sync|venv)\b|(?:^|\s|[\\/])virtualenv\b/;
// The environment could not be made: tox 3's deps or interpreter, tox 4's interpreter, nox's.
const SETUP =
  /^ERROR: (?:could not install deps\b|.*\bInterpreterNotFound\b)|^\S+: skipped because could not find python interpreter|^nox > Session \S+ (?:skipped|failed): Python interpreter \S+ not found/;

/** The first failure tox or nox reports in `lines`, or undefined when it names none. */
export function envToolFailure(lines: readonly string[]): EnvToolFailure | undefined {
  for (const l of lines) {
    let command: string | undefined;
    let code = 0;
    const t3 = TOX3_COMMAND.exec(l);
    const t4 = t3 ? undefined : TOX4_COMMAND.exec(l);
    const nx = t3 || t4 ? undefined : NOX_COMMAND.exec(l);
    if (t3) [command, code] = [t3[1]!, Number(t3[2])];
    else if (t4) [command, code] = [t4[2]!, Number(t4[1])];
    else if (nx) [command, code] = [nx[1]!, Number(nx[2])];
    else if (SETUP.test(l)) return { setup: l };
    if (command !== undefined) return INSTALL.test(command) ? { setup: l } : { command, code };
  }
  return undefined;
}

/** tox 3's own config errors: `tox.exception.ConfigError: ConfigError: ...` (a crash in reading it too), its ini parser's `...iniconfig.ParseError: /p/tox.ini:1: unexpected line: 'x'`. */
const TOX_CONFIG_ERROR = /^(?:tox\.exception\.ConfigError|\S*iniconfig\.ParseError): \S/;

/**
 * The line in which tox says it could not read its config (tox.ini, or its section of setup.cfg or
 * pyproject.toml), before any environment or command. Pure.
 */
export function toxConfigError(lines: readonly string[]): string | undefined {
  return lines.find((l) => TOX_CONFIG_ERROR.test(l));
}
