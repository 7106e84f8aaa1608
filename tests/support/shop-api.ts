// The small "shop" API the API client's tests send to (tests/fixtures/apiclient describe it): a real HTTP server on a
// loopback port. POST /login gives a fresh token; GET /me and GET /items need it; /slow never answers; /huge streams
// without end; /key checks an API key without echoing it.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';

export interface ShopApi { server: Server; base: string; tokens: Set<string>; apiKey: string; close(): Promise<void> }

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startShopApi(apiKey = 'shop-key-never-echoed'): Promise<ShopApi> {
  const tokens = new Set<string>();
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const authed = bearer !== undefined && tokens.has(bearer);
    const body = await readBody(req);
    if (req.method === 'POST' && url.pathname === '/login') {
      let creds: { user?: string; password?: string } = {};
      try { creds = JSON.parse(body); } catch { /* refused below */ }
      if (creds.user !== 'ada' || creds.password !== 'pw') return json(res, 401, { error: 'bad credentials' });
      const token = `tok-${tokens.size + 1}-${Math.random().toString(36).slice(2, 10)}`;
      tokens.add(token);
      res.setHeader('x-session', `sess-${tokens.size}`);
      return json(res, 200, { data: { token, user: { name: 'ada' } } });
    }
    if (url.pathname === '/me') return authed ? json(res, 200, { name: 'Ada Lovelace', role: 'owner' }) : json(res, 401, { error: 'no token' });
    if (req.method === 'GET' && url.pathname === '/items') {
      if (!authed) return json(res, 401, { error: 'no token' });
      const limit = Number(url.searchParams.get('limit') ?? 3);
      return json(res, 200, { items: Array.from({ length: limit }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` })) });
    }
    if (req.method === 'POST' && url.pathname === '/items') return json(res, 201, { created: Object.fromEntries(new URLSearchParams(body)) });
    if (url.pathname === '/key') return req.headers['x-api-key'] === apiKey ? json(res, 200, { ok: true }) : json(res, 403, { ok: false });
    if (url.pathname === '/gzip') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      return res.end(gzipSync(JSON.stringify({ zipped: true, list: [1, 2, 3] })));
    }
    if (url.pathname === '/slow') { res.writeHead(200, { 'content-type': 'text/plain' }); res.write('starting…'); return; }
    if (url.pathname === '/huge') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => { while (!res.destroyed && res.write(chunk)) { /* until the socket pushes back */ } };
      res.on('drain', pump);
      pump();
      return;
    }
    json(res, 404, { error: 'no such route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    server, base: `http://127.0.0.1:${port}`, tokens, apiKey,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
