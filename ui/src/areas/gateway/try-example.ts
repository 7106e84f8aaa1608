// "Fill in an example" for the try panel: a request that the loaded policy masks, built from the first rule that
// masks anything (its headers, query parameters and JSON fields filled with sensitive-looking values), so a first try
// shows the policy at work rather than a card number stored in clear. Pure (tested in Node).
import type { PolicyRule } from './policy-api.js';

/** A path the glob matches: `**` and `*` filled in. */
export function examplePath(glob: string): string {
  const path = glob.replace(/\/\*\*$/, '/example').replace(/\*\*/g, 'example').replace(/\*/g, 'x');
  return path === '' ? '/' : path;
}

/** A value that looks like what a field of this name holds (test values: a test card, a documentation address). */
function valueFor(name: string): string | number {
  const n = name.toLowerCase();
  if (/cvc|cvv|csc/.test(n)) return '123';
  if (/card|pan|number/.test(n)) return '4111 1111 1111 1111';
  if (/iban/.test(n)) return 'DE89370400440532013000';
  if (/mail/.test(n)) return 'ada@example.com';
  if (/ssn/.test(n)) return '123-45-6789';
  if (/pass|secret|token|key/.test(n)) return 'hunter2-example';
  return 'example-value';
}

/** The samples a rule's detectors mask, one per kind, in a sentence. */
const DETECTED: Record<string, string> = {
  card_number: 'card 4111 1111 1111 1111', iban: 'IBAN DE89370400440532013000', email: 'mail ada@example.com',
  jwt: 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', bearer_token: 'Bearer sk_live_51Hx9example',
  api_key: 'key sk_live_51Hx9exampleexampleexample', aws_access_key_id: 'AKIAIOSFODNN7EXAMPLE', us_ssn: 'ssn 123-45-6789',
};

/** Sets `value` at a JSON path of keys, `*` (a key named after its parent) and `**` (no level). */
function setPath(target: Record<string, unknown>, expression: string, value: unknown): void {
  const keys = [...expression.slice(1).matchAll(/\.([^.[\]]+)|\[['"]?([^'"\]]+)['"]?\]/g)].map((m) => m[1] ?? m[2]).filter((k) => k !== '**');
  if (keys.length === 0) return;
  let node = target;
  keys.forEach((key, i) => {
    const name = key === '*' ? (i + 1 < keys.length ? 'card' : 'value') : key;
    if (i === keys.length - 1) node[name] = value;
    else {
      if (typeof node[name] !== 'object' || node[name] === null) node[name] = {};
      node = node[name] as Record<string, unknown>;
    }
  });
}

export interface ExampleRequest {
  method: string;
  path: string;
  headers: string;
  body: string;
}

/** The example for `rules`; with no rule that masks anything, a payment whose card number a try then flags. */
export function exampleRequest(rules: readonly PolicyRule[]): ExampleRequest {
  const masking = rules.find((r) => r.redact?.json_fields?.length || r.redact?.detect?.length) ?? rules.find((r) => r.redact) ?? rules[0];
  const redact = masking?.redact ?? {};
  const body: Record<string, unknown> = { amount: 1250 };
  for (const field of redact.json_fields ?? []) setPath(body, field, valueFor(field.split(/[.[\]'"]/).filter(Boolean).pop() ?? ''));
  const detected = (redact.detect ?? []).map((k) => DETECTED[k]).filter(Boolean);
  if (detected.length) body.note = `Customer sent ${detected.join(', ')}`;
  if (!masking?.redact) body.card = { number: '4111 1111 1111 1111', cvc: '123' };
  const headers = ['X-Tenant-Id: acme', 'Content-Type: application/json'];
  for (const h of redact.headers ?? []) headers.unshift(`${h}: ${/auth/i.test(h) ? 'Bearer sk_live_51Hx9example' : valueFor(h)}`);
  const query = (redact.query_params ?? []).map((q) => `${encodeURIComponent(q)}=${encodeURIComponent(String(valueFor(q)))}`);
  const path = masking ? examplePath(masking.match.path) : '/api/payments/charge';
  return {
    method: masking?.match.methods?.[0]?.toUpperCase() ?? 'POST',
    path: query.length ? `${path}?${query.join('&')}` : path,
    headers: headers.join('\n'),
    body: JSON.stringify(body, null, 2),
  };
}
