// The library, `import ... from 'gate-ladder'`: what a config file needs, and nothing else (the CLI's
// modules are not a public API). test/integration/package.test.ts checks this list and the size of
// what importing it loads.
export type {
  FreezePolicy,
  GateLadderConfig,
  HookName,
  Isolation,
  LintStagedOptions,
  ReportFormat,
  ReportPolicy,
  RunnerName,
  TierConfig,
  TierReport,
} from './types.js';
export { defaultScope } from './config/defaults.js';
export { defineConfig } from './config/define-config.js';
