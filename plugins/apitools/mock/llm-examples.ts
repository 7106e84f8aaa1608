// `vigil mock --llm`: one example per operation and status, written by an OpenAI-compatible endpoint at start (the
// warm-up), checked against the schema with Ajv, and kept for the life of the process. The request path never waits
// for a model: an invalid or failed reply falls back to the seeded generator, counted and said why.
import { retryAfterMs } from '@vigil/plugin-sdk';
import type { JsonSchemaObject } from '../openapi/document.js';
import type { ProblemDetail } from './mock-ajv.js';

export interface LlmSettings {
  /** `https://api.openai.com/v1`, or any server speaking its chat completions. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Sent as OpenAI's `seed`, so a provider that honours it repeats itself for one `--seed`. */
  seed: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Attempts per example, for 429, 5xx, timeouts and network failures (a 4xx other than 408/429 is not retried). */
  attempts: number;
}

export interface LlmTarget {
  /** `${operation key} ${response key}`: the cache key. */
  key: string;
  /** `GET /users/{id}` and its summary, for the prompt. */
  operation: string;
  summary?: string;
  status: string;
  schema: JsonSchemaObject;
}

export interface LlmReport {
  asked: number;
  used: number;
  fellBack: { key: string; reason: string }[];
}

const SYSTEM = 'You write realistic example data for an API mock server. You are given an operation and the JSON Schema of '
  + 'its response. Answer with one JSON object of the form {"value": V} where V is a realistic value that conforms to the '
  + 'schema exactly: every required property, the declared types and formats, enums and bounds. No prose, no code fences.';

/** The longest Retry-After the warm-up honours: past it, that example falls back instead of stalling the start. */
const MAX_WAIT_MS = 10_000;

class Retryable extends Error {
  constructor(message: string, readonly waitMs?: number) { super(message); }
}

/** The value in a reply: `{"value": V}` (what is asked), or the JSON itself; code fences are tolerated. */
export function replyValue(content: string): unknown {
  const text = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'value' in parsed && Object.keys(parsed).length === 1) {
    return (parsed as { value: unknown }).value;
  }
  return parsed;
}

async function askOnce(settings: LlmSettings, target: LlmTarget): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  const prompt = `Operation: ${target.operation}${target.summary ? ` (${target.summary})` : ''}\nStatus: ${target.status}\n`
    + `Response JSON Schema:\n${JSON.stringify(target.schema)}`;
  const body = JSON.stringify({
    model: settings.model,
    temperature: 0.7,
    seed: settings.seed,
    response_format: { type: 'json_object' },
    messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: prompt }],
  });
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST', headers, body, signal: AbortSignal.timeout(settings.timeoutMs), redirect: 'error',
    });
    text = await res.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    throw new Retryable(timedOut ? `no answer within ${settings.timeoutMs} ms` : `unreachable: ${(err as Error).message}`);
  }
  if (res.status === 429 || res.status === 408 || res.status >= 500) throw new Retryable(`answered ${res.status}`, retryAfterMs(res.headers));
  if (res.status < 200 || res.status >= 300) throw new Error(`answered ${res.status}: ${text.slice(0, 200)}`);
  const reply = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
  const content = reply.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('the reply has no message content');
  return content;
}

async function ask(settings: LlmSettings, target: LlmTarget): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await askOnce(settings, target);
    } catch (err) {
      if (!(err instanceof Retryable) || attempt >= settings.attempts) throw err;
      const wait = err.waitMs ?? 250 * 2 ** attempt;
      if (wait > MAX_WAIT_MS) throw new Error(`${err.message}, and asked to wait ${Math.round(wait / 1000)} s`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/**
 * Asks for every target's example, `concurrency` at a time, once per distinct schema (operations that answer the same
 * schema share one example). Resolves with the valid ones by key and a report counted in schemas; never rejects (a
 * failure is a fallback with its reason).
 */
export async function writeLlmExamples(
  targets: LlmTarget[], settings: LlmSettings,
  explain: (schema: JsonSchemaObject, value: unknown) => ProblemDetail[],
): Promise<{ examples: Map<string, unknown>; report: LlmReport }> {
  const examples = new Map<string, unknown>();
  const bySchema = new Map<string, LlmTarget[]>();
  for (const t of targets) {
    const text = JSON.stringify(t.schema);
    bySchema.set(text, [...(bySchema.get(text) ?? []), t]);
  }
  const groups = [...bySchema.values()];
  const report: LlmReport = { asked: groups.length, used: 0, fellBack: [] };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < groups.length) {
      const group = groups[next++];
      const target = group[0];
      let reason: string;
      try {
        const value = replyValue(await ask(settings, target));
        const wrong = explain(target.schema, value);
        if (!wrong.length) { for (const t of group) examples.set(t.key, value); report.used++; continue; }
        reason = `does not match the schema: ${wrong.slice(0, 3).map((p) => `${p.path || '/'} ${p.message}`).join('; ')}`;
      } catch (err) {
        reason = err instanceof SyntaxError ? `not JSON: ${err.message}` : (err as Error).message;
      }
      report.fellBack.push({ key: group.map((t) => t.key).join(', '), reason });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(settings.concurrency, targets.length)) }, worker));
  return { examples, report };
}
