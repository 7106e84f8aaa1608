// The generated sections of docs/llm-wire-contract.md, each between `<!-- BEGIN GENERATED name … -->` and
// `<!-- END GENERATED name -->`: the trace item's fields and JSON Schema (from plugins/llm/item-schema.ts), the 202
// answer (from the route's response schema), the answers and their codes (from the LLM plugin's error catalogue,
// where each code's status lives), and the conformance cases (from tests/support/conformance/cases.ts). The prose
// around them is written by hand; tests/unit/docs/llm-wire-contract.test.ts keeps these sections current.
import { errorCatalogueOf } from '@vigil/plugin-sdk';
import { MAX_CLOCK_AHEAD_MS, MAX_ITEM_DEPTH, MIN_START_TIME_MS, traceItemSchema } from '../../plugins/llm/item-schema.js';
import { ingestOutcomeSchema } from '../../plugins/llm/ingest-route.js';
import { LlmErrors } from '../../plugins/llm/errors.js';
import { CASES } from './conformance/cases.js';

export const WIRE_CONTRACT_DOC = 'docs/llm-wire-contract.md';

type Schema = Record<string, any>;

/** `|` escaped: a cell never splits its row. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

function typeName(s: Schema): string {
  if (!s || Object.keys(s).length === 0) return 'any JSON';
  if (s.enum) return s.enum.map((v: unknown) => `\`${JSON.stringify(v)}\``).join(' or ');
  if (s.type === 'array') return `array of ${typeName(s.items)}`;
  if (s.type === 'object') return s.properties ? 'object' : 'object (any keys)';
  return s.format ? `${s.type} (${s.format})` : String(s.type);
}

function bounds(s: Schema): string {
  const out: string[] = [];
  if (s.minLength !== undefined || s.maxLength !== undefined) out.push(`${s.minLength ?? 0} to ${Number(s.maxLength).toLocaleString('en-US')} characters`);
  if (s.minimum !== undefined || s.maximum !== undefined) out.push(`${s.minimum ?? '−∞'} to ${Number(s.maximum).toLocaleString('en-US')}`);
  if (s.maxItems !== undefined) out.push(`at most ${s.maxItems} items`);
  if (s.type === 'array' && s.items) { const each = bounds(s.items); if (each) out.push(`each ${each}`); }
  if (s.additionalProperties === false) out.push('no other keys');
  return out.join('; ');
}

function fieldRows(schema: Schema, prefix = ''): string[] {
  const required = new Set<string>(schema.required ?? []);
  return Object.entries(schema.properties as Record<string, Schema>).flatMap(([key, s]) => [
    `| \`${prefix}${key}\` | ${cell(typeName(s))} | ${required.has(key) ? 'yes' : ''} | ${cell(bounds(s))} |`,
    ...(s.type === 'object' && s.properties ? fieldRows(s, `${prefix}${key}.`) : []),
  ]);
}

function itemSchemaSection(): string {
  return [
    '| Field | Type | Required | Bounds |',
    '|---|---|---|---|',
    ...fieldRows(traceItemSchema as Schema),
    '',
    `Besides the schema, each item is held to: \`start_time\` from ${new Date(MIN_START_TIME_MS).toISOString().slice(0, 10)} to `
      + `${MAX_CLOCK_AHEAD_MS / 60_000} minutes ahead of the server's clock; values nested at most ${MAX_ITEM_DEPTH} levels deep; `
      + 'the project\'s `limits.item_keys` and `limits.item_bytes` (plugins/llm/README.md).',
    '',
    'The same, as the JSON Schema the server validates each item with (draft 2020-12; `uuid` and `date-time` as RFC 4122 and RFC 3339):',
    '',
    '```json',
    JSON.stringify(traceItemSchema, null, 2),
    '```',
  ].join('\n');
}

function outcomeSection(): string {
  return ['```json', JSON.stringify(ingestOutcomeSchema, null, 2), '```'].join('\n');
}

/** The codes `POST /v1/traces` answers, in the order a client meets them. */
const ANSWERED = ['BODY', 'TOO_DEEP', 'UNKNOWN_KEY', 'CONTENT_TYPE', 'BODY_TOO_LARGE', 'BATCH_TOO_LARGE', 'MONTHLY_LIMIT', 'LANE_BUSY',
  'LANE_SATURATED', 'LANE_FAILED', 'STORE_UNAVAILABLE'] as const;
/** The codes of a 202's per-item `errors`. */
const PER_ITEM = ['ITEM_INVALID', 'ITEM_TOO_LARGE', 'ITEM_DUPLICATE_ID', 'MONTHLY_LIMIT'] as const;

function clientAction(status: number): string {
  if (status === 413) return 'split the batch in halves and send each; a single item: drop it, count it';
  if (status === 429 || status >= 500) return 'retry the same batch after Retry-After, else after backoff';
  return 'drop the batch, count it; never retry';
}

function answersSection(): string {
  const catalogue = errorCatalogueOf(LlmErrors)!;
  const doc = (key: string) => catalogue.codes.find((c) => c.code === LlmErrors[key as keyof typeof LlmErrors])!;
  const rows = ANSWERED.map((key) => {
    const d = doc(key);
    return `| ${d.status} | \`${d.code}\` | ${cell(clientAction(d.status!))} | ${cell(d.meaning)} |`;
  });
  const items = PER_ITEM.map((key) => `| \`${doc(key).code}\` | ${cell(key === 'MONTHLY_LIMIT' ? 'The month\'s item limit was reached part-way through the batch: this item and the ones after it are refused.' : doc(key).meaning)} |`);
  return [
    '| Status | Code | The client | Meaning |',
    '|---|---|---|---|',
    '| 202 | | count `accepted` as sent and `rejected` as rejected; never resend the batch | The batch was read; each item was checked on its own (below). |',
    ...rows,
    '',
    'Codes of a 202\'s per-item `errors` (never retried):',
    '',
    '| Code | Meaning |',
    '|---|---|',
    ...items,
  ].join('\n');
}

function casesSection(): string {
  return CASES.map((c, i) => `${i + 1}. ${c.name}`).join('\n');
}

/** Every generated section by name. */
export function wireContractSections(): Record<string, string> {
  return { 'item-schema': itemSchemaSection(), 'ingest-outcome': outcomeSection(), answers: answersSection(), 'conformance-cases': casesSection() };
}

const marker = (name: string) => new RegExp(`(<!-- BEGIN GENERATED ${name} [^>]*-->\\n)[\\s\\S]*?(<!-- END GENERATED ${name} -->)`);

/** `text` with each section's body replaced; throws when a section's markers are missing. */
export function withSections(text: string, sections: Record<string, string>): string {
  let out = text;
  for (const [name, body] of Object.entries(sections)) {
    if (!marker(name).test(out)) throw new Error(`${WIRE_CONTRACT_DOC} has no markers for the generated section "${name}"`);
    out = out.replace(marker(name), (_m, begin: string, end: string) => `${begin}${body}\n${end}`);
  }
  return out;
}
