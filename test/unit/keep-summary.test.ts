/**
 * A runner's summary survives a long output: every captured output of a runner (test/fixtures/failures/
 * and test/fixtures/runners/), read from only the lines its record keeps (`keep`: what the gate holds
 * from before the output's last 64 kB), gives the counts the whole output gives. In an npm workspaces
 * run each workspace prints its own summary, and a later workspace's long output pushed an early one's
 * out of the tail: a vitest workspace that passed read as "exit 0 without a vitest summary".
 * TAP (tap, tape, ava --tap) is counted from every result line and pytest's summary from its last line
 * with the runs; those readings are not kept apart yet, and are listed as such.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allProfiles, keepFor, outputLines } from '../../src/verdict/runner-output.js';
import type { RunnerName } from '../../src/types.js';

const PROFILES = await allProfiles();
const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');

/** Readings whose summary needs more than the lines kept: every TAP result line, pytest's. */
const NOT_KEPT = (runner: string, file: string) =>
  runner === 'tap' || runner === 'tape' || runner === 'pytest' || (runner === 'ava' && file.startsWith('tap'));

const counts = (s: { failed: number; passed: number; total: number } | undefined) =>
  s && { failed: s.failed, passed: s.passed, total: s.total };

test("every captured output's summary reads the same from the lines its runner's record keeps", () => {
  let checked = 0;
  for (const folder of ['failures', 'runners']) {
    for (const runner of readdirSync(resolve(FIXTURES, folder))) {
      const profile = PROFILES[runner as RunnerName];
      if (!profile || !existsSync(resolve(FIXTURES, folder, runner))) continue;
      const keep = keepFor(runner as RunnerName);
      for (const file of readdirSync(resolve(FIXTURES, folder, runner))) {
        if (!file.endsWith('.txt') || NOT_KEPT(runner, file)) continue;
        const lines = outputLines(readFileSync(resolve(FIXTURES, folder, runner, file), 'utf8'));
        const all = counts(profile.read(lines).summary);
        if (all === undefined) continue;
        const kept = counts(profile.read(keep ? lines.filter((l) => keep(l)) : []).summary);
        assert.equal(kept, all, `${folder}/${runner}/${file}`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 60, `read ${checked} outputs`);
});

test.run();
