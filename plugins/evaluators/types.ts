import type { EvalStatus } from '@vigil/plugin-sdk';

/** What a definition does with a trace that has no output (a failed call, mostly): skip it, or score it anyway. */
export const MISSING_OUTPUT = ['skip', 'score'] as const;
export type MissingOutput = (typeof MISSING_OUTPUT)[number];

/** The three kinds of evaluation. */
export const EVAL_TYPES = ['llm_judge', 'semantic_similarity', 'custom_function'] as const;
export type EvalType = (typeof EVAL_TYPES)[number];

/** A definition's type settings; which keys a type takes is checked by definition-check.ts. */
export interface EvalSettings {
  /** llm_judge: the name of a provider in `evaluators.providers`. */
  provider?: string;
  /** llm_judge: overrides the provider's model. */
  model?: string;
  /** llm_judge: the rubric, with {{input}}, {{output}}, {{expected}} and {{metadata.*}}. */
  rubric?: string;
  /** llm_judge: default 0. */
  temperature?: number;
  /** semantic_similarity: expected outputs; absent, the golden set of the trace's template. */
  golden?: string[];
  /** custom_function: an ES module whose default export scores a trace. */
  source?: string;
}

/** What a definition says, as the API and the config file give it. */
export interface DefinitionInput {
  id?: string;
  name: string;
  type: EvalType;
  sample_rate?: number;
  /** Only traces of this prompt template. */
  template?: string | null;
  /** With `template`: only these version numbers (inclusive). */
  versions?: { min?: number; max?: number } | null;
  /** Default `skip`: a result with status `skipped`, left out of averages. */
  on_missing_output?: MissingOutput;
  settings: EvalSettings;
}

/** A stored definition. */
export interface EvalDefinition {
  id: string;
  project_id: string;
  name: string;
  type: EvalType;
  sample_rate: number;
  template: string | null;
  versions: { min?: number; max?: number } | null;
  on_missing_output: MissingOutput;
  settings: EvalSettings;
  /** `config` when declared in `evaluators.definitions` (the file wins), `store` when made through the API. */
  source: 'config' | 'store';
  created_at: number;
  updated_at: number;
}

export interface ProviderConfig {
  base_url: string;
  model: string;
  api_key?: string;
  api_key_env?: string;
  timeout: string | number;
  /** USD per 1M tokens; absent, the llm plugin's price table prices the model. */
  price?: { input: number; output: number };
}

export interface ConfigDefinition extends DefinitionInput {
  id: string;
  project: string;
}

/** The `evaluators:` section after validation and defaults. */
export interface EvaluatorsConfig {
  rate_per_minute: number;
  project_rates: Record<string, number>;
  concurrency: number;
  /** Absent: concurrency - 1, at least 1. */
  project_concurrency?: number;
  max_attempts: number;
  backoff: string | number;
  timeout: string | number;
  messages_grace: string | number;
  providers: Record<string, ProviderConfig>;
  embeddings?: { base_url: string; model: string; api_key?: string; api_key_env?: string; price?: { input: number } };
  definitions: ConfigDefinition[];
}

/** What one evaluation produced, before it is stored. */
export interface EvalOutcome {
  status: EvalStatus;
  /** 0..1, null when failed or skipped. */
  score: number | null;
  reason: string | null;
  method: string;
  /** The judge or embedding model; null for custom functions. */
  model: string | null;
  tokens_in: number;
  tokens_out: number;
  /** USD; null when the model has no price (or nothing was spent: 0). */
  usd: number | null;
  /** Type-specific facts shown with the result (the failure's kind, the closest golden output, the function's logs). */
  details?: Record<string, unknown>;
}
