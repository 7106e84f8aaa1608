import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileConfigSchema } from '../../../../../runtime/config/ajv-instance.js';
import { llmConfigSchema } from '../../../../../plugins/llm/config-schema.js';
import { DEFAULT_SPAN_BOUNDS, fitParts, spanBoundsOf } from '../../../../../plugins/llm/spans/span-bounds.js';

test('parts within the bound are left whole', () => {
  const parts = { input: 'a', output: { x: 1 }, metadata: { k: 'v' } };
  assert.equal(fitParts(parts, 100), {});
  assert.equal(parts, { input: 'a', output: { x: 1 }, metadata: { k: 'v' } });
});

test('the largest parts are left out first, until the rest fits, and named with their size', () => {
  const parts = { input: 'x'.repeat(500), output: 'y'.repeat(200), metadata: { k: 'v' } };
  const truncated = fitParts(parts, 300);
  assert.equal(truncated, { input: 502 });
  assert.equal(Object.keys(parts).sort(), ['metadata', 'output']);
  const again = fitParts(parts, 5, truncated);
  assert.equal(again, { input: 502, output: 202, metadata: 9 });
  assert.equal(parts, {});
});

test('bytes, not characters', () => {
  const parts = { input: 'é'.repeat(100) };
  assert.equal(fitParts(parts, 150), { input: 202 });
});

test('config: defaults, and units as written', () => {
  assert.equal(spanBoundsOf(undefined), DEFAULT_SPAN_BOUNDS);
  assert.equal(spanBoundsOf({ max_per_trace: 3, max_bytes: '1kb', hold: '30s', hold_max_spans: 7 }), { maxPerTrace: 3, maxBytes: 1024, holdMs: 30_000, holdMaxSpans: 7 });
});

test('llm.spans in the config: its keys and units, an unknown key refused with its path', () => {
  const validate = compileConfigSchema(llmConfigSchema);
  assert.ok(validate({ spans: { max_per_trace: 50, max_bytes: '32kb', hold: '5m', hold_max_spans: 100 } }), JSON.stringify(validate.errors));
  assert.not.ok(validate({ spans: { max_span: 3 } }));
  assert.is(validate.errors?.[0].instancePath, '/spans');
  assert.equal(validate.errors?.[0].params, { additionalProperty: 'max_span' });
  assert.not.ok(validate({ spans: { max_bytes: 'lots' } }));
  assert.not.ok(validate({ spans: { max_per_trace: 0 } }));
});

test.run();
