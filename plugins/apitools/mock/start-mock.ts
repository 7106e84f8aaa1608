// `startMock(document, options) → { url, close }`: the mock as one call, for `vigil mock --spec` and for a document
// inferred by `vigil spec`. Compiles the document (throws SpecError before any port opens), warms the LLM examples
// when asked, then listens.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApitoolsErrors } from '../errors.js';
import { collectGarbage } from './collect-garbage.js';
import type { JsonSchemaObject, OpenApiDocument } from '../openapi/document.js';
import { CollectionStore, DEFAULT_STORE_BOUNDS, type StoreBounds } from './collection-store.js';
import { findCollections, listShape, type Collection } from './collections.js';
import { handleGenerated } from './generated-handler.js';
import { MAX_BODY_DEPTH, nestsDeeperThan } from './json-depth.js';
import { writeLlmExamples, type LlmReport, type LlmSettings } from './llm-examples.js';
import { errorAnswer, validationStatus, type MockAnswer, type MockContext, type MockRequest } from './mock-answer.js';
import { problems } from './mock-ajv.js';
import { compileDocument, type MockOperation } from './mock-operations.js';
import { RouteTable, serverBasePath, type PathTemplate } from './route-table.js';
import { handleStateful, seedItems, type StatefulRoute } from './stateful-handler.js';

export interface MockOptions {
  /** Default 127.0.0.1: a mock is for this machine unless asked otherwise. */
  host?: string;
  /** Default 4010 (Prism's); 0 picks a free port. */
  port?: number;
  /** The dice: the same seed gives the same generated data. Default 1. */
  seed?: number;
  /** Items each collection starts with (and each parent item's child collections). Default 0: empty until POSTed. */
  items?: number;
  /** Where the document came from, for messages. */
  source?: string;
  llm?: LlmSettings;
  /** One line per request and the warm-up's progress. */
  log?: (line: string) => void;
  /** Largest request body read, in bytes; a larger one is answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Items one stateful collection holds (across its parent scopes); past it, writes are answered 507. Default 1,000. */
  maxItems?: number;
  /** Estimated bytes of memory all items hold together (retained-bytes.ts); past it, writes are answered 507. Default 16 MiB. */
  maxStoredBytes?: number;
}

/** The request body the mock reads at most, unless told otherwise: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface MockServer {
  url: string;
  operations: number;
  /** Stateful collections, by template. */
  collections: string[];
  llm?: LlmReport;
  close(): Promise<void>;
}

interface Route {
  path: PathTemplate;
  operations: Map<string, MockOperation>;
}

/** The prefix of the mock's own routes. */
const CONTROL = '/__vigil/';
const EXPOSED = 'X-Vigil-Mock, X-Vigil-Mock-Reason, Location, Content-Length';

function cors(req: IncomingMessage, res: ServerResponse): void {
  // Open for local development: any page may call the mock, with cookies. Echoing the Origin (instead of `*`) is
  // what lets a browser send credentials; the mock holds no secret, and it listens on 127.0.0.1 unless told otherwise.
  const origin = req.headers.origin;
  res.setHeader('access-control-allow-origin', origin ?? '*');
  if (origin) { res.setHeader('access-control-allow-credentials', 'true'); res.setHeader('vary', 'Origin'); }
  res.setHeader('access-control-expose-headers', EXPOSED);
}

function statefulRoutes(operations: MockOperation[], collections: Collection[]): Map<MockOperation, StatefulRoute> {
  const out = new Map<MockOperation, StatefulRoute>();
  for (const c of collections) {
    for (const op of operations) {
      if (op.path.template === c.template) {
        if (op.method === 'POST') out.set(op, { collection: c, action: 'create' });
        const list = op.method === 'GET' ? listShape(op, c) : null;
        if (list) out.set(op, { collection: c, action: 'list', listPath: list });
      } else if (op.path.template === c.itemTemplate) {
        const action = ({ GET: 'read', PUT: 'replace', PATCH: 'merge', DELETE: 'remove' } as const)[op.method as 'GET'];
        if (action) out.set(op, { collection: c, action });
      }
    }
  }
  return out;
}

export async function startMock(doc: OpenApiDocument, options: MockOptions = {}): Promise<MockServer> {
  const log = options.log ?? (() => {});
  const compiled = compileDocument(doc, options.source ?? 'the document');
  const collections = findCollections(compiled.operations);
  const stateful = statefulRoutes(compiled.operations, collections);
  const routes = new Map<string, Route>();
  for (const op of compiled.operations) {
    const route = routes.get(op.path.template) ?? { path: op.path, operations: new Map() };
    route.operations.set(op.method, op);
    routes.set(op.path.template, route);
  }
  const table = new RouteTable([...routes.values()], serverBasePath(doc.servers));
  const explain = (schema: JsonSchemaObject, value: unknown, root: string) => {
    const r = compiled.check(schema, value);
    return r.valid ? [] : problems(r.errors, root);
  };
  const bounds: StoreBounds = {
    maxItems: options.maxItems ?? DEFAULT_STORE_BOUNDS.maxItems,
    maxBytes: options.maxStoredBytes ?? DEFAULT_STORE_BOUNDS.maxBytes,
  };
  const ctx: MockContext = {
    seed: options.seed ?? 1,
    store: new CollectionStore(bounds),
    check: (schema, value) => compiled.check(schema, value).valid,
    explain,
    notFoundSchema: compiled.operations.flatMap((op) => op.responses).find((r) => r.key === '404' && r.json)?.schema,
    llmExamples: new Map(),
  };

  if (options.items) seedItems(ctx, collections, options.items);

  let llm: LlmReport | undefined;
  if (options.llm) {
    const targets = compiled.operations
      .filter((op) => !stateful.has(op) && op.success?.json && op.success.schema && op.success.example === undefined)
      .map((op) => ({ key: `${op.key} ${op.success!.key}`, operation: op.key, summary: op.summary, status: op.success!.key, schema: op.success!.schema! }));
    log(`llm: asking ${options.llm.model} at ${options.llm.baseUrl} for the examples of ${targets.length} operation${targets.length === 1 ? '' : 's'}`);
    const written = await writeLlmExamples(targets, options.llm, (s, v) => explain(s, v, ''));
    ctx.llmExamples = written.examples;
    llm = written.report;
    for (const f of llm.fellBack) log(`llm: ${f.key}: fell back to the generator: ${f.reason}`);
    log(`llm: ${llm.used} of ${llm.asked} examples from the model, ${llm.fellBack.length} fell back to the generator`);
  }

  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const server: Server = createServer((req, res) => {
    void serve(req, res).catch((err) => {
      log(`${req.method} ${req.url} failed: ${(err as Error).stack ?? err}`);
      if (!res.headersSent) send(res, req, { status: 500, mode: 'error', body: { error: { status: 500, message: 'the mock failed; see its log' } } });
      else res.destroy();
    });
  });

  function send(res: ServerResponse, req: IncomingMessage, answer: MockAnswer): void {
    cors(req, res);
    res.setHeader('x-vigil-mock', answer.mode);
    for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
    let payload: string | undefined;
    if (answer.body !== undefined && answer.status !== 204 && answer.status !== 304) {
      const json = !answer.mediaType || /json/i.test(answer.mediaType) || typeof answer.body !== 'string';
      payload = json ? JSON.stringify(answer.body) : (answer.body as string);
      res.setHeader('content-type', json ? (answer.mediaType && /json/i.test(answer.mediaType) ? answer.mediaType : 'application/json') : answer.mediaType!);
    }
    res.statusCode = answer.status;
    res.end(req.method === 'HEAD' ? undefined : payload);
    log(`${req.method} ${req.url} → ${answer.status} ${answer.mode}`);
  }

  /** The body, or 'too large' as soon as it is known to pass `maxBody`: from its Content-Length, or while it arrives. */
  async function readBody(req: IncomingMessage): Promise<Buffer | 'too large'> {
    if (Number(req.headers['content-length'] ?? 0) > maxBody) return 'too large';
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBody) return 'too large';
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://mock.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    let matched: { route: Route; params: Record<string, string>; path: string } | undefined;
    for (const m of table.match(url.pathname)) { matched = m; break; }
    if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
      cors(req, res);
      const methods = matched ? [...matched.route.operations.keys()] : ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
      res.setHeader('access-control-allow-methods', [...methods, 'OPTIONS'].join(', '));
      const asked = req.headers['access-control-request-headers'];
      if (asked) res.setHeader('access-control-allow-headers', asked);
      res.setHeader('access-control-max-age', '600');
      res.statusCode = 204;
      res.end();
      return;
    }
    if (!matched && url.pathname.startsWith(CONTROL)) {
      req.resume();
      control(req, res, method, url.pathname.slice(CONTROL.length));
      return;
    }
    if (!matched) {
      req.resume();
      send(res, req, errorAnswer(ctx, undefined, 404, `no path of the spec matches ${url.pathname}`));
      return;
    }
    const op = matched.route.operations.get(method) ?? (method === 'HEAD' ? matched.route.operations.get('GET') : undefined);
    if (!op) {
      req.resume();
      const allowed = [...matched.route.operations.keys()].join(', ');
      const refused = errorAnswer(ctx, undefined, 405, `${method} is not declared for ${matched.route.path.template}; it declares ${allowed}`);
      send(res, req, { ...refused, headers: { ...refused.headers, allow: allowed } });
      return;
    }
    const raw = await readBody(req);
    if (raw === 'too large') {
      const why = `the body is over ${maxBody} bytes (--max-body ${maxBody}): send a smaller one, or start the mock with a larger --max-body`;
      // The rest of the body is never read: the connection closes once the answer is out.
      res.setHeader('connection', 'close');
      send(res, req, errorAnswer(ctx, op, 413, why, [], ApitoolsErrors.MOCK_BODY_TOO_LARGE));
      res.once('finish', () => req.destroy());
      return;
    }
    const request: MockRequest = {
      method, pathname: url.pathname, routePath: matched.path, query: url.searchParams, headers: req.headers, params: matched.params, typedQuery: {}, body: undefined,
    };
    const refused = checkRequest(op, request, raw, req.headers['content-type']);
    if (refused) { send(res, req, refused); return; }
    const route = stateful.get(op);
    send(res, req, route ? handleStateful(ctx, op, route, request) : handleGenerated(ctx, op, request));
  }

  /**
   * The mock's own routes, for test suites: `POST /__vigil/reset` forgets every item (then seeds `--items` again) and
   * restarts the id sequences; `GET /__vigil/state` shows what the collections hold, and how near the bounds they are
   * (`usage`: items in all, estimated bytes). A spec path of the same name wins.
   */
  function control(req: IncomingMessage, res: ServerResponse, method: string, action: string): void {
    if (action === 'reset' && method === 'POST') {
      // The old store is referenced from ctx only: replacing it leaves every item, scope and sequence to the GC, which
      // runs once the answer is out, so the memory goes back to the system now rather than at V8's next collection.
      ctx.store = new CollectionStore(bounds);
      if (options.items) seedItems(ctx, collections, options.items);
      res.once('finish', () => setImmediate(collectGarbage));
      send(res, req, { status: 204, mode: 'control' });
    } else if (action === 'state' && method === 'GET') {
      const { items, bytes } = ctx.store.usage();
      const body = { collections: ctx.store.dump(), usage: { items, bytes, max_items: bounds.maxItems, max_bytes: bounds.maxBytes } };
      send(res, req, { status: 200, mode: 'control', body });
    } else {
      send(res, req, errorAnswer(ctx, undefined, 404, `the mock's own routes are POST ${CONTROL}reset and GET ${CONTROL}state`));
    }
  }

  /** Parameters and body against the operation's schemas: an error answer, or undefined when the request is valid. */
  function checkRequest(op: MockOperation, request: MockRequest, raw: Buffer, contentType: string | undefined): MockAnswer | undefined {
    const details = [];
    const sources: Record<'path' | 'query' | 'header', Record<string, unknown>> = { path: { ...request.params }, query: {}, header: {} };
    for (const p of op.parameters) {
      if (p.in === 'query') {
        const all = request.query.getAll(p.name);
        if (all.length) sources.query[p.name] = all.length > 1 ? all : all[0];
      } else if (p.in === 'header') {
        const v = request.headers[p.name];
        if (v !== undefined) sources.header[p.name] = v;
      }
    }
    for (const where of ['path', 'query', 'header'] as const) {
      const validate = op.validateParams[where];
      if (validate && !validate(sources[where])) details.push(...problems(validate.errors, where));
    }
    if (details.length) return errorAnswer(ctx, op, validationStatus(op, 400), 'the request parameters do not match the spec', details);
    request.typedQuery = sources.query;
    if (!op.body) return undefined;
    if (raw.length === 0) {
      return op.body.required ? errorAnswer(ctx, op, validationStatus(op, 400), 'the request body is required') : undefined;
    }
    if (!op.body.json) return undefined; // forms and files are accepted as they come
    if (contentType && !/json/i.test(contentType)) {
      return errorAnswer(ctx, op, 415, `the body must be ${op.body.mediaTypes.join(' or ')}, not ${contentType}`);
    }
    try {
      request.body = JSON.parse(raw.toString('utf8'));
    } catch (err) {
      return errorAnswer(ctx, op, validationStatus(op, 400), `the body is not JSON: ${(err as Error).message}`);
    }
    if (nestsDeeperThan(request.body, MAX_BODY_DEPTH)) {
      const why = `the body nests deeper than ${MAX_BODY_DEPTH} objects and arrays: send a flatter document`;
      return errorAnswer(ctx, op, 400, why, [], ApitoolsErrors.MOCK_BODY_TOO_DEEP);
    }
    if (op.body.validate && !op.body.validate(request.body)) {
      return errorAnswer(ctx, op, validationStatus(op, 422), 'the request body does not match the spec', problems(op.body.validate.errors, 'body'));
    }
    return undefined;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, options.host ?? '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${address.port}`,
    operations: compiled.operations.length,
    collections: collections.map((c) => c.template),
    llm,
    close: () => (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      // In-flight answers are a few ms of JSON: give them a moment, then drop whatever is left.
      setTimeout(() => server.closeAllConnections(), 500).unref();
    })),
  };
}
