import type { PersistedTrace, Sandboxes } from '@vigil/plugin-sdk';
import { runFunction } from './custom-function.js';
import type { GoldenSets } from './golden-sets.js';
import { judge, type JudgeDeps } from './llm-judge.js';
import { similarity, type SimilarityDeps } from './semantic-similarity.js';
import { hasOutput } from './trace-text.js';
import type { EvalDefinition, EvalOutcome } from './types.js';

export interface EvaluateDeps {
  sandboxes: Sandboxes;
  judge: JudgeDeps;
  similarity: SimilarityDeps;
  golden: GoldenSets;
}

/** `metadata.expected` of the trace as text, else its template's golden outputs, else nothing. */
async function expectedOf(deps: EvaluateDeps, definition: EvalDefinition, trace: PersistedTrace): Promise<string> {
  const expected = (trace.trace.metadata as { expected?: unknown } | null | undefined)?.expected;
  if (typeof expected === 'string') return expected;
  if (expected !== undefined && expected !== null) return JSON.stringify(expected);
  const golden = trace.template ? await deps.golden.get(definition.project_id, trace.template) : undefined;
  return golden?.join('\n---\n') ?? '';
}

/**
 * The outcome of a trace without output under `on_missing_output: skip`: nothing to score, so no score (a failed call
 * is not a good answer) and no failure (the eval did not go wrong); averages leave it out.
 */
export function skippedOutcome(definition: Pick<EvalDefinition, 'type'>, trace: PersistedTrace): EvalOutcome {
  return {
    status: 'skipped', score: null, reason: 'no output', method: definition.type === 'semantic_similarity' ? 'none' : definition.type, model: null,
    tokens_in: 0, tokens_out: 0, usd: 0, details: { kind: 'no_output', trace_status: trace.status },
  };
}

/** Whether `definition` skips `trace`: it has no output and the definition does not score such traces. */
export const skips = (definition: Pick<EvalDefinition, 'on_missing_output'>, trace: PersistedTrace): boolean =>
  definition.on_missing_output !== 'score' && !hasOutput(trace.trace.output);

/**
 * Runs one definition over one trace. Resolves with the outcome, failed and skipped ones included; rejects only when
 * another attempt may succeed (ProviderUnavailable, a busy sandbox), which the job queue retries.
 */
export async function evaluate(deps: EvaluateDeps, definition: EvalDefinition, trace: PersistedTrace): Promise<EvalOutcome> {
  if (skips(definition, trace)) return skippedOutcome(definition, trace);
  switch (definition.type) {
    case 'llm_judge':
      return judge(deps.judge, definition, trace, await expectedOf(deps, definition, trace));
    case 'semantic_similarity': {
      const golden = definition.settings.golden ?? (trace.template ? await deps.golden.get(definition.project_id, trace.template) : undefined);
      return similarity(deps.similarity, definition, trace, golden);
    }
    default:
      return runFunction(deps.sandboxes, definition, trace);
  }
}

/** Whether a definition's scope (template, versions) covers a trace; sampling is apart (sampling.ts). */
export function inScope(definition: EvalDefinition, trace: Pick<PersistedTrace, 'template' | 'version'>): boolean {
  if (definition.template === null) return true;
  if (trace.template !== definition.template) return false;
  const v = trace.version;
  const range = definition.versions;
  if (!range) return true;
  if (v === null) return false;
  return (range.min === undefined || v >= range.min) && (range.max === undefined || v <= range.max);
}
