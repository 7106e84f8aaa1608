/**
 * What the demo's clients send: each tenant's apps calling the shop API with their key, in a realistic mix of
 * reads and writes. Card numbers, emails, phone numbers and download tokens travel where real clients put them,
 * which is where the demo policy (examples/demo/vigil.yaml) masks them.
 */
import { ADMIN_KEY, CARDS, PEOPLE, PRODUCTS, REVOKED_KEY, SEARCH_TERMS, TENANTS, cardSpellings, type Tenant } from './demo-data.js';
import { KNOWN_ORDERS } from './demo-routes.js';
import { any, between, chance, pick, type Random } from './random.js';

export interface PlannedRequest {
  method: 'GET' | 'POST';
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const CLIENTS: Record<string, string> = {
  acme: 'acme-checkout/3.2.1 (node 20)', globex: 'globex-mobile/5.14 (iOS 18.1)', initech: 'initech-erp-sync/1.0',
  umbrella: 'umbrella-portal/2.7 (python-requests)', hooli: 'hooli-web/2025.11 (Chrome 131)',
};

function headers(tenant: Tenant, key = tenant.key, json = false): Record<string, string> {
  return {
    authorization: `Bearer ${key}`,
    'x-tenant-id': tenant.id,
    'user-agent': CLIENTS[tenant.id] ?? 'demo-client/1.0',
    accept: 'application/json',
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}

const post = (tenant: Tenant, path: string, body: unknown): PlannedRequest =>
  ({ method: 'POST', path, headers: headers(tenant, tenant.key, true), body: JSON.stringify(body) });
const get = (tenant: Tenant, path: string): PlannedRequest => ({ method: 'GET', path, headers: headers(tenant) });

/** Succeeding cards most of the time; declines and processor failures as often as a real shop sees them. */
const cardWeight = (c: (typeof CARDS)[number]): number =>
  ({ succeeded: 17, declined: 1.4, insufficient_funds: 0.8, processor_error: 0.6 })[c.outcome];

export const charge = (tenant: Tenant, card = pick(CARDS, cardWeight), random: Random = Math.random): PlannedRequest => {
  const person = any(PEOPLE, random);
  return post(tenant, '/api/payments/charge', {
    amount: between(990, 58_000, random),
    currency: 'EUR',
    order_id: `ord_${between(1_000, KNOWN_ORDERS - 1, random)}`,
    card: { number: card.number, cvc: String(between(100, 999, random)), exp_month: between(1, 12, random), exp_year: between(2026, 2031, random), holder: person.name },
    customer: { id: person.id, email: person.email },
    metadata: { channel: any(['web', 'mobile', 'pos'], random) },
  });
};

const TICKET_TEXTS: readonly ((p: (typeof PEOPLE)[number], card: string) => string)[] = [
  (p, card) => `Hi, my card ${card} was charged twice for the same order. Please refund one of them. ${p.name}`,
  (p) => `The monitor arrived with a dead pixel. You can reach me at ${p.email}.`,
  (p, card) => `I updated my card to ${card} but checkout still fails. Reply to ${p.email}, thanks!`,
  () => 'The docking station does not wake my laptop from sleep. Firmware 2.1. Any idea?',
  (p) => `Please change the shipping address on my last order to ${p.city}. My email is ${p.email}.`,
];

export const ticket = (tenant: Tenant, withCard = false, random: Random = Math.random): PlannedRequest => {
  const person = any(PEOPLE, random);
  const spelling = any(cardSpellings(any(CARDS, random).number), random);
  const text = withCard ? TICKET_TEXTS[0] : any(TICKET_TEXTS, random);
  return post(tenant, '/api/support/tickets', {
    subject: any(['Double charge', 'Damaged item', 'Checkout fails', 'Question', 'Shipping address'], random),
    text: text(person, spelling),
    email: person.email,
    order_id: `ord_${between(1_000, KNOWN_ORDERS - 1, random)}`,
  });
};

export const completion = (tenant: Tenant, random: Random = Math.random): PlannedRequest => {
  const person = any(PEOPLE, random);
  const question = any([
    'Where is my order? It was due yesterday.',
    `Summarise this ticket for the agent: customer ${person.email} reports a duplicate charge.`,
    'Does the docking station support two monitors?',
    'Write a short, friendly reply confirming the refund.',
    'What is the warranty on the ergonomic chair?',
  ], random);
  return post(tenant, '/v1/chat/completions', {
    model: any(['demo-small', 'demo-small', 'demo-large'], random),
    user: person.id,
    messages: [
      { role: 'system', content: `You are the support assistant of ${tenant.name}'s shop.` },
      { role: 'user', name: person.name.split(' ')[0].toLowerCase(), content: question },
    ],
    temperature: 0.3,
  });
};

const order = (tenant: Tenant, random: Random): PlannedRequest => {
  const person = any(PEOPLE, random);
  return post(tenant, '/api/orders', {
    items: Array.from({ length: between(1, 3, random) }, () => ({ sku: any(PRODUCTS, random).sku, quantity: between(1, 2, random) })),
    customer: { id: person.id, email: person.email, phone: person.phone },
    shipping: { name: person.name, city: person.city, country: person.country },
  });
};

const newUser = (tenant: Tenant, random: Random): PlannedRequest => {
  // Now and then a sign-up with an email that is taken (409), or without one (422).
  const existing = chance(0.15, random) ? any(PEOPLE, random) : undefined;
  const n = between(100, 9_999, random);
  const email = existing?.email ?? (chance(0.05, random) ? undefined : `new.user${n}@example.org`);
  return post(tenant, '/api/users', { name: existing?.name ?? `New User ${n}`, email, marketing_opt_in: chance(0.4, random) });
};

const orderId = (random: Random): string =>
  `ord_${chance(0.07, random) ? between(KNOWN_ORDERS, 999_999, random) : between(1_000, KNOWN_ORDERS - 1, random)}`;

/** The mix: what a request is, and how often, relative to the others. */
const MIX: readonly { weight: (t: Tenant) => number; make: (t: Tenant, r: Random) => PlannedRequest }[] = [
  { weight: () => 14, make: (t, r) => get(t, `/api/orders?status=${any(['paid', 'shipped', 'pending'], r)}&limit=10`) },
  { weight: () => 12, make: (t, r) => get(t, `/api/orders/${orderId(r)}`) },
  { weight: () => 5, make: order },
  { weight: () => 8, make: (t, r) => get(t, `/api/users/${chance(0.06, r) ? 'usr_missing' : any(PEOPLE, r).id}`) },
  { weight: () => 4, make: (t, r) => get(t, `/api/users?page=${between(1, 3, r)}`) },
  { weight: () => 2, make: (t, r) => get(t, `/api/users?email=${encodeURIComponent(any(PEOPLE, r).email)}`) },
  { weight: () => 2, make: newUser },
  { weight: () => 11, make: (t, r) => charge(t, undefined, r) },
  { weight: () => 2, make: (t, r) => post(t, '/api/payments/refund', { charge_id: `ch_${between(10_000, 99_999, r)}`, amount: between(990, 12_000, r), reason: 'requested_by_customer' }) },
  { weight: () => 13, make: (t, r) => get(t, `/api/search?q=${encodeURIComponent(any(SEARCH_TERMS, r))}&limit=20`) },
  { weight: () => 4, make: (t, r) => ticket(t, chance(0.4, r), r) },
  { weight: (t) => 9 * t.llm, make: completion },
  { weight: () => 2, make: (t, r) => get(t, `/api/exports/exp_${between(100, 999, r)}/download?token=${Math.floor(r() * 1e16).toString(36)}&format=csv`) },
];

/** The operators' console: the admin routes, which the policy restricts (nothing of them is stored). */
export const admin = (random: Random = Math.random): PlannedRequest => {
  const acme = TENANTS[0];
  const req = chance(0.8, random) ? get(acme, '/admin/tenants') : post(acme, `/admin/tenants/${any(TENANTS, random).id}/suspend`, { reason: 'manual review' });
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${ADMIN_KEY}`, 'x-tenant-id': 'ops', 'user-agent': 'ops-console/1.4' } };
};

/** A client still configured with a key the API revoked: 401s. */
export const revoked = (tenant: Tenant, random: Random = Math.random): PlannedRequest => {
  const req = get(tenant, `/api/orders/${orderId(random)}`);
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${REVOKED_KEY}` } };
};

/** One request of the steady mix. */
export function nextRequest(random: Random = Math.random): PlannedRequest {
  if (chance(0.015, random)) return admin(random);
  const tenant = pick(TENANTS, (t) => t.weight, random);
  if (chance(0.02, random)) return revoked(tenant, random);
  return pick(MIX, (m) => m.weight(tenant), random).make(tenant, random);
}

/**
 * Requests that show every part of the policy at least once, sent first: each tenant's completion (tokens) and
 * charge, a decline, a processor failure, a ticket with a card number in its text, the admin area, a revoked key.
 */
export function showcase(random: Random = Math.random): PlannedRequest[] {
  const byOutcome = (o: string) => CARDS.find((c) => c.outcome === o)!;
  const [acme, globex, initech, umbrella] = TENANTS;
  return [
    ...TENANTS.map((t) => completion(t, random)),
    ...TENANTS.map((t) => charge(t, CARDS[0], random)),
    charge(globex, byOutcome('declined'), random),
    charge(acme, byOutcome('insufficient_funds'), random),
    charge(umbrella, byOutcome('processor_error'), random),
    ticket(initech, true, random),
    ticket(acme, true, random),
    admin(random),
    revoked(initech, random),
    get(globex, `/api/orders/ord_${KNOWN_ORDERS + 17}`),
    get(acme, '/api/users?page=1'),
    get(umbrella, `/api/search?q=${encodeURIComponent('usb-c')}&limit=20`),
    get(acme, `/api/exports/exp_311/download?token=${Math.floor(random() * 1e16).toString(36)}&format=csv`),
  ];
}
