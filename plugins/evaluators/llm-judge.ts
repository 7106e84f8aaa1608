import type { PersistedTrace } from '@vigil/plugin-sdk';
import { askJudge, ProviderRefused, type ResolvedProvider } from './judge-client.js';
import { renderRubric } from './rubric-template.js';
import type { EvalDefinition, EvalOutcome } from './types.js';

export interface JudgeDeps {
  provider(name: string): ResolvedProvider | undefined;
  /** USD by the llm plugin's price table; null when the model is unpriced. */
  price(model: string, tokens: { input: number; output: number }): number | null;
}

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * llm_judge: the rubric filled with the whole trace goes to the provider with `submit_score` forced; a score of
 * 0..100 becomes 0..1. A reply without the call, with arguments that are not JSON, or with a score outside 0..100 is
 * a failed result with its reason, never a score. The judge's tokens and their cost are the result's own.
 * Throws ProviderUnavailable (retried by the queue) for 429, 5xx, timeouts and the network.
 */
export async function judge(deps: JudgeDeps, definition: EvalDefinition, trace: PersistedTrace, expected: string): Promise<EvalOutcome> {
  const name = definition.settings.provider ?? '';
  const provider = deps.provider(name);
  const model = definition.settings.model ?? provider?.model ?? '';
  const base = { method: 'llm_judge', model, tokens_in: 0, tokens_out: 0, usd: null };
  if (!provider) return { ...base, status: 'failed', score: null, reason: `judge provider "${name}" is not declared in evaluators.providers` };
  const t = trace.trace;
  const prompt = renderRubric(definition.settings.rubric ?? '', { input: t.input, output: t.output, expected, metadata: t.metadata });
  let reply;
  try {
    reply = await askJudge(provider, model, prompt, definition.settings.temperature ?? 0);
  } catch (err) {
    if (err instanceof ProviderRefused) return { ...base, status: 'failed', score: null, reason: err.message, details: { http_status: err.status } };
    throw err;
  }
  const { tokens_in, tokens_out } = reply.usage;
  const usd = provider.price
    ? Math.round(((tokens_in * provider.price.input + tokens_out * provider.price.output) / 1e6) * 1e12) / 1e12
    : deps.price(reply.model, { input: tokens_in, output: tokens_out });
  const spent = { method: 'llm_judge', model: reply.model, tokens_in, tokens_out, usd };
  const failed = (reason: string, details: Record<string, unknown> = {}): EvalOutcome => ({ ...spent, status: 'failed', score: null, reason, details });
  if (reply.kind === 'text') {
    return failed(`the judge answered without calling submit_score${reply.text ? `: ${cut(reply.text, 300)}` : ''}`, { kind: 'no_tool_call' });
  }
  let args: { score?: unknown; reasoning?: unknown };
  try {
    args = JSON.parse(reply.arguments) as typeof args;
  } catch {
    return failed(`the judge's submit_score arguments are not JSON: ${cut(reply.arguments, 200)}`, { kind: 'bad_arguments' });
  }
  const reasoning = typeof args?.reasoning === 'string' ? args.reasoning : null;
  const score = args?.score;
  if (typeof score !== 'number' || !Number.isFinite(score)) {
    return failed(`the judge's submit_score has no numeric score (got ${cut(JSON.stringify(score) ?? 'nothing', 100)})`, { kind: 'bad_arguments', reasoning });
  }
  if (score < 0 || score > 100) return failed(`the judge's score ${score} is outside 0..100`, { kind: 'out_of_range', raw_score: score, reasoning });
  return { ...spent, status: 'ok', score: score / 100, reason: reasoning, details: { raw_score: score } };
}
