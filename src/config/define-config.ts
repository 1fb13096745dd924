import type { GateLadderConfig } from '../types.js';

/** Identity, for types in `gate-ladder.config.ts`. A plain `export default { ... }` works as well. */
export function defineConfig(config: GateLadderConfig): GateLadderConfig {
  return config;
}
