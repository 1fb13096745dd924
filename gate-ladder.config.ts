// gate-ladder gates its own pushes with its own ladder (see .husky/pre-push).
import type { GateLadderConfig } from './src/types.js';

export default {
  tiers: [
    // Cheap and deterministic; t0-scope skips it when the push touches test/ (it cannot vouch then).
    { name: 't1-unit', run: 'npm run build --silent && node scripts/test.mjs build/test/unit', timeout: 300, skipWhenTestAdjacent: true },
    // npm test: lint, types, the unit suite and the fast integration set (real repositories, a bare remote,
    // the packed CLI, real pushes; about 4 minutes). The whole matrix is CI's: .ci/run runs npm run test:all.
    { name: 't2-tests', run: 'npm test --silent', timeout: 900 },
  ],
} satisfies GateLadderConfig;
