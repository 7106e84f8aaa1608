// clients/node/src/stream-observer.ts: stream chunks folded into one answer; the iterator the app reads unchanged.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chatAccumulator, responsesAccumulator, watchIterator, watchStream, type StreamEnd } from '../../../clients/node/src/stream-observer.js';

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'c', model: 'gpt-x', object: 'chat.completion.chunk', choices, ...extra });

test('chat chunks: content per choice, tool-call arguments per index, usage from the last chunk', () => {
  const acc = chatAccumulator();
  acc.add(chunk([{ index: 0, delta: { role: 'assistant', content: '' } }, { index: 1, delta: { role: 'assistant' } }]));
  acc.add(chunk([{ index: 0, delta: { content: 'Hel' } }, { index: 1, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get', arguments: '{"a"' } }] } }]));
  acc.add(chunk([{ index: 0, delta: { content: 'lo' }, finish_reason: 'stop' }, { index: 1, delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }, finish_reason: 'tool_calls' }]));
  acc.add(chunk([], { usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, prompt_tokens_details: { cached_tokens: 1 } } }));
  const r = acc.result();
  assert.is(r.model, 'gpt-x');
  assert.equal(r.tokens, { input: 5, output: 2, cache_read: 1, total: 7 });
  assert.equal(r.output, [
    { role: 'assistant', content: 'Hello' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get', arguments: '{"a":1}' } }] },
  ]);
  assert.equal(r.metadata, { finish_reason: ['stop', 'tool_calls'] });
});

test('chat chunks without usage: the result says usage_missing; garbage chunks are ignored', () => {
  const acc = chatAccumulator();
  acc.add(null);
  acc.add('nonsense');
  acc.add(chunk([{ index: 0, delta: { content: 'x' } }]));
  const r = acc.result();
  assert.is(r.tokens, undefined);
  assert.equal(r.metadata, { usage_missing: true });
  assert.equal(r.output, { role: 'assistant', content: 'x' });
});

test('responses events: the completed response gives model, tokens and the text', () => {
  const acc = responsesAccumulator();
  acc.add({ type: 'response.created', response: { model: 'gpt-y', status: 'in_progress', output: [] } });
  acc.add({ type: 'response.output_text.delta', delta: 'Hi ' });
  acc.add({ type: 'response.output_text.delta', delta: 'there' });
  acc.add({ type: 'response.completed', response: { model: 'gpt-y', status: 'completed', output: [{ type: 'message', content: [] }], usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 } } });
  const r = acc.result();
  assert.is(r.model, 'gpt-y');
  assert.is(r.output, 'Hi there');
  assert.equal(r.tokens, { input: 3, output: 2, total: 5 });
});

test('responses events that end in an error event: status error, partial text', () => {
  const acc = responsesAccumulator();
  acc.add({ type: 'response.output_text.delta', delta: 'par' });
  acc.add({ type: 'error', message: 'overloaded' });
  assert.equal(acc.result(), { model: undefined, output: 'par', status: 'error', error: 'overloaded', metadata: { usage_missing: true } });
});

async function* source(values: unknown[], failWith?: Error): AsyncGenerator<unknown> {
  for (const v of values) yield v;
  if (failWith) throw failWith;
}

test('watchIterator hands back the very objects and the very error, and sees how the stream ended', async () => {
  const a = { n: 1 };
  const b = { n: 2 };
  const boom = new Error('boom');
  const seen: unknown[] = [];
  let end: StreamEnd | undefined;
  const it = watchIterator(source([a, b], boom), { chunk: (v) => seen.push(v), end: (e) => { end = e; } });
  const got: unknown[] = [];
  let caught: unknown;
  try { for await (const v of it) got.push(v); } catch (err) { caught = err; }
  assert.ok(got[0] === a && got[1] === b);
  assert.is(caught, boom);
  assert.equal(seen, [a, b]);
  assert.equal(end, { how: 'failed', error: boom });
});

test('leaving a watched stream early calls the original return(), and a watcher that throws changes nothing', async () => {
  let returned = false;
  const inner = source([1, 2, 3]);
  const original = inner.return.bind(inner);
  inner.return = (v: unknown) => { returned = true; return original(v); };
  const ends: string[] = [];
  const it = watchIterator(inner, { chunk: () => { throw new Error('watcher bug'); }, end: (e) => { ends.push(e.how); } });
  for await (const v of it) if (v === 2) break;
  assert.ok(returned);
  assert.equal(ends, ['left']);
});

test('watchStream patches the iterator factory that for-await, tee() and toReadableStream() share; only the first run is watched', async () => {
  const stream: any = { iterator: () => source(['x', 'y']), [Symbol.asyncIterator]() { return this.iterator(); } };
  const seen: unknown[] = [];
  assert.ok(watchStream(stream, { chunk: (v) => seen.push(v), end: () => {} }));
  for await (const _ of stream) { /* read */ }
  for await (const _ of stream) { /* a second run (openai refuses it anyway) is not watched */ }
  assert.equal(seen, ['x', 'y']);
  assert.not.ok(watchStream({ notAStream: true }, { chunk() {}, end() {} }));
});

test.run();
