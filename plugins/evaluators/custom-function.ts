import type { PersistedTrace, Sandboxes } from '@vigil/plugin-sdk';
import { JsSandboxErrors } from '../../sandbox/js/errors.js';
import type { EvalDefinition, EvalOutcome } from './types.js';

const NO_COST = { method: 'custom_function', model: null, tokens_in: 0, tokens_out: 0, usd: 0 };
/** Host-side failures that say nothing about the function: the job is retried. */
const HOST_BUSY = new Set<string>([JsSandboxErrors.BUSY, JsSandboxErrors.CLOSED]);

const failed = (reason: string, details: Record<string, unknown>): EvalOutcome => ({ ...NO_COST, status: 'failed', score: null, reason, details });

/**
 * What a function returned, as a score. A number, or `{ score, reason? }`; a score outside 0..1 is refused (a failed
 * result), never clamped: a function that returns 7 has a bug that clamping would hide as a perfect score.
 */
export function interpretScore(value: unknown): EvalOutcome {
  let score: unknown = value;
  let reason: string | null = null;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    score = (value as { score?: unknown }).score;
    const r = (value as { reason?: unknown }).reason;
    if (r !== undefined && r !== null) reason = typeof r === 'string' ? r.slice(0, 4000) : JSON.stringify(r).slice(0, 4000);
  }
  if (typeof score !== 'number' || !Number.isFinite(score)) {
    const shown = JSON.stringify(value)?.slice(0, 200) ?? 'undefined';
    return failed(`invalid_output: the function returned ${shown}; it must return a number in 0..1 or { score, reason }`, { kind: 'invalid_output' });
  }
  if (score < 0 || score > 1) return failed(`invalid_output: the score ${score} is outside 0..1 (refused, not clamped)`, { kind: 'out_of_range', raw_score: score });
  return { ...NO_COST, status: 'ok', score, reason };
}

/**
 * custom_function: the definition's module in the runtime's JavaScript sandbox (isolated-vm in a child process: 250 ms,
 * 64 MB, no require, process or network), called with the stored trace as the public API shows it. A compile error,
 * a timeout, a throw, running out of memory or a crash is a failed result whose reason starts with the sandbox's
 * reason (`timeout: …`): it costs that one eval and is never retried. Only a sandbox too busy to take the call throws.
 */
export async function runFunction(sandboxes: Sandboxes, definition: EvalDefinition, trace: PersistedTrace): Promise<EvalOutcome> {
  let fn;
  try {
    fn = await sandboxes.loadFunction(definition.settings.source ?? '', `eval-${definition.id}.js`);
  } catch (err) {
    const reason = (err as { reason?: string }).reason ?? 'compile';
    if (HOST_BUSY.has((err as { code?: string }).code ?? '')) throw err;
    return failed(`${reason}: ${(err as Error).message}`, { kind: reason });
  }
  let result;
  try {
    result = await fn.call(trace.trace);
  } catch (err) {
    if (HOST_BUSY.has((err as { code?: string }).code ?? '')) throw err;
    return failed(`input: ${(err as Error).message}`, { kind: 'input' });
  }
  const logs = result.logs?.length ? { logs: result.logs.slice(0, 20) } : {};
  if (!result.ok) return failed(`${result.error.reason}: ${result.error.message}`, { kind: result.error.reason, ...logs });
  const outcome = interpretScore(result.value);
  return logs.logs ? { ...outcome, details: { ...outcome.details, ...logs } } : outcome;
}
