// A local stand-in for OpenAI's API (a paid remote API: the one kind of fake the conventions allow), speaking the real
// protocol as openai@6 reads it:
//   POST /v1/chat/completions  JSON, or SSE when `stream` (every chunk carries `"usage": null` and a last chunk with
//                              empty choices carries the usage, when `stream_options.include_usage`); a tool call
//                              when tools are offered
//   POST /v1/responses         a Response object, or its SSE events (response.created, output_text deltas,
//                              response.completed with usage)
//   POST /v1/embeddings        float arrays, or base64 of little-endian float32 when `encoding_format: "base64"` (what
//                              openai@6 asks for by default)
// The model name steers failures: `error-<status>` answers that status with OpenAI's error body, `stream-break` cuts
// the stream's connection after two chunks. `script` queues one-off answers (a status with headers and body, or a
// hang; or, for an LLM judge, a tool call with a score, a text answer without the tool call, or raw tool arguments),
// each used by one request before the routes above; `chat` chooses a chat completion's answer per request; `embed`
// gives each input its own vector. Answers are deterministic (fixed ids and timestamps) so that a test can
// compare what the application receives with and without the wrapper. Every answer waits `delayMs` first, so that a
// recorded latency has something to measure.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export const FAKE = {
  model: 'gpt-4o-mini-2024-07-18',
  answer: 'Paris is the capital of France.',
  streamed: ['Paris ', 'is the ', 'capital.'],
  usage: { prompt_tokens: 21, completion_tokens: 7, total_tokens: 28, prompt_tokens_details: { cached_tokens: 5, audio_tokens: 0 } },
  streamUsage: { prompt_tokens: 19, completion_tokens: 3, total_tokens: 22, prompt_tokens_details: { cached_tokens: 0 } },
  responsesUsage: { input_tokens: 12, input_tokens_details: { cached_tokens: 4 }, output_tokens: 6, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 18 },
  embeddingModel: 'text-embedding-3-small',
  embeddingUsage: { prompt_tokens: 4, total_tokens: 4 },
  vector: [0.25, -0.5, 0.125],
  created: 1_764_000_000,
} as const;

/** One scripted answer, used by the next request: a status with headers and a JSON body, or no answer at all. */
export type ScriptedAnswer = { status: number; headers?: Record<string, string>; body?: unknown } | { hang: true } | ChatScript;

/** A scripted chat completion (200, with FAKE.usage), as an LLM judge forced to call a tool may get it. */
export type ChatScript =
  /** A call of the tool `tool_choice` names (else the first offered) with `{ score, reasoning }` as its arguments. */
  | { score: unknown; reasoning?: string }
  /** A call of that tool with these raw arguments (not necessarily JSON). */
  | { arguments: string }
  /** A plain text answer: no tool call, whatever `tool_choice` said. */
  | { text: string };

export interface FakeOpenAI {
  /** The base URL to give openai (`…/v1`). */
  baseURL: string;
  requests: { path: string; body: any; headers: Record<string, string | string[] | undefined> }[];
  /** Answers for the next requests, first first; the routes answer once it is empty. */
  script: ScriptedAnswer[];
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_fake_${status}` });
  res.end(JSON.stringify(body));
}

function sse(res: ServerResponse): (data: unknown, event?: string) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': 'req_fake_stream' });
  return (data, event) => res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

function chat(body: any, res: ServerResponse): void {
  const tool = Array.isArray(body.tools) && body.tools.length > 0
    ? { id: 'call_1', type: 'function', function: { name: body.tools[0].function.name, arguments: '{"city":"Paris"}' } }
    : undefined;
  const base = { id: 'chatcmpl-fake', created: FAKE.created, model: FAKE.model, system_fingerprint: 'fp_fake' };
  if (!body.stream) {
    json(res, 200, {
      ...base, object: 'chat.completion',
      choices: [{
        index: 0, logprobs: null, finish_reason: tool ? 'tool_calls' : 'stop',
        message: tool ? { role: 'assistant', content: null, tool_calls: [tool], refusal: null } : { role: 'assistant', content: FAKE.answer, refusal: null },
      }],
      usage: FAKE.usage,
    });
    return;
  }
  const send = sse(res);
  const withUsage = body.stream_options?.include_usage === true;
  const chunk = (delta: unknown, finish: string | null): unknown => ({
    ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(withUsage ? { usage: null } : {}),
  });
  send(chunk({ role: 'assistant', content: '', refusal: null }, null));
  if (tool) {
    send(chunk({ tool_calls: [{ index: 0, id: tool.id, type: 'function', function: { name: tool.function.name, arguments: '' } }] }, null));
    send(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, null));
    send(chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, null));
  } else {
    for (const [i, piece] of FAKE.streamed.entries()) {
      send(chunk({ content: piece }, null));
      // Destroyed a moment later, so that the chunks written so far reach the client first.
      if (body.model === 'stream-break' && i === 1) { setTimeout(() => res.destroy(), 30); return; }
    }
  }
  send(chunk({}, tool ? 'tool_calls' : 'stop'));
  if (withUsage) send({ ...base, object: 'chat.completion.chunk', choices: [], usage: FAKE.streamUsage });
  send('[DONE]');
  res.end();
}

function responseObject(status: string, text: string | undefined): unknown {
  return {
    id: 'resp_fake', object: 'response', created_at: FAKE.created, status, model: FAKE.model, error: null, incomplete_details: null,
    instructions: null, metadata: {}, parallel_tool_calls: true, temperature: 1, tool_choice: 'auto', tools: [], top_p: 1,
    output: text === undefined ? [] : [{ type: 'message', id: 'msg_fake', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }],
    usage: text === undefined ? null : FAKE.responsesUsage,
  };
}

function responses(body: any, res: ServerResponse): void {
  if (!body.stream) { json(res, 200, responseObject('completed', FAKE.answer)); return; }
  const send = sse(res);
  let seq = 0;
  send({ type: 'response.created', sequence_number: seq++, response: responseObject('in_progress', undefined) }, 'response.created');
  for (const delta of FAKE.streamed) {
    send({ type: 'response.output_text.delta', sequence_number: seq++, item_id: 'msg_fake', output_index: 0, content_index: 0, delta }, 'response.output_text.delta');
  }
  send({ type: 'response.completed', sequence_number: seq++, response: responseObject('completed', FAKE.streamed.join('')) }, 'response.completed');
  res.end();
}

function embeddings(body: any, res: ServerResponse, embed: (text: string) => number[]): void {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const embedding = (text: string): number[] | string => body.encoding_format === 'base64'
    ? Buffer.from(new Float32Array(embed(text)).buffer).toString('base64')
    : [...embed(text)];
  json(res, 200, {
    object: 'list', model: FAKE.embeddingModel, usage: FAKE.embeddingUsage,
    data: inputs.map((text: string, index: number) => ({ object: 'embedding', index, embedding: embedding(text) })),
  });
}

/** A scripted chat completion: the forced tool's call, raw arguments, or a text answer. */
function chatAnswer(body: any, res: ServerResponse, answer: ChatScript): void {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion', created: FAKE.created, model: body.model ?? FAKE.model, system_fingerprint: 'fp_fake', usage: FAKE.usage };
  if ('text' in answer) {
    json(res, 200, { ...base, choices: [{ index: 0, logprobs: null, finish_reason: 'stop', message: { role: 'assistant', content: answer.text, refusal: null } }] });
    return;
  }
  const name = body.tool_choice?.function?.name ?? body.tools?.[0]?.function?.name ?? 'submit_score';
  const args = 'arguments' in answer ? answer.arguments : JSON.stringify({ score: answer.score, reasoning: answer.reasoning ?? 'scripted' });
  json(res, 200, {
    ...base,
    choices: [{
      index: 0, logprobs: null, finish_reason: 'tool_calls',
      message: { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: 'call_judge', type: 'function', function: { name, arguments: args } }] },
    }],
  });
}

export interface FakeOpenAIOptions {
  delayMs?: number;
  /** Chooses a chat completion's answer per request (before `script`); undefined lets `script` and the routes answer. */
  chat?: (body: any) => ScriptedAnswer | undefined;
  /** The vector for one embeddings input; FAKE.vector for every input by default. */
  embed?: (text: string) => number[];
}

export async function startFakeOpenAI({ delayMs = 15, embed = () => [...FAKE.vector], chat: chooseChat }: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: FakeOpenAI['requests'] = [];
  const script: ScriptedAnswer[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      const path = (req.url ?? '').split('?')[0];
      requests.push({ path, body, headers: req.headers });
      await new Promise((r) => setTimeout(r, delayMs));
      const scripted = (path === '/v1/chat/completions' ? chooseChat?.(body) : undefined) ?? script.shift();
      if (scripted && 'hang' in scripted) return;
      if (scripted && 'status' in scripted) {
        res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
        res.end(scripted.body === undefined ? '' : JSON.stringify(scripted.body));
        return;
      }
      if (scripted) { chatAnswer(body, res, scripted); return; }
      const failure = /^error-(\d{3})$/.exec(String(body.model ?? ''));
      if (failure) {
        json(res, Number(failure[1]), { error: { message: `The fake refuses model ${body.model}.`, type: 'invalid_request_error', param: 'model', code: 'model_not_found' } });
        return;
      }
      if (path === '/v1/chat/completions') chat(body, res);
      else if (path === '/v1/responses') responses(body, res);
      else if (path === '/v1/embeddings') embeddings(body, res, embed);
      else json(res, 404, { error: { message: `no route ${path}`, type: 'invalid_request_error', param: null, code: null } });
    })().catch((err) => { res.destroy(err); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
