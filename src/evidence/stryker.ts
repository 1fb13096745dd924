/** Stryker's mutation-testing report as sensitivity evidence: a Killed mutant credits each test that killed it. Pure. */
import { hash } from '../util/hash.js';

export interface StrykerEvidence {
  /** Mutants with status Killed. */
  killed: number;
  /** Mutants with any other status (Survived, Timeout, RuntimeError, NoCoverage, ...): no evidence. */
  ignored: number;
  /** Our test id to the number of mutants it killed. */
  kills: Map<string, number>;
  /** Our test id to the mutants it killed, each as a key (its file, id, mutator, location, replacement): a report imported twice credits nothing new. */
  mutants: Map<string, string[]>;
  /** Ids in `kills` that match no test with history (recorded under the report's own names). */
  unmatched: string[];
}

interface StrykerTest {
  file?: string;
  name: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Titles compared without their separators: vitest's " > ", playwright's " › ", pytest's "::", jest's spaces. */
function titleKey(title: string): string {
  return title
    .replace(/\s*(?:›|>|::)\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function splitId(id: string): { file?: string; title: string } {
  const at = id.indexOf('::');
  return at === -1 ? { title: id } : { file: id.slice(0, at), title: id.slice(at + 2) };
}

function cleanPath(path: string, projectRoot: string | undefined): string {
  let p = path.split('\\').join('/');
  if (projectRoot) {
    const root = projectRoot.split('\\').join('/').replace(/\/$/, '');
    if (p.startsWith(`${root}/`)) p = p.slice(root.length + 1);
  }
  return p.replace(/^\.\//, '');
}

function sameFile(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

/** Maps a test the report names to the one id in our history it must be, or its own name when none or several match. */
function matcher(knownIds: Iterable<string>, projectRoot: string | undefined) {
  const known = new Set(knownIds);
  const index = new Map<string, { id: string; file?: string }[]>();
  for (const id of known) {
    const { file, title } = splitId(id);
    const key = titleKey(title);
    const list = index.get(key) ?? [];
    list.push({ id, ...(file !== undefined && { file }) });
    index.set(key, list);
  }
  return (t: StrykerTest): { id: string; matched: boolean } => {
    const file = t.file ? cleanPath(t.file, projectRoot) : undefined;
    const own = file ? `${file}::${t.name}` : t.name;
    if (known.has(own)) return { id: own, matched: true };
    const candidates = (index.get(titleKey(t.name)) ?? []).filter((k) => !k.file || !file || sameFile(k.file, file));
    if (candidates.length === 1) return { id: candidates[0]!.id, matched: true };
    return { id: own, matched: false };
  };
}

/**
 * Reads a mutation-testing-report-schema document. `killedBy` holds test ids; `testFiles[*].tests[]`
 * gives their names, which are matched to the ids of tests with run history.
 */
export function strykerEvidence(
  report: unknown,
  knownIds: Iterable<string>,
): { ok: true; evidence: StrykerEvidence } | { ok: false; why: string } {
  if (!isObj(report) || !isObj(report.files)) return { ok: false, why: 'no "files" object (mutation-testing-report-schema)' };
  const projectRoot = typeof report.projectRoot === 'string' ? report.projectRoot : undefined;
  const tests = new Map<string, StrykerTest>();
  if (isObj(report.testFiles)) {
    for (const [file, tf] of Object.entries(report.testFiles)) {
      if (!isObj(tf) || !Array.isArray(tf.tests)) continue;
      for (const t of tf.tests) {
        if (isObj(t) && t.id !== undefined && typeof t.name === 'string') tests.set(String(t.id), { ...(file && { file }), name: t.name });
      }
    }
  }
  const match = matcher(knownIds, projectRoot);
  const evidence: StrykerEvidence = { killed: 0, ignored: 0, kills: new Map(), mutants: new Map(), unmatched: [] };
  const unmatched = new Set<string>();
  for (const [fileName, file] of Object.entries(report.files)) {
    if (!isObj(file) || !Array.isArray(file.mutants)) continue;
    for (const m of file.mutants) {
      if (!isObj(m)) continue;
      if (m.status !== 'Killed') {
        evidence.ignored++;
        continue;
      }
      evidence.killed++;
      const killers = Array.isArray(m.killedBy) ? m.killedBy.map(String) : [];
      const key = hash(JSON.stringify([fileName, m.id ?? null, m.mutatorName ?? null, m.location ?? null, m.replacement ?? null])).slice(
        0,
        16,
      );
      for (const testId of new Set(killers)) {
        const { id, matched } = match(tests.get(testId) ?? { name: testId });
        evidence.kills.set(id, (evidence.kills.get(id) ?? 0) + 1);
        const keys = evidence.mutants.get(id) ?? [];
        keys.push(key);
        evidence.mutants.set(id, keys);
        if (!matched) unmatched.add(id);
      }
    }
  }
  evidence.unmatched = [...unmatched];
  return { ok: true, evidence };
}
