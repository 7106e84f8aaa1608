import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { governJsonText, MAX_JSON_DEPTH, type JsonTextPlan } from '../../policies/json-text.js';
import { headerValues } from './header-record.js';

/** A captured body made readable, or the reason it cannot be stored. */
export type DecodedBody =
  | { readonly kind: 'empty' }
  /** `text` is the body's JSON text, validated, with `json`'s redactions applied; `number` is what it read. */
  | { readonly kind: 'json'; readonly text: string; readonly number: number | null }
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'dropped'; readonly reason: string };

export interface DecodeOptions {
  /** A `json_fields` redaction applies: anything short of a complete, parsed JSON value must not be stored. */
  jsonRequired: boolean;
  /** Bound on the decompressed size, in bytes. */
  maxDecodedBytes: number;
  /** What to redact and read in a JSON body while it is validated (none by default). */
  json?: JsonTextPlan;
  /**
   * The body was cut short on the wire, not at the capture limit (pass `truncated` too): the reasons say so, and it
   * is never parsed as a whole document.
   */
  incomplete?: boolean;
}

export const DEFAULT_MAX_DECODED_BYTES = 8 * 1024 * 1024;

const EMPTY: DecodedBody = Object.freeze({ kind: 'empty' });
const JSON_REQUIRED = ' where json_fields redaction applies';
const INCOMPLETE = 'incomplete: cut short on the wire';

// Stored as text they would be noise at best; at worst they hold data no redaction rule can see into.
const BINARY_TYPE = /^(?:image|audio|video|font)\/|^application\/(?:octet-stream|pdf|zip|gzip|x-gzip|x-tar|x-7z-compressed|x-protobuf|protobuf|vnd\.google\.protobuf|grpc(?:\+[a-z]+)?|msgpack|x-msgpack|cbor|wasm)$/;
const JSON_TYPE = /^application\/(?:json|[a-z0-9.+-]+\+json)$|^text\/json$/;

/**
 * Decodes a bounded copy of a body by its headers: content-encoding (gzip, deflate, br; several in sequence),
 * content-type and charset. With the headers restricted (`rawHeaders` null) the encoding is sniffed (gzip magic)
 * and the type guessed.
 *
 * A JSON body is validated, redacted and metered by `options.json` in one pass over its text (policies/json-text.ts).
 *
 * Fails closed: when `jsonRequired`, a body that is truncated (or incomplete), undecodable, not UTF-8 or not JSON comes back as
 * `dropped`, never as text that might hold what should have been redacted.
 * Binary content is never stored (`dropped`, reason names the type).
 */
export function decodeBody(
  bytes: Uint8Array | null,
  rawHeaders: readonly string[] | null,
  truncated: boolean,
  options: DecodeOptions,
): DecodedBody {
  if (!bytes || bytes.length === 0) return EMPTY;
  const { jsonRequired } = options;
  const suffix = jsonRequired ? JSON_REQUIRED : '';
  const cut = options.incomplete ? INCOMPLETE : 'truncated at capture limit';
  if (truncated && jsonRequired) return dropped(`${cut}${JSON_REQUIRED}`);

  const contentType = headerValues(rawHeaders, 'content-type')[0] ?? '';
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  const encodings = rawHeaders
    ? headerValues(rawHeaders, 'content-encoding').join(',').split(',').map((e) => e.trim().toLowerCase()).filter((e) => e !== '' && e !== 'identity')
    : bytes[0] === 0x1f && bytes[1] === 0x8b ? ['gzip'] : [];

  let data = bytes;
  if (encodings.length > 0) {
    if (truncated) return dropped(`${cut}, and a ${encodings.join(', ')}-encoded body cannot be decoded in part`);
    const decoded = decompress(bytes, encodings, options.maxDecodedBytes);
    if (typeof decoded === 'string') return dropped(decoded + suffix);
    data = decoded;
  }
  if (BINARY_TYPE.test(mediaType)) return dropped(`binary content (${mediaType}) is not stored`);

  const charset = charsetOf(contentType);
  const text = decodeText(data, charset, truncated);
  if (text === null) return dropped(`invalid ${charset ?? 'UTF-8'} text${suffix}`);
  const declaredJson = JSON_TYPE.test(mediaType);
  // JSON (declared or required) is validated below, where a raw NUL is malformed; only other text is scanned here.
  if (!declaredJson && !jsonRequired && text.includes('\u0000')) {
    return dropped(`binary content (${mediaType || 'no content-type'}) is not stored`);
  }

  // Truncated text is never parsed: a cut prefix can parse (`12` from `1234`) and would be stored as a lie.
  if (!truncated && (declaredJson || jsonRequired || (mediaType === '' && looksLikeJson(text)))) {
    const json = governJsonText(text, options.json);
    if (json.ok) return { kind: 'json', text: json.text, number: json.number };
    if (jsonRequired) {
      if (json.reason === 'too-deep') return dropped(`JSON nested deeper than ${MAX_JSON_DEPTH} levels${suffix}`);
      return dropped(declaredJson ? `malformed JSON${suffix}` : `non-JSON content (${mediaType || 'no content-type'})${suffix}`);
    }
    // Not JSON after all, or nested too deep to walk: as text it is harmless, since no redaction needs to see into it.
  }
  return { kind: 'text', value: text };
}

function dropped(reason: string): DecodedBody {
  return { kind: 'dropped', reason };
}

function looksLikeJson(text: string): boolean {
  const c = text.trimStart()[0];
  return c === '{' || c === '[';
}

function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  const cs = m?.[1].toLowerCase();
  return cs === undefined || cs === 'utf-8' || cs === 'utf8' || cs === 'us-ascii' ? undefined : cs;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Null when the bytes are not valid text in the charset. A truncated body may end mid-character: that tail is dropped. */
function decodeText(data: Uint8Array, charset: string | undefined, truncated: boolean): string | null {
  let decoder = utf8;
  if (charset !== undefined) {
    try {
      decoder = new TextDecoder(charset, { fatal: true });
    } catch {
      return null;
    }
  }
  try {
    // `stream: true` holds back an incomplete final sequence instead of failing on it.
    return truncated ? decoder.decode(data, { stream: true }) : decoder.decode(data);
  } catch {
    return null;
  } finally {
    if (truncated) try { decoder.decode(); } catch { /* resets the decoder's held-back bytes */ }
  }
}

/** Undoes the encodings (listed in the order they were applied). Returns a reason string on failure. */
function decompress(bytes: Uint8Array, encodings: readonly string[], max: number): Uint8Array | string {
  let data: Uint8Array = bytes;
  for (let i = encodings.length - 1; i >= 0; i--) {
    const encoding = encodings[i];
    try {
      if (encoding === 'gzip' || encoding === 'x-gzip') data = gunzipSync(data, { maxOutputLength: max });
      else if (encoding === 'br') data = brotliDecompressSync(data, { maxOutputLength: max });
      else if (encoding === 'deflate') data = inflateDeflate(data, max);
      else return `unsupported content-encoding ${encoding}`;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return `decoded body exceeds ${max} bytes`;
      return `undecodable ${encoding} content (${(err as Error).message})`;
    }
  }
  return data;
}

// HTTP `deflate` is meant to be zlib-wrapped, but some servers send raw deflate; accept both.
function inflateDeflate(data: Uint8Array, max: number): Uint8Array {
  try {
    return inflateSync(data, { maxOutputLength: max });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw err;
    return inflateRawSync(data, { maxOutputLength: max });
  }
}
