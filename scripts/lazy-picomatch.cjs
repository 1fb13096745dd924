// Stands in for picomatch in the hook's bundle (dist/cli.cjs): the real one (dist/picomatch.cjs) loads on
// first use, and the default scope never uses it (src/glob.ts matches its globs with string tests).
let real;
module.exports = function picomatch(...args) {
  real ??= require('./picomatch.cjs');
  return real(...args);
};
