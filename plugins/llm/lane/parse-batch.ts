import { HttpError, httpError, isJsonContentType } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import { decodeContent } from '../ingest-body.js';
import type { LaneBody } from './lane-types.js';
import { cutElements, scanEnvelope, type EnvelopeProblem } from './scan-envelope.js';
import { timeSlicer } from './time-slice.js';

/** Nesting of arrays and objects a batch body may have: the envelope takes 3, LLM messages rarely 10. */
export const MAX_BODY_DEPTH = 64;

export interface BatchEnvelope {
  /** The array's key: `traces` (native), `batch` (Langfuse). */
  key: string;
  /** Other keys the envelope may carry. */
  otherKeys?: readonly string[];
  /** The 400 for a body that is not the envelope: its code and message. */
  notEnvelope(problem: EnvelopeProblem): HttpError;
}

export interface ParsedBatch {
  /** The body, parsed, with every element past the key bound as `null`. */
  value: Record<string, unknown>;
  /** Elements cut for their size: index → the count of keys and elements reached. */
  cut: Map<number, number>;
  /** Elements the scan found within both bounds (`itemKeys`, and `itemBytes` by their written size): no need to measure them again. */
  within: Set<number>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON batch body as the lane parses it: 415 for another media type or encoding, 413 past `limits.bodyBytes`
 * (sent or inflated) or past `limits.maxElements`, 400 for bytes that are not gzip, UTF-8 or JSON, nest deeper than
 * `MAX_BODY_DEPTH`, or are not the envelope. Elements with more than `limits.itemKeys` keys and array elements are
 * cut before parsing (scan-envelope.ts): the caller rejects them one by one.
 */
export async function parseBatchBody(body: LaneBody, envelope: BatchEnvelope, limits: { bodyBytes: number; itemKeys: number; itemBytes: number; maxElements?: number; what?: string }): Promise<ParsedBatch> {
  if (!isJsonContentType(body.contentType)) {
    const got = body.contentType;
    throw httpError(LlmErrors.CONTENT_TYPE, `send the batch as "Content-Type: application/json"${got ? `, not ${JSON.stringify(got)}` : ''}`);
  }
  const raw = Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength);
  const bytes = await decodeContent(raw, body.contentEncoding, limits.bodyBytes);
  const scan = await scanEnvelope(bytes, envelope.key, { maxDepth: MAX_BODY_DEPTH, maxKeys: limits.itemKeys, ...(envelope.otherKeys ? { otherKeys: envelope.otherKeys } : {}) }, timeSlicer());
  if (scan.problem?.kind === 'too-deep') throw httpError(LlmErrors.TOO_DEEP, `the body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels`);
  if (scan.problem?.kind === 'not-utf8') throw httpError(LlmErrors.BODY, 'the body is not valid UTF-8');
  if (scan.problem) throw envelope.notEnvelope(scan.problem);
  if (limits.maxElements !== undefined && scan.elements.length > limits.maxElements) {
    throw httpError(LlmErrors.BATCH_TOO_LARGE, `the batch holds ${scan.elements.length} items; ${limits.what ?? 'the project'} takes at most ${limits.maxElements} per request`);
  }
  const cut = new Map<number, number>();
  const within = new Set<number>();
  scan.elements.forEach((e, index) => {
    if (e.keys > limits.itemKeys) cut.set(index, e.keys);
    else if (e.bytes <= limits.itemBytes) within.add(index);
  });
  let text: string;
  try {
    text = utf8.decode(cutElements(bytes, scan.elements, new Set(cut.keys())));
  } catch {
    throw httpError(LlmErrors.BODY, 'the body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw httpError(LlmErrors.BODY, `the body is not valid JSON: ${(err as Error).message}`);
  }
  // The scan saw an object at the top; a body it could not follow (a syntax error it skipped) ends here.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw envelope.notEnvelope({ kind: 'not-object' });
  return { value: value as Record<string, unknown>, cut, within };
}
