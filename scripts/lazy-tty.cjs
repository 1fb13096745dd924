// Stands in for node:tty in the hook's bundle (dist/cli.cjs): only a gate whose output is read (a test
// runner was detected) asks whether stderr is a terminal, to tell it to keep its colours.
let real;
const load = () => (real ??= require('node:tty'));
exports.isatty = (fd) => load().isatty(fd);
