// Which rule masked each field of a stored record (POST /api/gateway/policy/mask-sources): a record keeps the names
// of the rules it matched, and the rules say what they mask, so each `[REDACTED]` is traced to the matched rules
// whose `redact` covers it. The rules are those in force now: a rule edited since the record was captured may no
// longer explain it, and then the answer says so rather than guess.
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { compileJsonPath, type JsonPathSegment } from '../../policies/compile-json-path.js';
import type { RuleConfig } from '../../policies/schema.js';

export type MaskedPart = 'header' | 'response_header' | 'query' | 'request_body' | 'response_body';

/** One masked place: a header or parameter name, or a body field's concrete path (`$.card.number`, `$.items.0.cvc`). */
export interface MaskedField {
  part: MaskedPart;
  field: string;
  /** True when a detector masked a span inside the value rather than the whole value. */
  span?: boolean;
}

export interface MaskSource extends MaskedField {
  /** The matched rules whose redaction covers the field, with the setting that does; empty when none does now. */
  rules: { rule: string; by: 'headers' | 'query_params' | 'json_fields' | 'detect'; what: string }[];
}

export const MAX_FIELDS = 500;

const MASKED_PARTS = ['header', 'response_header', 'query', 'request_body', 'response_body'];

const ruleSource = closedObject({
  rule: { type: 'string' },
  by: { enum: ['headers', 'query_params', 'json_fields', 'detect'] },
  what: { type: 'string', description: 'The header, parameter or JSON path named, or the detector kinds.' },
}, { title: 'MaskRule', description: 'One rule behind a masked field, and the setting of it that masks the field.' });

export const maskSourcesAnswer: JsonSchema = closedObject({
  fields: {
    type: 'array',
    items: closedObject({
      part: { enum: MASKED_PARTS },
      field: { type: 'string' },
      span: { type: 'boolean', description: 'A detector masked a span inside the value, not the whole value.' },
      rules: { type: 'array', items: ruleSource, description: 'The matched rules whose redaction covers the field; empty when none does now.' },
    }, { title: 'MaskSource', optional: ['span'] }),
  },
}, { title: 'MaskSources' });

export const maskSourcesSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['matched_rules', 'fields'],
  properties: {
    matched_rules: { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 256 }, description: "The record's matched_rules." },
    fields: {
      type: 'array', maxItems: MAX_FIELDS,
      items: {
        type: 'object', additionalProperties: false, required: ['part', 'field'],
        properties: {
          part: { enum: MASKED_PARTS },
          field: { type: 'string', maxLength: 2048 },
          span: { type: 'boolean' },
        },
      },
    },
  },
};

/** `$.items.0.cvc` → ['items', '0', 'cvc']: the concrete path a record walk writes (`.name` or `['odd name']`). */
export function concretePath(field: string): string[] | null {
  try {
    const segments = compileJsonPath(field).segments;
    return segments.every((s) => s.kind === 'key') ? segments.map((s) => (s as { name: string }).name) : null;
  } catch {
    return null;
  }
}

/**
 * Whether a rule's JSON path covers the concrete path (`*` one level, `**` zero or more, an index a key). The set of
 * pattern positions reached is carried level by level: time pattern × path, whatever the number of `**`.
 */
export function pathCovers(pattern: readonly JsonPathSegment[], path: readonly string[]): boolean {
  const close = (states: Set<number>) => {
    for (const i of states) if (pattern[i]?.kind === 'deep') states.add(i + 1);
    return states;
  };
  let states = close(new Set([0]));
  for (const name of path) {
    const next = new Set<number>();
    for (const i of states) {
      const s = pattern[i];
      if (s === undefined) continue;
      if (s.kind === 'deep') next.add(i);
      else if (s.kind === 'any' || s.name === name) next.add(i + 1);
    }
    if (next.size === 0) return false;
    states = close(next);
  }
  return states.has(pattern.length);
}

function compiled(expression: string): readonly JsonPathSegment[] | null {
  try {
    return compileJsonPath(expression).segments;
  } catch {
    return null;
  }
}

/** The sources of each masked field, among `matched` (rule names) of `rules` (the rules in force). */
export function maskSources(fields: readonly MaskedField[], matched: readonly string[], rules: readonly RuleConfig[]): MaskSource[] {
  const names = new Set(matched);
  const inForce = rules.filter((r) => names.has(r.name));
  const paths = new Map<string, readonly JsonPathSegment[] | null>();
  const pathOf = (e: string) => {
    if (!paths.has(e)) paths.set(e, compiled(e));
    return paths.get(e)!;
  };
  return fields.map((f) => {
    const out: MaskSource['rules'] = [];
    const concrete = f.part === 'request_body' || f.part === 'response_body' ? concretePath(f.field) : null;
    for (const rule of inForce) {
      const r = rule.redact ?? {};
      if (!f.span) {
        if (f.part === 'header' || f.part === 'response_header') {
          const h = r.headers?.find((n) => n.toLowerCase() === f.field.toLowerCase());
          if (h) out.push({ rule: rule.name, by: 'headers', what: h });
        } else if (f.part === 'query') {
          const q = r.query_params?.find((n) => n.toLowerCase() === f.field.toLowerCase());
          if (q) out.push({ rule: rule.name, by: 'query_params', what: q });
        } else if (concrete) {
          const e = r.json_fields?.find((x) => { const p = pathOf(x); return p !== null && pathCovers(p, concrete); });
          if (e) out.push({ rule: rule.name, by: 'json_fields', what: e });
        }
      }
      // A detector masks spans, or whole values that are nothing but a detected secret.
      if (r.detect?.length && !out.some((o) => o.rule === rule.name)) out.push({ rule: rule.name, by: 'detect', what: r.detect.join(', ') });
    }
    // A named redaction explains the field; the detectors of other rules only when nothing named it.
    const named = out.filter((o) => o.by !== 'detect');
    return { ...f, rules: named.length ? named : out };
  });
}
