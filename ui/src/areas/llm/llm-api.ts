// What the LLM pages read: `/api/llm/*` (plugins/llm, dashboard token), as types, and the paths they read them at.
// The dashboard holds no project key: it names the project in the path, and each route answers what the public API
// (`/api/v1/*`) answers to that project's key.

/** Redaction detectors a project can turn on (plugins/llm `redact.detect`; policies/detectors). */
export const DETECTORS = ['email', 'card_number', 'iban', 'jwt', 'api_key', 'bearer_token', 'aws_access_key_id', 'private_key', 'us_ssn'] as const;
export type Detector = (typeof DETECTORS)[number];

/** A project's own settings, as stored (what it sets over `llm.defaults`). */
export interface ProjectSettings {
  budget?: { monthly_usd?: number; over_budget_sample_rate?: number };
  limits?: { items_per_month?: number; items_per_batch?: number; body_bytes?: string | number };
  redact?: { json_fields?: string[]; detect?: string[] };
  retention?: string | number;
}

/** The settings in force (the project's, else `llm.defaults`, else built in). */
export interface EffectiveSettings {
  monthlyBudgetUsd: number | null;
  overBudgetSampleRate: number;
  itemsPerMonth: number | null;
  itemsPerBatch: number;
  bodyBytes: number;
  redact: { json_fields: string[]; detect: string[] };
  retentionMs: number;
}

/** `GET /api/llm/projects`, one entry. */
export interface Project {
  name: string;
  /** `config`: declared in the config file, which wins (read-only here); `store`: made with the CLI or the dashboard. */
  source: 'config' | 'store';
  settings: ProjectSettings;
  effective: EffectiveSettings;
  created_at: string;
  updated_at: string;
  keys: { hint: string; source: 'config' | 'store'; created_at: string; expires_at: string | null }[];
  usage: { month: string; items: number; cost_usd: number; sampled_out: number };
}

export interface ProjectList { data: Project[] }

/** `POST /api/llm/projects` (201): the key, shown this once. */
export interface CreatedProject { project: Omit<Project, 'keys' | 'usage'>; key: string }

/** `POST /api/llm/projects/:name/rotate-key` */
export interface RotatedKey { key: string; previous_keys_expire_at: string }

/** A stored trace, redacted, as the API answers it: every key present, null when the item had none. */
export interface Trace {
  id: string;
  created_at: string;
  model: string;
  provider: string | null;
  name: string | null;
  status: 'ok' | 'error';
  error: unknown;
  start_time: string | null;
  latency_ms: number | null;
  tokens: { input?: number; output?: number; cache_read?: number; total?: number } | null;
  cost_usd: number | null;
  /** True when Vigil priced the call from its model (the item sent no cost). */
  cost_estimated: boolean;
  input: unknown;
  output: unknown;
  prompt_template: { name: string; version: number; hash: string; variables?: unknown } | null;
  user_id: string | null;
  session_id: string | null;
  tags: string[];
  metadata: unknown;
}

export interface TracePage { data: Trace[]; limit: number; offset: number }

/** What the prompts page, the gate and the stats compare, for one version. Times are ISO 8601. */
export interface CallStats {
  requests: number;
  errors: number;
  error_rate: number;
  /** null until evaluations exist. */
  avg_score: number | null;
  p50_latency_ms: number | null;
  p95_latency_ms: number | null;
  p99_latency_ms: number | null;
  cost_usd: number;
  avg_cost_usd: number | null;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  first_seen: string | null;
  last_seen: string | null;
}

export interface TemplateVersion extends CallStats { version: number; hash: string; created_at: string }
export interface Template { name: string; latest_version: number | null; versions: TemplateVersion[] }
export interface TemplateList { data: Template[]; limit: number; offset: number }

/** One version: its normalised text, stats, and a unified diff from `against`. */
export interface VersionDetail {
  template: string;
  version: number;
  hash: string;
  created_at: string;
  text: string;
  previous_version: number | null;
  against: number | null;
  /** `diff -u` text; '' when the two texts are equal; null without a version to compare with. */
  diff: string | null;
  stats: CallStats;
}

export const STATS_RANGES = ['1h', '24h', '7d', '30d'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

export interface StatsPoint {
  time: string;
  requests: number;
  errors: number;
  error_rate: number;
  tokens: number;
  cost_usd: number;
  avg_latency_ms: number | null;
  avg_score: number | null;
}

/** `GET …/stats?range=` */
export interface Stats {
  range: StatsRange;
  from: string;
  to: string;
  step_ms: number;
  requests: number;
  errors: number;
  error_rate: number;
  latency_ms: { p50: number | null; p95: number | null; p99: number | null };
  tokens: { input: number; output: number; total: number };
  cost_usd: number;
  eval_score_avg: number | null;
  series: StatsPoint[];
}

export const THRESHOLDS = ['min_score', 'max_score_drop', 'max_p95_increase_pct', 'max_error_rate', 'max_error_rate_increase', 'max_cost_increase_pct'] as const;
export type ThresholdName = (typeof THRESHOLDS)[number];

export interface GateCheck {
  metric: ThresholdName;
  baseline: number | null;
  candidate: number | null;
  threshold: number;
  /** What is held against the threshold (the candidate's value, a drop, an increase); null when unknown. */
  value: number | null;
  pass: boolean | null;
}

export interface GateSide {
  version: number;
  samples: number;
  stats: Pick<CallStats, 'avg_score' | 'p95_latency_ms' | 'error_rate' | 'avg_cost_usd' | 'cost_usd' | 'requests' | 'errors'>;
}

/** `GET …/gate`: what `vigil gate` judges by. */
export interface GateVerdict {
  pass: boolean | null;
  reason: string;
  template: string;
  baseline: GateSide | null;
  candidate: GateSide;
  min_samples: number;
  checks: GateCheck[];
}

/** `/api/llm/projects/<name><rest>`, the project's name escaped. */
export const projectApi = (project: string, rest = ''): string => `/api/llm/projects/${encodeURIComponent(project)}${rest}`;

/** The dashboard path of a trace. */
export const tracePath = (project: string, id: string): string => `/llm/traces/${encodeURIComponent(id)}?project=${encodeURIComponent(project)}`;

/** The dashboard path of a prompt template (its versions), optionally at a version and against another. */
export function templatePath(project: string, name: string, view: { version?: number; against?: number | 'none' } = {}): string {
  const q = new URLSearchParams({ project });
  if (view.version !== undefined) q.set('version', String(view.version));
  if (view.against !== undefined) q.set('against', String(view.against));
  return `/llm/prompts/${encodeURIComponent(name)}?${q}`;
}
