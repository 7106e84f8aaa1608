// The body of POST /api/gateway/records, read in a capture worker: the control plane hands the route its bytes
// unparsed, so parsing and checking up to 16 MiB of records never holds the event loop.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { GovernedRecord } from './governed-record.js';
import { sentBodyTexts, type SentBodyTexts } from './ingest-body-texts.js';
import { futureRecord, ingestBodySchema } from './ingest-record-schema.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const ajv = new Ajv2020({ strict: false, allErrors: false, logger: false });
// Compiled on a thread's first batch, not when the pool starts.
let validate: ValidateFunction | undefined;

/** `/records/3/status` → `body.records[3].status`, as the control plane names a bad key of a JSON body. */
function keyPath(pointer: string, extra?: string): string {
  const parts = pointer === '' ? [] : pointer.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let out = 'body';
  for (const p of parts) {
    if (/^\d+$/.test(p)) out += `[${p}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(p)) out += `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `${keyPath(error.instancePath, String(params.additionalProperty))} is not allowed (unknown key)`;
  if (error.keyword === 'required') return `${keyPath(error.instancePath, String(params.missingProperty))} is required`;
  return `${keyPath(error.instancePath)} ${error.message ?? 'is invalid'}`;
}

/**
 * The records of an ingest body, or why it is refused whole (the first problem: bytes, JSON, the key path, or a
 * record dated ahead of the server's clock); with the text of each record's bodies as sent (null when it could not
 * be cut out: the parsed values are serialised instead).
 */
export function readIngestBody(bytes: Uint8Array, now = Date.now()): { records: GovernedRecord[]; bodyTexts: SentBodyTexts[] | null } | { invalid: string } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { invalid: 'request body is not valid UTF-8' };
  }
  if (text.length === 0) return { invalid: 'invalid request body: a JSON body is required' };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return { invalid: `request body is not valid JSON: ${(err as Error).message}` };
  }
  validate ??= ajv.compile(ingestBodySchema);
  if (!validate(body)) return { invalid: `invalid request body: ${describe(validate.errors![0])}` };
  const records = (body as { records: GovernedRecord[] }).records;
  const ahead = futureRecord(records, now);
  if (ahead) return { invalid: `invalid request body: ${ahead.message}` };
  const bodyTexts = sentBodyTexts(text);
  return { records, bodyTexts: bodyTexts?.length === records.length ? bodyTexts : null };
}
