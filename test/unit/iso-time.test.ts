import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isoTime } from '../../src/util/iso-time.js';

test('isoTime agrees with Date#toISOString on edges and on 20,000 random times from 1970 to 9999', () => {
  const edges = [
    0,
    1,
    999,
    86_399_999,
    86_400_000,
    Date.UTC(2000, 1, 29, 23, 59, 59, 999),
    Date.UTC(2100, 1, 28),
    Date.UTC(2100, 2, 1),
    Date.UTC(2024, 11, 31, 12),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
  ];
  const max = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
  const random = Array.from({ length: 20_000 }, () => Math.floor(Math.random() * max));
  const wrong = [...edges, ...random].filter((ms) => isoTime(ms) !== new Date(ms).toISOString());
  assert.equal(
    wrong.slice(0, 3).map((ms) => [ms, isoTime(ms), new Date(ms).toISOString()]),
    [],
  );
});

test.run();
