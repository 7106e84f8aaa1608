import { retryAfterMs } from '@vigil/plugin-sdk';
import { ProviderUnavailable } from './errors.js';

/** A judge provider with its key resolved (from the config or the environment): never leaves the process. */
export interface ResolvedProvider {
  name: string;
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** The environment variable the key was read from (its name only), when the config named one instead of a key. */
  keyEnv?: string;
  timeoutMs: number;
  price?: { input: number; output: number };
}

export interface Usage {
  tokens_in: number;
  tokens_out: number;
}

/** What the judge answered: the arguments of its submit_score call, or the text it gave instead. */
export type JudgeReply =
  | { kind: 'tool'; arguments: string; model: string; usage: Usage }
  | { kind: 'text'; text: string; model: string; usage: Usage };

/** The provider refused the request itself (4xx other than 408 and 429): retrying would get the same answer. */
export class ProviderRefused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'ProviderRefused';
  }
}

/** The function the judge must call, with OpenAI's strict JSON-schema arguments. */
export const SUBMIT_SCORE = {
  type: 'function',
  function: {
    name: 'submit_score',
    description: 'Submit your grade of the response against the rubric.',
    strict: true,
    parameters: {
      type: 'object',
      additionalProperties: false,
      required: ['score', 'reasoning'],
      properties: {
        score: { type: 'number', description: 'From 0 (fails the rubric entirely) to 100 (meets it fully).' },
        reasoning: { type: 'string', description: 'Why, in a few sentences.' },
      },
    },
  },
} as const;

const SYSTEM = 'You are an impartial evaluator. Read the rubric and the conversation, then grade the response by calling ' +
  'submit_score exactly once: a score from 0 to 100 and your reasoning. Do not answer in text.';

const errorMessage = (body: string): string => {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message.slice(0, 500);
  } catch { /* not JSON */ }
  return body.slice(0, 200);
};

/**
 * One chat completion with `submit_score` forced through `tool_choice`. Throws ProviderUnavailable for what a later
 * attempt may fix (429, 5xx, 408, a timeout, the network; with the provider's Retry-After), ProviderRefused for any
 * other non-2xx, and resolves with the reply otherwise (a reply without the tool call is the caller's failed result).
 */
export async function askJudge(provider: ResolvedProvider, model: string, prompt: string, temperature: number): Promise<JudgeReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (provider.apiKey) headers.authorization = `Bearer ${provider.apiKey}`;
  const body = JSON.stringify({
    model,
    temperature,
    messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: prompt }],
    tools: [SUBMIT_SCORE],
    tool_choice: { type: 'function', function: { name: 'submit_score' } },
  });
  const url = `${provider.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(provider.timeoutMs), redirect: 'error' });
    text = await res.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    throw new ProviderUnavailable(timedOut
      ? `judge provider "${provider.name}" did not answer within ${provider.timeoutMs} ms`
      : `judge provider "${provider.name}" could not be reached: ${(err as Error).message}`, { cause: err });
  }
  if (res.status === 429 || res.status === 408 || res.status >= 500) {
    throw new ProviderUnavailable(`judge provider "${provider.name}" answered ${res.status}: ${errorMessage(text)}`, { retryAfterMs: retryAfterMs(res.headers) });
  }
  if (res.status < 200 || res.status >= 300) {
    throw new ProviderRefused(res.status, `judge provider "${provider.name}" refused the request with ${res.status}: ${errorMessage(text)}`);
  }
  let reply: {
    model?: unknown;
    choices?: { message?: { content?: unknown; tool_calls?: { type?: string; function?: { name?: unknown; arguments?: unknown } }[] } }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  };
  try {
    reply = JSON.parse(text);
  } catch {
    throw new ProviderRefused(res.status, `judge provider "${provider.name}" answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);
  const usage = { tokens_in: count(reply.usage?.prompt_tokens), tokens_out: count(reply.usage?.completion_tokens) };
  const answered = typeof reply.model === 'string' ? reply.model : model;
  const message = reply.choices?.[0]?.message;
  const call = message?.tool_calls?.find((c) => c?.function?.name === 'submit_score');
  if (call) return { kind: 'tool', arguments: typeof call.function!.arguments === 'string' ? call.function!.arguments : JSON.stringify(call.function!.arguments ?? null), model: answered, usage };
  const content = typeof message?.content === 'string' ? message.content : message?.tool_calls?.length ? `(called ${message.tool_calls.map((c) => String(c?.function?.name)).join(', ')})` : '';
  return { kind: 'text', text: content, model: answered, usage };
}
