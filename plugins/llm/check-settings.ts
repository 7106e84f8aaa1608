import { tryParseByteSize, tryParseDuration } from '@vigil/plugin-sdk';
import { compileJsonPath } from '../../policies/compile-json-path.js';
import { PolicyError } from '../../policies/errors.js';
import type { PlanSettings, ProjectSettings } from './types.js';

/** A problem with a project's settings: where (a key path inside the settings) and what. */
export interface SettingsProblem {
  path: (string | number)[];
  message: string;
}

/**
 * What the settings schema cannot see: redaction paths that do not compile, durations and sizes that do not parse
 * (the dashboard's body validator knows no `duration` format), a body limit over `maxBodyBytes`. Null when fine.
 */
export function settingsProblem(settings: ProjectSettings | PlanSettings, maxBodyBytes: number): SettingsProblem | null {
  for (const [i, path] of (('redact' in settings ? settings.redact?.json_fields : undefined) ?? []).entries()) {
    try {
      compileJsonPath(path, `redact.json_fields[${i}]`);
    } catch (err) {
      if (err instanceof PolicyError) return { path: ['redact', 'json_fields', i], message: err.detail };
      throw err;
    }
  }
  if (settings.retention !== undefined && tryParseDuration(settings.retention) === undefined) {
    return { path: ['retention'], message: `${JSON.stringify(settings.retention)} is not a duration (e.g. 30d, 12h)` };
  }
  const body = settings.limits?.body_bytes;
  if (body !== undefined) {
    const bytes = tryParseByteSize(body);
    if (bytes === undefined) return { path: ['limits', 'body_bytes'], message: `${JSON.stringify(body)} is not a size (e.g. 1mb, 512kb)` };
    if (bytes > maxBodyBytes) return { path: ['limits', 'body_bytes'], message: `${bytes} bytes is more than llm.max_body_bytes (${maxBodyBytes})` };
  }
  const itemBytes = settings.limits?.item_bytes;
  if (itemBytes !== undefined && tryParseByteSize(itemBytes) === undefined) {
    return { path: ['limits', 'item_bytes'], message: `${JSON.stringify(itemBytes)} is not a size (e.g. 1mb, 512kb)` };
  }
  return null;
}

/** A `plan` that `llm.plans` does not have: the names there are, or how to add one. Null when fine or unset. */
export function planProblem(settings: ProjectSettings, plans: Readonly<Record<string, PlanSettings>>): SettingsProblem | null {
  if (settings.plan === undefined || Object.hasOwn(plans, settings.plan)) return null;
  const names = Object.keys(plans);
  return {
    path: ['plan'],
    message: `there is no plan "${settings.plan}" in llm.plans (${names.length ? `plans: ${names.join(', ')}` : 'it declares none; add one under llm.plans'})`,
  };
}
