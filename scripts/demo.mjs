// `npm run demo`: a throwaway repository with a bare remote, gate-ladder's hook installed, and four
// real pushes: a clean patch, a buggy patch, a fixture edit and a patch that hangs the harness.
// Everything lives in a temp folder that is removed at the end (also on Ctrl-C).
// `npm run demo -- --html report.html` also keeps the demo's report as a self-contained HTML page.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const project = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(project, 'dist', 'cli.mjs');
if (!existsSync(cli)) {
  console.error('demo: dist/cli.mjs is missing; run `npm run build` first (or `npm run demo`, which builds).');
  process.exit(2);
}

const htmlArg = process.argv.indexOf('--html');
const htmlOut = htmlArg > 0 ? resolve(process.argv[htmlArg + 1] ?? 'gate-ladder-report.html') : undefined;
const base = mkdtempSync(join(tmpdir(), 'gate-ladder-demo-'));
// A worktree pool, should a push need one, goes with the throwaway repository (by default it is kept in /var/tmp).
process.env.GATE_LADDER_WORKTREES ??= join(base, 'pools');
const cleanup = () => rmSync(base, { recursive: true, force: true });
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

const env = { ...process.env };
for (const k of Object.keys(env)) if (k.startsWith('GIT_') || k === 'GATE_LADDER' || k === 'HUSKY') delete env[k];
Object.assign(env, {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Demo',
  GIT_AUTHOR_EMAIL: 'demo@example.invalid',
  GIT_COMMITTER_NAME: 'Demo',
  GIT_COMMITTER_EMAIL: 'demo@example.invalid',
});

const work = join(base, 'work');
const remote = join(base, 'remote.git');
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: work, env: { ...env, ...opts.env }, encoding: 'utf8', stdio: opts.quiet ? 'pipe' : 'inherit' });
  if (r.error) throw r.error;
  if (opts.must && r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  return r.status;
}
const git = (...args) => run('git', args, { quiet: true, must: true });
function write(path, text) {
  mkdirSync(dirname(join(work, path)), { recursive: true });
  writeFileSync(join(work, path), text);
}
const ledgerFile = join(work, '.git', 'gate-ladder', 'ledger.jsonl');
let seen = 0;
function showRows() {
  const lines = existsSync(ledgerFile) ? readFileSync(ledgerFile, 'utf8').split('\n').filter(Boolean) : [];
  const fresh = lines.slice(seen);
  seen = lines.length;
  if (fresh.length === 0) console.log('   ledger: no new rows');
  for (const line of fresh) {
    const r = JSON.parse(line);
    console.log(
      `   ledger row: ${JSON.stringify({ tier: r.tier, verdict: r.verdict, seconds: r.seconds, exit: r.exit, routed: r.routed, files: r.files, ...(r.reason && { reason: r.reason }) })}`,
    );
  }
}
function push(title, expect) {
  console.log(`\n${bold(`── ${title}`)}  (expect: ${expect})`);
  const status = run('git', ['push', '-q', 'origin', 'HEAD:main']);
  console.log(`   git push exit code: ${status} (${status === 0 ? 'pushed' : 'rejected'})`);
  showRows();
  return status;
}

try {
  spawnSync('git', ['init', '-q', '--bare', '-b', 'main', remote], { env });
  mkdirSync(work);
  git('init', '-q', '-b', 'main');
  git('config', 'commit.gpgSign', 'false');
  git('remote', 'add', 'origin', remote);
  // Make the built CLI available the way `npm i -D gate-ladder` would.
  mkdirSync(join(work, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(project, join(work, 'node_modules', 'gate-ladder'), 'dir');
  symlinkSync(cli, join(work, 'node_modules', '.bin', 'gate-ladder'));

  write('.gitignore', 'node_modules\n');
  write('package.json', '{\n  "name": "shop",\n  "private": true,\n  "type": "module"\n}\n');
  write('src/discount.js', 'export function discount(price, pct) {\n  return Math.round(price * (100 - pct)) / 100;\n}\n');
  write(
    'checks/properties.mjs',
    `import { discount } from '../src/discount.js';
// Deterministic properties over many inputs: never negative, never above the price, 0% is identity.
for (let price = 0; price <= 500; price += 7) {
  for (let pct = 0; pct <= 100; pct += 5) {
    const d = discount(price, pct);
    if (d < 0 || d > price || (pct === 0 && d !== price)) {
      console.error(\`property violated: discount(\${price}, \${pct}) = \${d}\`);
      process.exit(1);
    }
  }
}
console.log('properties hold');
`,
  );
  write(
    'fixtures/cases.json',
    `${JSON.stringify(
      [
        [100, 10, 90],
        [80, 25, 60],
      ],
      null,
      2,
    )}\n`,
  );
  write(
    'tests/discount.test.mjs',
    `import { test } from 'node:test';
import assert from 'node:assert';
import { readFileSync } from 'node:fs';
import { discount } from '../src/discount.js';
for (const [price, pct, want] of JSON.parse(readFileSync('fixtures/cases.json', 'utf8'))) {
  test(\`discount(\${price}, \${pct})\`, () => assert.strictEqual(discount(price, pct), want));
}
`,
  );
  write(
    'gate-ladder.config.ts',
    `// t1 is cheap and deterministic; t0-scope skips it when the push touches tests or fixtures.
export default {
  tiers: [
    { name: 't1-properties', run: 'node checks/properties.mjs', timeout: 3, skipWhenTestAdjacent: true },
    { name: 't2-fixtures', run: 'node --test tests/', timeout: 60, runner: 'node' },
  ],
};
`,
  );
  console.log(`${bold('gate-ladder demo')}: a throwaway repository in ${base}`);
  console.log('\n$ gate-ladder install');
  run(process.execPath, [cli, 'install'], { must: true });
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  run('git', ['push', '-q', 'origin', 'main'], { env: { GATE_LADDER: '0' }, quiet: true, must: true });
  git('remote', 'set-head', 'origin', 'main');

  write(
    'src/discount.js',
    readFileSync(join(work, 'src/discount.js'), 'utf8').replace(
      'export function',
      '/** Price after a percentage discount. */\nexport function',
    ),
  );
  git('commit', '-qam', 'document discount');
  const results = [push('1. a clean patch', 'pass: both tiers run and pass')];

  write('src/discount.js', readFileSync(join(work, 'src/discount.js'), 'utf8').replace('100 - pct', '100 + pct'));
  git('commit', '-qam', 'bug: add the discount instead of subtracting it');
  results.push(push('2. a buggy patch', 'caught by t1-properties: the push is blocked'));
  git('reset', '-q', '--hard', 'HEAD~1');

  write(
    'fixtures/cases.json',
    `${JSON.stringify(
      [
        [100, 10, 90],
        [80, 25, 60],
        [50, 50, 25],
      ],
      null,
      2,
    )}\n`,
  );
  git('commit', '-qam', 'add a fixture case');
  results.push(push('3. a fixture edit', 't0-scope routes past t1 (it cannot vouch for a fixture change); t2 decides'));

  write('src/discount.js', 'export function discount(price, pct) {\n  while (pct > 0) {}\n  return price;\n}\n');
  git('commit', '-qam', 'a patch that hangs the harness');
  results.push(
    push('4. a patch that hangs the harness', 'error: t1 times out; blocked, and the message says it is not a verdict on the patch'),
  );

  const expected = [0, 1, 0, 1];
  const ok = results.every((s, i) => (s === 0) === (expected[i] === 0));
  console.log(`\n${bold('summary')}: ${ok ? 'every push got the verdict it should' : `UNEXPECTED verdicts: ${JSON.stringify(results)}`}`);
  console.log('The ledger is one JSON line per tier reached; `gate-ladder report` turns it into yield per second:');
  console.log('\n$ gate-ladder report');
  run(process.execPath, [cli, 'report']);
  if (htmlOut) {
    console.log(`\n$ gate-ladder report --html ${htmlOut}`);
    run(process.execPath, [cli, 'report', '--html', htmlOut], { must: true });
  }
  cleanup();
  process.exit(ok ? 0 : 1);
} catch (err) {
  console.error(`demo failed: ${err instanceof Error ? err.message : err}`);
  cleanup();
  process.exit(1);
}
