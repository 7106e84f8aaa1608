// What the LLM pages read: `/api/llm/*` (plugins/llm, dashboard token), by the names the pages use (the shapes are
// generated from the routes' schemas, ui/src/data/api.gen.ts), and the paths they read them at. The dashboard holds
// no project key: it names the project in the path, and each route answers what the public API (`/api/v1/*`) answers
// to that project's key.
import type {
  CreatedLlmProject, CreatedPrompt, EffectiveProjectSettings, KeptPrompt, PromptLabelChange, PromptLabels, GateCheck, GateSide, GateVerdict, LlmProjectList, LlmProjectWithKeys, ProjectSettings,
  ProjectStats, ProjectStatsPoint, PromptTemplate, PromptTemplatePage, PromptVersion, PromptVersionStats, PromptVersionSummary,
  RotatedProjectKey, StoredTrace, TracePage,
} from '../../data/api.gen.js';

/** Redaction detectors a project can turn on (plugins/llm `redact.detect`; policies/detectors). */
export const DETECTORS = ['email', 'card_number', 'iban', 'jwt', 'api_key', 'bearer_token', 'aws_access_key_id', 'private_key', 'us_ssn'] as const;
export type Detector = (typeof DETECTORS)[number];

/** A project's own settings, as stored (what it sets over `llm.defaults`), and the settings in force. */
export type { ProjectSettings };
export type EffectiveSettings = EffectiveProjectSettings;

/** `GET /api/llm/projects`, one entry. */
export type Project = LlmProjectWithKeys;
export type ProjectList = LlmProjectList;
/** `POST /api/llm/projects` (201): the key, shown this once. */
export type CreatedProject = CreatedLlmProject;
/** `POST /api/llm/projects/:name/rotate-key` */
export type RotatedKey = RotatedProjectKey;

/** A stored trace, redacted, as the API answers it: every key present, null when the item had none. */
export type Trace = StoredTrace;
/** A page of traces: at most 8 MB of them (`truncated` when that, not `limit`, ended it); `next` pages on to older ones. */
export type { TracePage };

/** What the prompts page, the gate and the stats compare, for one version. Times are ISO 8601. */
export type CallStats = PromptVersionStats;
export type TemplateVersion = PromptVersionSummary;
/** A template with its newest versions (at most 20, oldest first); `version_count` is how many it has in all. */
export type Template = PromptTemplate;
export type TemplateList = PromptTemplatePage;
/** One version: its normalised text, stats, and a unified diff from `against`. */
export type VersionDetail = PromptVersion;
/** Why a diff is not shown, and the paths of both versions' texts (downloads). */
export type DiffOmitted = NonNullable<PromptVersion['diff_omitted']>;

/** The prompt registry: a kept version (`GET …/prompts/:name`), a create's answer, a template's labels and their moves. */
export type { CreatedPrompt, KeptPrompt, PromptLabelChange, PromptLabels };

export const STATS_RANGES = ['1h', '24h', '7d', '30d'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

export type StatsPoint = ProjectStatsPoint;
/** `GET …/stats?range=` */
export type Stats = ProjectStats;

export const THRESHOLDS = ['min_score', 'max_score_drop', 'max_p95_increase_pct', 'max_error_rate', 'max_error_rate_increase', 'max_cost_increase_pct'] as const;
export type ThresholdName = (typeof THRESHOLDS)[number];

export type { GateCheck, GateSide };
/** `GET …/gate`: what `vigil gate` judges by. */
export type { GateVerdict };

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
