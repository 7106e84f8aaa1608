// JSON Schema (2020-12, as OpenAPI 3.1 uses it) for one observed value: its JSON types and string formats, counted
// by the recorder. Shared by body properties, parameters and headers.
import type { FieldObservation, JsonKind } from '../../../gateway/fields/api-fields.js';
import type { JsonSchemaObject } from './document.js';

/** The formats JSON Schema names; `card-like` and digit strings are described instead (see valueSchema). */
const SCHEMA_FORMATS = new Set(['email', 'uuid', 'date-time', 'date', 'uri', 'ipv4']);
/** Types in a stable order, so the same observations always print the same document. */
const KIND_ORDER: JsonKind[] = ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'];

type Counted = Pick<FieldObservation, 'kinds' | 'formats' | 'redacted'>;

/** `'string'`, or a 3.1 type list such as `['string', 'null']`; undefined when nothing was typed. */
export function typeOf(kinds: FieldObservation['kinds'], implied: JsonKind[] = []): string | string[] | undefined {
  const seen = new Set<JsonKind>(implied);
  for (const k of KIND_ORDER) if ((kinds[k] ?? 0) > 0) seen.add(k);
  // An integer is a number: a field that held both is a number.
  if (seen.has('number')) seen.delete('integer');
  const list = KIND_ORDER.filter((k) => seen.has(k));
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : list;
}

/**
 * The schema of a value from its counts. A string format is kept when at least `minPresence` of the strings had it
 * (one odd value in a hundred is noise, two kinds of value are not one format). Card-like values get no format
 * (JSON Schema has none) but `x-vigil-sensitive: card-like`; strings of digits a pattern; masked values
 * `x-vigil-redacted: true`, since the recorder saw their type before the mask.
 */
export function valueSchema(field: Counted, minPresence: number, implied: JsonKind[] = []): JsonSchemaObject {
  const schema: JsonSchemaObject = {};
  const type = typeOf(field.kinds, implied);
  if (type !== undefined) schema.type = type;
  const strings = field.kinds.string ?? 0;
  if (strings > 0) {
    // Values that parsed as numbers (query, header and path values) may count as the `integer` format too: only
    // digit strings that stayed strings make a pattern.
    const formats = { ...field.formats };
    if ((field.kinds.integer ?? 0) > 0 || (field.kinds.number ?? 0) > 0) delete formats.integer;
    const [format, n] = dominantFormat(formats);
    if (format !== undefined && n / strings >= minPresence) {
      if (SCHEMA_FORMATS.has(format)) schema.format = format;
      else if (format === 'card-like') {
        schema['x-vigil-sensitive'] = 'card-like';
        schema.description = 'Card-like values (issuer prefix, length and Luhn): mask them in capture.';
      } else if (format === 'integer') schema.pattern = '^-?[0-9]+$';
    }
  }
  if (field.redacted > 0) schema['x-vigil-redacted'] = true;
  return schema;
}

function dominantFormat(formats: FieldObservation['formats']): [string | undefined, number] {
  let best: string | undefined;
  let count = 0;
  for (const [format, n] of Object.entries(formats)) {
    if ((n ?? 0) > count || ((n ?? 0) === count && best !== undefined && format < best)) { best = format; count = n ?? 0; }
  }
  return [best, count];
}

/** Whether a field is present often enough to be required: `count / parents ≥ minPresence`. */
export function isRequired(field: Pick<FieldObservation, 'count' | 'parents'>, minPresence: number): boolean {
  return field.parents > 0 && field.count / field.parents >= minPresence;
}
