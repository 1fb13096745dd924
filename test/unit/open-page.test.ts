/** `report --open`: which command opens the page (pure: what exists is handed in). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openerFor } from '../../src/commands/open-page.js';

const PAGE = '/repo/.git/gate-ladder/report.html';
const everything = () => true;
const nothing = () => false;
const only =
  (...names: string[]) =>
  (c: string) =>
    names.includes(c);

const CASES: [string, NodeJS.Platform, NodeJS.ProcessEnv, (c: string) => boolean, ReturnType<typeof openerFor>][] = [
  ['Linux: xdg-open', 'linux', {}, everything, { file: 'xdg-open', args: [PAGE], by: 'xdg-open' }],
  ['macOS: open', 'darwin', {}, everything, { file: 'open', args: [PAGE], by: 'open' }],
  ['Windows: start, through cmd', 'win32', {}, everything, { file: 'cmd', args: ['/c', 'start', '""', PAGE], by: 'start' }],
  ['no opener found', 'linux', {}, nothing, undefined],
  [
    '$BROWSER first, the page its last argument',
    'linux',
    { BROWSER: 'firefox --new-window' },
    everything,
    { file: 'firefox', args: ['--new-window', PAGE], by: '$BROWSER (firefox)' },
  ],
  ['$BROWSER with %s', 'linux', { BROWSER: 'w3m %s' }, everything, { file: 'w3m', args: [PAGE], by: '$BROWSER (w3m)' }],
  [
    '$BROWSER: the first of its list found',
    'linux',
    { BROWSER: 'chromium:firefox' },
    only('firefox'),
    { file: 'firefox', args: [PAGE], by: '$BROWSER (firefox)' },
  ],
  ['$BROWSER set, none of it found: no other opener in its place', 'linux', { BROWSER: 'nope' }, only('xdg-open'), undefined],
  ['$BROWSER empty: as if unset', 'linux', { BROWSER: ' ' }, everything, { file: 'xdg-open', args: [PAGE], by: 'xdg-open' }],
];

for (const [name, platform, env, found, want] of CASES)
  test(name, () => {
    assert.equal(openerFor(PAGE, platform, env, found), want);
  });

test.run();
