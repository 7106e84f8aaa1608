// `vigil scan`'s core: walks governed records (or HAR entries made to look like them) and collects the values that
// no rule masked but that look sensitive. It never keeps a raw value: each finding holds a masked sample only.
import { detect, cardIssuer, findNationalIds } from '../../../policies/detectors/index.js';
import type { DetectorKind } from '../../../policies/detectors/types.js';
import { DETECTOR_KINDS } from '../../../policies/detectors/types.js';

export type ScanPart = 'query' | 'header' | 'request_body' | 'response_body';
export type ScanKind = DetectorKind | 'es_dni' | 'nl_bsn';

/** One exchange as the scan sees it: a stored record's fields, or a HAR entry's. */
export interface ScanInput {
  id: string;
  method: string;
  path: string;
  /** The matched rules' globs (empty for HAR). */
  route: readonly string[];
  query: Record<string, string | string[]> | null;
  headers: Record<string, string | string[]> | null;
  /** Filed under the `header` part too: a rule's `redact.headers` masks request and response headers alike. */
  response_headers?: Record<string, string | string[]> | null;
  request_body: unknown;
  response_body: unknown;
  /** The response's status, when known (0: the upstream never answered). */
  status?: number;
}

export interface Finding {
  route: string;
  part: ScanPart;
  /** Parameter or header name, or a JSON path (`$.card.number`; `$` for a text body). */
  field: string;
  kind: ScanKind;
  why: string;
  records: number;
  sample: string;
  /** The rule to add, as YAML for the `rules:` list. */
  rule: string;
}

const ID_SEGMENT = /^(?:[0-9]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|[A-Za-z0-9_-]{24,})$/i;

/** The path as a glob: ids (numbers, uuids, long hex or opaque tokens) become `*`. */
export function pathTemplate(path: string): string {
  const p = path.split('?')[0] || '/';
  return p.split('/').map((s) => (ID_SEGMENT.test(s) ? '*' : s.replace(/[*?#]/g, '_'))).join('/') || '/';
}

/** The route a finding is filed under: the most specific matched glob, else the path template. */
export function routeOf(input: ScanInput): string {
  const globs = input.route.filter((g) => g !== '/**' && g !== '/*');
  if (globs.length) return globs.reduce((a, b) => (b.replace(/\*/g, '').length > a.replace(/\*/g, '').length ? b : a));
  return pathTemplate(input.path);
}

const CARD_NAMES: Record<string, string> = {
  visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover', diners: 'Diners Club',
  jcb: 'JCB', unionpay: 'UnionPay', maestro: 'Maestro', mir: 'Mir',
};

function why(kind: ScanKind, text: string): string {
  switch (kind) {
    case 'card_number': {
      const digits = text.replace(/[^0-9]/g, '');
      return `${CARD_NAMES[cardIssuer(digits)?.name ?? ''] ?? 'card'}, ${digits.length} digits, Luhn valid`;
    }
    case 'iban': return `IBAN (${text.slice(0, 2)}), ${text.replace(/ /g, '').length} characters, mod-97 valid`;
    case 'email': return 'email address';
    case 'jwt': return 'JWT: header and payload decode to JSON objects';
    case 'aws_access_key_id': return `AWS access key id (${text.slice(0, 4)} prefix, 20 characters)`;
    case 'private_key': return 'private key (PEM BEGIN … PRIVATE KEY header)';
    case 'bearer_token': return 'bearer token';
    case 'api_key': return 'API key (known provider prefix or api-key name)';
    case 'us_ssn': return 'US SSN format (issuance rules; no checksum)';
    case 'es_dni': return 'Spanish DNI/NIE, check letter valid';
    case 'nl_bsn': return 'Dutch BSN, 11-proof valid';
  }
}

/** A display form of a detected span: enough to recognise it, never enough to use it. */
export function maskFinding(kind: ScanKind, text: string): string {
  switch (kind) {
    case 'card_number': {
      const d = text.replace(/[^0-9]/g, '');
      const middle = d.slice(4, -4).replace(/[0-9]/g, '*');
      return `${d.slice(0, 4)}${middle}${d.slice(-4)}`.replace(/(.{4})(?=.)/g, '$1 ');
    }
    case 'email': {
      const at = text.indexOf('@');
      return `${text[0]}***${text.slice(at)}`;
    }
    case 'iban': {
      const c = text.replace(/ /g, '');
      return `${c.slice(0, 4)} **** … ${c.slice(-2)}`;
    }
    case 'private_key': return `${text.slice(0, text.indexOf('-----', 5) + 5)}…`;
    case 'us_ssn': return `***-**-${text.slice(-4)}`;
    case 'es_dni': return `${'*'.repeat(text.length - 1)}${text.slice(-1)}`;
    case 'nl_bsn': return `*****${text.slice(-4)}`.replace(/[0-9]{3}$/, '***');
    default: return `${text.slice(0, 4)}…`;
  }
}

const SECRET_HEADER = /^(?:authorization|proxy-authorization|cookie|x-[a-z0-9-]*(?:key|token|secret|auth)[a-z0-9-]*|[a-z0-9-]*(?:api-?key|token|secret)[a-z0-9-]*)$/i;

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) { const p = n / text.length; bits -= p * Math.log2(p); }
  return bits;
}

const yamlString = (s: string): string => JSON.stringify(s);

/** The rule that masks `field` of `part` on `route`, as a YAML list item that `vigil validate` accepts. */
export function ruleSnippet(route: string, part: ScanPart, field: string, kind: ScanKind): string {
  const slug = `${route}-${field}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 48) || 'root';
  const name = `scan-${part.replace('_', '-')}-${slug}`;
  let redact: string;
  if (part === 'header') redact = `redact: { headers: [${yamlString(field)}] }`;
  else if (part === 'query') redact = `redact: { query_params: [${yamlString(field)}] }`;
  else if (field !== '$') redact = `redact: { json_fields: [${yamlString(field)}] }`;
  else if ((DETECTOR_KINDS as readonly string[]).includes(kind)) redact = `redact: { detect: [${kind}] }`;
  else redact = `restrict: [${part}]`;
  return `- name: ${name}\n  match: { path: ${yamlString(route)} }\n  ${redact}`;
}

/**
 * A cheap test that `text` could hold a detection: every detector needs a digit, `@`, `_` or `-` (card, IBAN and id
 * digits, email, key prefixes such as `sk_`, `sk-`, `ghp_`, `xoxb-`, the PEM dashes) or one of these words (the
 * JWT's `eyJ`, `Bearer`, api-key names, AWS and Google key prefixes, which may be all letters). Most body strings
 * (names, enums, media types) fail it and skip the detectors (bench/scan.ts).
 */
const MAY_HOLD = /[0-9@_-]|eyJ|bearer|key|token|secret|AKIA|ASIA|ABIA|ACCA|A3T|AIza/i;
export const mayHold = (text: string): boolean => text.length >= 6 && MAY_HOLD.test(text);

// Records come one at a time, so a finding counts a record when its last one was another: no set of ids to keep.
interface Group { finding: Omit<Finding, 'records'>; records: number; last: string | null }

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The JSON path of key `key` under `path`, as findings and rules write it: `$.card.number`, `$['odd key']`. */
export function childField(path: string, key: string): string {
  if (SIMPLE_KEY.test(key)) return `${path}.${key}`;
  // A key holding a single quote is written in double quotes: `$["it's"]` compiles, `$['it's']` would not.
  return key.includes("'") ? `${path}[${JSON.stringify(key)}]` : `${path}[${JSON.stringify(key).replace(/^"|"$/g, "'")}]`;
}
const MAX_DEPTH = 64;
const MAX_STRING = 1 << 20;

type Span = { kind: ScanKind; start: number; end: number };

function detections(text: string, name: string): Span[] {
  return [...detect(text), ...findNationalIds(text, name)];
}

/**
 * The detections of short values, remembered across collectors: traffic repeats its values (user agents, content
 * types, enum values), and `vigil review` scans each request twice, with one collector per request. Bounded: it
 * starts over when full.
 */
export class DetectionCache {
  private readonly spans = new Map<string, Span[]>();

  constructor(private readonly maxEntries = 50_000, private readonly maxLength = 256) {}

  get(text: string, name: string): Span[] {
    if (text.length > this.maxLength) return detections(text, name);
    // The field name plays a part only for the BSN (national-id.ts), but it is short: part of the key.
    const key = `${name}\u0000${text}`;
    let found = this.spans.get(key);
    if (found === undefined) {
      if (this.spans.size >= this.maxEntries) this.spans.clear();
      found = detections(text, name);
      this.spans.set(key, found);
    }
    return found;
  }
}

/** Collects findings over many inputs; `findings()` groups them by route, part, field and kind. */
export class ScanCollector {
  private readonly groups = new Map<string, Group>();
  records = 0;

  /** `cache`: detections shared with other collectors (see DetectionCache); none by default. */
  constructor(private readonly cache?: DetectionCache) {}

  add(input: ScanInput): void {
    this.records++;
    const route = routeOf(input);
    for (const [name, values] of Object.entries(input.query ?? {})) {
      for (const v of [values].flat()) this.value(input.id, route, 'query', name, v, name);
    }
    for (const [name, values] of [...Object.entries(input.headers ?? {}), ...Object.entries(input.response_headers ?? {})]) {
      for (const v of [values].flat()) {
        if (!this.value(input.id, route, 'header', name, v, name)) this.headerKey(input.id, route, name, v);
      }
    }
    this.body(input.id, route, 'request_body', input.request_body, '$', '', 0);
    this.body(input.id, route, 'response_body', input.response_body, '$', '', 0);
  }

  findings(): Finding[] {
    return [...this.groups.values()]
      .map((g) => ({ ...g.finding, records: g.records }))
      .sort((a, b) => b.records - a.records || a.route.localeCompare(b.route) || a.part.localeCompare(b.part) || a.field.localeCompare(b.field));
  }

  private body(id: string, route: string, part: ScanPart, value: unknown, path: string, key: string, depth: number): void {
    if (value === null || value === undefined || depth > MAX_DEPTH) return;
    if (typeof value === 'string') { this.value(id, route, part, path, value, key); return; }
    if (typeof value === 'number') { if (Number.isInteger(value)) this.value(id, route, part, path, String(value), key); return; }
    if (typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) this.body(id, route, part, item, `${path}.*`, key, depth + 1);
      return;
    }
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      this.body(id, route, part, v, childField(path, k), k, depth + 1);
    }
  }

  /** Detections in one value; true when any. */
  private value(id: string, route: string, part: ScanPart, field: string, raw: string, name: string): boolean {
    if (typeof raw !== 'string' || !mayHold(raw)) return false;
    const text = raw.length > MAX_STRING ? raw.slice(0, MAX_STRING) : raw;
    const spans = this.cache ? this.cache.get(text, name) : detections(text, name);
    const seen = new Set<ScanKind>();
    for (const s of spans) {
      if (seen.has(s.kind)) continue;
      seen.add(s.kind);
      const span = text.slice(s.start, s.end);
      this.note(id, { route, part, field, kind: s.kind, why: why(s.kind, span), sample: maskFinding(s.kind, span), rule: ruleSnippet(route, part, field, s.kind) });
    }
    return spans.length > 0;
  }

  /** A header whose name says secret, with a long high-entropy value (the scheme word, e.g. `Basic`, left out). */
  private headerKey(id: string, route: string, name: string, value: string): void {
    if (!SECRET_HEADER.test(name) || value.includes('[REDACTED]')) return;
    const token = value.replace(/^(?:Bearer|Basic|Token|Digest)\s+/i, '');
    if (token.length < 16) return;
    const bits = entropy(token);
    if (bits < 3.5) return;
    this.note(id, {
      route, part: 'header', field: name, kind: 'api_key',
      why: `secret-named header, ${token.length} characters, entropy ${bits.toFixed(1)} bits/char`,
      sample: maskFinding('api_key', token), rule: ruleSnippet(route, 'header', name, 'api_key'),
    });
  }

  private note(id: string, finding: Omit<Finding, 'records'>): void {
    const key = `${finding.route}\u0000${finding.part}\u0000${finding.field}\u0000${finding.kind}`;
    let g = this.groups.get(key);
    if (!g) { g = { finding, records: 0, last: null }; this.groups.set(key, g); }
    if (g.last !== id) { g.last = id; g.records++; }
  }
}
