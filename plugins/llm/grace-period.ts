import { httpError, tryParseDuration } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';

/** A rotation's grace period in ms: a duration (24h, 7d) or ms; absent is 0 (the old keys stop now). */
export function graceMs(value: unknown): number {
  if (value === undefined) return 0;
  const ms = tryParseDuration(value);
  if (ms === undefined) throw httpError(LlmErrors.PROJECT_SETTINGS, `grace ${JSON.stringify(value)} is not a duration (e.g. 24h, 7d)`);
  return ms;
}
