// What the response panel shows of a body, and the values a flow step takes from it. Pure functions over one body:
// run on the event loop for small bodies and in the worker above SMALL_BODY (their cost grows with the body).
import type { Extraction } from './types.js';

/** Bodies up to this many bytes are viewed on the event loop (a JSON parse of 64 KiB takes well under a millisecond). */
export const SMALL_BODY = 64 * 1024;

export interface BodyView {
  /** The body as text, cut at `displayBytes` (on a character boundary). */
  text: string;
  /** JSON bodies pretty-printed (indent 2), when the whole body was read and parsed; else null. */
  pretty: string | null;
  /** True when the bytes are not text (a NUL in the first 8 KiB): `text` is then empty. */
  binary: boolean;
  shown_bytes: number;
}

export interface ViewTask { body: Uint8Array; contentType: string; complete: boolean; displayBytes: number; extract: Extraction[]; headers: [string, string][]; status: number }
export interface ViewResult { view: BodyView; extracted: Record<string, string>; failed: string[] }

const looksJson = (contentType: string, text: string): boolean => /[/+]json\b/i.test(contentType) || /^\s*[[{]/.test(text);

/** A value at a path such as `$.data.items[0].id` or `data.items.0.id`; undefined where the path leads nowhere. */
export function valueAt(root: unknown, path: string): unknown {
  const parts = path.replace(/^\$\.?/, '').replace(/\[(\d+|'[^']*'|"[^"]*")\]/g, (_, k: string) => `.${k.replace(/^['"]|['"]$/g, '')}`).split('.').filter(Boolean);
  let at: unknown = root;
  for (const part of parts) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

export function viewBody(t: ViewTask): ViewResult {
  const bytes = Buffer.from(t.body.buffer, t.body.byteOffset, t.body.byteLength);
  const binary = bytes.subarray(0, 8192).includes(0);
  const full = binary ? '' : bytes.toString('utf8');
  let parsed: unknown;
  let isJson = false;
  if (!binary && t.complete && looksJson(t.contentType, full)) {
    try {
      parsed = JSON.parse(full);
      isJson = true;
    } catch { /* not JSON after all: shown as text */ }
  }
  let shown = binary ? 0 : Math.min(bytes.length, t.displayBytes);
  // Cut on a character boundary: back up over UTF-8 continuation bytes.
  while (shown > 0 && shown < bytes.length && (bytes[shown] & 0xc0) === 0x80) shown--;
  const text = shown === bytes.length ? full : bytes.subarray(0, shown).toString('utf8');
  let pretty: string | null = null;
  if (isJson) {
    const p = JSON.stringify(parsed, null, 2);
    pretty = p.length <= t.displayBytes * 2 ? p : null;
  }
  const extracted: Record<string, string> = {};
  const failed: string[] = [];
  for (const e of t.extract) {
    let value: unknown;
    if (e.from === 'status') value = String(t.status);
    else if (e.from === 'header') value = t.headers.find(([n]) => n.toLowerCase() === e.path.trim().toLowerCase())?.[1];
    else value = isJson ? valueAt(parsed, e.path) : undefined;
    if (value === undefined || value === null) failed.push(e.variable);
    else extracted[e.variable] = asText(value);
  }
  return { view: { text, pretty, binary, shown_bytes: shown }, extracted, failed };
}
