/**
 * The bin (dist/cli.mjs, started by dist/cli.cjs): `run` goes to cli/entry.ts, anything else to
 * cli/commands.ts. Node 22.1 and later keep the compiled code of the modules a process loads in a
 * cache of their own (NODE_COMPILE_CACHE, else a folder in the system's temp folder), and a later
 * start takes it from there instead of compiling again: most of what gate-ladder's own code costs a
 * push. The bin, dist/cli.cjs, turns it on before it loads this file (scripts/build.mjs); here it is
 * turned on again (a no-op then) for a start through dist/cli.mjs; Node 20 has no such cache and just
 * runs. NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's own).
 */
// process.getBuiltinModule, not an ES import of node:module, whose facade would load its source-map parts (util/node.ts).
const withCache = process.getBuiltinModule('node:module') as { enableCompileCache?: () => unknown };
if (typeof withCache.enableCompileCache === 'function') withCache.enableCompileCache();
// `run` (every push and commit) and every other command are two builds in the package
// (scripts/build.mjs): a push loads only the run's modules, in as few files as that allows.
if (process.argv[2] === 'run') await import('./cli/entry.js');
else await import('./cli/commands.js');
