// Anthropic's Messages API streaming format over real loopback HTTP: the system prompt in its own field, the key in
// x-api-key, text from content_block_delta events (cut across writes), the end at message_stop, an error event as
// the provider's message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import { anthropicProvider } from '../../../../../plugins/assistant/providers/anthropic-provider.js';

let server: Server;
let url = '';
let seen: { headers: Record<string, unknown>; body: any } | undefined;

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

test.before(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', async () => {
      seen = { headers: req.headers, body: JSON.parse(raw) };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frames = seen.body.model === 'broken'
        ? [sse('message_start', { type: 'message_start' }), sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })]
        : [sse('message_start', { type: 'message_start' }), sse('content_block_start', { type: 'content_block_start', index: 0 }),
          sse('ping', { type: 'ping' }),
          sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }),
          sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' there' } }),
          sse('message_stop', { type: 'message_stop' }), sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'after the end' } })];
      const all = frames.join('');
      for (let at = 0; at < all.length; at += 37) {
        res.write(all.slice(at, at + 37));
        await new Promise((r) => setTimeout(r, 2));
      }
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
test.after(() => new Promise<void>((r) => server.close(() => r())));

const collect = async (model: string) => {
  const out: string[] = [];
  for await (const t of anthropicProvider(url, model, 'sk-ant-test').stream([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], new AbortController().signal)) out.push(t);
  return out.join('');
};

test('text deltas until message_stop; the system prompt and the key go where the API wants them', async () => {
  assert.is(await collect('claude-test'), 'Hello there');
  assert.is(seen!.headers['x-api-key'], 'sk-ant-test');
  assert.is(seen!.headers['anthropic-version'], '2023-06-01');
  assert.is(seen!.body.system, 'Be brief.');
  assert.equal(seen!.body.messages, [{ role: 'user', content: 'hi' }]);
  assert.is(seen!.body.stream, true);
});

test('an error event ends the answer with the provider\'s message', async () => {
  try {
    await collect('broken');
    assert.unreachable('no error');
  } catch (err) {
    assert.match((err as Error).message, /failed mid-answer: Overloaded/);
  }
});

test.run();
