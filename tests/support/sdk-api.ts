// The live API that the generated clients of tests/fixtures/sdk/users-api.yaml call (a real node:http server that
// records what it received), the scenario every language's driver program runs, and the assertions on both: the
// requests the server got and the typed results the driver printed. One scenario, three languages.
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { startRecordingUpstream, type Received } from './recording-upstream.js';
import { fixture } from './paths.js';
import { runVigil } from './vigil-process.js';

export const SDK_SPEC = fixture('sdk', 'users-api.yaml');
export const SDK_TOKEN = 'Bearer sdk-token';

const USER = {
  id: 'u-1', email: 'ann@example.com', name: null, created_at: '2026-01-02T03:04:05Z',
  address: { street: '1 Main St', city: 'Oslo', geo: { lat: 59.9, lng: 10.7 } },
  tags: ['vip'], role: 'member', 'content-type': 'text/plain', class: 'gold', '2fa': true,
  user_name: 'ann_l', userName: 'AnnL', metadata: { plan: 'pro' },
};

const json = (res: import('node:http').ServerResponse, status: number, body?: unknown) => {
  if (body === undefined) { res.writeHead(status); res.end(); return; }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** The users API of the fixture, answering JSON; it refuses requests without the client's Authorization header. */
export async function startUsersApi() {
  return startRecordingUpstream({}, (req, res, got) => {
    if (req.headers.authorization !== SDK_TOKEN) return json(res, 401, { error: 'unauthorized' });
    const url = new URL(req.url!, 'http://x');
    const parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
    const body = got.body.length ? JSON.parse(got.body.toString('utf8')) as Record<string, unknown> : undefined;
    if (parts[0] !== 'users') return json(res, 404, { error: 'no_route' });
    if (parts.length === 1 && req.method === 'GET') return json(res, 200, { items: [USER], next: null });
    if (parts.length === 1 && req.method === 'POST') {
      return json(res, 201, { ...USER, id: 'u-new', email: body!.email, address: body!.address, 'content-type': body!['content-type'], class: body!.class, '2fa': body!['2fa'] });
    }
    if (parts.length === 2 && req.method === 'GET') {
      return parts[1] === 'missing' ? json(res, 404, { error: 'not_found', detail: 'no user missing' }) : json(res, 200, { ...USER, id: parts[1] });
    }
    if (parts.length === 2 && req.method === 'PATCH') return json(res, 200, { ...USER, id: parts[1], name: body!.name, role: body!.role });
    if (parts.length === 2 && req.method === 'DELETE') return json(res, 204);
    if (parts.length === 4 && parts[2] === 'orders' && req.method === 'GET') {
      return json(res, 200, { id: Number(parts[3]), status: 'paid', total: 12.5, note: null, lines: [{ sku: `sku-of-${parts[1]}`, qty: 2 }] });
    }
    return json(res, 404, { error: 'no_route' });
  });
}

/**
 * What each driver prints, as JSON. The drivers make these calls, in this order:
 *   listUsers { limit 2, sort-by name, tag [a, "b c"], from 2026-01-01T00:00:00Z, active true }
 *   createUser { email new@example.com, address { city Bergen }, content-type text/csv, class vip, 2fa false }
 *   getUser "a/b c";  getUser "missing" (404);  updateUser "u-1" { name "Ann B.", role admin };  deleteUser "u-1"
 *   the order of user "u 1", order 42, expand [lines]
 */
export interface ScenarioOutput {
  list: { count: number; next: null; email: string; city: string; lat: number; contentType: string; class: string; twoFa: boolean; userName: string; userName2: string; name: null };
  created: { id: string; email: string; city: string; contentType: string; class: string; twoFa: boolean };
  got: { id: string; street: string };
  missing: { status: number; error: string };
  updated: { name: string; role: string };
  deleted: boolean;
  order: { id: number; status: string; total: number; note: null; sku: string; qty: number };
}

export function assertScenario(received: Received[], printed: string): void {
  const out = JSON.parse(printed) as ScenarioOutput;
  assert.equal(out, {
    list: { count: 1, next: null, email: 'ann@example.com', city: 'Oslo', lat: 59.9, contentType: 'text/plain', class: 'gold', twoFa: true, userName: 'ann_l', userName2: 'AnnL', name: null },
    created: { id: 'u-new', email: 'new@example.com', city: 'Bergen', contentType: 'text/csv', class: 'vip', twoFa: false },
    got: { id: 'a/b c', street: '1 Main St' },
    missing: { status: 404, error: 'not_found' },
    updated: { name: 'Ann B.', role: 'admin' },
    deleted: true,
    order: { id: 42, status: 'paid', total: 12.5, note: null, sku: 'sku-of-u 1', qty: 2 },
  });

  const seen = received.map((r) => {
    const url = new URL(r.url, 'http://x');
    const headers: Record<string, string> = {};
    for (let i = 0; i < r.rawHeaders.length; i += 2) headers[r.rawHeaders[i].toLowerCase()] = r.rawHeaders[i + 1];
    const query: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) (query[k] ??= []).push(v);
    return { method: r.method, path: url.pathname, query, body: r.body.length ? JSON.parse(r.body.toString('utf8')) as unknown : null, headers };
  });
  // Method, path as sent (path parameters percent-encoded: "/" in a value stays inside its segment), query, body.
  assert.equal(seen.map(({ method, path, query, body }) => ({ method, path, query, body })), [
    { method: 'GET', path: '/users', query: { limit: ['2'], 'sort-by': ['name'], tag: ['a', 'b c'], from: ['2026-01-01T00:00:00Z'], active: ['true'] }, body: null },
    { method: 'POST', path: '/users', query: {}, body: { email: 'new@example.com', address: { city: 'Bergen' }, 'content-type': 'text/csv', class: 'vip', '2fa': false } },
    { method: 'GET', path: '/users/a%2Fb%20c', query: {}, body: null },
    { method: 'GET', path: '/users/missing', query: {}, body: null },
    { method: 'PATCH', path: '/users/u-1', query: {}, body: { name: 'Ann B.', role: 'admin' } },
    { method: 'DELETE', path: '/users/u-1', query: {}, body: null },
    { method: 'GET', path: '/users/u%201/orders/42', query: { expand: ['lines'] }, body: null },
  ]);
  for (const s of seen) {
    assert.is(s.headers.authorization, SDK_TOKEN, `${s.method} ${s.path}: the constructor's header on every request`);
    assert.match(s.headers.accept ?? '', /application\/json/);
    if (s.body !== null) assert.match(s.headers['content-type'] ?? '', /^application\/json/i);
  }
}

/** `vigil sdk --spec SPEC --lang LANG --out DIR`, which must succeed. */
export async function generate(lang: string, dir: string, spec = SDK_SPEC, extra: string[] = []): Promise<string> {
  const r = await runVigil(['sdk', '--spec', spec, '--lang', lang, '--out', dir, ...extra]);
  assert.is(r.code, 0, r.stderr);
  return r.stdout;
}

/** Runs a program to its end; rejects with its output when it fails. */
export function run(cmd: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${out}\n${err}`));
    });
  });
}

/**
 * A document whose names collide and clash with every language's reserved words: operationIds that differ only in
 * spelling, a path parameter called `body`, `self`, `ctx` and `class`, properties `from`, `import`, `self`, `data`,
 * `to_dict`, `type`, `2fa`, `a b`, schemas called `Promise`, `None`, `ApiError` and `Client`. Generated code must
 * still compile in each language.
 */
export const HOSTILE_SPEC = {
  openapi: '3.0.3',
  info: { title: 'Hostile', version: '1' },
  paths: {
    '/things/{body}/{self}/{ctx}/{class}': {
      post: {
        operationId: 'get-thing',
        parameters: ['body', 'self', 'ctx', 'class'].map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        requestBody: { required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/Promise' } } } },
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/None' } } } } },
      },
    },
    '/things': {
      get: {
        operationId: 'getThing',
        parameters: ['query', 'params', 'url', 'from', 'self', 'body'].map((name) => ({ name, in: 'query', required: name === 'url', schema: { type: 'string' } })),
        responses: { 200: { description: 'ok', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
      put: {
        operationId: 'constructor',
        requestBody: { content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/ApiError' } } } } },
        responses: { 204: { description: 'none' } },
      },
      delete: { operationId: 'baseUrl', responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'integer', nullable: true } } } } } },
      patch: { operationId: '2fa', responses: { default: { description: 'x', content: { 'application/json': { schema: { $ref: '#/components/schemas/Client' } } } } } },
    },
  },
  components: {
    schemas: {
      Promise: { type: 'object', properties: Object.fromEntries(['from', 'import', 'self', 'data', 'to_dict', 'type', '2fa', 'a b', 'a-b', 'a_b', 'cls', ''].map((k) => [k, { type: 'string' }])) },
      None: { type: 'object', required: ['next'], properties: { next: { $ref: '#/components/schemas/None' }, any: {}, either: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, map: { type: 'object', additionalProperties: { type: 'integer' } },
        // What `vigil spec` writes for a field seen with several JSON types.
        mixed: { type: ['object', 'string', 'null'], properties: { a: { type: 'integer' } } },
        maybeList: { type: ['array', 'null'], items: { type: 'object', properties: { n: { type: 'number' } } } },
        card: { type: 'string', 'x-vigil-sensitive': 'card-like', 'x-vigil-redacted': true } } },
      ApiError: { allOf: [{ $ref: '#/components/schemas/Promise' }, { type: 'object', properties: { code: { type: 'integer' } } }] },
      Client: { type: 'object', properties: { when: { type: 'string', format: 'date' }, kind: { enum: ['a', 'b', null] } } },
    },
  },
};
