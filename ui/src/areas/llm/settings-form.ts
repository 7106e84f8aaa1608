// A project's settings as the settings form edits them: text fields from the stored settings, and back to the
// settings to store, checked as far as the page can (the server checks the rest and names the field). A field left
// empty is not set: the project then follows `llm.defaults`, else the built-in default. Pure functions.
import type { Detector, EffectiveSettings, ProjectSettings } from './llm-api.js';

export interface SettingsDraft {
  /** A plan of llm.plans; empty follows llm.defaults' plan, if any. */
  plan: string;
  monthlyUsd: string;
  sampleRate: string;
  itemsPerMonth: string;
  itemsPerBatch: string;
  bodyBytes: string;
  retention: string;
  /** JSON paths, one a line. */
  jsonFields: string;
  /** The detectors on; null follows the default (all of them, or `llm.defaults`). */
  detect: Detector[] | null;
}

export type DraftField = keyof SettingsDraft;

const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

export function draftOf(settings: ProjectSettings): SettingsDraft {
  return {
    plan: text(settings.plan),
    monthlyUsd: text(settings.budget?.monthly_usd),
    sampleRate: text(settings.budget?.over_budget_sample_rate),
    itemsPerMonth: text(settings.limits?.items_per_month),
    itemsPerBatch: text(settings.limits?.items_per_batch),
    bodyBytes: text(settings.limits?.body_bytes),
    retention: text(settings.retention),
    jsonFields: (settings.redact?.json_fields ?? []).join('\n'),
    detect: settings.redact?.detect ? [...settings.redact.detect] : null,
  };
}

const DECIMAL = /^\d+(?:\.\d+)?$/;
const INTEGER = /^\d+$/;
/** As plugin-sdk/src/units.ts reads sizes (binary units) and durations (no weeks; parts may follow each other). */
const BYTES = /^\d+(?:\.\d+)?\s*(?:[kmgt](?:i?b)?|b)?$/i;
const PLAN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/;

/**
 * The settings to store for `draft`, or the problems by field. Values whose form the page knows are checked here;
 * what only the server knows (the ceiling of body_bytes, a JSON path that does not compile) comes back from it.
 */
export function settingsOf(draft: SettingsDraft): { settings: ProjectSettings } | { problems: Partial<Record<DraftField, string>> } {
  const problems: Partial<Record<DraftField, string>> = {};
  const settings: ProjectSettings = {};
  const budget: NonNullable<ProjectSettings['budget']> = {};
  const limits: NonNullable<ProjectSettings['limits']> = {};
  const t = (s: string) => s.trim();

  if (t(draft.plan)) {
    if (PLAN_NAME.test(t(draft.plan))) settings.plan = t(draft.plan);
    else problems.plan = 'A plan\'s name from llm.plans: letters, digits, dots, dashes and underscores.';
  }
  if (t(draft.monthlyUsd)) {
    if (DECIMAL.test(t(draft.monthlyUsd))) budget.monthly_usd = Number(t(draft.monthlyUsd));
    else problems.monthlyUsd = 'An amount in USD, such as 200 or 49.50.';
  }
  if (t(draft.sampleRate)) {
    const n = Number(t(draft.sampleRate));
    if (DECIMAL.test(t(draft.sampleRate)) && n <= 1) budget.over_budget_sample_rate = n;
    else problems.sampleRate = 'A share from 0 to 1: 0.1 keeps one call in ten.';
  }
  if (t(draft.itemsPerMonth)) {
    if (INTEGER.test(t(draft.itemsPerMonth))) limits.items_per_month = Number(t(draft.itemsPerMonth));
    else problems.itemsPerMonth = 'A whole number of traces.';
  }
  if (t(draft.itemsPerBatch)) {
    const n = Number(t(draft.itemsPerBatch));
    if (INTEGER.test(t(draft.itemsPerBatch)) && n >= 1 && n <= 100_000) limits.items_per_batch = n;
    else problems.itemsPerBatch = 'A whole number from 1 to 100,000.';
  }
  if (t(draft.bodyBytes)) {
    if (BYTES.test(t(draft.bodyBytes))) limits.body_bytes = INTEGER.test(t(draft.bodyBytes)) ? Number(t(draft.bodyBytes)) : t(draft.bodyBytes);
    else problems.bodyBytes = 'A size such as 5mb, 512kb or a number of bytes.';
  }
  if (t(draft.retention)) {
    if (DURATION.test(t(draft.retention))) settings.retention = t(draft.retention);
    else problems.retention = 'A duration such as 30d, 12h or 1d12h.';
  }
  const fields = draft.jsonFields.split('\n').map((l) => l.trim()).filter(Boolean);
  const bad = fields.find((f) => !f.startsWith('$'));
  if (bad) problems.jsonFields = `Each line is a JSON path starting with $, such as $.input.**.email (not ${JSON.stringify(bad)}).`;

  if (Object.keys(problems).length) return { problems };
  if (Object.keys(budget).length) settings.budget = budget;
  if (Object.keys(limits).length) settings.limits = limits;
  if (fields.length || draft.detect) {
    settings.redact = {};
    if (fields.length) settings.redact.json_fields = fields;
    if (draft.detect) settings.redact.detect = [...draft.detect];
  }
  return { settings };
}

/** Bytes in the largest unit that keeps them whole or short: 5 MiB, 512 KiB, 1,000 B. */
export function formatBytes(n: number): string {
  for (const [unit, size] of [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (n >= size) return `${Number((n / size).toFixed(n % size === 0 ? 0 : 1))} ${unit}`;
  }
  return `${n} B`;
}

/** Milliseconds of retention as days or hours. */
export function formatRetention(ms: number): string {
  const days = ms / 86_400_000;
  if (days >= 1 && Number.isInteger(days)) return days === 1 ? '1 day' : `${days} days`;
  const hours = ms / 3_600_000;
  if (hours >= 1) return `${Number(hours.toFixed(1))} h`;
  return `${Math.round(ms / 1000)} s`;
}

/** The settings in force, in words, for a read-only view or a form's placeholders. */
export function effectiveText(e: EffectiveSettings): Record<'plan' | 'budget' | 'sampleRate' | 'itemsPerMonth' | 'itemsPerBatch' | 'bodyBytes' | 'retention', string> {
  return {
    plan: e.plan ?? 'no plan',
    budget: e.monthlyBudgetUsd === null ? 'no cap' : `$${e.monthlyBudgetUsd} a month`,
    sampleRate: `${e.overBudgetSampleRate}`,
    itemsPerMonth: e.itemsPerMonth === null ? 'no limit' : String(e.itemsPerMonth),
    itemsPerBatch: String(e.itemsPerBatch),
    bodyBytes: formatBytes(e.bodyBytes),
    retention: formatRetention(e.retentionMs),
  };
}

/** The server's 400 for settings names the key path (`settings.redact.json_fields.0: …`): the form field it belongs to. */
export function fieldOfProblem(message: string): { field: DraftField; text: string } | null {
  const m = /^settings\.([a-z_.0-9]+): (.*)$/s.exec(message);
  if (!m) return null;
  const fields: [RegExp, DraftField][] = [
    [/^plan/, 'plan'], [/^redact\.json_fields/, 'jsonFields'], [/^retention/, 'retention'], [/^limits\.body_bytes/, 'bodyBytes'],
    [/^limits\.items_per_batch/, 'itemsPerBatch'], [/^limits\.items_per_month/, 'itemsPerMonth'],
    [/^budget\.monthly_usd/, 'monthlyUsd'], [/^budget\.over_budget_sample_rate/, 'sampleRate'],
  ];
  const hit = fields.find(([re]) => re.test(m[1]));
  return hit ? { field: hit[1], text: m[2] } : null;
}
