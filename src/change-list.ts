import type { ScopeMatcher } from './glob.js';
import type { ChangedPath, ScopeHit } from './types.js';

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

  constructor(readonly text: string) {}

  /** Every path the listing touches. */
  get count(): number {
    // The walk below, inlined: a callback per path costs three times as much on 100,000 paths.
    if (this.counted === undefined) {
      const t = this.text;
      const n = t.length;
      let count = 0;
      for (let i = 0; i < n; ) {
        const statusEnd = t.indexOf('\0', i);
        if (statusEnd < 0) break;
        if (statusEnd === i) {
          i += 1;
          continue;
        }
        const c = t.charCodeAt(i);
        const fields = c === 82 || c === 67 ? 2 : 1;
        i = statusEnd + 1;
        for (let f = 0; f < fields && i <= n; f++) {
          const end = t.indexOf('\0', i);
          count += 1;
          i = end < 0 ? n + 1 : end + 1;
        }
      }
      this.counted = count;
    }
    return this.counted;
  }

  /** The touched paths in git's order, at most `limit` of them. */
  paths(limit = Infinity): string[] {
    const out: string[] = [];
    if (limit <= 0) return out;
    this.walk((start, end) => {
      out.push(this.text.slice(start, end));
      return out.length < limit;
    });
    return out;
  }

  /** The listing as objects, for callers that want statuses. */
  changes(): ChangedPath[] {
    return parseNameStatusZ(this.text);
  }

  /**
   * t0-scope on the whole listing. With a matcher whose globs all have shortcuts (`match.scanner()`, see
   * glob.ts `listingScanner`), one scan of the listing finds the fields a marker matches, and only
   * those are cut out and named by `match` itself; otherwise every path is tested.
   */
  hits(match: ScopeMatcher): ScopeHit[] {
    const hits: ScopeHit[] = [];
    const t = this.text;
    const add = (start: number, end: number) => {
      const path = t.slice(start, end);
      const marker = match(path);
      if (marker !== undefined) hits.push({ path, marker });
    };
    // A short listing is tested path by path: compiling the scanner costs more than it saves there.
    const scanner = t.length < SCAN_FROM ? undefined : match.scanner();
    if (scanner === undefined) {
      this.walk((start, end) => {
        add(start, end);
        return true;
      });
      return hits;
    }
    const re = new RegExp(scanner.source, 'g');
    let pathStarts: Set<number> | undefined;
    for (let m = re.exec(t); m !== null; m = re.exec(t)) {
      // The match begins on the NUL before its field, on a `/` inside it, or at 0.
      const c = t.charCodeAt(m.index);
      const at = c === 0 || c === 47 ? m.index + 1 : m.index;
      const start = t.lastIndexOf('\0', at - 1) + 1;
      let end = t.indexOf('\0', at);
      if (end < 0) end = t.length;
      // One hit per field; the NUL that ends it may begin the next field's match.
      re.lastIndex = end;
      // A field shaped like a status (`M`, `R100`) may be one: only a walk of the listing can tell.
      if (STATUS.test(t.slice(start, end))) {
        pathStarts ??= this.pathStarts();
        if (!pathStarts.has(start)) continue;
      }
      add(start, end);
    }
    return hits;
  }

  private pathStarts(): Set<number> {
    const starts = new Set<number>();
    this.walk((start) => {
      starts.add(start);
      return true;
    });
    return starts;
  }

  /** Calls `visit(start, end)` for each touched path's span in `text`, in order, until it returns false. */
  private walk(visit: (start: number, end: number) => boolean): void {
    const t = this.text;
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
      this.changes.push(this.from === undefined ? { status: this.status, path: field } : { status: this.status, path: field, from: this.from });
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
