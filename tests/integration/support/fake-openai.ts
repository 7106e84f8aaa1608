// A local stand-in for OpenAI's API (a paid remote API, the one fake the conventions allow), speaking the real
// protocol: POST /v1/chat/completions (JSON, or SSE when `stream`, with `usage` in a final chunk when
// `stream_options.include_usage`; a tool call when tools are offered and the last message is the user's) and
// POST /v1/embeddings (float arrays, or base64 of little-endian float32 when `encoding_format: "base64"`, which
// openai@6 asks for by default). Answers are fixed so tests can assert them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export const FAKE = {
  answer: 'Paris is the capital of France.',
  streamed: ['Paris ', 'is the ', 'capital.'],
  model: 'gpt-4o-mini-2024-07-18',
  usage: { prompt_tokens: 21, completion_tokens: 7, total_tokens: 28, prompt_tokens_details: { cached_tokens: 5 } },
  streamUsage: { prompt_tokens: 19, completion_tokens: 3, total_tokens: 22 },
  embeddingUsage: { prompt_tokens: 4, total_tokens: 4 },
  vector: [0.25, -0.5, 0.125],
} as const;

export interface FakeOpenAI {
  url: string;
  requests: { path: string; body: any }[];
  close(): Promise<void>;
}

const readJson = async (req: IncomingMessage): Promise<any> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
};

const created = () => Math.floor(Date.now() / 1000);

function chat(body: any, res: ServerResponse): void {
  const id = 'chatcmpl-fake123';
  const last = body.messages?.[body.messages.length - 1];
  const toolCall = Array.isArray(body.tools) && body.tools.length > 0 && last?.role === 'user'
    ? { id: 'call_1', type: 'function', function: { name: body.tools[0].function.name, arguments: '{"city":"Paris"}' } }
    : undefined;
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_fake' });
    res.end(JSON.stringify({
      id, object: 'chat.completion', created: created(), model: FAKE.model, system_fingerprint: 'fp_fake',
      choices: [{
        index: 0, logprobs: null, finish_reason: toolCall ? 'tool_calls' : 'stop',
        message: toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall], refusal: null } : { role: 'assistant', content: FAKE.answer, refusal: null },
      }],
      usage: FAKE.usage,
    }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (choices: unknown[], extra: object = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: created(), model: FAKE.model, system_fingerprint: 'fp_fake', choices, ...extra })}\n\n`);
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
  for (const piece of FAKE.streamed) chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]);
  chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
  if (body.stream_options?.include_usage) chunk([], { usage: FAKE.streamUsage });
  res.end('data: [DONE]\n\n');
}

function embeddings(body: any, res: ServerResponse): void {
  const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
  const data = inputs.map((_, index) => {
    const floats = Float32Array.from(FAKE.vector);
    const embedding = body.encoding_format === 'base64' ? Buffer.from(floats.buffer).toString('base64') : [...floats];
    return { object: 'embedding', index, embedding };
  });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', data, model: 'text-embedding-3-small', usage: FAKE.embeddingUsage }));
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: FakeOpenAI['requests'] = [];
  const server: Server = createServer((req, res) => {
    readJson(req).then((body) => {
      const path = (req.url ?? '').split('?')[0];
      requests.push({ path, body });
      if (req.method === 'POST' && path.endsWith('/chat/completions')) chat(body, res);
      else if (req.method === 'POST' && path.endsWith('/embeddings')) embeddings(body, res);
      else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } }));
      }
    }, () => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'body is not JSON', type: 'invalid_request_error' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
