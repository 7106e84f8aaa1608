import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DecisionCache } from '../../../policies/decision-cache.js';

test('stores per method and path', () => {
  const c = new DecisionCache<number>(10);
  c.set('GET', '/a', 1);
  c.set('POST', '/a', 2);
  assert.is(c.get('GET', '/a'), 1);
  assert.is(c.get('POST', '/a'), 2);
  assert.is(c.get('PUT', '/a'), undefined);
  assert.is(c.get('GET', '/b'), undefined);
  assert.is(c.size, 2);
});

test('evicts the oldest entry when full, across methods', () => {
  const c = new DecisionCache<number>(3);
  c.set('GET', '/1', 1);
  c.set('POST', '/2', 2);
  c.set('GET', '/3', 3);
  c.set('GET', '/4', 4);
  assert.is(c.size, 3);
  assert.is(c.get('GET', '/1'), undefined);
  assert.is(c.get('POST', '/2'), 2);
  c.set('PUT', '/5', 5);
  assert.is(c.get('POST', '/2'), undefined);
  assert.is(c.get('GET', '/3'), 3);
  assert.is(c.get('GET', '/4'), 4);
  assert.is(c.get('PUT', '/5'), 5);
});

test('never holds more than its capacity, whatever the traffic', () => {
  const c = new DecisionCache<number>(50);
  for (let i = 0; i < 10_000; i++) {
    c.set(i % 3 === 0 ? 'GET' : `M${i % 7}`, `/p/${i}`, i);
    assert.ok(c.size <= 50);
  }
  assert.is(c.get('GET', '/p/9999'), 9999);
  assert.is(c.get('GET', '/p/0'), undefined);
});

test('rejects a capacity that is not a positive integer', () => {
  assert.throws(() => new DecisionCache(0), /positive integer/);
  assert.throws(() => new DecisionCache(1.5), /positive integer/);
});

test.run();
