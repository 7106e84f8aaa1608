import { createHash } from 'node:crypto';

/**
 * Whether a definition evaluates a trace: the first 32 bits of SHA-256(definition id, NUL, trace id), read as a
 * fraction of 2^32, fall below `rate`. Deterministic, so a replay or a second process picks the same traces, and
 * independent per definition, so two definitions at 0.1 do not pick the same tenth.
 */
export function sampled(definitionId: string, traceId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (!(rate > 0)) return false;
  const digest = createHash('sha256').update(definitionId).update('\u0000').update(traceId).digest();
  return digest.readUInt32BE(0) / 2 ** 32 < rate;
}
