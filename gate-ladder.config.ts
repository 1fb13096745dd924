// gate-ladder gates its own pushes with its own ladder (see .husky/pre-push).
import type { GateLadderConfig } from './src/types.js';

export default {
  tiers: [
    // Cheap and deterministic; t0-scope skips it when the push touches test/ (it cannot vouch then).
    { name: 't1-unit', run: 'npm run build --silent && node scripts/test.mjs build/test/unit', timeout: 300, skipWhenTestAdjacent: true },
    // The full suite: real repositories, a bare remote, the packed CLI, real pushes.
    { name: 't2-full', run: 'npm test --silent', timeout: 1800 },
  ],
} satisfies GateLadderConfig;
