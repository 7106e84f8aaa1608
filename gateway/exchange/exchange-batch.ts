import type { RawExchange } from './raw-exchange.js';

/**
 * A batch of raw exchanges packed for the trip to a capture worker: every string in one text, every number in one
 * array, every body in one buffer. The two buffers are moved to the worker, not copied, and the text is copied
 * in one piece. Cloning the exchanges as objects costs several times more on both threads (one allocation per
 * field, per header, per body on each side); on the telemetry lane that cost is paid per request.
 *
 * Strings are delimited by their lengths, never by a separator character, so no header value or target can
 * shift a field into its neighbour. `heldBytes` stays behind: the budget is the main thread's.
 */
export interface PackedExchanges {
  readonly count: number;
  readonly text: string;
  readonly numbers: Float64Array;
  readonly bodies: Uint8Array;
}

const REQUEST_TRUNCATED = 1;
const RESPONSE_TRUNCATED = 2;
const HAS_REQUEST_BODY = 4;
const HAS_RESPONSE_BODY = 8;
const HAS_REQUEST_HEADERS = 16;
const HAS_RESPONSE_HEADERS = 32;
const HAS_ERROR = 64;
const REQUEST_INCOMPLETE = 128;
const RESPONSE_INCOMPLETE = 256;
const REQUEST_BODY_DROPPED = 512;
const RESPONSE_BODY_DROPPED = 1024;

/** Numbers per exchange besides one length per string: time, duration, status, flags, two body lengths, and counts. */
const FIXED_NUMBERS = 10;

export function packExchanges(exchanges: readonly RawExchange[]): PackedExchanges {
  let numberCount = 0;
  let byteCount = 0;
  for (const e of exchanges) {
    const strings = 4 + 2 * Object.keys(e.labels).length + (e.requestHeaders?.length ?? 0) + (e.responseHeaders?.length ?? 0)
      + (e.error === undefined ? 0 : 1);
    numberCount += FIXED_NUMBERS + e.ruleIndexes.length + strings;
    byteCount += (e.requestBody?.byteLength ?? 0) + (e.responseBody?.byteLength ?? 0);
  }
  const numbers = new Float64Array(numberCount);
  const bodies = new Uint8Array(byteCount);
  // Concatenated, not joined: once a header name has served as a property key, V8 has turned it into a ThinString,
  // and Array.prototype.join (Node 20) then builds a two-byte text from one-byte parts. Every string the worker
  // slices from that text is two-byte too, and so is the record it stores: twice the bytes to clone, ICU to lowercase
  // a header name, a slower UTF-8 conversion to bind. A rope of `+=` flattens to one byte per character
  // (bench/govern-stages.ts measures the worker's stages).
  let text = '';
  let n = 0;
  let b = 0;
  const addString = (s: string) => { text += s; numbers[n++] = s.length; };
  for (const e of exchanges) {
    const labels = Object.keys(e.labels);
    numbers[n++] = e.time;
    numbers[n++] = e.durationMs;
    numbers[n++] = e.status;
    numbers[n++] = (e.requestTruncated ? REQUEST_TRUNCATED : 0) | (e.responseTruncated ? RESPONSE_TRUNCATED : 0)
      | (e.requestBody ? HAS_REQUEST_BODY : 0) | (e.responseBody ? HAS_RESPONSE_BODY : 0)
      | (e.requestHeaders ? HAS_REQUEST_HEADERS : 0) | (e.responseHeaders ? HAS_RESPONSE_HEADERS : 0)
      | (e.error === undefined ? 0 : HAS_ERROR)
      | (e.requestIncomplete ? REQUEST_INCOMPLETE : 0) | (e.responseIncomplete ? RESPONSE_INCOMPLETE : 0)
      | (e.requestBodyDropped ? REQUEST_BODY_DROPPED : 0) | (e.responseBodyDropped ? RESPONSE_BODY_DROPPED : 0);
    numbers[n++] = e.requestBody?.byteLength ?? 0;
    numbers[n++] = e.responseBody?.byteLength ?? 0;
    numbers[n++] = e.ruleIndexes.length;
    for (const i of e.ruleIndexes) numbers[n++] = i;
    numbers[n++] = labels.length;
    numbers[n++] = e.requestHeaders?.length ?? 0;
    numbers[n++] = e.responseHeaders?.length ?? 0;
    addString(e.id);
    addString(e.method);
    addString(e.target);
    addString(e.path);
    for (const name of labels) { addString(name); addString(e.labels[name]); }
    if (e.requestHeaders) for (const s of e.requestHeaders) addString(s);
    if (e.responseHeaders) for (const s of e.responseHeaders) addString(s);
    if (e.error !== undefined) addString(e.error);
    if (e.requestBody) { bodies.set(e.requestBody, b); b += e.requestBody.byteLength; }
    if (e.responseBody) { bodies.set(e.responseBody, b); b += e.responseBody.byteLength; }
  }
  return { count: exchanges.length, text, numbers, bodies };
}

/** The exchanges of a packed batch. Bodies are views into the batch's buffer, not copies. */
export function unpackExchanges(packed: PackedExchanges): RawExchange[] {
  const { text, numbers, bodies } = packed;
  const out: RawExchange[] = new Array(packed.count);
  let n = 0;
  let t = 0;
  let b = 0;
  const nextString = () => {
    const length = numbers[n++];
    const s = text.slice(t, t + length);
    t += length;
    return s;
  };
  const nextStrings = (count: number) => {
    const list = new Array<string>(count);
    for (let i = 0; i < count; i++) list[i] = nextString();
    return list;
  };
  for (let k = 0; k < packed.count; k++) {
    const time = numbers[n++];
    const durationMs = numbers[n++];
    const status = numbers[n++];
    const flags = numbers[n++];
    const requestLength = numbers[n++];
    const responseLength = numbers[n++];
    const ruleIndexes = new Array<number>(numbers[n++]);
    for (let i = 0; i < ruleIndexes.length; i++) ruleIndexes[i] = numbers[n++];
    const labelCount = numbers[n++];
    const requestHeaderCount = numbers[n++];
    const responseHeaderCount = numbers[n++];
    const id = nextString();
    const method = nextString();
    const target = nextString();
    const path = nextString();
    const labels: Record<string, string> = {};
    for (let i = 0; i < labelCount; i++) {
      const name = nextString();
      const value = nextString();
      // A label named `__proto__` must stay an own property, as it was on the main thread.
      if (name === '__proto__') Object.defineProperty(labels, name, { value, enumerable: true, writable: true, configurable: true });
      else labels[name] = value;
    }
    const requestHeaders = flags & HAS_REQUEST_HEADERS ? nextStrings(requestHeaderCount) : null;
    const responseHeaders = flags & HAS_RESPONSE_HEADERS ? nextStrings(responseHeaderCount) : null;
    const error = flags & HAS_ERROR ? nextString() : undefined;
    let requestBody: Uint8Array | null = null;
    let responseBody: Uint8Array | null = null;
    if (flags & HAS_REQUEST_BODY) { requestBody = bodies.subarray(b, b + requestLength); b += requestLength; }
    if (flags & HAS_RESPONSE_BODY) { responseBody = bodies.subarray(b, b + responseLength); b += responseLength; }
    out[k] = {
      id, time, method, target, path, ruleIndexes, labels, requestHeaders, responseHeaders, status, durationMs,
      requestBody, requestTruncated: (flags & REQUEST_TRUNCATED) !== 0,
      responseBody, responseTruncated: (flags & RESPONSE_TRUNCATED) !== 0,
      requestIncomplete: (flags & REQUEST_INCOMPLETE) !== 0, responseIncomplete: (flags & RESPONSE_INCOMPLETE) !== 0,
      requestBodyDropped: (flags & REQUEST_BODY_DROPPED) !== 0, responseBodyDropped: (flags & RESPONSE_BODY_DROPPED) !== 0,
      ...(error === undefined ? {} : { error }),
    };
  }
  return out;
}
