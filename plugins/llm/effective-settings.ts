import { parseByteSize, parseDuration } from '@vigil/plugin-sdk';
import { DETECTOR_KINDS } from '../../policies/detectors/types.js';
import type { EffectiveSettings, ProjectSettings } from './types.js';

/** Defaults of every setting neither the project nor `llm.defaults` sets. */
export const BUILTIN_DEFAULTS = {
  overBudgetSampleRate: 0.1,
  itemsPerBatch: 1000,
  bodyBytes: 5 * 1024 * 1024,
  retentionMs: 30 * 86_400_000,
} as const;

/**
 * A project's settings in force: each key from the project, else from `llm.defaults`, else built in. The body limit
 * never passes `maxBodyBytes` (the ingest route's own bound, which is read before the project is known).
 * Detectors default to all of them: a project that says nothing about redaction stores nothing that looks like a
 * card number, a key or an e-mail address.
 */
export function effectiveSettings(own: ProjectSettings, defaults: ProjectSettings, maxBodyBytes: number): EffectiveSettings {
  const pick = <K extends keyof ProjectSettings, F extends string>(group: K, field: F): unknown =>
    (own[group] as Record<string, unknown> | undefined)?.[field] ?? (defaults[group] as Record<string, unknown> | undefined)?.[field];
  const body = pick('limits', 'body_bytes');
  const retention = own.retention ?? defaults.retention;
  return {
    monthlyBudgetUsd: (pick('budget', 'monthly_usd') as number | undefined) ?? null,
    overBudgetSampleRate: (pick('budget', 'over_budget_sample_rate') as number | undefined) ?? BUILTIN_DEFAULTS.overBudgetSampleRate,
    itemsPerMonth: (pick('limits', 'items_per_month') as number | undefined) ?? null,
    itemsPerBatch: (pick('limits', 'items_per_batch') as number | undefined) ?? BUILTIN_DEFAULTS.itemsPerBatch,
    bodyBytes: Math.min(body === undefined ? BUILTIN_DEFAULTS.bodyBytes : parseByteSize(body), maxBodyBytes),
    redact: {
      json_fields: [...((pick('redact', 'json_fields') as string[] | undefined) ?? [])],
      detect: [...((pick('redact', 'detect') as EffectiveSettings['redact']['detect'] | undefined) ?? DETECTOR_KINDS)],
    },
    retentionMs: retention === undefined ? BUILTIN_DEFAULTS.retentionMs : parseDuration(retention),
  };
}
