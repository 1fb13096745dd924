import { readFileSync } from '../util/node.js';
import { createRequire } from '../util/node.js';
import { basename, relative } from 'node:path';
import { z } from 'zod';
import { DEFAULT_HOOKS, DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S, SEARCH_PLACES, defaultScope } from './defaults.js';
import { RUNNER_NAMES, runnerCaught } from './runner-names.js';
import type { GateLadderConfig } from '../types.js';
import type { ResolvedConfig } from './resolved.js';
import { readsFilesByHand, withImportedFiles } from './fs-reads.js';

export const MODULE_NAME = 'gate-ladder';

export { SEARCH_PLACES };

export type ConfigLoad =
  | { kind: 'none' }
  | { kind: 'invalid'; file: string; problems: string[]; missing?: MissingModule }
  | { kind: 'ok'; file: string; config: ResolvedConfig };

/** A module the config (or a file it imports) asked for and node could not find: `request` as written, in file `from`. */
export interface MissingModule {
  request: string;
  from: string;
}

const HOOKS = ['pre-push', 'pre-commit', 'manual', 'replay', 'seed'] as const;

const exitCode = z
  .number({ error: 'must be an exit code (an integer from 1 to 255)' })
  .int({ error: 'must be an exit code (an integer from 1 to 255)' })
  .min(1, { error: 'must be an exit code (an integer from 1 to 255)' })
  .max(255, { error: 'must be an exit code (an integer from 1 to 255)' });

const JUNIT_ERROR = 'must be a path to the JUnit XML report the gate writes';
const REPORT_FORMATS = ['junit', 'jest-json', 'vitest-json', 'go-json'] as const;
const REPORT_ERROR = "must be the path (relative to the tier's cwd) of the report the gate writes";
const RETRIES_ERROR = 'must be 0 or 1: how many times a gate whose tests failed runs again on the same code';
const PATHS_ERROR = "must be a list of path globs relative to the repository root, e.g. ['src/**', 'package.json']";
const RUN_ERROR = 'must be a command string or a non-empty argv array of strings';

const tierSchema = z.strictObject({
  name: z.string({ error: 'must be a non-empty string' }).regex(/^[\w.:-]+$/, {
    error: 'must be a non-empty name of letters, digits, ".", ":", "_" or "-"',
  }),
  run: z
    .union([z.string().trim().min(1, { error: RUN_ERROR }), z.array(z.string(), { error: RUN_ERROR }).min(1, { error: RUN_ERROR })], {
      error: RUN_ERROR,
    })
    .optional(),
  lintStaged: z
    .union(
      [
        z.literal(true),
        z.strictObject({
          configPath: z.string().min(1).optional(),
          config: z
            .union([z.record(z.string(), z.unknown()), z.custom<(files: readonly string[]) => unknown>((v) => typeof v === 'function')])
            .optional(),
          hideUnstaged: z.boolean().optional(),
          concurrent: z.union([z.boolean(), z.number().int().positive()]).optional(),
          continueOnError: z.boolean().optional(),
          relative: z.boolean().optional(),
          verbose: z.boolean().optional(),
          failOnChanges: z.boolean().optional(),
          allowEmpty: z.boolean().optional(),
        }),
      ],
      {
        error:
          'must be true or an object of lint-staged options (configPath, config, hideUnstaged, concurrent, continueOnError, relative, verbose, failOnChanges, allowEmpty)',
      },
    )
    .optional(),
  timeout: z
    .number({ error: 'must be a positive number of seconds' })
    .positive({ error: 'must be a positive number of seconds' })
    .max(MAX_TIMEOUT_S, {
      error: `must be at most ${MAX_TIMEOUT_S} seconds (about 24 days): Node's timers cannot wait longer, and a longer timeout would fire at once`,
    })
    .optional(),
  env: z.record(z.string(), z.string(), { error: 'must be an object of string values' }).optional(),
  cwd: z.string({ error: 'must be a path relative to the repository root' }).optional(),
  caught: z
    .array(exitCode, { error: 'must be a list of exit codes, e.g. [1]' })
    .min(1, {
      error: 'must list at least one exit code, e.g. [1]',
    })
    .optional(),
  skipWhenTestAdjacent: z.boolean({ error: 'must be true or false' }).optional(),
  paths: z
    .array(z.string({ error: PATHS_ERROR }).min(1, { error: PATHS_ERROR }), { error: PATHS_ERROR })
    .min(1, { error: PATHS_ERROR })
    .refine((g) => g.some((p) => !p.startsWith('!')), { error: 'must name at least one glob that is not a `!` exclusion' })
    .optional(),
  hooks: z.array(z.enum(HOOKS, { error: `must name hooks among ${HOOKS.join(', ')}` })).optional(),
  runner: z.enum(RUNNER_NAMES, { error: `must be one of ${RUNNER_NAMES.join(', ')}` }).optional(),
  junit: z.string({ error: JUNIT_ERROR }).min(1, { error: JUNIT_ERROR }).optional(),
  report: z
    .strictObject(
      {
        format: z.enum(REPORT_FORMATS, { error: `must be one of ${REPORT_FORMATS.join(', ')}` }),
        path: z.string({ error: REPORT_ERROR }).min(1, { error: REPORT_ERROR }),
      },
      { error: `must be { format, path } with format one of ${REPORT_FORMATS.join(', ')}` },
    )
    .optional(),
  allowNoTests: z.boolean({ error: 'must be true or false' }).optional(),
  cache: z.boolean({ error: 'must be true or false' }).optional(),
  retries: z
    .number({ error: RETRIES_ERROR })
    .int({ error: RETRIES_ERROR })
    .min(0, { error: RETRIES_ERROR })
    .max(1, { error: RETRIES_ERROR })
    .optional(),
});

const rate = (what: string) =>
  z
    .number({ error: `must be ${what}` })
    .min(0, { error: `must be ${what}` })
    .max(1, { error: `must be ${what}` });

const LEDGER_ERROR = 'must be a path relative to the repository root';
const BASE_ERROR = 'must be a revision such as origin/main';
const int = (what: string, min: number) =>
  z
    .number({ error: `must be ${what}` })
    .int({ error: `must be ${what}` })
    .min(min, { error: `must be ${what}` });

const configSchema = z.strictObject({
  scope: z
    .array(z.string({ error: 'must be a glob' }).min(1, { error: 'must be a non-empty glob' }), { error: 'must be a list of globs' })
    .optional(),
  tiers: z.array(tierSchema, { error: 'must be a list of tiers in cost order' }).min(1, {
    error: 'must list at least one tier',
  }),
  ledger: z.string({ error: LEDGER_ERROR }).min(1, { error: LEDGER_ERROR }).optional(),
  base: z.string({ error: BASE_ERROR }).min(1, { error: BASE_ERROR }).optional(),
  isolation: z.enum(['auto', 'worktree', 'none'], { error: 'must be "auto", "worktree" or "none"' }).optional(),
  calibrate: rate('a fraction from 0 to 1').optional(),
  calibrateHooks: z.boolean({ error: 'must be true or false' }).optional(),
  cache: z.boolean({ error: 'must be true or false' }).optional(),
  output: z.enum(['summary', 'all', 'failures'], { error: 'must be "summary", "all" or "failures"' }).optional(),
  runOnEmpty: z.boolean({ error: 'must be true or false' }).optional(),
  freeze: z
    .strictObject(
      {
        minRuns: int('an integer of at least 2', 2).optional(),
        minFlipRate: rate('a fraction from 0 to 1').optional(),
        maxExpiryDays: int('a positive number of days', 1).optional(),
      },
      { error: 'must be an object' },
    )
    .optional(),
  report: z
    .strictObject(
      {
        minAttempts: int('a positive integer', 1).optional(),
      },
      { error: 'must be an object' },
    )
    .optional(),
  order: z.enum(['fixed', 'predicted'], { error: 'must be "fixed" or "predicted"' }).optional(),
  select: z
    .strictObject(
      {
        risk: z
          .number({ error: 'must be a probability from 0 to 0.5' })
          .gt(0, { error: 'must be above 0' })
          .max(0.5, { error: 'must be at most 0.5' }),
      },
      { error: 'must be an object: { risk: 0.001 }' },
    )
    .optional(),
});

/** Fields a lintStaged tier cannot have: lint-staged runs and judges its own tasks. */
const NOT_FOR_LINT_STAGED = ['timeout', 'caught', 'runner', 'junit', 'report', 'allowNoTests', 'retries'] as const;

/** A tier is either a command (`run`) or lint-staged (`lintStaged`), and lint-staged runs on pre-commit only. */
function tierKindProblems(raw: unknown, file: string): string[] {
  const tiers = (raw as { tiers?: unknown } | null)?.tiers;
  if (!Array.isArray(tiers)) return [];
  const problems: string[] = [];
  tiers.forEach((t: unknown, i) => {
    if (t === null || typeof t !== 'object') return;
    const tier = t as Record<string, unknown>;
    const has = (k: string) => tier[k] !== undefined;
    if (has('junit') && has('report'))
      problems.push(
        `${file}: tiers[${i}] has both \`junit\` and \`report\`; keep one (\`junit: PATH\` is \`report: { format: 'junit', path: PATH }\`)`,
      );
    if (!has('run') && !has('lintStaged')) problems.push(`${file}: tiers[${i}].run ${RUN_ERROR} (or set \`lintStaged: true\` instead)`);
    if (!has('lintStaged')) return;
    if (has('run')) problems.push(`${file}: tiers[${i}] has both \`run\` and \`lintStaged\`; keep one`);
    for (const k of NOT_FOR_LINT_STAGED) {
      if (has(k))
        problems.push(`${file}: tiers[${i}].${k} does not apply to a lintStaged tier (lint-staged runs its own tasks); remove it`);
    }
    const hooks = tier.hooks;
    if (Array.isArray(hooks) && hooks.some((h) => h !== 'pre-commit')) {
      problems.push(`${file}: tiers[${i}].hooks: a lintStaged tier runs on pre-commit only (it checks the staged files)`);
    }
  });
  return problems;
}

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out;
}

/** Tier names used twice, read from the raw config: reported with every other problem, not after them. */
function duplicateNames(raw: unknown, file: string): string[] {
  const tiers = (raw as { tiers?: unknown } | null)?.tiers;
  if (!Array.isArray(tiers)) return [];
  const first = new Map<string, number>();
  const problems: string[] = [];
  tiers.forEach((t: unknown, i) => {
    const name = (t as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') return;
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, i);
    else problems.push(`${file}: tiers[${i}].name "${name}" is used by an earlier tier (tiers[${earlier}])`);
  });
  return problems;
}

/** The fields the schema knows for the object at `path` (through optional fields, lists and unions). Pure. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const unwrap = (t: unknown): unknown => {
    if (t instanceof z.ZodOptional || t instanceof z.ZodNullable || t instanceof z.ZodDefault) return unwrap(t.unwrap());
    if (t instanceof z.ZodUnion) return (t.options as unknown[]).map(unwrap).find((o) => o instanceof z.ZodObject);
    return t;
  };
  let at = unwrap(schema);
  for (const key of path) {
    if (at instanceof z.ZodArray) at = unwrap(at.element);
    else if (at instanceof z.ZodObject && typeof key === 'string') at = unwrap(at.shape[key]);
    else return [];
  }
  return at instanceof z.ZodObject ? Object.keys(at.shape) : [];
}

/** The known field a typo most likely meant: the same but for case, or one or two edits away (one for short names). Pure. */
function nearest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const same = known.find((k) => k.toLowerCase() === lower);
  if (same !== undefined) return same;
  const limit = key.length < 5 ? 1 : 2;
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d <= limit && (best === undefined || d < best.d)) best = { k, d };
  }
  return best?.k;
}

/** Levenshtein distance, an adjacent swap counting as one edit. Pure. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

/** Checks a raw config and lists every problem at once, each with its file and field. Pure. */
export function validateConfig(raw: unknown, file: string): { ok: true; config: ResolvedConfig } | { ok: false; problems: string[] } {
  const parsed = configSchema.safeParse(raw);
  const problems: string[] = [];
  const kinds = [...tierKindProblems(raw, file), ...duplicateNames(raw, file)];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const at = pathText(issue.path);
      if (issue.code === 'unrecognized_keys') {
        const known = keysAt(configSchema, issue.path);
        for (const key of issue.keys) {
          const near = nearest(key, known);
          problems.push(`${file}: ${at ? `${at}.` : ''}${key} is not a known field${near === undefined ? '' : ` (did you mean ${near}?)`}`);
        }
      } else {
        problems.push(`${file}: ${at || '(config)'} ${issue.message}`);
      }
    }
    return { ok: false, problems: [...problems, ...kinds] };
  }
  problems.push(...kinds);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, config: resolveConfig(parsed.data) };
}

/** Fills in every default. */
export function resolveConfig(cfg: GateLadderConfig): ResolvedConfig {
  return {
    scope: cfg.scope ?? [...defaultScope],
    tiers: cfg.tiers.map((t) => ({
      name: t.name,
      run: t.run ?? 'lint-staged',
      ...(t.lintStaged !== undefined && { lintStaged: t.lintStaged === true ? {} : t.lintStaged }),
      timeout: t.timeout ?? DEFAULT_TIMEOUT_S,
      env: t.env ?? {},
      cwd: t.cwd ?? '.',
      caught: t.caught ?? (t.runner && runnerCaught(t.runner)) ?? [1],
      ...(t.caught === undefined && { caughtByRunner: true as const }),
      skipWhenTestAdjacent: t.skipWhenTestAdjacent ?? false,
      hooks: t.hooks ?? (t.lintStaged ? ['pre-commit'] : [...DEFAULT_HOOKS]),
      ...(t.runner !== undefined && { runner: t.runner }),
      ...(t.junit !== undefined && { junit: t.junit, report: { format: 'junit' as const, path: t.junit } }),
      ...(t.report !== undefined && { report: t.report }),
      ...(t.allowNoTests !== undefined && { allowNoTests: t.allowNoTests }),
      ...(t.cache === false && { cache: false as const }),
      ...(t.retries ? { retries: t.retries } : {}),
      ...(t.paths !== undefined && { paths: t.paths }),
    })),
    ...(cfg.ledger !== undefined && { ledger: cfg.ledger }),
    ...(cfg.base !== undefined && { base: cfg.base }),
    isolation: cfg.isolation ?? 'auto',
    calibrate: cfg.calibrate ?? 0,
    calibrateHooks: cfg.calibrateHooks ?? false,
    cache: cfg.cache ?? true,
    output: cfg.output ?? 'summary',
    runOnEmpty: cfg.runOnEmpty ?? false,
    freeze: {
      minRuns: cfg.freeze?.minRuns ?? 20,
      minFlipRate: cfg.freeze?.minFlipRate ?? 0.02,
      maxExpiryDays: cfg.freeze?.maxExpiryDays ?? 90,
    },
    report: { minAttempts: cfg.report?.minAttempts ?? 30 },
    // Set only when written: the default leaves the resolved config (and its hash: the tree cache, replay keys) as before.
    ...(cfg.order !== undefined && { order: cfg.order }),
    ...(cfg.select !== undefined && { select: { risk: cfg.select.risk } }),
  };
}

// jiti records every file it evaluates in node's module cache: what a config loaded is what appeared there.
const moduleCache = createRequire(import.meta.url).cache;

/** What a script config exported, boxed: cosmiconfig takes a null or undefined config for no config at all. */
const EXPORTED = '__gateLadderExported';

/**
 * JavaScript and TypeScript configs load through jiti, so the files they import are known and the
 * config cache can tell when one changes. `gate-ladder` itself resolves to this running copy. The
 * module comes back as it is (jiti's interop would read `.then` of a null default export and throw):
 * its default export, else its named exports.
 */
async function loadScript(filepath: string): Promise<unknown> {
  const { createJiti } = await import('jiti');
  const lib: Record<string, unknown> = { ...(await import('../index.js')) };
  const jiti = createJiti(import.meta.url, {
    moduleCache: true,
    fsCache: false,
    interopDefault: false,
    virtualModules: { 'gate-ladder': lib },
  });
  let mod: Record<string, unknown> | null | undefined;
  try {
    mod = (await jiti.import(filepath)) as Record<string, unknown> | null | undefined;
  } catch (err) {
    // `throw 'a string'` or an object: an Error of our own, so cosmiconfig can name the file (it sets `filepath` on what was thrown).
    if (isErrorLike(err)) throw err;
    const what = err === null ? 'null' : typeof err === 'object' ? 'an object' : `a ${typeof err}`;
    throw new Error(`it threw ${typeof err === 'string' ? JSON.stringify(err.slice(0, 200)) : `${what}, not an Error`}`);
  }
  const value =
    mod === null || typeof mod !== 'object' ? mod : 'default' in mod ? mod.default : Object.keys(mod).length > 0 ? { ...mod } : undefined;
  // `export default someAsyncSetup()`: the config is what it settles to (one that never settles meets the worker's time limit).
  const settled =
    value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function' ? await value : value;
  return { [EXPORTED]: settled };
}

/** An Error, or an object like one whose `message` is a plain string (not a getter that throws). */
function isErrorLike(err: unknown): boolean {
  if (err === null || typeof err !== 'object' || !Object.isExtensible(err)) return false;
  const message =
    Object.getOwnPropertyDescriptor(err, 'message') ?? Object.getOwnPropertyDescriptor(Object.getPrototypeOf(err) ?? {}, 'message');
  return message !== undefined && 'value' in message && typeof message.value === 'string';
}

const SCRIPT_LOADERS = { '.ts': loadScript, '.mts': loadScript, '.js': loadScript, '.mjs': loadScript, '.cjs': loadScript };

/**
 * Finds and loads the repo's config with cosmiconfig. Never throws: failures are `invalid`.
 * `deps` lists every file the config read (itself included), for the config cache.
 */
export async function loadConfig(root: string): Promise<ConfigLoad & { raw?: unknown; deps?: string[]; readsFiles?: boolean }> {
  const mod = await import('cosmiconfig');
  // A CommonJS package: bundled into a split chunk, its exports sit on `default`.
  const cosmiconfig = mod.cosmiconfig ?? mod.default.cosmiconfig;
  const explorer = cosmiconfig(MODULE_NAME, {
    searchPlaces: [...SEARCH_PLACES],
    searchStrategy: 'none',
    cache: false,
    loaders: SCRIPT_LOADERS,
  });
  let found: { filepath: string; config: unknown; isEmpty?: boolean } | null;
  const before = new Set(Object.keys(moduleCache));
  try {
    found = await explorer.search(root);
  } catch (err) {
    const file = errorFile(err, root);
    const missing = missingModule(err);
    return {
      kind: 'invalid',
      file,
      problems: [syntaxProblem(err, root) ?? `${file}: could not be loaded: ${firstLine(err)}`],
      ...(missing && { missing }),
    };
  }
  if (found === null) return { kind: 'none' };
  const loaded = Object.keys(moduleCache).filter((f) => !before.has(f) && !f.includes('/node_modules/jiti/'));
  // Forget them, so a later load in this process reads the files again.
  for (const f of loaded) delete moduleCache[f];
  // What the module cache shows, and what their sources import that it does not (an ES module node loaded itself).
  const deps = withImportedFiles([...new Set([found.filepath, ...loaded])]);
  const file = relative(root, found.filepath) || basename(found.filepath);
  const boxed = found.config !== null && typeof found.config === 'object' && EXPORTED in found.config;
  const raw = boxed ? (found.config as Record<string, unknown>)[EXPORTED] : unwrapDefault(found.config);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const what = raw === undefined ? 'nothing' : raw === null ? 'null' : Array.isArray(raw) ? 'a list' : `a ${typeof raw}`;
    return {
      kind: 'invalid',
      file,
      problems: [
        `${file}: exports nothing usable (${boxed ? 'its default export is' : 'it holds'} ${what}); it should ${boxed ? 'be `export default defineConfig({ tiers: [...] })`' : 'hold an object with `tiers`'}`,
      ],
    };
  }
  const checked = validateConfig(raw, file);
  if (!checked.ok) return { kind: 'invalid', file, problems: checked.problems };
  return { kind: 'ok', file, config: checked.config, raw, deps, ...(readsFilesByHand(deps) && { readsFiles: true }) };
}

function unwrapDefault(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'default' in value && Object.keys(value).length === 1) {
    return (value as { default: unknown }).default;
  }
  return value;
}

function errorFile(err: unknown, root: string): string {
  const path = (err as { filepath?: unknown })?.filepath;
  return typeof path === 'string' ? relative(root, path) : 'config';
}

/** Node's MODULE_NOT_FOUND, as jiti throws it: "Cannot find module './x'", and the importing file first in `requireStack`. */
function missingModule(err: unknown): MissingModule | undefined {
  const e = err as { code?: unknown; message?: unknown; requireStack?: unknown } | null;
  if (e?.code !== 'MODULE_NOT_FOUND' || !Array.isArray(e.requireStack) || typeof e.requireStack[0] !== 'string') return undefined;
  const m = /^Cannot find module '([^'\n]+)'/.exec(String(e.message));
  return m?.[1] === undefined ? undefined : { request: m[1], from: e.requireStack[0] };
}

/** Control characters of a file's line, escaped before printing. */
const visible = (line: string) =>
  line.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/**
 * A syntax error as jiti reports it (`ParseError: Unexpected token, expected ","` then ` <file>:<line>:<column>`,
 * the column counted from 0): the file, line and column as an editor counts them, and the line itself
 * with a caret under the column.
 */
function syntaxProblem(err: unknown, root: string): string | undefined {
  const text = err instanceof Error ? err.message : String(err);
  const at = /^\s*(\S.*):(\d+):(\d+)\s*$/m.exec(text.split('\n').slice(1).join('\n'));
  if (!at) return undefined;
  const [, path, lineText, colText] = at;
  const line = Number(lineText);
  const column = Number(colText);
  const what = (text.split('\n')[0] ?? '').trim().replace(/^(?:Error:\s*)?(?:ParseError|SyntaxError):\s*/, '');
  const file = relative(root, path!) || basename(path!);
  let source: string | undefined;
  try {
    source = readFileSync(path!, 'utf8').split('\n')[line - 1];
  } catch {
    source = undefined;
  }
  const head = `${file}:${line}:${column + 1}: syntax error: ${what}`;
  if (source === undefined) return head;
  const shown = visible(source.replace(/\t/g, ' '));
  const gutter = `${line} | `;
  return `${head}\n      ${gutter}${shown}\n      ${' '.repeat(gutter.length)}${' '.repeat(Math.min(column, shown.length))}^`;
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? text;
}
