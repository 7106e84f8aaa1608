import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SseParser } from '../../../../../plugins/assistant/providers/sse-parser.js';
import { deltasOf } from '../../../../../plugins/assistant/providers/openai-provider.js';
import { ProviderFailure } from '../../../../../plugins/assistant/providers/types.js';

const frame = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

test('events cut anywhere come out whole, whatever the cut', () => {
  const stream = `${frame('Hel')}: a comment\n\nevent: ping\ndata: {}\n\n${frame('lo')}data: [DONE]\n\n`;
  for (let cut = 1; cut < stream.length; cut++) {
    const p = new SseParser();
    const events = [...p.feed(stream.slice(0, cut)), ...p.feed(stream.slice(cut))];
    assert.equal(events.map((e) => e.event), ['message', 'ping', 'message', 'message'], `cut at ${cut}`);
    assert.is(events[3].data, '[DONE]');
    assert.is([...deltasOf(events[0].data), ...deltasOf(events[2].data)].join(''), 'Hello');
  }
});

test('CRLF and CR line ends, split between chunks, and multi-line data', () => {
  const p = new SseParser();
  const events = [...p.feed('data: a\r'), ...p.feed('\ndata: b\r\n\r'), ...p.feed('\nevent: x\rdata:c\r\r')];
  assert.equal(events, [{ event: 'message', data: 'a\nb' }, { event: 'x', data: 'c' }]);
});

test('an event with no data is dropped; an endless event is refused', () => {
  assert.equal(new SseParser().feed('event: ping\n\n'), []);
  const p = new SseParser();
  assert.throws(() => { for (let i = 0; i < 2000; i++) p.feed(`data: ${'x'.repeat(1000)}\n`); }, /passed/);
});

test('an error object mid-stream and a frame that is not JSON fail the answer with the message', () => {
  assert.throws(() => [...deltasOf(JSON.stringify({ error: { message: 'rate limited' } }))], (e: Error) => e instanceof ProviderFailure && /rate limited/.test(e.message));
  assert.throws(() => [...deltasOf('{oops')], /not JSON/);
  assert.equal([...deltasOf(JSON.stringify({ choices: [{ delta: { role: 'assistant' } }] }))], []);
});

test.run();
