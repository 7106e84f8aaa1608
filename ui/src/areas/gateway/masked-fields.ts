// Where a stored record holds `[REDACTED]`, as the places `/api/gateway/policy/mask-sources` traces to rules: header
// and parameter names, and body fields as JSON paths (`$.card.number`, `$.items.0.cvc`). Pure (tested in Node).
import { REDACTED } from '../../components/json-view.js';
import type { MaskRule, MaskSource } from '../../data/api.gen.js';
import type { GatewayRecord } from './gateway-api.js';

export type { MaskRule, MaskSource };
export type MaskedPart = MaskSource['part'];
/** One masked place, as the page asks `mask-sources` about it. */
export type MaskedField = Omit<MaskSource, 'rules'>;

/** Fields listed at most (the API's bound); a record masked in more places says how many more. */
export const MAX_FIELDS = 500;
const MAX_DEPTH = 64;
const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `$.a`, `$['odd key']`, `$.items.0`: a path compileJsonPath reads back as keys. */
export function childPath(path: string, key: string | number): string {
  const k = String(key);
  if (SIMPLE_KEY.test(k) || /^[0-9]+$/.test(k)) return `${path}.${k}`;
  return k.includes("'") ? `${path}[${JSON.stringify(k)}]` : `${path}['${k.replace(/\\/g, '\\\\')}']`;
}

function marked(value: string): { whole: boolean } | null {
  if (value === REDACTED) return { whole: true };
  return value.includes(REDACTED) ? { whole: false } : null;
}

/** Every masked place of the record, in reading order (request before response). */
export function maskedFields(r: GatewayRecord): MaskedField[] {
  const out: MaskedField[] = [];
  const add = (part: MaskedPart, field: string, value: string) => {
    const m = marked(value);
    if (m && out.length < MAX_FIELDS) out.push(m.whole ? { part, field } : { part, field, span: true });
  };
  const pairs = (part: MaskedPart, values: Record<string, string | string[]> | null) => {
    for (const [name, v] of Object.entries(values ?? {})) for (const x of Array.isArray(v) ? v : [v]) add(part, name, x);
  };
  const walk = (part: MaskedPart, value: unknown, path: string, depth: number) => {
    if (depth > MAX_DEPTH || out.length >= MAX_FIELDS) return;
    if (typeof value === 'string') add(part, path, value);
    else if (Array.isArray(value)) value.forEach((v, i) => walk(part, v, childPath(path, i), depth + 1));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(part, v, childPath(path, k), depth + 1);
  };
  pairs('query', r.query);
  pairs('header', r.headers);
  walk('request_body', r.request_body, '$', 0);
  pairs('response_header', r.response_headers);
  walk('response_body', r.response_body, '$', 0);
  return out;
}

export const PART_NAMES: Record<MaskedPart, string> = {
  query: 'Query', header: 'Request header', request_body: 'Request body', response_header: 'Response header', response_body: 'Response body',
};

const SETTINGS: Record<MaskRule['by'], string> = { headers: 'redact.headers', query_params: 'redact.query_params', json_fields: 'redact.json_fields', detect: 'redact.detect' };

/** How a rule masks the field, in words: "`payments`: redact.json_fields `$.card.number`". */
export function maskRuleText(m: MaskRule): string {
  return `${SETTINGS[m.by]} \`${m.what}\``;
}
