/**
 * The per-patch order (config `order: 'predicted'`) and opt-in selection (`select`) through the packed
 * CLI: a history written by a real `replay --calibrate` of 24 commits, in which `t1-cli` catches bugs
 * under src/cli/ and `t2-parse` bugs under src/parse/; then `run --dry-run` (text and --json), a real
 * `git push` whose ledger rows show the predicted order, a push where `select` skips a tier, and
 * `gate-ladder ci`, which runs every tier; `report --json`'s `order_evaluation` over the same history.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Repo, withRepo } from '../helpers/repo.js';

/** Each script fails when its folder's file says "bug". */
const CHECK = (dir: string) => `#!/bin/sh\nif grep -q bug src/${dir}/value.txt; then echo "${dir}: bug"; exit 1; fi\necho "${dir}: ok"\n`;
const config = (extra: string) => `export default {
  tiers: [
    { name: 't1-cli', run: 'sh cli.sh', timeout: 30 },
    { name: 't2-parse', run: 'sh parse.sh', timeout: 30 },
  ],
  ${extra}
};
`;
const FILES: Record<string, string> = {
  'gate-ladder.config.ts': config(''),
  'cli.sh': CHECK('cli'),
  'parse.sh': CHECK('parse'),
  'src/cli/value.txt': 'ok\n',
  'src/parse/value.txt': 'ok\n',
};

/** 24 commits: a bug in src/parse/ and its fix, then one in src/cli/ and its fix, six times over. */
function history(repo: Repo): void {
  for (let i = 0; i < 6; i++)
    for (const dir of ['parse', 'cli']) {
      repo.write(`src/${dir}/value.txt`, `bug ${i}\n`);
      repo.commit(`${dir}: bug ${i}`);
      repo.write(`src/${dir}/value.txt`, `ok ${i}\n`);
      repo.commit(`${dir}: fix ${i}`);
    }
}

test("order: 'predicted' runs a parse patch's parse tier first on a push, --dry-run explains it, select skips the cli tier, gate-ladder ci does not, report measures it", () =>
  withRepo({ files: FILES }, (repo) => {
    history(repo);
    const replay = repo.cli(['replay', 'main~24..main', '--calibrate']);
    assert.is(replay.code, 0, replay.out);
    assert.is(repo.ledger().filter((r) => r.calibration === true).length, 48);
    repo.push(['-q', 'origin', 'main'], { GATE_LADDER: '0' });

    repo.write('gate-ladder.config.ts', config("order: 'predicted',"));
    repo.write('src/parse/value.txt', 'ok, reworded\n');
    repo.commit('parse: reword');

    // --dry-run --json: the order and why, each tier's prediction and its evidence.
    const dry = repo.cli(['run', '--dry-run', '--json', '--base', 'origin/main']);
    assert.is(dry.code, 0, dry.out);
    const target = JSON.parse(dry.stdout).targets[0];
    assert.is(target.order.order, 'predicted');
    assert.equal(target.order.tiers, ['t2-parse', 't1-cli']);
    assert.match(target.order.why, 'predicted catch per expected second');
    const parse = target.order.predictions.find((x: { tier: string }) => x.tier === 't2-parse');
    const cli = target.order.predictions.find((x: { tier: string }) => x.tier === 't1-cli');
    assert.ok(parse.p > cli.p, JSON.stringify(target.order));
    assert.equal(parse.evidence.folders.keys, ['src/parse', 'src']);
    assert.equal(parse.evidence.paths.keys, ['src/parse/value.txt']);
    assert.ok(parse.evidence.rows >= 23, String(parse.evidence.rows));
    assert.equal(
      target.plan.map((t: { tier: string }) => t.tier),
      ['t2-parse', 't1-cli'],
    );
    // The text says it too, one line per tier.
    const text = repo.cli(['run', '--dry-run', '--base', 'origin/main']);
    assert.is(text.code, 0, text.out);
    assert.match(
      text.stdout,
      /order predicted: predicted catch per expected second, highest first\n.*1\. t2-parse: catch [0-9.]+, [0-9.]+ s expected; from [0-9.]+ trials of this tier, paths src\/parse\/value\.txt/,
    );
    assert.match(text.stdout, /2\. t1-cli: catch /);

    // A real push: the rows show the order the ladder ran in.
    const before = repo.ledger().length;
    const push = repo.push(['-q', 'origin', 'main']);
    assert.is(push.code, 0, push.out);
    assert.match(push.stderr, 'order predicted');
    const rows = repo.ledger().slice(before);
    assert.equal(
      rows.map((r) => [r.tier, r.order, r.position]),
      [
        ['t2-parse', 'predicted', 1],
        ['t1-cli', 'predicted', 2],
      ],
    );
    assert.ok((rows[0]!.p as number) > (rows[1]!.p as number));

    // select: the cli tier's predicted catch on a parse patch is under the risk: skipped on the push.
    repo.write('gate-ladder.config.ts', config("order: 'predicted', select: { risk: 0.2 },"));
    repo.write('src/parse/value.txt', 'ok, again\n');
    const head = repo.commit('parse: again');
    const base = repo.gitOk('rev-parse', 'origin/main');
    const before2 = repo.ledger().length;
    const selected = repo.push(['-q', 'origin', 'main']);
    assert.is(selected.code, 0, selected.out);
    assert.match(selected.stderr, /select \(risk 0\.2\) skips t1-cli: residual risk [0-9.]+/);
    const rows2 = repo.ledger().slice(before2);
    assert.equal(
      rows2.map((r) => [r.tier, r.skipped_by_select]),
      [['t2-parse', ['t1-cli']]],
    );
    assert.ok(typeof rows2[0]!.residual_risk === 'number' && (rows2[0]!.residual_risk as number) < 0.2);

    // gate-ladder ci runs every tier, and says why select skipped nothing.
    const before3 = repo.ledger().length;
    const ci = repo.cli(['ci', '--base', base, '--head', head], { env: { GITHUB_ACTIONS: '', GITLAB_CI: '', GITHUB_STEP_SUMMARY: '' } });
    assert.is(ci.code, 0, ci.out);
    assert.match(ci.stderr, 'select skips nothing on this run: `gate-ladder ci` runs every tier');
    assert.equal(
      repo
        .ledger()
        .slice(before3)
        .map((r) => r.tier)
        .sort(),
      ['t1-cli', 't2-parse'],
    );

    // report --json: the evaluation over the calibration runs, predicted against fixed.
    const report = repo.cli(['report', '--json']);
    assert.is(report.code, 0, report.out);
    const e = JSON.parse(report.stdout).order_evaluation;
    assert.is(e.patches, 4, JSON.stringify(e));
    assert.is(e.predicted.missed, 0);
    assert.is(e.fixed.missed, 0);
    assert.is(e.select.risk, 0.2);
    assert.is(e.select.missed, 0);
    const textReport = repo.cli(['report']);
    assert.match(textReport.stdout, 'Order: predicted against fixed');
    // report --html: the same evaluation in the page's order section, the two orders side by side.
    const html = repo.cli(['report', '--html', 'report.html']);
    assert.is(html.code, 0, html.out);
    const page = readFileSync(join(repo.dir, 'report.html'), 'utf8');
    const orderSection = /<section id="order">[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    assert.match(orderSection, `data-order-eval="evaluated" data-ratio="${e.ratio ?? '-'}"`);
    for (const side of ['fixed', 'predicted'] as const) {
      const row = new RegExp(`<tr data-order-eval="${side}">.*?</tr>`).exec(orderSection)?.[0] ?? '';
      assert.match(row, `<td data-k="missed">${e[side].missed}</td>`);
      assert.match(row, `<td data-k="median_seconds_to_first_catch">${e[side].median_seconds_to_first_catch ?? '-'}</td>`);
    }
    assert.match(orderSection, /select \(risk 0\.2\)/);
  }));

test.run();
