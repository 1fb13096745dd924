// The order bench's corpus (scripts/bench-order.mjs): a seeded, reproducible series of patches onto one
// base, in time order, as a history with few failures of its own would get them: planted bugs (simple
// source mutations: an operator flipped, a condition negated, a constant changed), clustered in files as
// real bugs are, and some clean refactor-like patches (a comment added) that break nothing.
// Pure: text in, patch text out; no file, process or clock. test/unit/order-corpus.test.ts keeps it so.

/** mulberry32: the same seed gives the same numbers on every machine. */
export function seeded(seed) {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The mutation operators: a token (matched where no identifier character or longer operator touches
 * it) and what replaces it. Their order is part of the corpus: a new one goes at the end.
 */
const OPERATORS = [
  { op: 'strict-eq', re: /(?<![=!<>])===(?!=)/g, to: () => '!==' },
  { op: 'strict-ne', re: /!==/g, to: () => '===' },
  { op: 'loose-eq', re: /(?<![=!<>])==(?!=)/g, to: () => '!=' },
  { op: 'loose-ne', re: /!=(?!=)/g, to: () => '==' },
  { op: 'lt', re: /(?<![<=\s])\s<\s(?![<=])/g, to: () => ' <= ' },
  { op: 'gt', re: /(?<![>=\s-])\s>\s(?![>=])/g, to: () => ' >= ' },
  { op: 'le', re: /\s<=\s/g, to: () => ' < ' },
  { op: 'ge', re: /\s>=\s/g, to: () => ' > ' },
  { op: 'and', re: /&&/g, to: () => '||' },
  { op: 'or', re: /\|\|/g, to: () => '&&' },
  { op: 'true', re: /\btrue\b/g, to: () => 'false' },
  { op: 'false', re: /\bfalse\b/g, to: () => 'true' },
  { op: 'plus', re: /(?<=[\w)\]])\s\+\s(?=[\w(])/g, to: () => ' - ' },
  { op: 'minus', re: /(?<=[\w)\]])\s-\s(?=[\w(])/g, to: () => ' + ' },
  { op: 'constant', re: /(?<![\w.$])\d+(?![\w.$])/g, to: (m) => String(Number(m) + 1) },
  { op: 'negate-if', re: /\bif \((.+)\) \{$/g, to: (_m, cond) => `if (!(${cond})) {`, balanced: true },
];

/** Comment lines a clean patch adds above a function: refactor-like, no behaviour changed. */
const NOTES = [
  'Kept small on purpose: callers rely on its exact shape.',
  'See the tests beside this module for the cases it covers.',
  'Reviewed: no behaviour change intended here.',
  'Note: hot path, avoid allocating in here.',
  'Order of checks matters; keep the cheap ones first.',
];

/** Whether a position of a line is inside a string literal (a quote count; good enough for source lines). */
function inString(line, at) {
  let quote = null;
  for (let i = 0; i < at; i++) {
    const c = line[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') {
      quote = c;
    }
  }
  return quote !== null;
}

function balanced(text) {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/** Lines a mutation leaves alone: comments, requires, directives, and lines holding a regular expression literal. */
function skipped(line) {
  const t = line.trim();
  return (
    t === '' ||
    t.startsWith('//') ||
    t.startsWith('*') ||
    t.startsWith('/*') ||
    t.includes('require(') ||
    t.includes("'use strict'") ||
    /(^|[=(,:;!&|?]\s*)\/[^/*\s]/.test(t)
  );
}

/** Every place in a source text where an operator applies: { line (0-based), start, end, to, op }. Pure. */
export function mutationSites(text) {
  const sites = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (skipped(line)) return;
    for (const { op, re, to, balanced: needsBalance } of OPERATORS) {
      for (const m of line.matchAll(re)) {
        if (inString(line, m.index)) continue;
        if (needsBalance && !balanced(m[1])) continue;
        sites.push({ line: i, start: m.index, end: m.index + m[0].length, to: to(...m), op });
      }
    }
  });
  return sites;
}

/** Lines above which a clean patch may add a comment: a function's first line. Pure. */
export function commentSites(text) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*(async\s+)?function\b/.test(line) || /=\s*(async\s+)?function\b/.test(line)) out.push(i);
  });
  return out;
}

function splitLines(text) {
  const finalNewline = text.endsWith('\n');
  const lines = text.split('\n');
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

/**
 * A unified diff (git's format, three lines of context) of one file whose lines `from..to` (0-based,
 * `to` exclusive) became `replacement`. Pure.
 */
export function unifiedDiff(path, text, from, to, replacement) {
  const { lines, finalNewline } = splitLines(text);
  const start = Math.max(0, from - 3);
  const end = Math.min(lines.length, to + 3);
  const old = lines.slice(start, end);
  const now = [...lines.slice(start, from), ...replacement, ...lines.slice(to, end)];
  const range = (n) => (n === 0 ? `${start},0` : `${start + 1},${n}`);
  const body = [];
  const lastOld = end === lines.length && !finalNewline;
  for (let i = start; i < from; i++) body.push(` ${lines[i]}`);
  for (let i = from; i < to; i++) body.push(`-${lines[i]}`);
  // The changed lines' old side ends the file without a newline: say so before the new side.
  if (lastOld && to === end && to > from) body.push('\\ No newline at end of file');
  for (const r of replacement) body.push(`+${r}`);
  if (lastOld && to === end && replacement.length > 0) body.push('\\ No newline at end of file');
  for (let i = to; i < end; i++) body.push(` ${lines[i]}`);
  if (lastOld && to < end) body.push('\\ No newline at end of file');
  return [
    `diff --git a/${path} b/${path}`,
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${range(old.length)} +${range(now.length)} @@`,
    ...body,
    '',
  ].join('\n');
}

/** A file's text with one site's mutation applied. Pure. */
export function applySite(text, site) {
  const lines = text.split('\n');
  const line = lines[site.line];
  lines[site.line] = line.slice(0, site.start) + site.to + line.slice(site.end);
  return lines.join('\n');
}

/**
 * The corpus: `count` patches in time order, each onto the same base.
 *   files       { path: text } of the base's source files a patch may touch
 *   seed        the generator's seed
 *   count       how many patches
 *   clean       the share of clean (refactor-like) patches, default 0.2
 *   stay        the chance the next bug lands in the same file as the last one (locality), default 0.7
 * Each patch: { name, kind: 'mutant' | 'clean', file, line (1-based), op, diff }. Every site is used at
 * most once. Pure and deterministic: the same arguments give the same patches.
 */
export function generateCorpus({ files, seed, count, clean = 0.2, stay = 0.7 }) {
  const rnd = seeded(seed);
  const paths = Object.keys(files).sort();
  const sites = new Map(paths.map((p) => [p, mutationSites(files[p])]));
  const comments = new Map(paths.map((p) => [p, commentSites(files[p])]));
  const used = new Set();
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  // A file's weight is its number of mutation sites: bugs land where there is code.
  const weighted = () => {
    const total = paths.reduce((n, p) => n + sites.get(p).length, 0);
    let r = rnd() * total;
    for (const p of paths) {
      r -= sites.get(p).length;
      if (r < 0) return p;
    }
    return paths[paths.length - 1];
  };
  const patches = [];
  let hot = weighted();
  let attempts = 0;
  while (patches.length < count && attempts++ < count * 50) {
    const n = String(patches.length + 1).padStart(4, '0');
    const slug = (file) => file.replace(/[^\w.-]+/g, '-');
    if (rnd() < clean && comments.get(hot).length > 0) {
      const at = pick(comments.get(hot));
      const key = `${hot}:${at}:comment`;
      if (used.has(key)) continue;
      used.add(key);
      const { lines } = splitLines(files[hot]);
      const indent = /^\s*/.exec(lines[at])[0];
      const diff = unifiedDiff(hot, files[hot], at, at, [`${indent}// ${pick(NOTES)}`]);
      patches.push({ name: `${n}-clean-${slug(hot)}-L${at + 1}.patch`, kind: 'clean', file: hot, line: at + 1, op: 'comment', diff });
      continue;
    }
    if (rnd() >= stay) hot = weighted();
    const free = sites.get(hot).filter((s) => !used.has(`${hot}:${s.line}:${s.start}:${s.op}`));
    if (free.length === 0) {
      hot = weighted();
      continue;
    }
    const site = pick(free);
    used.add(`${hot}:${site.line}:${site.start}:${site.op}`);
    const mutated = applySite(files[hot], site);
    const newLine = mutated.split('\n')[site.line];
    const diff = unifiedDiff(hot, files[hot], site.line, site.line + 1, [newLine]);
    patches.push({
      name: `${n}-bug-${slug(hot)}-L${site.line + 1}-${site.op}.patch`,
      kind: 'mutant',
      file: hot,
      line: site.line + 1,
      op: site.op,
      diff,
    });
  }
  return patches;
}
