// clients/node/src/encode-item.ts: an item's JSON within maxItemBytes, cut where the bulk is, never where it matters.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeItem } from '../../../clients/node/src/encode-item.js';
import type { TraceItem } from '../../../clients/node/src/trace-item.js';

const base: TraceItem = { id: '0b9f8a52-8f4b-4d7e-9a35-0d6f3f0c2a11', model: 'gpt-4o-mini', tokens: { input: 3, output: 4 }, latency_ms: 12.5 };

test('an item within the limit is encoded as is, with its exact UTF-8 byte count', () => {
  const item = { ...base, input: 'héllo 😀' };
  const e = encodeItem(item, 10_000);
  assert.is(e.json, JSON.stringify(item));
  assert.is(e.bytes, Buffer.byteLength(e.json));
  assert.is(e.id, base.id);
});

test('a huge input is cut with a marker; model, tokens and timings stay', () => {
  const item = { ...base, input: [{ role: 'user', content: 'x'.repeat(500_000) }], output: 'short' };
  const e = encodeItem(item, 64 * 1024);
  assert.ok(e.bytes <= 64 * 1024, String(e.bytes));
  const back = JSON.parse(e.json);
  assert.match(back.input[0].content, /^x+…\[truncated \d+ chars\]$/);
  assert.is(back.output, 'short');
  assert.equal(back.tokens, base.tokens);
  assert.is(back.model, base.model);
  assert.is(back.latency_ms, 12.5);
});

test('bulk that no string cut can shrink (many numbers) becomes a marker with the size and a preview', () => {
  const item = { ...base, output: Array.from({ length: 100_000 }, (_, i) => i) };
  const e = encodeItem(item, 16 * 1024);
  assert.ok(e.bytes <= 16 * 1024);
  const back = JSON.parse(e.json);
  assert.is(back.output.truncated, true);
  assert.is(back.output.bytes, Buffer.byteLength(JSON.stringify(item.output)));
  assert.match(back.output.preview, /^\[0,1,2,3/);
});

test('a template\'s raw text is never cut (the server hashes it into versions); its variables may be', () => {
  const raw = 'Answer {{q}} politely.\n'.repeat(100);
  const item = { ...base, prompt_template: { name: 'answer', raw, variables: { q: 'z'.repeat(200_000) } } };
  const e = encodeItem(item, 32 * 1024);
  const back = JSON.parse(e.json);
  assert.is(back.prompt_template.raw, raw);
  assert.match(back.prompt_template.variables.q, /…\[truncated \d+ chars\]$/);
});

test('a template too big to fit at all is left out rather than cut', () => {
  const item = { ...base, prompt_template: { name: 'huge', raw: 'r'.repeat(50_000) } };
  const back = JSON.parse(encodeItem(item, 8 * 1024).json);
  assert.is(back.prompt_template, undefined);
  assert.is(back.model, base.model);
});

test.run();
