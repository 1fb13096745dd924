// The package.json a tarball ships: this repository's own `prepare` (husky, then the build, for a
// fresh clone) is not for the people who install the package, and npm 11 warns about scripts it was
// not asked to allow. `npm pack` and `npm publish` run `prepack` (strip: keep the file as it is beside
// it, write it without `prepare`; npm then packs that) and `postpack` (restore), so the working copy
// never changes for longer than a pack.
//
//   node scripts/pack-manifest.mjs strip | restore
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const KEPT = '.package.json.packing';
/** Scripts of this repository that a package's user must never run. */
const OURS = ['prepare'];

/** The manifest text without our scripts, indentation and final newline kept. */
export function publishedManifest(text) {
  const pkg = JSON.parse(text);
  for (const name of OURS) delete pkg.scripts?.[name];
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  return `${JSON.stringify(pkg, null, indent)}${text.endsWith('\n') ? '\n' : ''}`;
}

const what = process.argv[2];
if (what === 'strip') {
  // A kept copy left by a pack that was killed is the real file: never overwrite it with a stripped one.
  if (!existsSync(KEPT)) writeFileSync(KEPT, readFileSync('package.json'));
  writeFileSync('package.json', publishedManifest(readFileSync(KEPT, 'utf8')));
} else if (what === 'restore') {
  if (existsSync(KEPT)) renameSync(KEPT, 'package.json');
} else if (what !== undefined) {
  process.stderr.write(`pack-manifest: unknown step "${what}"; use strip or restore\n`);
  process.exit(2);
}
