/**
 * Cases that need a system tool the README's quick start does not install (tox, pytest-cov, flake8):
 * on a machine without it, the case is skipped with one line saying what to install; where the tools
 * are required (`.ci/run` sets GATE_LADDER_REQUIRE_TOOLS=1, having installed them), the case runs and
 * fails, so a CI that lost a package cannot pass by skipping.
 */
export function toolPresent(what: string, present: boolean, install: string): boolean {
  if (present || process.env.GATE_LADDER_REQUIRE_TOOLS === '1') return true;
  process.stdout.write(`skipped: ${what}: not installed here (${install})\n`);
  return false;
}
