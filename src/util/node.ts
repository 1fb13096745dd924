/**
 * The parts of Node's built-in modules that src/ uses, taken with `process.getBuiltinModule` (public
 * since Node 20.16) instead of ES imports. An ES import of a built-in ('node:fs', 'node:util',
 * 'node:buffer', 'node:module', 'node:os') builds that module's ES facade, which reads every export and
 * so loads each lazily loaded part: fs.promises and the readline it brings, the fs streams, util's diff
 * and colours, buffer's File, module's source maps. That is about 19 million instructions, a fifth of
 * `node -e 0`, on every push (`npm run bench`, bench-startup). test/unit/push-path.test.ts keeps the rest
 * of src/ from importing these modules otherwise; 'node:path' has no lazy part and is imported as usual.
 * Modules that only some commands need (child_process, crypto, worker_threads...) are not here: taking
 * them here would load them on every push.
 */

export const {
  accessSync,
  close,
  closeSync,
  constants,
  copyFileSync,
  cpSync,
  createReadStream,
  existsSync,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  open,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  writev,
} = process.getBuiltinModule('node:fs');

export const { format, parseArgs } = process.getBuiltinModule('node:util');

export const { isAscii, isUtf8 } = process.getBuiltinModule('node:buffer');

export const { createRequire } = process.getBuiltinModule('node:module');

export const { availableParallelism, tmpdir } = process.getBuiltinModule('node:os');
