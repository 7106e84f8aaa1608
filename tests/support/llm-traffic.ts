// Realistic LLM traces for the dashboard's suites, sent through the real ingest route (`POST /v1/traces`) with a
// project's key: two prompt templates with several versions each, failures, explicit and priced costs, users,
// sessions, tags, tool calls, and personal data the default detectors mask.

export type Item = Record<string, unknown>;

export const SUPPORT_V1 = 'You are a support agent for Acme.\nAnswer the customer\'s question: {{question}}\nBe brief.';
export const SUPPORT_V2 = 'You are a support agent for Acme.\nAnswer the customer\'s question: {{question}}\nBe brief and friendly.';
export const SUPPORT_V3 = 'You are a senior support agent for Acme.\nAnswer the customer\'s question: {{question}}\nBe brief and friendly.\nSign as the Acme team.';
export const SUMMARY_V1 = 'Summarise this ticket in one sentence:\n{{ticket}}';
export const SUMMARY_V2 = 'Summarise this ticket in two sentences for an engineer:\n{{ticket}}';

const QUESTIONS = ['Where is my order?', 'How do I reset my password?', 'Can I change my delivery address?', 'Do you ship to Norway?', 'Why was I charged twice?'];

function support(raw: string, i: number, o: { error?: boolean; latency: number; model: string; cost?: number }): Item {
  const question = QUESTIONS[i % QUESTIONS.length];
  return {
    name: 'support-reply',
    model: o.model,
    provider: 'openai',
    latency_ms: o.latency + (i % 7) * 13,
    tokens: { input: 420 + i, output: o.error ? 0 : 96 + (i % 5) * 10 },
    ...(o.cost === undefined ? {} : { cost_usd: o.cost }),
    prompt_template: { name: 'support-reply', raw, variables: { question } },
    input: [
      { role: 'system', content: raw.split('\n')[0] },
      { role: 'user', content: `${question} My email is customer${i}@example.com.` },
    ],
    ...(o.error
      ? { status: 'error', error: 'upstream 503: the model is overloaded' }
      : { output: { role: 'assistant', content: `Thanks for asking! About "${question}": here is what to do.` } }),
    user_id: `user-${i % 4}`,
    session_id: `session-${i % 3}`,
    tags: i % 2 ? ['web'] : ['mobile', 'beta'],
    metadata: { region: i % 2 ? 'eu' : 'us' },
  };
}

function summary(raw: string, i: number, latency: number): Item {
  const ticket = `Ticket #${1000 + i}: the checkout page times out for card 4111 1111 1111 1111.`;
  return {
    name: 'summarise-ticket',
    model: 'claude-3-5-haiku-20241022',
    provider: 'anthropic',
    latency_ms: latency + i * 11,
    tokens: { input: 250, output: 40 },
    prompt_template: { name: 'summarise-ticket', raw, variables: { ticket } },
    input: { system: 'You summarise support tickets.', messages: [{ role: 'user', content: [{ type: 'text', text: ticket }] }] },
    output: [{ role: 'assistant', content: [{ type: 'text', text: 'Checkout times out when paying by card.' }] }],
    user_id: 'triage-bot',
    tags: ['internal'],
  };
}

/** A call with a tool: no template. */
function toolCall(i: number): Item {
  return {
    name: 'order-lookup',
    model: 'gpt-4o-2024-08-06',
    latency_ms: 640 + i * 20,
    tokens: { input: 300, output: 22 },
    input: [{ role: 'user', content: 'Where is order 8812?' }],
    output: { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"8812"}' } }] },
    session_id: 'session-0',
  };
}

export interface LlmTraffic {
  /** Items in the order sent. */
  items: Item[];
  /** Counts the suites check pages against. */
  counts: { total: number; errors: number; support: number[]; summary: number[] };
}

/** The traces a suite sends: 25 + 25 + 12 calls of support-reply v1–v3, 6 + 6 of summarise-ticket v1–v2, 4 tool calls. */
export function llmTraffic(): LlmTraffic {
  const items: Item[] = [];
  for (let i = 0; i < 25; i++) items.push(support(SUPPORT_V1, i, { latency: 800, model: 'gpt-4o-mini-2024-07-18', error: i === 3 }));
  for (let i = 0; i < 25; i++) items.push(support(SUPPORT_V2, i, { latency: 1100, model: 'gpt-4o-mini-2024-07-18', error: i % 5 === 0, cost: 0.0004 }));
  for (let i = 0; i < 12; i++) items.push(support(SUPPORT_V3, i, { latency: 900, model: 'gpt-4o-2024-08-06', cost: 0.0021 }));
  for (let i = 0; i < 6; i++) items.push(summary(SUMMARY_V1, i, 300));
  for (let i = 0; i < 6; i++) items.push(summary(SUMMARY_V2, i, 350));
  for (let i = 0; i < 4; i++) items.push(toolCall(i));
  return { items, counts: { total: items.length, errors: 1 + 5, support: [25, 25, 12], summary: [6, 6] } };
}

/** POSTs items to /v1/traces in batches; resolves to the accepted ids in order. */
export async function sendTraces(base: string, key: string, items: readonly Item[], batch = 20): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < items.length; i += batch) {
    const res = await fetch(`${base}/v1/traces`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-service-project-key': key }, body: JSON.stringify({ traces: items.slice(i, i + batch) }),
    });
    const body = await res.json() as { accepted: number; errors: unknown[]; ids: string[] };
    if (res.status !== 202 || body.errors.length) throw new Error(`ingest: ${res.status} ${JSON.stringify(body)}`);
    ids.push(...body.ids);
  }
  return ids;
}

/** Reads the public API with a project key (what CI and `vigil gate` see). */
export async function publicApi<T>(base: string, key: string, path: string): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers: { 'x-service-project-key': key } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return await res.json() as T;
}

/** Waits until the project's public stats count `n` calls in the last hour (the persist stage runs after the 202). */
export async function waitForTraces(base: string, key: string, n: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await publicApi<{ requests: number }>(base, key, '/api/v1/stats?range=1h');
    if (stats.requests >= n) return;
    if (Date.now() > deadline) throw new Error(`the project counts ${stats.requests} traces, not ${n}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
