/**
 * The LLM calls of the demo shop's support team, as trace items of the wire contract (plugins/llm/README.md): two
 * prompt templates, each in the three versions the team shipped over time, on several models with their real token
 * counts, latencies and failures (timeouts, rate limits, an overloaded provider). Customers write what customers
 * write: emails and card numbers, which the demo project's redaction masks before anything is stored.
 */
import { randomUUID } from 'node:crypto';
import { CARDS, PEOPLE, PRODUCTS, TENANTS, cardSpellings, type Person } from './demo-data.js';
import { any, between, chance, latency, pick, type Random } from './random.js';

/** The demo's LLM project, as examples/demo/vigil.yaml names it. */
export const LLM_PROJECT = 'shop-assistant';

export type TemplateName = 'support-reply' | 'summarise-ticket';

interface ModelProfile {
  model: string;
  provider: 'openai' | 'anthropic' | 'google';
  /** Median latency of a 100-token answer, ms. */
  medianMs: number;
}

const MODELS = {
  gpt4oMini: { model: 'gpt-4o-mini-2024-07-18', provider: 'openai', medianMs: 850 },
  gpt41Mini: { model: 'gpt-4.1-mini-2025-04-14', provider: 'openai', medianMs: 1000 },
  gpt4o: { model: 'gpt-4o-2024-08-06', provider: 'openai', medianMs: 1900 },
  haiku: { model: 'claude-3-5-haiku-20241022', provider: 'anthropic', medianMs: 1100 },
  sonnet: { model: 'claude-3-5-sonnet-20241022', provider: 'anthropic', medianMs: 2400 },
  flash: { model: 'gemini-2.0-flash-001', provider: 'google', medianMs: 650 },
} as const satisfies Record<string, ModelProfile>;

interface Version {
  raw: string;
  /** Which models run it, and how often. */
  models: readonly { profile: ModelProfile; weight: number }[];
  /** Tokens the filled-in template adds to the customer's text, and how many of them a provider may serve cached. */
  promptTokens: [number, number];
  cached: number;
  output: [number, number];
  /** Share of calls that fail, on top of the provider's own bad minutes. */
  errorRate: number;
}

/**
 * The templates as the team wrote them, oldest first. support-reply v3 adds the customer's recent tickets, so it
 * costs more per call and fails more often (larger prompts hit the rate limit sooner): what the gate is for.
 * summarise-ticket v3 moves to a cheaper, faster model with a JSON answer.
 */
export const TEMPLATES: Record<TemplateName, readonly Version[]> = {
  'support-reply': [
    {
      raw: 'You are the support assistant of {{shop}}.\nAnswer the customer\'s message below.\n\nCustomer: {{message}}\n',
      models: [{ profile: MODELS.gpt4oMini, weight: 1 }],
      promptTokens: [120, 260], cached: 0, output: [60, 220], errorRate: 0.03,
    },
    {
      raw: 'You are the support assistant of {{shop}}.\nAnswer the customer\'s message below in at most three sentences.\n' +
        'Never repeat card numbers or email addresses back to the customer.\n\nOrder: {{order}}\nCustomer: {{message}}\n',
      models: [{ profile: MODELS.gpt4oMini, weight: 7 }, { profile: MODELS.haiku, weight: 3 }],
      promptTokens: [260, 420], cached: 0, output: [50, 140], errorRate: 0.03,
    },
    {
      raw: 'You are the friendly, concise support assistant of {{shop}}.\nAnswer in at most three sentences and offer one next step.\n' +
        'Never repeat card numbers or email addresses back to the customer.\n' +
        'If the customer mentions a charge, a refund or a card, hand over to a person and end with HANDOVER.\n\n' +
        'Order: {{order}}\nRecent tickets of this customer:\n{{history}}\n\nCustomer: {{message}}\n',
      models: [{ profile: MODELS.gpt41Mini, weight: 6 }, { profile: MODELS.haiku, weight: 4 }],
      promptTokens: [1100, 1900], cached: 1024, output: [60, 160], errorRate: 0.07,
    },
  ],
  'summarise-ticket': [
    {
      raw: 'Summarise this support ticket for an agent.\n\n{{ticket}}\n',
      models: [{ profile: MODELS.gpt4o, weight: 1 }],
      promptTokens: [40, 80], cached: 0, output: [90, 260], errorRate: 0.02,
    },
    {
      raw: 'Summarise this support ticket for an agent in one line, then list the actions it needs as bullets.\n\nTicket:\n{{ticket}}\n',
      models: [{ profile: MODELS.sonnet, weight: 1 }],
      promptTokens: [60, 110], cached: 0, output: [70, 180], errorRate: 0.03,
    },
    {
      raw: 'Read the support ticket and answer with JSON only:\n' +
        '{"summary": string, "sentiment": "positive" | "neutral" | "negative", "actions": string[]}\n\nTicket:\n{{ticket}}\n',
      models: [{ profile: MODELS.flash, weight: 4 }, { profile: MODELS.gpt4oMini, weight: 1 }],
      promptTokens: [90, 140], cached: 0, output: [50, 120], errorRate: 0.02,
    },
  ],
};

/** What customers write to the support assistant: a few with an email or a card number in them, as people do. */
const MESSAGES: readonly ((p: Person, card: string, product: string) => string)[] = [
  () => 'Where is my order? It was due yesterday and the tracking page has not moved since Monday.',
  (_p, _c, product) => `Does the ${product} work with a MacBook Pro? The page does not say.`,
  (p, card) => `My card ${card} was charged twice for the same order. Please refund one of them. ${p.name}`,
  (p) => `I never got the confirmation email. Can you send it again to ${p.email}?`,
  (_p, _c, product) => `The ${product} arrived broken. I would like a replacement, not a refund.`,
  (p, card) => `Checkout keeps failing with my card ${card}. Please reply to ${p.email}, thanks!`,
  () => 'How long is the warranty on the ergonomic chair, and does it cover the gas lift?',
  (p) => `Please change the shipping address of my last order to ${p.city}. My email is ${p.email}.`,
];

/** What the model answers each message with, as v2 was told: short, facts only. */
const REPLIES: readonly ((p: Person, product: string) => string)[] = [
  () => 'Sorry for the wait! Your parcel left our warehouse on Monday; the carrier expects to deliver it tomorrow.',
  (_p, product) => `Yes, the ${product} works with any USB-C MacBook; macOS needs no driver.`,
  () => 'I am sorry about the double charge. I have passed it to our payments team, who will refund one of them within 3 days.',
  // The old template let the model repeat what it was told; the detectors mask it before it is stored.
  (p) => `Done: the confirmation is on its way to ${p.email}.`,
  (_p, product) => `I am sorry the ${product} arrived damaged. A replacement ships today; you will get a return label by email.`,
  () => 'Sorry about the failed checkout. Please try once more; if it fails again, a colleague will call you.',
  () => 'The chair has a 5-year warranty that covers the gas lift and the mechanism.',
  (p) => `Your order will now go to ${p.city}. You will get an updated confirmation shortly.`,
];

/** Messages about a card or a charge: v3 hands them over to a person (the demo's "Hands over payments" eval checks it). */
export const PAYMENT_MESSAGE = /\bcard\b|\bcharged\b/i;

/**
 * The reply of each version, so that the demo's evals tell them apart: v1 had no length rule and wraps the answer in
 * pleasantries (the "Concise reply" eval marks it down); v2 answers in a sentence or two; v3 adds a next step and
 * hands payment questions over with HANDOVER, which the haiku model forgets now and then.
 */
function reply(version: number, which: number, message: string, person: Person, product: string, model: string, random: Random): string {
  const answer = REPLIES[which](person, product);
  if (version === 1) {
    return `Hello ${person.name.split(' ')[0]}, and thank you so much for reaching out to our support team; we really appreciate your patience ` +
      `while we looked into this for you. ${answer} If there is anything else at all that we can help you with, please do not hesitate ` +
      'to contact us again at any time: our friendly team is always happy to help. Kind regards, the support team.';
  }
  if (version === 2) return answer;
  const handsOver = PAYMENT_MESSAGE.test(message) && !(model.startsWith('claude') && chance(0.2, random));
  return `${answer} ${handsOver ? 'A colleague from payments will take it from here. HANDOVER' : 'Reply here if anything else comes up.'}`;
}

const CHANNELS = ['chat', 'email', 'mobile'] as const;

export interface TraceItem {
  id: string;
  model: string;
  provider: string;
  name: string;
  status: 'ok' | 'error';
  error?: string;
  start_time: string;
  latency_ms: number;
  tokens?: { input: number; output: number; cache_read?: number; total: number };
  input: unknown;
  output?: unknown;
  prompt_template: { name: string; raw: string; variables: Record<string, string> };
  user_id: string;
  session_id: string;
  tags: string[];
  metadata: Record<string, unknown>;
}

interface Failure { error: string; latencyMs: number; metadata: Record<string, unknown> }

/** How a call fails, as each provider's SDK reports it. */
function failure(profile: ModelProfile, random: Random): Failure {
  const roll = random();
  if (profile.provider === 'anthropic' && roll < 0.3) {
    return { error: '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', latencyMs: between(300, 1500, random), metadata: { http_status: 529, error_type: 'overloaded_error' } };
  }
  if (roll < 0.65) {
    const used = between(180_000, 199_900, random);
    return {
      error: `429 Rate limit reached for ${profile.model} in organization org-demo on tokens per min (TPM): Limit 200000, Used ${used}, Requested ${between(800, 2400, random)}. Please try again in ${between(100, 900, random)}ms.`,
      latencyMs: between(80, 400, random),
      metadata: { http_status: 429, error_type: 'rate_limit_exceeded' },
    };
  }
  return { error: 'Request timed out.', latencyMs: 30_000 + between(0, 400, random), metadata: { error_type: 'timeout' } };
}

/** The history support-reply v3 adds: the customer's recent tickets, which is where its extra tokens come from. */
function history(person: Person, random: Random): string {
  return Array.from({ length: between(2, 4, random) }, (_, i) =>
    `- #${between(4_000, 9_999, random)} (${i + 1} week${i ? 's' : ''} ago): ${any(['late delivery', 'refund request', 'address change', 'broken item'], random)}`).join('\n') +
    `\n(contact on file: ${person.email})`;
}

/**
 * One call of `template` in `version` (1-based) at `now`. Ids are client UUIDs, so a batch sent again is stored once.
 * `fail` forces (true) or forbids (false) a failure; undefined leaves it to the version's error rate.
 */
export function llmCall(template: TemplateName, version: number, now: number, random: Random = Math.random, fail?: boolean): TraceItem {
  const v = TEMPLATES[template][version - 1];
  const profile = pick(v.models, (m) => m.weight, random).profile;
  const person = any(PEOPLE, random);
  const tenant = pick(TENANTS, (t) => t.weight, random);
  const product = any(PRODUCTS, random).name.toLowerCase();
  const card = any(cardSpellings(any(CARDS, random).number), random);
  const which = between(0, MESSAGES.length - 1, random);
  const message = MESSAGES[which](person, card, product);
  const order = `ord_${between(1_000, 9_999, random)}, ${product}, paid`;
  const channel = any(CHANNELS, random);

  const variables: Record<string, string> = template === 'support-reply'
    ? { shop: `${tenant.name}'s shop`, message, ...(version >= 2 ? { order } : {}), ...(version >= 3 ? { history: history(person, random) } : {}) }
    : { ticket: `From: ${person.name} <${person.email}>\nSubject: ${any(['Double charge', 'Damaged item', 'Checkout fails', 'Question'], random)}\n\n${message}` };
  const filled = Object.entries(variables).reduce((text, [k, val]) => text.replaceAll(`{{${k}}}`, val), v.raw);
  const input = template === 'support-reply'
    ? [{ role: 'system', content: filled.slice(0, filled.indexOf('\n\n')) }, { role: 'user', content: filled.slice(filled.indexOf('\n\n') + 2) }]
    : [{ role: 'user', content: filled }];

  const promptTokens = between(v.promptTokens[0], v.promptTokens[1], random) + Math.round(message.length / 4);
  const outputTokens = between(v.output[0], v.output[1], random);
  const failed = fail ?? chance(v.errorRate, random);
  const f = failed ? failure(profile, random) : undefined;
  const latencyMs = f?.latencyMs ?? latency(profile.medianMs * (0.5 + outputTokens / 200), 0.45, random);
  const cacheRead = v.cached > 0 && chance(0.6, random) ? Math.min(v.cached, promptTokens) : 0;

  const item: TraceItem = {
    id: randomUUID(),
    model: profile.model,
    provider: profile.provider,
    name: template === 'support-reply' ? 'support.reply' : 'support.summarise',
    status: f ? 'error' : 'ok',
    start_time: new Date(now - latencyMs).toISOString(),
    latency_ms: latencyMs,
    input,
    prompt_template: { name: template, raw: v.raw, variables },
    user_id: person.id,
    session_id: `sess_${person.id.slice(4)}_${between(1, 3, random)}`,
    tags: [channel, `tenant:${tenant.id}`, ...(version === 3 ? ['canary'] : [])],
    metadata: { tenant: tenant.id, channel, customer_email: person.email, temperature: template === 'support-reply' ? 0.4 : 0 },
  };
  if (f) {
    item.error = f.error;
    Object.assign(item.metadata, f.metadata);
    return item;
  }
  item.tokens = { input: promptTokens, output: outputTokens, ...(cacheRead ? { cache_read: cacheRead } : {}), total: promptTokens + outputTokens };
  item.output = template === 'support-reply'
    ? { role: 'assistant', content: reply(version, which, message, person, product, profile.model, random) }
    : { role: 'assistant', content: summary(version, person, message, profile.model, random) };
  item.metadata.finish_reason = 'stop';
  return item;
}

/**
 * The summary of each version: v1 prose, v2 a line and the actions as bullets, v3 JSON, whose `actions` field the
 * flash model leaves out of one answer in four (the "Actions listed" eval finds it).
 */
function summary(version: number, person: Person, message: string, model: string, random: Random): string {
  const gist = message.length > 90 ? `${message.slice(0, 87)}...` : message;
  if (version === 3) {
    const sentiment = /broken|twice|fails|never/.test(message) ? 'negative' : 'neutral';
    const missesActions = model.startsWith('gemini') && chance(0.25, random);
    return JSON.stringify({ summary: gist, sentiment, ...(missesActions ? {} : { actions: ['reply to the customer'] }) });
  }
  if (version === 2) return `${person.name.split(' ')[0]} writes: ${gist}\n- reply to the customer\n- check the order`;
  return `The customer ${person.name} (${person.email}) contacted support. ${gist} The agent should reply and check the order.`;
}
