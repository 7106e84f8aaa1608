import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sortRows } from '../../../../ui/src/components/table.js';
import { countRedacted, REDACTED } from '../../../../ui/src/components/json-view.js';

const rows = [
  { route: '/b', p99: 200 }, { route: '/a', p99: null }, { route: '/c', p99: 50 }, { route: '/A2', p99: 200 },
];

test('numbers sort numerically, text by locale; nulls last in both directions; ties keep their order', () => {
  assert.equal(sortRows(rows, (r) => r.p99, 'descending').map((r) => r.route), ['/b', '/A2', '/c', '/a']);
  assert.equal(sortRows(rows, (r) => r.p99, 'ascending').map((r) => r.route), ['/c', '/b', '/A2', '/a']);
  assert.equal(sortRows(rows, (r) => r.route, 'ascending').map((r) => r.route), ['/a', '/A2', '/b', '/c']);
  assert.equal(sortRows([{ n: 10 }, { n: 9 }, { n: 100 }], (r) => r.n, 'ascending').map((r) => r.n), [9, 10, 100], 'not as text');
});

test('countRedacted finds the marker at any depth and nowhere else', () => {
  assert.is(countRedacted({ card: { number: REDACTED, cvc: REDACTED }, items: [{ iban: REDACTED }, 'x'], note: 'was [REDACTED] before' }), 3);
  assert.is(countRedacted(null), 0);
  assert.is(countRedacted('[REDACTED]'), 1);
});

test.run();
