// Stands in for node:child_process in the hook's bundle (dist/cli.cjs): node loads child_process (and
// net, stream, ...) in about 8 ms, and a push whose tree and commit pair are cached starts no process.
let real;
const load = () => (real ??= require('node:child_process'));
exports.spawn = (...args) => load().spawn(...args);
exports.spawnSync = (...args) => load().spawnSync(...args);
