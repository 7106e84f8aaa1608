// What the Evals page and the trace page read and send: the evaluators plugin's dashboard routes
// (`/api/llm/projects/:project/evals`, `/eval-results`, `/api/llm/eval-providers`), by the names the page uses (the
// shapes are generated from the routes' schemas, api.gen.ts), and pure helpers: the score histogram, the form of a
// definition and the body it sends. A provider's key never reaches the page.
import type {
  ApiAnswers, EvalDefinition, EvalDefinitionList, EvalResult, EvalResultPage, EvalSettings, EvalTrial, JudgeProvider,
} from '../../data/api.gen.js';

/** The types in the order the form offers them. */
export const EVAL_TYPES = ['custom_function', 'llm_judge', 'semantic_similarity'] as const satisfies readonly EvalDefinition['type'][];
export type EvalType = EvalDefinition['type'];

export const EVAL_TYPE_LABEL: Record<EvalType, string> = {
  llm_judge: 'LLM judge',
  semantic_similarity: 'Semantic similarity',
  custom_function: 'Custom function',
};

export type { EvalSettings };
/** `GET …/evals`, one entry. */
export type { EvalDefinition, EvalDefinitionList };
/** `GET /api/llm/eval-providers`, one entry: never its key, only whether it has one. */
export type EvalProvider = JudgeProvider;
export type { EvalResult, EvalResultPage };
/** `POST …/evals/test`: one trial, not saved. */
export type { EvalTrial };
/** How an eval ended; `skipped`: the trace had no output and the definition skips such traces. */
export type EvalStatus = EvalResult['status'];
/** What a definition does with a trace that has no output (a failed call). */
export type MissingOutput = EvalDefinition['on_missing_output'];

/** GET /api/llm/embeddings/status: where the embedder's one-time preparation stands (plugins/evaluators). */
export type EmbedderStatus = ApiAnswers['GET /api/llm/embeddings/status'];

/** What a provider's key is, as the page may say it: `from env VAR`, `set`, or missing. Never the key. */
export function providerKeyText(p: EvalProvider): string {
  if (p.key_env) return p.has_key ? `from env ${p.key_env}` : `from env ${p.key_env} (not set)`;
  return p.has_key ? 'set' : 'no key';
}

export const HISTOGRAM_BINS = 10;

/** Scores (0..1) counted in ten bins of 0.1; a score of exactly 1 is in the last bin. Failed and skipped results (null) are not counted. */
export function scoreHistogram(scores: readonly (number | null)[], bins = HISTOGRAM_BINS): number[] {
  const counts = new Array<number>(bins).fill(0);
  for (const s of scores) {
    if (s === null || !Number.isFinite(s)) continue;
    counts[Math.min(bins - 1, Math.max(0, Math.floor(s * bins)))]++;
  }
  return counts;
}

/** A result without a score in words: `skipped: no output` (the trace had none to score), else `failed`. */
export const unscoredText = (r: { status: EvalStatus; reason: string | null }): string =>
  (r.status === 'skipped' ? `skipped: ${r.reason ?? 'no output'}` : 'failed');

/** The label of bin `i`: `0.0–0.1`, …, `0.9–1.0`. */
export const binLabel = (i: number, bins = HISTOGRAM_BINS): string => `${(i / bins).toFixed(1)}–${((i + 1) / bins).toFixed(1)}`;

/** The form of a definition, every field as the inputs hold it. */
export interface EvalForm {
  id: string;
  name: string;
  type: EvalType;
  sampleRate: string;
  template: string;
  versionMin: string;
  versionMax: string;
  onMissingOutput: MissingOutput;
  source: string;
  provider: string;
  model: string;
  rubric: string;
  golden: string;
}

export const DEFAULT_FUNCTION = 'export default (trace) => {\n  const text = JSON.stringify(trace.output ?? \'\');\n  return { score: text.length > 0 ? 1 : 0, reason: `${text.length} characters` };\n};\n';
export const DEFAULT_RUBRIC = 'Question: {{input}}\nAnswer: {{output}}\nIs the answer correct and helpful? Score 0 to 100.';

export function emptyForm(providers: readonly EvalProvider[] = []): EvalForm {
  return {
    id: '', name: '', type: 'custom_function', sampleRate: '1', template: '', versionMin: '', versionMax: '', onMissingOutput: 'skip',
    source: DEFAULT_FUNCTION, provider: providers[0]?.name ?? '', model: '', rubric: DEFAULT_RUBRIC, golden: '',
  };
}

export function formOf(d: EvalDefinition): EvalForm {
  return {
    id: d.id, name: d.name, type: d.type, sampleRate: String(d.sample_rate), template: d.template ?? '',
    versionMin: d.versions?.min === undefined ? '' : String(d.versions.min), versionMax: d.versions?.max === undefined ? '' : String(d.versions.max),
    onMissingOutput: d.on_missing_output, source: d.settings.source ?? DEFAULT_FUNCTION, provider: d.settings.provider ?? '', model: d.settings.model ?? '',
    rubric: d.settings.rubric ?? DEFAULT_RUBRIC, golden: (d.settings.golden ?? []).join('\n'),
  };
}

export type FormProblems = Partial<Record<keyof EvalForm, string>>;

const wholeNumber = (text: string): number | undefined => (/^[1-9][0-9]{0,8}$/.test(text.trim()) ? Number(text.trim()) : undefined);

/** The body a form sends (POST, PUT, test), or the problems of its fields. */
export function readEvalForm(form: EvalForm): { body?: Record<string, unknown>; problems: FormProblems } {
  const problems: FormProblems = {};
  const name = form.name.trim();
  if (!name) problems.name = 'Give the definition a name.';
  const rate = Number(form.sampleRate);
  if (form.sampleRate.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) problems.sampleRate = 'A fraction from 0 to 1 (1: every trace).';
  const template = form.template.trim();
  const min = form.versionMin.trim() ? wholeNumber(form.versionMin) : undefined;
  const max = form.versionMax.trim() ? wholeNumber(form.versionMax) : undefined;
  if (form.versionMin.trim() && min === undefined) problems.versionMin = 'A version number (1, 2, …).';
  if (form.versionMax.trim() && max === undefined) problems.versionMax = 'A version number (1, 2, …).';
  if ((min !== undefined || max !== undefined) && !template) problems.template = 'A version range needs a template.';
  if (min !== undefined && max !== undefined && min > max) problems.versionMax = 'At least the first version.';
  const settings: EvalSettings = {};
  if (form.type === 'custom_function') {
    if (!form.source.trim()) problems.source = 'The function: export default (trace) => number | { score, reason }.';
    settings.source = form.source;
  } else if (form.type === 'llm_judge') {
    if (!form.provider) problems.provider = 'Choose a provider declared in evaluators.providers.';
    if (!form.rubric.trim()) problems.rubric = 'The rubric the judge grades by.';
    settings.provider = form.provider;
    settings.rubric = form.rubric;
    if (form.model.trim()) settings.model = form.model.trim();
  } else {
    const golden = form.golden.split('\n').map((l) => l.trim()).filter(Boolean);
    if (golden.length) settings.golden = golden;
  }
  if (Object.keys(problems).length) return { problems };
  const body: Record<string, unknown> = {
    name, type: form.type, sample_rate: rate, template: template || null,
    versions: min !== undefined || max !== undefined ? { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } : null,
    on_missing_output: form.onMissingOutput, settings,
  };
  if (form.id.trim()) body.id = form.id.trim();
  return { body, problems };
}

/** A definition's scope in words: all traces, a template, a range of its versions. */
export function scopeText(d: Pick<EvalDefinition, 'template' | 'versions'>): string {
  if (!d.template) return 'all traces';
  const v = d.versions;
  if (!v || (v.min === undefined && v.max === undefined)) return d.template;
  if (v.min !== undefined && v.max !== undefined) return `${d.template} v${v.min}–v${v.max}`;
  return v.min !== undefined ? `${d.template} v${v.min}+` : `${d.template} up to v${v.max}`;
}

/** The dashboard path of the Evals page, at a definition. */
export const evalsPath = (project: string, definition?: string): string =>
  `/llm/evals?project=${encodeURIComponent(project)}${definition ? `&definition=${encodeURIComponent(definition)}` : ''}`;
