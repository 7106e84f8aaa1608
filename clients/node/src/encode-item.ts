/**
 * One trace item as the JSON text that goes into a batch, at most `maxBytes` bytes. Items are encoded once, when
 * recorded: the buffer then counts exact bytes, and a retried batch is re-sent without serialising again.
 *
 * An item over the limit is shrunk where the bulk is, in the free-form fields (input, output, metadata, the template's
 * variables): their strings are cut to ever shorter lengths, each cut ending with a `…[truncated N chars]` marker. If
 * that is not enough (say, a million small numbers), each such field becomes `{ "truncated": true, "bytes": N,
 * "preview": "…" }`. A template's raw text is never cut, since the server versions templates by its hash: a template
 * too large to fit is left out instead. Model, tokens, ids and timings are never cut.
 */
import { toSafeJson, DEFAULT_LIMITS } from './safe-json.js';
import type { TraceItem } from './trace-item.js';

export interface EncodedItem {
  id: string;
  json: string;
  /** UTF-8 bytes of `json`. */
  bytes: number;
}

const PREVIEW_CHARS = 1024;
const STRING_CUTS = [64 * 1024, 8 * 1024, 1024, 256];

function encoded(item: TraceItem): EncodedItem {
  const json = JSON.stringify(item);
  return { id: item.id!, json, bytes: Buffer.byteLength(json) };
}

function marker(value: unknown): { truncated: true; bytes: number; preview: string } {
  const text = JSON.stringify(value) ?? '';
  return { truncated: true, bytes: Buffer.byteLength(text), preview: text.slice(0, PREVIEW_CHARS) };
}

/** The item's JSON within `maxBytes`, truncating its free-form fields as needed (see above). */
export function encodeItem(item: TraceItem, maxBytes: number): EncodedItem {
  let out = encoded(item);
  if (out.bytes <= maxBytes) return out;

  for (const maxString of STRING_CUTS) {
    const limits = { ...DEFAULT_LIMITS, maxString };
    const cut: TraceItem = { ...item };
    if (item.input !== undefined) cut.input = toSafeJson(item.input, limits);
    if (item.output !== undefined) cut.output = toSafeJson(item.output, limits);
    if (item.metadata) cut.metadata = toSafeJson(item.metadata, limits) as Record<string, unknown>;
    if (item.prompt_template?.variables) {
      cut.prompt_template = { ...item.prompt_template, variables: toSafeJson(item.prompt_template.variables, limits) as Record<string, unknown> };
    }
    out = encoded(cut);
    if (out.bytes <= maxBytes) return out;
  }

  const replaced: TraceItem = { ...item };
  if (item.input !== undefined) replaced.input = marker(item.input);
  if (item.output !== undefined) replaced.output = marker(item.output);
  if (item.metadata) replaced.metadata = { truncated: true, bytes: marker(item.metadata).bytes };
  if (item.prompt_template?.variables) replaced.prompt_template = { ...item.prompt_template, variables: { truncated: true } };
  out = encoded(replaced);
  if (out.bytes <= maxBytes || !replaced.prompt_template) return out;
  delete replaced.prompt_template;
  // Whatever is still over (an enormous name or tag list) goes as is: a 413 then drops this one item and says so.
  return encoded(replaced);
}
