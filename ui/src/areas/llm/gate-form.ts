// The gate page's question as the URL holds it (template, baseline, candidate, thresholds, min samples), the API path
// that asks it, and the `vigil gate` command line that asks CI the same. Pure functions.
import { projectApi, THRESHOLDS, type ThresholdName } from './llm-api.js';

export interface GateForm {
  template: string;
  /** `previous` or a version number. */
  baseline: string;
  /** `latest` or a version number. */
  candidate: string;
  /** Threshold values as typed, only those set. */
  thresholds: Partial<Record<ThresholdName, string>>;
  /** '' for the server's default (30). */
  minSamples: string;
}

/** Checked by the server unless the question gives them another value (plugins/llm/api/gate.ts). */
export const DEFAULT_THRESHOLDS: Partial<Record<ThresholdName, number>> = { max_error_rate_increase: 0.02, max_p95_increase_pct: 20 };
export const DEFAULT_MIN_SAMPLES = 30;

/** Each threshold: what it checks, its unit, and the `vigil gate` flag. */
export const THRESHOLD_INFO: Record<ThresholdName, { label: string; unit: string; hint: string; flag: string; min: number; max?: number }> = {
  min_score: { label: 'Lowest eval score', unit: '0–1', hint: 'the candidate\'s average eval score', flag: '--min-score', min: 0, max: 1 },
  max_score_drop: { label: 'Largest score drop', unit: '0–1', hint: 'baseline score minus candidate score', flag: '--max-score-drop', min: 0, max: 1 },
  max_p95_increase_pct: { label: 'Largest P95 rise', unit: '%', hint: 'P95 latency, candidate against baseline', flag: '--max-p95-increase-pct', min: 0 },
  max_error_rate: { label: 'Highest error rate', unit: '0–1', hint: 'the candidate\'s share of failed calls', flag: '--max-error-rate', min: 0, max: 1 },
  max_error_rate_increase: { label: 'Largest error-rate rise', unit: '0–1', hint: 'candidate minus baseline, absolute (0.02 = 2 points)', flag: '--max-error-rate-increase', min: 0, max: 1 },
  max_cost_increase_pct: { label: 'Largest cost rise', unit: '%', hint: 'average cost per call, candidate against baseline', flag: '--max-cost-increase-pct', min: 0 },
};

const VERSION = /^[1-9][0-9]{0,8}$/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)$/;

/** The form the URL's query names; values it cannot read are left out. */
export function readGateForm(search: string): GateForm {
  const p = new URLSearchParams(search);
  const baseline = p.get('baseline') ?? '';
  const candidate = p.get('candidate') ?? '';
  const thresholds: GateForm['thresholds'] = {};
  for (const t of THRESHOLDS) {
    const v = p.get(t)?.trim();
    if (v && NUMBER.test(v)) thresholds[t] = v;
  }
  const min = p.get('min_samples') ?? '';
  return {
    template: p.get('template') ?? '',
    baseline: VERSION.test(baseline) ? baseline : 'previous',
    candidate: VERSION.test(candidate) ? candidate : 'latest',
    thresholds,
    minSamples: VERSION.test(min) ? min : '',
  };
}

/** The form as URL parameters (defaults left out), `project` first. */
export function gateSearch(project: string, form: GateForm): string {
  const q = new URLSearchParams({ project });
  if (form.template) q.set('template', form.template);
  if (form.baseline !== 'previous') q.set('baseline', form.baseline);
  if (form.candidate !== 'latest') q.set('candidate', form.candidate);
  for (const t of THRESHOLDS) if (form.thresholds[t] !== undefined) q.set(t, form.thresholds[t]!);
  if (form.minSamples) q.set('min_samples', form.minSamples);
  return `?${q}`;
}

/** A problem with a threshold as typed, or undefined. */
export function thresholdProblem(name: ThresholdName, value: string): string | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  if (!NUMBER.test(text)) return 'A number, such as 0.05.';
  const n = Number(text);
  const info = THRESHOLD_INFO[name];
  if (n < info.min || (info.max !== undefined && n > info.max)) return info.max === undefined ? `At least ${info.min}.` : `From ${info.min} to ${info.max}.`;
  return undefined;
}

/** The dashboard API path that asks the gate the form's question; null without a template. */
export function gateApiPath(project: string, form: GateForm): string | null {
  if (!form.template) return null;
  const q = new URLSearchParams({ template: form.template, baseline: form.baseline, candidate: form.candidate });
  for (const t of THRESHOLDS) if (form.thresholds[t] !== undefined) q.set(t, form.thresholds[t]!);
  if (form.minSamples) q.set('min_samples', form.minSamples);
  return projectApi(project, `/gate?${q}`);
}

/** A word as a POSIX shell reads it: bare when it is safe, in single quotes otherwise. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9._\-/:=@%+]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `vigil gate` command that asks CI the form's question against the control plane at `url`. The key is never in
 * it: CI holds it in VIGIL_PROJECT_KEY, which the command reads.
 */
export function gateCommand(url: string, form: GateForm, cli = 'npx vigil'): string {
  const parts = [`${cli} gate`, `--url ${shellWord(url)}`, '--key "$VIGIL_PROJECT_KEY"', `--template ${shellWord(form.template || 'TEMPLATE')}`];
  if (form.baseline !== 'previous') parts.push(`--baseline ${form.baseline}`);
  if (form.candidate !== 'latest') parts.push(`--candidate ${form.candidate}`);
  for (const t of THRESHOLDS) if (form.thresholds[t] !== undefined) parts.push(`${THRESHOLD_INFO[t].flag} ${form.thresholds[t]}`);
  if (form.minSamples) parts.push(`--min-samples ${form.minSamples}`);
  // One flag a line: a command a reviewer reads in a CI file.
  return parts.join(' \\\n  ');
}
