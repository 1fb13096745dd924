/**
 * GATE_LADDER_DEBUG through real pushes: each cache consulted and its answer, the isolation decision
 * and why, each git and gate process started; a namespace list says only those; without the variable,
 * not one line.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LADDER_FILES, type Repo, withRepo } from '../helpers/repo.js';

const ladder = <T>(fn: (repo: Repo) => Promise<T> | T) => withRepo({ files: LADDER_FILES }, fn);

/** The debug lines of a run's stderr, their time taken out: `<namespace>: <text>`. */
function debugLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('gate-ladder:debug '))
    .map((l) => {
      const m = /^gate-ladder:debug \d+\.\dms (\w+: .*)$/.exec(l);
      assert.ok(m, `a debug line has its time in ms and a namespace: ${l}`);
      return m![1]!;
    });
}

const has = (lines: string[], pattern: RegExp) =>
  assert.ok(
    lines.some((l) => pattern.test(l)),
    `${pattern} in:\n${lines.join('\n')}`,
  );

test('GATE_LADDER_DEBUG=1: the caches and their answers, where gates run and why, each git and gate process; none without it', () =>
  ladder((repo) => {
    // The remote turns the first push away after the hook has passed: the second finds the tree cached.
    const hook = join(repo.remote, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\nif [ ! -f refused ]; then touch refused; echo "remote busy"; exit 1; fi\n');
    chmodSync(hook, 0o755);
    repo.write('src/other.txt', 'fine\n');
    repo.commit('clean');
    const first = repo.push(['origin', 'HEAD'], { GATE_LADDER_DEBUG: '1' });
    assert.is.not(first.code, 0, 'the remote refused it');
    const lines = debugLines(first.stderr);
    has(lines, /^cache: config cache for \S*gate-ladder\.config\.ts: (hit|miss: loading it)$/);
    has(lines, /^cache: range cache [0-9a-f]{40} [0-9a-f]{40}: (hit|miss)$/);
    has(lines, /^cache: tree cache for refs\/heads\/main: miss \(tree [0-9a-f]{40}\)$/);
    has(lines, /^isolation: refs\/heads\/main: in place \(the working tree is the commit judged, with no uncommitted change\)$/);
    has(lines, /^git: git \S+.* \(in .+\)$/);
    has(lines, /^gate: t1-properties: .*check\.sh properties.* \(in .+\)$/);
    has(lines, /^gate: t2-fixtures: .*check\.sh fixtures.* \(in .+\)$/);

    // A namespace list: only those namespaces; the tree that passed is a cache hit.
    const second = repo.push(['origin', 'HEAD'], { GATE_LADDER_DEBUG: 'cache' });
    assert.is(second.code, 0, second.out);
    const cached = debugLines(second.stderr);
    has(cached, /^cache: config cache for \S*gate-ladder\.config\.ts: hit$/);
    has(cached, /^cache: tree cache for refs\/heads\/main: hit \(tree [0-9a-f]{40}, run \S+\)$/);
    assert.ok(
      cached.every((l) => l.startsWith('cache: ')),
      cached.join('\n'),
    );

    // Uncommitted changes: the gates run in a slot of the worktree pool, made, then reused.
    repo.write('src/value.txt', 'good, and more\n');
    repo.commit('more');
    repo.write('src/other.txt', 'not committed\n');
    const dirty = repo.push(['origin', 'HEAD'], { GATE_LADDER_DEBUG: 'isolation,cache' });
    assert.is(dirty.code, 0, dirty.out);
    const isolated = debugLines(dirty.stderr);
    has(isolated, /^isolation: refs\/heads\/main: in a worktree \(the working tree has uncommitted changes\)$/);
    has(isolated, /^cache: worktree pool: slot .+ made$/);
    repo.write('src/value.txt', 'good, and still more\n');
    repo.commit('still more');
    repo.write('src/other.txt', 'not committed either\n');
    const again = debugLines(repo.push(['origin', 'HEAD'], { GATE_LADDER_DEBUG: 'cache' }).stderr);
    has(again, /^cache: worktree pool: slot .+ reused \(moved to the commit\)$/);

    repo.write('src/value.txt', 'good, once more\n');
    repo.commit('once more');
    const quiet = repo.push(['origin', 'HEAD']);
    assert.is(quiet.code, 0, quiet.out);
    assert.not.match(quiet.stderr, 'gate-ladder:debug');
  }));

test.run();
