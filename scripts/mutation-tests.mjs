// The unit tests of the pure policy modules, stopping at the first failure: what `npm run test:mutation`
// (StrykerJS, stryker.config.json) runs once per mutant, in its sandbox. GL_MUTATION=1 lets the
// generated-input tests use a sample of their inputs, so a mutant costs about a second.
import { spawnSync } from 'node:child_process';

const files = '(route|glob|verdict|runners|report|report-verdict|ladder-report|order|freeze|push-refs|calibrate)\\.test\\.js$';
const r = spawnSync(process.execPath, ['node_modules/uvu/bin.js', 'build/test/unit', files, '--bail'], {
  stdio: 'inherit',
  env: { ...process.env, GL_MUTATION: '1', NO_COLOR: '1' },
});
process.exit(r.status ?? 1);
