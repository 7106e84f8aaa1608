import type { SpanBoundsConfig } from './spans/span-bounds.js';
import type { DetectorKind } from '../../policies/detectors/types.js';

/** A project's own settings (config-schema.ts, `projectSettingsSchema`): what it sets over `llm.defaults`. */
export interface ProjectSettings {
  /** A plan of `llm.plans`. */
  plan?: string;
  budget?: { monthly_usd?: number; over_budget_sample_rate?: number };
  limits?: { items_per_month?: number; items_per_batch?: number; body_bytes?: string | number; item_keys?: number; item_bytes?: string | number };
  redact?: { json_fields?: string[]; detect?: DetectorKind[] };
  retention?: string | number;
}

/** A plan of `llm.plans`: limits, a budget cap and a retention that projects take by name. */
export type PlanSettings = Pick<ProjectSettings, 'limits' | 'budget' | 'retention'> & { description?: string };

export interface ConfigProject extends ProjectSettings {
  name: string;
  key?: string;
  key_sha256?: string;
}

export interface ModelPrice {
  /** USD per 1M input tokens. */
  input: number;
  /** USD per 1M output tokens. */
  output: number;
  /** USD per 1M input tokens read from the prompt cache; the input price when absent. */
  cached_input?: number;
}

/** The `llm:` section after validation and defaults. */
export interface LlmConfig {
  projects: ConfigProject[];
  plans: Record<string, PlanSettings>;
  defaults: ProjectSettings;
  prices: Record<string, ModelPrice>;
  max_body_bytes: string | number;
  persist: { concurrency?: number; max_attempts: number; backoff: string | number; timeout: string | number };
  retention_interval: string | number;
  langfuse: { unended_after: string | number };
  /** Trace trees' bounds (spans/span-bounds.ts). */
  spans?: SpanBoundsConfig;
}

/** A project's settings with the defaults filled in, in the units the code uses. */
export interface EffectiveSettings {
  /** The plan in force (the project's, else `llm.defaults`'), when `llm.plans` has it; null: none. */
  plan: string | null;
  /** USD; null: no cap. */
  monthlyBudgetUsd: number | null;
  overBudgetSampleRate: number;
  /** null: no limit. */
  itemsPerMonth: number | null;
  itemsPerBatch: number;
  bodyBytes: number;
  /** Keys and array elements of one item, at every level (lane/item-bounds.ts). */
  itemKeys: number;
  /** UTF-8 bytes of one item's strings. */
  itemBytes: number;
  redact: { json_fields: string[]; detect: DetectorKind[] };
  retentionMs: number;
}

/** A project as ingest and the public API see it once its key is known. */
export interface LlmProject {
  id: string;
  name: string;
  /** `config` when declared in `llm.projects` (the file wins), `store` when made with the CLI or the dashboard. */
  source: 'config' | 'store';
  settings: EffectiveSettings;
}
