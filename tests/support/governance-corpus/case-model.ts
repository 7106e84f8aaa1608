// The governance conformance corpus's cases as TypeScript writes them (tests/fixtures/governance-corpus/README.md):
// a request, the response the app or upstream plays, and the config whose rules govern them. The expected record is
// not written here: the generator (build-corpus.ts) runs each case through the engine and stores what it makes.

/** A header as sent: name and value, in order. */
export type HeaderPair = [string, string];

export interface CaseRequest {
  method: string;
  /** The request-target exactly as it goes on the wire (printable ASCII). */
  target: string;
  /** Every header line sent, in order (Host and Content-Length included). */
  headers: HeaderPair[];
  body?: Uint8Array;
}

export interface CaseResponse {
  status: number;
  /** Every header line the app writes, in order (Date and Content-Length included, so no stack adds its own). */
  headers: HeaderPair[];
  body?: Uint8Array;
}

export interface CorpusCase {
  /** Unique in the corpus; says what the case shows. */
  name: string;
  /** Which family of the engine's behaviour it covers (path fold, json paths, headers, …). */
  family: string;
  /** A config name of configs.ts. */
  config: string;
  request: CaseRequest;
  response: CaseResponse;
}

/** The Host every case sends: fixed, so records hold no port. */
export const HOST = 'api.example.test';
/** The Date every response carries: a stack adds its own only when the app sets none. */
export const DATE = 'Thu, 01 Jan 2026 00:00:00 GMT';

const bytesOf = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

/** A request with Host first, then `headers`, then Content-Length when there is a body (and no framing given). */
export function request(method: string, target: string, headers: HeaderPair[] = [], body?: string | Uint8Array): CaseRequest {
  const bytes = body === undefined ? undefined : bytesOf(body);
  const all: HeaderPair[] = [['Host', HOST], ...headers];
  if (bytes !== undefined && !all.some(([n]) => n.toLowerCase() === 'content-length' || n.toLowerCase() === 'transfer-encoding')) {
    all.push(['Content-Length', String(bytes.length)]);
  }
  return { method, target, headers: all, ...(bytes === undefined ? {} : { body: bytes }) };
}

/** A JSON request body with its Content-Type. */
export function jsonRequest(method: string, target: string, value: unknown, headers: HeaderPair[] = []): CaseRequest {
  return request(method, target, [['Content-Type', 'application/json'], ...headers], typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * A response: `headers`, then Date, then Content-Length (the body's length, 0 without one) unless the status or
 * `noLength` says there is no body.
 */
export function response(status: number, headers: HeaderPair[] = [], body?: string | Uint8Array, options: { noLength?: boolean } = {}): CaseResponse {
  const bytes = body === undefined ? undefined : bytesOf(body);
  const all: HeaderPair[] = [...headers];
  if (!all.some(([n]) => n.toLowerCase() === 'date')) all.push(['Date', DATE]);
  const bodiless = status === 204 || status === 304 || options.noLength === true;
  if (!bodiless && !all.some(([n]) => n.toLowerCase() === 'content-length')) all.push(['Content-Length', String(bytes?.length ?? 0)]);
  return { status, headers: all, ...(bytes === undefined ? {} : { body: bytes }) };
}

/** A JSON response with its Content-Type. */
export function jsonResponse(value: unknown, status = 200, headers: HeaderPair[] = []): CaseResponse {
  return response(status, [['Content-Type', 'application/json'], ...headers], typeof value === 'string' ? value : JSON.stringify(value));
}

/** The plain answer most cases get. */
export const OK = (): CaseResponse => jsonResponse({ ok: true });
