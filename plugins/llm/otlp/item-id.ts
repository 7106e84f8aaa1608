/**
 * Trace item ids derived from the sender's ids, so that a retried export (OTLP exporters retry whole requests) or a
 * re-sent Langfuse event stores nothing twice: the persist stage is idempotent by item id.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';

// A fixed namespace for Vigil's name-based UUIDs (RFC 9562 version 5): changing it would change every derived id.
const NAMESPACE = Buffer.from('6f1c1e0a5b2d4f3e9c8a7b6d5e4f3a2b', 'hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A version 5 UUID of `name` in Vigil's namespace: the same name always gives the same UUID. */
export function nameBasedUuid(name: string): string {
  const h = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.toString('hex', 0, 16);
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** The item id of an OTLP span: from its trace and span ids (lowercase hex). */
export const spanItemId = (traceId: string, spanId: string): string => nameBasedUuid(`otlp:${traceId}:${spanId}`);

/** A sender's id kept when it already is a UUID (the Langfuse SDKs make UUIDs), derived from it otherwise. */
export const uuidFor = (id: string, source: string): string => (UUID.test(id) ? id.toLowerCase() : nameBasedUuid(`${source}:${id}`));
