import type { ScopeMatcher } from '../util/glob.js';

/** A changed path as git reports it; `from` is set for renames and copies. */
export interface ChangedPath {
  status: string;
  path: string;
  from?: string;
}

/** Why t0-scope considers a path test-adjacent. */
export interface ScopeHit {
  path: string;
  marker: string;
}

/** A diff's changes: as objects, or as git's listing (large diffs are routed without splitting it). */
export type Changes = readonly ChangedPath[] | ChangeList;

/** What a status field of git's listing looks like: a letter, then a similarity score for renames and copies. */
const STATUS = /^[A-Z][0-9]*$/;

/** Listings of at least this many characters (about 2,000 paths) are scanned whole. */
const SCAN_FROM = 64 * 1024;

/**
 * A diff's changed paths as git listed them (`git diff --name-status -z`), kept as that one string.
 * Routing needs the number of paths, the test-adjacent ones, and the first few for the ledger; on a
 * 100,000-path diff, cutting the listing into 100,000 strings and objects cost more than git took to
 * write it (most of it garbage collection). So the listing is walked with indexOf, and only the paths
 * that are asked for become strings. Pure.
 *
 * Entries are `status NUL path NUL`; a rename or copy (`R…`, `C…`, from a diff made with -M or -C)
 * names its old path, then its new one, and both count as touched.
 */
export class ChangeList {
  private counted: number | undefined;

  /** `text`: the whole listing. */
  constructor(readonly text: string) {}

  /** Every path the listing touches. */
  get count(): number {
    return (this.counted ??= entries(endField(this.text)).count);
  }

  /** The touched paths in git's order, at most `limit` of them. */
  paths(limit = Infinity): string[] {
    return firstPaths(this.text, limit);
  }

  /** The listing as objects, for callers that want statuses. */
  changes(): ChangedPath[] {
    return parseNameStatusZ(this.text);
  }

  /**
   * t0-scope on the whole listing. With a matcher whose globs all have shortcuts (`match.scanner()`, see
   * glob.ts `literalScanner`), one scan of the listing finds the fields that may match, and only those
   * are cut out and named by `match` itself; otherwise every path is tested.
   */
  hits(match: ScopeMatcher): ScopeHit[] {
    const t = this.text;
    // A short listing is tested path by path: compiling the scanner costs more than it saves there.
    const scanner = t.length < SCAN_FROM ? undefined : match.scanner();
    return scanHits(t, match, scanner && new RegExp(scanner.source, 'g'));
  }
}

/**
 * The number of touched paths in the complete entries of `t`, and where the last of them ends. The
 * walk inlined: a callback per path costs three times as much on 100,000 paths.
 */
function entries(t: string): { count: number; end: number } {
  const n = t.length;
  let count = 0;
  let end = 0;
  for (let i = 0; i < n; ) {
    const statusEnd = t.indexOf('\0', i);
    if (statusEnd < 0) break;
    if (statusEnd === i) {
      i += 1;
      end = i;
      continue;
    }
    const c = t.charCodeAt(i);
    const fields = c === 82 || c === 67 ? 2 : 1;
    i = statusEnd + 1;
    let complete = true;
    for (let f = 0; f < fields; f++) {
      const fieldEnd = i < n ? t.indexOf('\0', i) : -1;
      if (fieldEnd < 0) {
        complete = false;
        break;
      }
      i = fieldEnd + 1;
    }
    if (!complete) break;
    count += fields;
    end = i;
  }
  return { count, end };
}

/** A listing whose last field is ended, as git ends every field (-z). */
const endField = (t: string) => (t === '' || t.endsWith('\0') ? t : `${t}\0`);

function firstPaths(t: string, limit: number): string[] {
  const out: string[] = [];
  if (limit <= 0) return out;
  walk(t, (start, end) => {
    out.push(t.slice(start, end));
    return out.length < limit;
  });
  return out;
}

/** `match`'s hits in listing `t`: with `re` (the scanner, lastIndex 0), one scan for the markers; without, path by path. */
function scanHits(t: string, match: ScopeMatcher, re: RegExp | undefined): ScopeHit[] {
  const hits: ScopeHit[] = [];
  const add = (start: number, end: number) => {
    const path = t.slice(start, end);
    const marker = match(path);
    if (marker !== undefined) hits.push({ path, marker });
  };
  if (re === undefined) {
    walk(t, (start, end) => {
      add(start, end);
      return true;
    });
    return hits;
  }
  let pathStarts: Set<number> | undefined;
  for (let m = re.exec(t); m !== null; m = re.exec(t)) {
    // A literal inside a field (never a NUL): the field around it, looked at once.
    const start = t.lastIndexOf('\0', m.index) + 1;
    let end = t.indexOf('\0', m.index);
    if (end < 0) end = t.length;
    re.lastIndex = end;
    // A field shaped like a status (`M`, `R100`) may be one: only a walk of the listing can tell.
    if (STATUS.test(t.slice(start, end))) {
      pathStarts ??= starts(t);
      if (!pathStarts.has(start)) continue;
    }
    add(start, end);
  }
  return hits;
}

function starts(t: string): Set<number> {
  const out = new Set<number>();
  walk(t, (start) => {
    out.add(start);
    return true;
  });
  return out;
}

/** Calls `visit(start, end)` for each touched path's span in `t`, in order, until it returns false. */
function walk(t: string, visit: (start: number, end: number) => boolean): void {
  const n = t.length;
  let i = 0;
  while (i < n) {
    const statusEnd = t.indexOf('\0', i);
    if (statusEnd < 0) return;
    const c = t.charCodeAt(i);
    if (statusEnd === i) {
      i += 1; // a stray NUL between entries
      continue;
    }
    // R and C (rename, copy) name the old path, then the new one.
    const fields = c === 82 || c === 67 ? 2 : 1;
    let at = statusEnd + 1;
    for (let f = 0; f < fields && at <= n; f++) {
      let end = t.indexOf('\0', at);
      if (end < 0) end = n;
      if (!visit(at, end)) return;
      at = end + 1;
    }
    i = at;
  }
}

/**
 * Reads `git diff --name-status -z` output, whole or piece by piece (`feed` takes text that ends right
 * after a NUL), into objects.
 */
export class NameStatusReader {
  readonly changes: ChangedPath[] = [];
  private status: string | undefined;
  private from: string | undefined;

  feed(text: string): this {
    const n = text.length;
    for (let i = 0; i < n; ) {
      let j = text.indexOf('\0', i);
      if (j < 0) j = n;
      const field = text.slice(i, j);
      i = j + 1;
      if (this.status === undefined) {
        if (field !== '') this.status = field;
        continue;
      }
      const c = this.status.charCodeAt(0);
      // R and C (rename, copy) name the old path, then the new one.
      if ((c === 82 || c === 67) && this.from === undefined) {
        this.from = field;
        continue;
      }
      this.changes.push(
        this.from === undefined ? { status: this.status, path: field } : { status: this.status, path: field, from: this.from },
      );
      this.status = undefined;
      this.from = undefined;
    }
    return this;
  }
}

/** Parses `git diff --name-status -z` output. Pure. */
export function parseNameStatusZ(out: string): ChangedPath[] {
  return new NameStatusReader().feed(out).changes;
}
