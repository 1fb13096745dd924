// Stands in for node:os in the hook's bundle (dist/cli.cjs): only a gate run in a temporary worktree
// needs it (tmpdir), and loading it costs about 0.6 ms of every push.
let real;
const load = () => (real ??= require('node:os'));
exports.tmpdir = () => load().tmpdir();
