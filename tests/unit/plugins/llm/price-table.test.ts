import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PriceTable, SHIPPED_PRICES } from '../../../../plugins/llm/price-table.js';

const prices = new PriceTable();

test('dated and provider-prefixed names find their model; the longest name wins; look-alikes do not match', () => {
  assert.is(prices.lookup('gpt-4o-mini-2024-07-18'), SHIPPED_PRICES['gpt-4o-mini']);
  assert.is(prices.lookup('gpt-4o-2024-08-06'), SHIPPED_PRICES['gpt-4o']);
  assert.is(prices.lookup('openai/gpt-4.1-nano'), SHIPPED_PRICES['gpt-4.1-nano']);
  assert.is(prices.lookup('models/gemini-2.5-flash'), SHIPPED_PRICES['gemini-2.5-flash']);
  assert.is(prices.lookup('gemini-2.5-flash-lite-preview-06-17'), SHIPPED_PRICES['gemini-2.5-flash-lite']);
  assert.is(prices.lookup('us.anthropic.claude-3-5-sonnet-20240620-v1:0'), SHIPPED_PRICES['claude-3-5-sonnet']);
  assert.is(prices.lookup('claude-sonnet-4@20250514'), SHIPPED_PRICES['claude-sonnet-4']);
  assert.is(prices.lookup('Claude-Sonnet-4-5'), SHIPPED_PRICES['claude-sonnet-4-5']);
  assert.is(prices.lookup('gpt-4.5-preview'), null);
  assert.is(prices.lookup('gpt-4ox'), null);
  assert.is(prices.lookup('my-model'), null);
});

test('cost: fresh input, cached input and output at their prices; null without a price or tokens', () => {
  assert.is(prices.cost('gpt-4o', { input: 1_000_000, output: 1_000_000 }), 12.5);
  assert.is(prices.cost('gpt-4o', { input: 1_000_000, cache_read: 400_000, output: 0 }), 0.6 * 2.5 + 0.4 * 1.25);
  // More cached than input is read as all input cached.
  assert.is(prices.cost('gpt-4o', { input: 100, cache_read: 500 }), (100 * 1.25) / 1e6);
  assert.is(prices.cost('gpt-4-turbo', { input: 1_000_000, cache_read: 1_000_000 }), 10, 'no cached price: the input price');
  assert.is(prices.cost('unknown', { input: 5 }), null);
  assert.is(prices.cost('gpt-4o', undefined), null);
  assert.is(prices.cost('gpt-4o', { total: 10 }), null);
});

test('config overrides win, and may add models by prefix', () => {
  const custom = new PriceTable({ 'gpt-4o': { input: 1, output: 2 }, 'acme-ft': { input: 10, output: 20, cached_input: 5 } });
  assert.is(custom.cost('gpt-4o-2024-08-06', { input: 1_000_000 }), 1);
  assert.is(custom.cost('acme-ft-v3', { input: 2_000_000, cache_read: 1_000_000, output: 1_000_000 }), 35);
  assert.is(custom.lookup('gpt-4o-mini'), SHIPPED_PRICES['gpt-4o-mini']);
});

test('every shipped price has input and output; cached prices are below input prices', () => {
  for (const [name, p] of Object.entries(SHIPPED_PRICES)) {
    assert.ok(p.input >= 0 && p.output >= 0, name);
    if (p.cached_input !== undefined) assert.ok(p.cached_input < p.input, name);
  }
});

test.run();
