// An app that plays the governance corpus (tests/fixtures/governance-corpus/README.md, "Running it through an
// app") with @vigil/express or @vigil/koa mounted: `node dist/tests/support/governance-corpus/corpus-app.js
// express|koa`, configured by CORPUS_FILE, CORPUS_CONFIG, VIGIL_CONFIG, VIGIL_AGENT_URL, VIGIL_INGEST_TOKEN and
// PORT. It reads each request body to its end, as an app does, then answers the Nth request with case N's response
// (headers in order, written as they are). On SIGTERM it flushes its records and exits.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import express from 'express';
import Koa from 'koa';
import { vigil as vigilExpress } from '@vigil/express';
import { vigil as vigilKoa } from '@vigil/koa';

interface PlayedResponse { status: number; headers: [string, string][]; body_base64?: string }

function env(name: string): string {
  const v = process.env[name];
  if (v === undefined || v === '') throw new Error(`corpus-app: ${name} is not set`);
  return v;
}

const framework = process.argv[2];
if (framework !== 'express' && framework !== 'koa') throw new Error('usage: corpus-app.js express|koa');
const corpus = JSON.parse(readFileSync(env('CORPUS_FILE'), 'utf8')) as { cases: { config: string; response: PlayedResponse }[] };
const responses = corpus.cases.filter((c) => c.config === env('CORPUS_CONFIG')).map((c) => c.response);
const options = { configPath: env('VIGIL_CONFIG'), agentUrl: env('VIGIL_AGENT_URL'), token: env('VIGIL_INGEST_TOKEN'), flushIntervalMs: 20 };
let served = 0;

/** Reads the request to its end, then writes the next case's response exactly. */
function play(req: IncomingMessage, res: ServerResponse): void {
  req.on('data', () => {});
  req.on('end', () => {
    const r = responses[served++];
    if (r === undefined) {
      res.writeHead(599, ['Content-Length', '0']);
      res.end();
      return;
    }
    res.writeHead(r.status, r.headers.flat());
    res.end(r.body_base64 === undefined ? undefined : Buffer.from(r.body_base64, 'base64'));
  });
}

let close: () => Promise<void>;
let handler: (req: IncomingMessage, res: ServerResponse) => void;
if (framework === 'express') {
  const mount = vigilExpress(options);
  const app = express();
  // Express would add X-Powered-By to every answer; the corpus's responses are written as they are.
  app.disable('x-powered-by');
  app.use(mount);
  app.use((req, res) => play(req, res));
  handler = app;
  close = () => mount.close();
} else {
  const mount = vigilKoa(options);
  const app = new Koa();
  app.use(mount);
  app.use((ctx) => {
    ctx.respond = false;
    play(ctx.req, ctx.res);
  });
  handler = app.callback();
  close = () => mount.close();
}

const server = createServer(handler);
server.listen(Number(env('PORT')), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void close().finally(() => process.exit(0));
});
