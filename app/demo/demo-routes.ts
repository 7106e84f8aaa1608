/**
 * The demo API's routes: a small shop with users, orders, payments, search, support tickets, data exports, an
 * OpenAI-style completion endpoint and an admin area. Each answer is what such an API would say, including its
 * failures: unknown ids, validation errors, declined cards, a payment processor that has bad minutes, a search
 * backend that times out, a completion endpoint that rate-limits.
 */
import { randomBytes } from 'node:crypto';
import { CARDS, PEOPLE, PRODUCTS, TENANTS, type Person, type Tenant } from './demo-data.js';
import { any, between, chance, latency, seeded, type Random } from './random.js';

export interface DemoAnswer {
  status: number;
  body?: unknown;
  /** How long the API takes to answer, in ms. */
  delayMs: number;
  headers?: Record<string, string>;
  /** Drop the connection instead of answering (a crashed worker): the gateway answers 502 for it. */
  reset?: boolean;
}

export interface DemoRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** Undefined on routes that need no key. */
  tenant: Tenant | undefined;
  admin: boolean;
  /** Whether the payment processor is having one of its bad minutes (demo-api.ts decides when). */
  incident: boolean;
}

type Handler = (req: DemoRequest, params: string[]) => DemoAnswer;

const id = (prefix: string): string => `${prefix}_${randomBytes(9).toString('base64url')}`;
/** An error answer in the API's one shape: `{ error: { code, message, … } }`. */
export const errorAnswer = (status: number, code: string, message: string, delayMs: number, extra: object = {}): DemoAnswer =>
  ({ status, body: { error: { code, message, ...extra } }, delayMs });
const object = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {});

const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'refunded'] as const;
/** Order numbers below this exist; the traffic sometimes asks for one above it. */
export const KNOWN_ORDERS = 90_000;

function userView(p: Person, full: boolean) {
  const base = { id: p.id, name: p.name, email: p.email, plan: any(['free', 'team', 'business'], seeded(p.id.length * 7919)) };
  return full ? { ...base, phone: p.phone, address: { city: p.city, country: p.country }, created_at: '2024-03-14T09:26:53Z' } : base;
}

/** The same order for the same number, every time. */
function order(n: number) {
  const r: Random = seeded(n);
  const customer = any(PEOPLE, r);
  const items = Array.from({ length: between(1, 3, r) }, () => {
    const p = any(PRODUCTS, r);
    return { sku: p.sku, name: p.name, quantity: between(1, 2, r), unit_price: p.price };
  });
  return {
    id: `ord_${n}`,
    status: any(ORDER_STATUSES, r),
    currency: 'EUR',
    total: items.reduce((t, i) => t + i.quantity * i.unit_price, 0),
    items,
    customer: { id: customer.id, name: customer.name, email: customer.email },
    shipping: { name: customer.name, city: customer.city, country: customer.country },
    created_at: new Date(Date.UTC(2025, 0, 1) + n * 3_600_000).toISOString(),
  };
}

const listUsers: Handler = (req) => {
  const email = req.query.get('email');
  if (email !== null) return { status: 200, body: { data: PEOPLE.filter((p) => p.email === email).map((p) => userView(p, false)) }, delayMs: latency(18, 0.4) };
  const page = Math.max(1, Number(req.query.get('page') ?? 1) || 1);
  const size = 8;
  const data = PEOPLE.slice((page - 1) * size, page * size).map((p) => userView(p, false));
  return { status: 200, body: { data, page, has_more: page * size < PEOPLE.length }, delayMs: latency(35, 0.5) };
};

const getUser: Handler = (_req, [userId]) => {
  const person = PEOPLE.find((p) => p.id === userId);
  return person ? { status: 200, body: userView(person, true), delayMs: latency(15, 0.4) }
    : errorAnswer(404, 'user_not_found', `No user ${userId}`, latency(10, 0.3));
};

const createUser: Handler = (req) => {
  const b = object(req.body);
  if (typeof b.email !== 'string' || !b.email.includes('@') || typeof b.name !== 'string') {
    return errorAnswer(422, 'validation_failed', 'name and a valid email are required', latency(12, 0.3), { fields: ['email'] });
  }
  if (PEOPLE.some((p) => p.email === b.email)) return errorAnswer(409, 'email_taken', 'A user with this email exists', latency(20, 0.3));
  return { status: 201, body: { id: id('usr'), name: b.name, email: b.email, plan: 'free', created_at: new Date().toISOString() }, delayMs: latency(45, 0.4) };
};

const listOrders: Handler = (req) => {
  const status = req.query.get('status');
  const start = between(1_000, KNOWN_ORDERS - 20);
  const data = Array.from({ length: 10 }, (_, i) => order(start + i)).filter((o) => !status || o.status === status)
    .map(({ items: _items, shipping: _shipping, ...summary }) => summary);
  return { status: 200, body: { data, has_more: true }, delayMs: latency(40, 0.6) };
};

const getOrder: Handler = (_req, [ref]) => {
  const n = Number(/^ord_(\d+)$/.exec(ref)?.[1]);
  if (!(n < KNOWN_ORDERS)) return errorAnswer(404, 'order_not_found', `No order ${ref}`, latency(12, 0.3));
  return { status: 200, body: order(n), delayMs: latency(22, 0.5) };
};

const createOrder: Handler = (req) => {
  const b = object(req.body);
  const items = Array.isArray(b.items) ? b.items.map(object) : [];
  if (items.length === 0) return errorAnswer(422, 'validation_failed', 'an order needs at least one item', latency(10, 0.3), { fields: ['items'] });
  // The inventory service crashes the worker now and then: the connection drops without an answer.
  if (chance(0.004)) return { status: 0, delayMs: latency(120, 0.5), reset: true };
  if (chance(0.04)) return errorAnswer(409, 'out_of_stock', `${String(items[0].sku)} is out of stock`, latency(60, 0.4));
  const lines = items.map((i) => {
    const p = PRODUCTS.find((x) => x.sku === i.sku) ?? PRODUCTS[0];
    return { sku: p.sku, name: p.name, quantity: Number(i.quantity) || 1, unit_price: p.price };
  });
  const total = lines.reduce((t, l) => t + l.quantity * l.unit_price, 0);
  return {
    status: 201,
    body: { id: `ord_${between(KNOWN_ORDERS, 99_999)}`, status: 'pending', currency: 'EUR', total, items: lines, customer: b.customer, shipping: b.shipping, created_at: new Date().toISOString() },
    delayMs: latency(90, 0.5),
  };
};

const charge: Handler = (req) => {
  const b = object(req.body);
  const card = object(b.card);
  if (typeof card.number !== 'string' || typeof b.amount !== 'number') {
    return errorAnswer(400, 'invalid_request', 'amount and card.number are required', latency(15, 0.3));
  }
  const digits = card.number.replace(/[ -]/g, '');
  const known = CARDS.find((c) => c.number === digits);
  const slow = req.incident ? 4 : 1;
  if (req.incident && chance(0.35)) {
    return { ...errorAnswer(503, 'processor_unavailable', 'The card processor is not answering; retry later', latency(2_400, 0.4)), headers: { 'retry-after': '5' } };
  }
  switch (known?.outcome) {
    case 'declined':
      return errorAnswer(402, 'card_declined', 'The card was declined', latency(210 * slow, 0.4), { decline_code: 'generic_decline' });
    case 'insufficient_funds':
      return errorAnswer(402, 'card_declined', 'The card has insufficient funds', latency(230 * slow, 0.4), { decline_code: 'insufficient_funds' });
    case 'processor_error':
      return errorAnswer(502, 'processor_error', 'The card processor failed to answer', latency(900, 0.5));
  }
  return {
    status: 201,
    body: {
      id: id('ch'), object: 'charge', status: 'succeeded', amount: b.amount, currency: b.currency ?? 'EUR', order_id: b.order_id,
      card: { brand: known?.brand ?? 'unknown', last4: digits.slice(-4), exp_month: card.exp_month, exp_year: card.exp_year },
      receipt_email: object(b.customer).email ?? null,
    },
    delayMs: latency(260 * slow, 0.35),
  };
};

const refund: Handler = (req) => {
  const b = object(req.body);
  if (typeof b.charge_id !== 'string' || chance(0.06)) return errorAnswer(404, 'charge_not_found', `No charge ${String(b.charge_id)}`, latency(30, 0.3));
  return { status: 200, body: { id: id('re'), object: 'refund', status: 'succeeded', charge_id: b.charge_id, amount: b.amount }, delayMs: latency(180, 0.4) };
};

const search: Handler = (req) => {
  const q = (req.query.get('q') ?? '').toLowerCase();
  if (chance(0.025)) return errorAnswer(500, 'search_timeout', 'The search backend timed out', latency(1_500, 0.3));
  const hits = PRODUCTS.filter((p) => p.name.toLowerCase().includes(q.split(' ')[0]) || p.sku.toLowerCase().includes(q))
    .map((p) => ({ sku: p.sku, name: p.name, price: p.price, score: Math.round(Math.random() * 1000) / 1000 }));
  const delayMs = latency(120, 0.7);
  return { status: 200, body: { query: q, hits, took_ms: delayMs }, delayMs };
};

const createTicket: Handler = (req) => {
  const b = object(req.body);
  if (typeof b.text !== 'string' || b.text.length === 0) return errorAnswer(422, 'validation_failed', 'text is required', latency(10, 0.3), { fields: ['text'] });
  return { status: 201, body: { id: id('tkt'), status: 'open', priority: any(['low', 'normal', 'high']), subject: b.subject, created_at: new Date().toISOString() }, delayMs: latency(70, 0.4) };
};

const REPLIES = [
  'Your order has shipped and should arrive within two business days.',
  'I can help with that. A refund was issued to the original payment method.',
  'The docking station supports two external monitors over USB-C at 60 Hz.',
  'Here is a summary of the ticket: the customer reports a duplicate charge and asks for a refund.',
  'Sure. The ergonomic chair comes with a five-year warranty on the frame.',
];

const completion: Handler = (req) => {
  const b = object(req.body);
  if (!Array.isArray(b.messages) || b.messages.length === 0) return errorAnswer(400, 'invalid_request_error', 'messages is required', latency(20, 0.3));
  if (chance(0.03)) return { ...errorAnswer(429, 'rate_limit_exceeded', 'Rate limit reached for requests per minute', latency(15, 0.3)), headers: { 'retry-after': '2' } };
  if (chance(0.012)) return errorAnswer(503, 'overloaded', 'The model is overloaded; retry later', latency(3_000, 0.3));
  const promptTokens = JSON.stringify(b.messages).length / 4 | 0;
  const completionTokens = between(40, 420);
  const model = typeof b.model === 'string' ? b.model : 'demo-small';
  return {
    status: 200,
    body: {
      id: `chatcmpl-${randomBytes(12).toString('base64url')}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
      choices: [{ index: 0, message: { role: 'assistant', content: any(REPLIES) }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    },
    // A model's answer takes time in proportion to what it writes.
    delayMs: latency(250 + completionTokens * 3, 0.3),
  };
};

const exportDownload: Handler = (req, [exportId]) => {
  if (!req.query.get('token')) return errorAnswer(401, 'token_required', 'The download link has no token', latency(8, 0.3));
  if (chance(0.08)) return errorAnswer(403, 'link_expired', 'The download link expired; create a new export', latency(10, 0.3));
  return { status: 200, body: { id: exportId, status: 'ready', format: 'csv', rows: between(200, 40_000), url: `https://files.example.com/exports/${exportId}.csv` }, delayMs: latency(60, 0.4) };
};

const adminTenants: Handler = () => ({
  status: 200,
  body: { data: TENANTS.map((t) => ({ id: t.id, name: t.name, plan: t.weight > 20 ? 'enterprise' : 'business', api_key: t.key })) },
  delayMs: latency(30, 0.3),
});

const suspendTenant: Handler = (_req, [tenantId]) =>
  TENANTS.some((t) => t.id === tenantId)
    ? { status: 200, body: { id: tenantId, suspended: true, reason: 'manual review' }, delayMs: latency(40, 0.3) }
    : errorAnswer(404, 'tenant_not_found', `No tenant ${tenantId}`, latency(10, 0.3));

interface Route { method: string; pattern: RegExp; handler: Handler; auth: 'tenant' | 'admin' }

const route = (method: string, path: string, handler: Handler, auth: Route['auth'] = 'tenant'): Route =>
  ({ method, pattern: new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`), handler, auth });

export const ROUTES: readonly Route[] = [
  route('GET', '/api/users', listUsers),
  route('POST', '/api/users', createUser),
  route('GET', '/api/users/:id', getUser),
  route('GET', '/api/orders', listOrders),
  route('POST', '/api/orders', createOrder),
  route('GET', '/api/orders/:id', getOrder),
  route('POST', '/api/payments/charge', charge),
  route('POST', '/api/payments/refund', refund),
  route('GET', '/api/search', search),
  route('POST', '/api/support/tickets', createTicket),
  route('POST', '/v1/chat/completions', completion),
  route('GET', '/api/exports/:id/download', exportDownload),
  route('GET', '/admin/tenants', adminTenants, 'admin'),
  route('POST', '/admin/tenants/:id/suspend', suspendTenant, 'admin'),
];

/** The route for a method and path, with the path's parameters; undefined when none matches. */
export function findRoute(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const r of ROUTES) {
    const m = r.method === method ? r.pattern.exec(path) : null;
    if (m) return { route: r, params: m.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}

