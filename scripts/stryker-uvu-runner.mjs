// A StrykerJS test runner for uvu (stryker.config.json `testRunner: "uvu"`), written against StrykerJS's
// public plugin API, for `npm run test:mutation` (docs/testing.md, "Mutation testing").
//
// Each StrykerJS worker is one Node process. It imports the mutated modules, then the unit test files
// listed in scripts/mutation-tests.json, from the build of scripts/mutation-build.mjs, once; then it
// runs their suites again for every mutant. StrykerJS's mutant schemata switch a mutant on by
// `__stryker__.activeMutant`, so a mutant costs no process start and no module load. StrykerJS's first
// run (`dryRun`) records which tests reach each mutant (perTest coverage); a mutant's run reruns only
// the uvu suites holding such a test, and in them only those tests (scripts/mutation-uvu.mjs lets it
// skip the others), and stops at the first failing suite.
//
// Where a mutant is reached decides how it runs:
// - in a test, or a suite's hooks: the suite runs again with the mutant on;
// - in a test file's top-level code (inputs and expectations built when the file loads): the file is
//   imported again, under a fresh URL, with the mutant on, and its new suites run (`loadHits`);
// - in a mutated module's own top-level code (a table built when it loads): StrykerJS calls it static
//   and, since this runner cannot reload a module (`reloadEnvironment: false`), starts a fresh process
//   that loads everything with the mutant on and runs every suite.
//
// What this relies on in uvu 0.5 (test/unit/mutation-runner.test.ts runs it on a small suite):
// - with `globalThis.UVU_DEFER` set, a test file's `test.run()` queues its suite in
//   `UVU_QUEUE[UVU_INDEX]` as a function that runs the suite's hooks and tests each time it is called,
//   and returns `[errors or true, passed, skipped, total]`;
// - before each test uvu sets `state.__test__` to its name on the suite's state (a plain object), and
//   after it writes "• " (passed) or "✘ " (failed) through `process.stdout.write`.
// A setter for `__test__` on Object.prototype names the running test to StrykerJS's coverage counter
// (`__stryker__.currentTestId`); the marks, read while a run lasts, give each test's outcome.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { INSTRUMENTER_CONSTANTS as C } from '@stryker-mutator/api/core';
import { PluginKind, declareClassPlugin } from '@stryker-mutator/api/plugin';
import { DryRunStatus, MutantRunStatus, TestStatus, determineHitLimitReached } from '@stryker-mutator/api/test-runner';

const ns = () => {
  globalThis[C.NAMESPACE] ??= {};
  return globalThis[C.NAMESPACE];
};
const plain = (s) => String(s).replace(/\x1b\[[0-9;]*m/g, '');
const fileOf = (key) => key.slice(0, key.lastIndexOf('#'));
/** A test's id starts with its suite's key (`file#index`) and a space. */
const suiteKey = (id) => id.slice(0, id.indexOf(' '));
const loadId = (file) => `${file} (load)`;
const hooksId = (key) => `${key} (hooks)`;
/** Shared with scripts/mutation-uvu.mjs: whether the test uvu is starting is to be skipped. */
const gate = (globalThis.__glMutationGate ??= { skip: false });

/** What `npm run test:mutation` runs, read from the sandbox StrykerJS runs in. */
const fromProject = () => ({
  dir: 'build/test/unit',
  files: JSON.parse(readFileSync('scripts/mutation-tests.json', 'utf8')).run,
  modules: JSON.parse(readFileSync('stryker.config.json', 'utf8')).mutate.map((f) => `build/${f.replace(/\.ts$/, '.js')}`),
});

export class UvuTestRunner {
  static inject = [];
  /** @type {{ dir: string, files: string[], modules: string[] }} */
  setup;
  /** @type {{ key: string, run: () => Promise<[string | true, number, number, number]> }[] | undefined} */
  suites;
  /** For each test file, the mutants its top-level code reaches while it loads. */
  loadHits = new Map();
  /** The run in progress: its results, the suite and the test running. */
  run;
  imports = 0;

  constructor(setup) {
    this.setup = setup;
  }

  capabilities() {
    return { reloadEnvironment: false };
  }

  async init() {
    this.setup ??= fromProject();
    process.env.GL_MUTATION = '1';
    process.env.NO_COLOR = '1';
    globalThis.UVU_DEFER = 1;
    const runner = this;
    const names = new WeakMap();
    Object.defineProperty(Object.prototype, '__test__', {
      configurable: true,
      get() {
        return names.get(this);
      },
      set(name) {
        names.set(this, name);
        if (runner.run !== undefined && name !== '') runner.startTest(name);
      },
    });
  }

  /** Imports a test file (again, under a fresh URL, when `fresh`) and returns the suites it queued. */
  async importFile(file, fresh) {
    const queue = globalThis.UVU_QUEUE;
    const index = queue.length;
    globalThis.UVU_INDEX = index;
    queue.push([file]);
    const url = pathToFileURL(resolve(this.setup.dir, `${file}.test.js`)).href;
    try {
      await import(fresh ? `${url}?mutant=${++this.imports}` : url);
      return queue[index].slice(1).map((run, i) => ({ key: `${file}#${i}`, run }));
    } finally {
      queue[index].length = 0;
    }
  }

  async load() {
    if (this.suites !== undefined) return;
    const n = ns();
    n[C.MUTATION_COVERAGE_OBJECT] ??= { static: {}, perTest: {} };
    const coverage = n[C.MUTATION_COVERAGE_OBJECT];
    await import('uvu');
    // The mutated modules first, so what their own top-level code reaches is static coverage and
    // what a test file's top-level code reaches is that file's.
    n[C.CURRENT_TEST_ID] = undefined;
    for (const m of this.setup.modules) await import(pathToFileURL(resolve(m)).href);
    const suites = [];
    try {
      for (const file of this.setup.files) {
        n[C.CURRENT_TEST_ID] = loadId(file);
        suites.push(...(await this.importFile(file, false)));
        this.loadHits.set(file, new Set(Object.keys(coverage.perTest[loadId(file)] ?? {})));
      }
    } finally {
      n[C.CURRENT_TEST_ID] = undefined;
    }
    this.suites = suites;
  }

  startTest(name) {
    const r = this.run;
    r.ordinal += 1;
    const id = `${r.suite.key} ${name}${r.seen.has(name) ? ` (${r.ordinal})` : ''}`;
    r.seen.add(name);
    gate.skip = r.wanted !== undefined && !r.wanted.has(id);
    r.test = { id, start: performance.now(), skipped: gate.skip };
    ns()[C.CURRENT_TEST_ID] = id;
  }

  endTest(passed) {
    const r = this.run;
    const t = r.test;
    if (t === undefined) return;
    r.test = undefined;
    gate.skip = false;
    if (t.skipped && passed) return;
    const timeSpentMs = Math.max(0, Math.round(performance.now() - t.start));
    const fileName = `${this.setup.dir}/${fileOf(r.suite.key)}.test.js`;
    r.results.push(
      passed
        ? { id: t.id, name: t.id, fileName, status: TestStatus.Success, timeSpentMs }
        : { id: t.id, name: t.id, fileName, status: TestStatus.Failed, timeSpentMs, failureMessage: 'failed' },
    );
    // The hooks after a test count for the suite as a whole.
    ns()[C.CURRENT_TEST_ID] = hooksId(r.suite.key);
  }

  /**
   * Runs the suites in their order, stopping after the first that fails when `bail`; of their tests
   * only those `wanted` (all when undefined), though their hooks all run.
   */
  async runSuites(suites, bail, wanted) {
    const write = process.stdout.write;
    const results = [];
    let failures = '';
    process.stdout.write = (chunk) => {
      const s = plain(chunk);
      if (s === '• ') this.endTest(true);
      else if (s === '✘ ') this.endTest(false);
      return true;
    };
    try {
      for (const suite of suites) {
        this.run = { suite, results: [], seen: new Set(), ordinal: 0, test: undefined, wanted };
        ns()[C.CURRENT_TEST_ID] = hooksId(suite.key);
        let [errors, , , total] = await suite.run().catch((e) => [String(e?.stack ?? e), 0, 0, 0]);
        const ran = this.run.results;
        // uvu's suite returns normally when a `before` hook throws (its `finally` returns): the tests
        // that never ran fail the suite here.
        if (errors === true && this.run.ordinal < total)
          errors = `${suite.key}: ${total - this.run.ordinal} of ${total} tests did not run (a hook failed)`;
        if (errors !== true)
          for (const t of ran) if (t.status === TestStatus.Failed) t.failureMessage = plain(errors).trim().slice(0, 2000);
        results.push({ suite, tests: ran });
        if (errors !== true) {
          failures ||= plain(errors).trim();
          if (bail) break;
        }
      }
    } finally {
      this.run = undefined;
      gate.skip = false;
      ns()[C.CURRENT_TEST_ID] = undefined;
      process.stdout.write = write;
    }
    return { results, failures };
  }

  async dryRun(options) {
    const n = ns();
    n[C.ACTIVE_MUTANT] = undefined;
    n[C.MUTATION_COVERAGE_OBJECT] = { static: {}, perTest: {} };
    try {
      await this.load();
      const { results } = await this.runSuites(this.suites, false);
      const perTest = n[C.MUTATION_COVERAGE_OBJECT].perTest;
      // A test reaches what its suite's hooks reach (they run with it), and what its file's
      // top-level code reaches (the file is imported again for such a mutant).
      for (const { suite, tests } of results) {
        for (const extra of [perTest[hooksId(suite.key)], perTest[loadId(fileOf(suite.key))]]) {
          if (extra === undefined) continue;
          for (const t of tests) {
            const own = (perTest[t.id] ??= {});
            for (const [id, hits] of Object.entries(extra)) own[id] = (own[id] ?? 0) + hits;
          }
        }
      }
      for (const key of Object.keys(perTest)) if (key.endsWith(' (hooks)') || key.endsWith(' (load)')) delete perTest[key];
      return {
        status: DryRunStatus.Complete,
        tests: results.flatMap((r) => r.tests),
        ...(options.coverageAnalysis !== 'off' && { mutantCoverage: n[C.MUTATION_COVERAGE_OBJECT] }),
      };
    } catch (e) {
      return { status: DryRunStatus.Error, errorMessage: String(e?.stack ?? e) };
    }
  }

  async mutantRun(options) {
    const n = ns();
    const id = options.activeMutant.id;
    const killed = (why) => ({ status: MutantRunStatus.Killed, killedBy: [], failureMessage: why, nrOfTests: 0 });
    n[C.HIT_COUNT] = options.hitLimit === undefined ? undefined : 0;
    n[C.HIT_LIMIT] = options.hitLimit;
    let outcome;
    try {
      // A static mutant is on while everything loads (in a fresh process); the others once loaded.
      if (options.mutantActivation === 'static') n[C.ACTIVE_MUTANT] = id;
      try {
        await this.load();
      } catch (e) {
        return killed(`the tests did not load: ${e?.message ?? e}`);
      }
      n[C.ACTIVE_MUTANT] = id;
      const filter = options.testFilter === undefined ? undefined : new Set(options.testFilter.map(suiteKey));
      let suites = filter === undefined ? this.suites : this.suites.filter((s) => filter.has(s.key));
      if (options.mutantActivation !== 'static') {
        const files = [...new Set(suites.map((s) => fileOf(s.key)))].filter((f) => this.loadHits.get(f)?.has(id));
        for (const file of files) {
          let fresh;
          try {
            fresh = await this.importFile(file, true);
          } catch (e) {
            return killed(`${file}.test.js did not load: ${e?.message ?? e}`);
          }
          suites = suites.flatMap((s) => (fileOf(s.key) === file ? fresh.filter((f) => f.key === s.key) : [s]));
        }
      }
      n[C.MUTATION_COVERAGE_OBJECT] = { static: {}, perTest: {} };
      outcome = await this.runSuites(suites, !options.disableBail, options.testFilter && new Set(options.testFilter));
    } finally {
      n[C.ACTIVE_MUTANT] = undefined;
    }
    const limit = determineHitLimitReached(n[C.HIT_COUNT], n[C.HIT_LIMIT]);
    n[C.HIT_LIMIT] = undefined;
    n[C.HIT_COUNT] = undefined;
    if (limit !== undefined) return { status: MutantRunStatus.Timeout, reason: limit.reason };
    const tests = outcome.results.flatMap((r) => r.tests);
    const failed = tests.filter((t) => t.status === TestStatus.Failed);
    if (failed.length > 0 || outcome.failures !== '')
      return {
        status: MutantRunStatus.Killed,
        killedBy: failed.map((t) => t.id),
        failureMessage: (failed[0]?.failureMessage ?? outcome.failures).slice(0, 2000),
        nrOfTests: tests.length,
      };
    return { status: MutantRunStatus.Survived, nrOfTests: tests.length };
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'uvu', UvuTestRunner)];
