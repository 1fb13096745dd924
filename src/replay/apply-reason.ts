/**
 * Why `git apply` refused a patch, in words a person or an agent acts on: the file and the hunk that did
 * not apply and git's own reason, and whether the base is the likely cause (the patch's context or files
 * are not what the base holds) or the patch itself (malformed: a hunk's line counts wrong, a line without
 * its leading space, no diff in it at all). Pure.
 */

export interface ApplyFailure {
  /** One line: what did not apply, where, and git's reason. */
  reason: string;
  /** The base is the likely cause: the patch is well formed but its context or its files are not the base's. */
  baseLikely: boolean;
}

/** git apply's stderr (and the patch, to quote the hunk git names) to an ApplyFailure. */
export function applyFailure(stderr: string, patch: string): ApplyFailure {
  const lines = stderr
    .split('\n')
    .map((l) => l.replace(/^error: /, '').trim())
    .filter((l) => l !== '' && !/^(?:hint|warning):/.test(l));
  const corrupt = lines.find((l) => /^corrupt patch at line \d+/.test(l));
  if (corrupt) {
    const at = Number(/line (\d+)/.exec(corrupt)![1]);
    const near = patch.split('\n')[at - 1];
    return {
      reason: `the patch is malformed: git: ${corrupt}${near !== undefined ? ` (\`${clip(near)}\`)` : ''}; a hunk's line counts do not match its lines, or a context line lost its leading space`,
      baseLikely: false,
    };
  }
  const notPatch = lines.find((l) =>
    /^No valid patches in input|^unrecognized input|^patch fragment without header|^git diff header lacks filename/.test(l),
  );
  if (notPatch) return { reason: `the input is not a patch git can read: git: ${notPatch}`, baseLikely: false };
  const failed = lines.map((l) => /^patch failed: (.+):(\d+)$/.exec(l)).find((m) => m !== null);
  if (failed) {
    const [, file, line] = failed;
    const hunk = hunkAt(patch, file!, Number(line));
    const said = lines.find((l) => l.startsWith(`${file}: `)) ?? `${file}: patch does not apply`;
    return {
      reason: `${hunk ? `the hunk \`${clip(hunk)}\`` : `a hunk at line ${line}`} of ${file} does not match ${file} at the base: git: ${said}`,
      baseLikely: true,
    };
  }
  const missing = lines.find((l) => /: (?:does not exist in index|No such file or directory)$/.test(l));
  if (missing) return { reason: `a file the patch changes is not at the base: git: ${missing}`, baseLikely: true };
  const exists = lines.find((l) => /: already exists in (?:index|working directory)$/.test(l));
  if (exists) return { reason: `a file the patch adds is already at the base: git: ${exists}`, baseLikely: true };
  return { reason: lines.slice(0, 2).join(' / ') || 'git apply failed', baseLikely: true };
}

/** The `@@ -line,...` header of `file`'s hunk that starts at `line` in the patch, when the patch has one. */
function hunkAt(patch: string, file: string, line: number): string | undefined {
  let current: string | undefined;
  for (const raw of patch.split('\n')) {
    const l = raw.replace(/\r$/, '');
    const git = /^diff --git a\/.* b\/(.+)$/.exec(l);
    // `+++ b/path` (a diff -u's `+++ path<TAB>time`); a deleted file's `+++ /dev/null` leaves the name its `---` or header gave.
    const plus = /^\+\+\+ (?:b\/)?(.+?)(?:\t.*)?$/.exec(l);
    if (git) current = git[1];
    else if (plus && plus[1] !== '/dev/null') current = plus[1];
    const h = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@.*$/.exec(l);
    if (h && current === file && Number(h[1]) === line) return h[0];
  }
  return undefined;
}

function clip(text: string): string {
  const t = text.replace(/\r$/, '').trim();
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}

/**
 * The patch as an agent's tools may have mangled it, made what git apply reads: CRLF line ends made LF,
 * a final newline added. Undefined when nothing changes.
 */
export function normalizedPatch(text: string): string | undefined {
  let t = text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
  if (t !== '' && !t.endsWith('\n')) t = `${t}\n`;
  return t === text ? undefined : t;
}
