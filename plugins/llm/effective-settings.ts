import { parseByteSize, parseDuration } from '@vigil/plugin-sdk';
import { DETECTOR_KINDS } from '../../policies/detectors/types.js';
import { DEFAULT_ITEM_BOUNDS } from './lane/item-bounds.js';
import type { EffectiveSettings, PlanSettings, ProjectSettings } from './types.js';

/** Defaults of every setting neither the project nor `llm.defaults` sets. */
export const BUILTIN_DEFAULTS = {
  overBudgetSampleRate: 0.1,
  itemsPerBatch: 1000,
  bodyBytes: 5 * 1024 * 1024,
  retentionMs: 30 * 86_400_000,
} as const;

/**
 * A project's settings in force: each key from the project, else from its plan (its own `plan`, else the defaults'),
 * else from `llm.defaults`, else built in. A plan name `plans` lacks (removed from the config since) is no plan. The body limit
 * never passes `maxBodyBytes` (the ingest route's own bound, which is read before the project is known).
 * Detectors default to all of them: a project that says nothing about redaction stores nothing that looks like a
 * card number, a key or an e-mail address.
 */
export function effectiveSettings(own: ProjectSettings, defaults: ProjectSettings, maxBodyBytes: number,
  plans: Readonly<Record<string, PlanSettings>> = {}): EffectiveSettings {
  const planName = own.plan ?? defaults.plan;
  const plan: PlanSettings = (planName !== undefined && Object.hasOwn(plans, planName) ? plans[planName] : undefined) ?? {};
  const field = (from: ProjectSettings | PlanSettings, group: 'limits' | 'budget', name: string): unknown =>
    (from[group] as Record<string, unknown> | undefined)?.[name];
  const pick = (group: 'limits' | 'budget' | 'redact', name: string): unknown => group === 'redact'
    ? (own.redact as Record<string, unknown> | undefined)?.[name] ?? (defaults.redact as Record<string, unknown> | undefined)?.[name]
    : field(own, group, name) ?? field(plan, group, name) ?? field(defaults, group, name);
  const body = pick('limits', 'body_bytes');
  const itemBytes = pick('limits', 'item_bytes');
  const bodyBytes = Math.min(body === undefined ? BUILTIN_DEFAULTS.bodyBytes : parseByteSize(body), maxBodyBytes);
  const retention = own.retention ?? plan.retention ?? defaults.retention;
  return {
    plan: planName !== undefined && Object.hasOwn(plans, planName) ? planName : null,
    monthlyBudgetUsd: (pick('budget', 'monthly_usd') as number | undefined) ?? null,
    overBudgetSampleRate: (pick('budget', 'over_budget_sample_rate') as number | undefined) ?? BUILTIN_DEFAULTS.overBudgetSampleRate,
    itemsPerMonth: (pick('limits', 'items_per_month') as number | undefined) ?? null,
    itemsPerBatch: (pick('limits', 'items_per_batch') as number | undefined) ?? BUILTIN_DEFAULTS.itemsPerBatch,
    bodyBytes,
    itemKeys: (pick('limits', 'item_keys') as number | undefined) ?? DEFAULT_ITEM_BOUNDS.keys,
    itemBytes: Math.min(itemBytes === undefined ? DEFAULT_ITEM_BOUNDS.bytes : parseByteSize(itemBytes), bodyBytes),
    redact: {
      json_fields: [...((pick('redact', 'json_fields') as string[] | undefined) ?? [])],
      detect: [...((pick('redact', 'detect') as EffectiveSettings['redact']['detect'] | undefined) ?? DETECTOR_KINDS)],
    },
    retentionMs: retention === undefined ? BUILTIN_DEFAULTS.retentionMs : parseDuration(retention),
  };
}
