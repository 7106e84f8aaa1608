// The baseline of bench/llm-ingest.ts, in a process of its own: a bare Koa route that reads the same body, parses it
// and answers 202 with the count, and nothing else (no auth, no validation, no queue).
import { createServer } from 'node:http';
import Koa from 'koa';

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method !== 'POST' || ctx.path !== '/v1/traces') { ctx.status = 404; return; }
  const chunks: Buffer[] = [];
  for await (const c of ctx.req) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { traces: unknown[] };
  ctx.status = 202;
  ctx.body = { accepted: body.traces.length };
});
const server = createServer(app.callback());
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as { port: number }).port });
});
process.on('message', (m) => { if (m === 'stop') server.close(() => process.exit(0)); });
