// What one replayed request's answer says against the stored one: the same, changed (status, or with --diff shape
// the JSON shape of the body), or an error (no answer).
import { isJsonContentType } from '@vigil/plugin-sdk';
import type { GovernedRecord } from '../../../gateway/records/governed-record.js';
import { bodyShape, diffShapes, jsonShape, type ShapeChange } from './json-shape.js';
import { REDACTED, type StoredRecord } from './replay-plan.js';
import type { SendOutcome } from './replay-send.js';

export type Comparison =
  | { outcome: 'same'; status: number; shapeChecked: boolean }
  /** A different status: the shape is not compared then (an error page against a document says nothing more). */
  | { outcome: 'changed'; kind: 'status'; storedStatus: number; status: number }
  | { outcome: 'changed'; kind: 'shape'; storedStatus: number; status: number; shape: ShapeChange[] }
  | { outcome: 'error'; kind: 'timeout' | 'connection_error' | 'invalid_request'; detail: string };

export function compare(record: StoredRecord, sent: SendOutcome, diffShape: boolean, method: string): Comparison {
  if (!sent.ok) return { outcome: 'error', kind: sent.error, detail: sent.detail };
  const storedStatus = Number(record.status ?? 0);
  if (sent.status !== storedStatus) return { outcome: 'changed', kind: 'status', storedStatus, status: sent.status };
  const stored = diffShape && method !== 'HEAD' && !sent.unreadable ? storedJsonBody(record) : undefined;
  if (stored === undefined) return { outcome: 'same', status: sent.status, shapeChecked: false };
  const changes = diffShapes(jsonShape(stored, REDACTED), bodyShape(sent.body));
  return changes.length === 0
    ? { outcome: 'same', status: sent.status, shapeChecked: true }
    : { outcome: 'changed', kind: 'shape', storedStatus, status: sent.status, shape: changes };
}

/**
 * The stored response body when its shape can be compared, else undefined: it was kept (sampled, not restricted or
 * dropped), whole (neither body of the record was cut), and JSON (a JSON Content-Type, or a parsed document where
 * the headers were not kept; a string under a JSON type is a body that failed to parse, stored as text).
 */
function storedJsonBody(record: StoredRecord): unknown {
  const body = (record as Partial<GovernedRecord>).response_body;
  if (body === null || body === undefined || record.truncated === true || record.partial === true || record.sampled === false) return undefined;
  const headers = record.response_headers ?? null;
  if (headers === null) return typeof body === 'object' ? body : undefined;
  const typeName = Object.keys(headers).find((n) => n.toLowerCase() === 'content-type');
  const type = typeName === undefined ? undefined : String([headers[typeName]].flat()[0]);
  return isJsonContentType(type) && typeof body !== 'string' ? body : undefined;
}
