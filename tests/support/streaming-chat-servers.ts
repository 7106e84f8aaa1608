// Loopback stand-ins for the assistant's providers (paid or absent remote APIs), speaking the real wire formats over
// real HTTP: an OpenAI-compatible `POST /v1/chat/completions` with `stream: true` (server-sent events, `data: [DONE]`)
// and Ollama's `POST /api/chat` (newline-delimited JSON until `"done": true`). Chunks are written over time, and cut
// across frame boundaries on purpose, so a client must reassemble them. The model name steers the answer:
//   `hang`     the request is read and never answered (a provider that hangs)
//   `slow`     a word every 100 ms for a minute (to cancel mid-answer)
//   `fail`     an `error` in the middle of the stream
//   `propose`  an answer holding a vigil-action proposal block and a block of an unknown action
//   anything else: FAKE_ANSWER in three pieces
// Each request's parsed body and headers are kept, and `closedEarly` counts sockets the client closed before the
// answer ended (what an aborted upstream request looks like from here).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export const FAKE_ANSWER = 'The disk is nearly full. Clean the package cache.';
export const PROPOSAL_ANSWER = 'Restart it:\n```vigil-action\n{"action": "restart_unit", "unit": "nginx.service", "reason": "it failed"}\n```\n' +
  'And maybe:\n```vigil-action\n{"action": "rm_rf", "path": "/"}\n```\n';

export interface StreamingChatServer {
  url: string;
  requests: { path: string; headers: IncomingMessage['headers']; body: any }[];
  closedEarly: number;
  /** Requests still open (a hung or slow answer the client has not closed yet). */
  open: number;
  close(): Promise<void>;
}

const pieces = (text: string, n: number) => Array.from({ length: n }, (_, i) => text.slice(Math.floor((i * text.length) / n), Math.floor(((i + 1) * text.length) / n)));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function words(model: string): string[] | 'hang' | 'fail' {
  if (model === 'hang') return 'hang';
  if (model === 'fail') return 'fail';
  if (model === 'slow') return Array.from({ length: 600 }, (_, i) => `word${i} `);
  return pieces(model === 'propose' ? PROPOSAL_ANSWER : FAKE_ANSWER, 3);
}

const openAiFrame = (content: string) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;
const ollamaLine = (content: string, done = false) => `${JSON.stringify({ model: 'm', message: { role: 'assistant', content }, done })}\n`;

export async function startStreamingChatServer(): Promise<StreamingChatServer> {
  const state: StreamingChatServer = { url: '', requests: [], closedEarly: 0, open: 0, close: async () => {} };
  const answer = async (req: IncomingMessage, res: ServerResponse, body: any) => {
    const openai = req.url === '/v1/chat/completions';
    const plan = words(String(body.model));
    state.open++;
    let finished = false;
    res.once('close', () => {
      state.open--;
      if (!finished) state.closedEarly++;
    });
    if (plan === 'hang') return;
    res.writeHead(200, { 'content-type': openai ? 'text/event-stream' : 'application/x-ndjson' });
    const frames = plan === 'fail'
      ? (openai ? [openAiFrame('Part '), `data: ${JSON.stringify({ error: { message: 'model overloaded' } })}\n\n`] : [ollamaLine('Part '), `${JSON.stringify({ error: 'model overloaded' })}\n`])
      : [...plan.map((w) => (openai ? openAiFrame(w) : ollamaLine(w))), openai ? 'data: [DONE]\n\n' : ollamaLine('', true)];
    // Written cut in the middle of each frame, the halves apart in time: the client must join them.
    for (const frame of frames) {
      if (res.destroyed) return;
      const half = Math.floor(frame.length / 2);
      res.write(frame.slice(0, half));
      await sleep(plan.length > 100 ? 50 : 10);
      if (res.destroyed) return;
      res.write(frame.slice(half));
      await sleep(plan.length > 100 ? 50 : 10);
    }
    finished = true;
    res.end();
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: any = {};
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { /* answered 400 below */ }
      state.requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.method !== 'POST' || (req.url !== '/v1/chat/completions' && req.url !== '/api/chat') || body.stream !== true) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'expected a streamed chat request' } }));
        return;
      }
      void answer(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  state.close = () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });
  return state;
}
