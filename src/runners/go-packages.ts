/** Where go's packages are, from go.mod: to make the files a failed go test names repository-relative. */
import { join, posix, sep } from 'node:path';
import { readFileSync } from '../util/node.js';

/**
 * go's packages to their folders, relative to `root`: the module path read from the go.mod of the tier's
 * folder or the nearest one above it (up to `root`), a package below it is its folder. Read only when a
 * go test failed (go prints a failure's file relative to its package's folder).
 */
export function goPackageDirs(root: string, cwd: string): (pkg: string) => string | undefined {
  let found: { module: string; dir: string } | null | undefined;
  const mod = () => {
    if (found !== undefined) return found;
    found = null;
    const parts = posix
      .normalize(cwd.split(sep).join('/'))
      .split('/')
      .filter((p) => p !== '' && p !== '.');
    for (let n = parts.length; n >= 0 && found === null; n--) {
      const dir = parts.slice(0, n).join('/');
      try {
        const m = /^module\s+"?([^\s"]+)"?\s*$/m.exec(readFileSync(join(root, dir, 'go.mod'), 'utf8'));
        if (m) found = { module: m[1]!, dir };
      } catch {
        // no go.mod here: look further up
      }
    }
    return found;
  };
  return (pkg) => {
    const m = mod();
    if (m === null) return undefined;
    if (pkg === m.module) return m.dir === '' ? '.' : m.dir;
    if (!pkg.startsWith(`${m.module}/`)) return undefined;
    return posix.join(m.dir === '' ? '.' : m.dir, pkg.slice(m.module.length + 1));
  };
}
