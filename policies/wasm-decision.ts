// The output half of the WASM policy ABI: what `decide` may return, and its strict validation. Anything outside
// this shape is invalid output, and the records it concerns fail closed.
import { Ajv, type ValidateFunction } from 'ajv';

export type WasmRestrictPart = 'request_body' | 'response_body' | 'headers';

/** One view's decision. Every field only narrows the YAML decision (see wasm-narrow.ts). */
export interface WasmDecision {
  restrict?: WasmRestrictPart[];
  redact?: {
    headers?: string[];
    query_params?: string[];
    /** Policy-language JSON paths: `$.a.b`, `$.*.x`, `$.**.x`, `$['a b'][0]`. */
    json_fields?: string[];
  };
  labels?: Record<string, string>;
}

export interface WasmDecisionBatch { decisions: WasmDecision[] }

/** Bounds that keep one decision small: it is applied per request on the telemetry lane. */
export const WASM_DECISION_LIMITS = {
  names: 64,
  nameLength: 256,
  jsonFields: 256,
  jsonPathLength: 1024,
  labels: 16,
  labelNameLength: 64,
  labelValueLength: 256,
} as const;

const L = WASM_DECISION_LIMITS;
const names = { type: 'array', maxItems: L.names, items: { type: 'string', minLength: 1, maxLength: L.nameLength } };

export const wasmDecisionSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    restrict: {
      type: 'array', maxItems: 3, uniqueItems: true,
      items: { type: 'string', enum: ['request_body', 'response_body', 'headers'] },
    },
    redact: {
      type: 'object',
      additionalProperties: false,
      properties: {
        headers: names,
        query_params: names,
        json_fields: {
          type: 'array', maxItems: L.jsonFields,
          items: { type: 'string', minLength: 1, maxLength: L.jsonPathLength, pattern: '^\\$' },
        },
      },
    },
    labels: {
      type: 'object',
      maxProperties: L.labels,
      // Labels become metric dimensions: Prometheus label-name rules.
      propertyNames: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: L.labelNameLength },
      additionalProperties: { type: 'string', maxLength: L.labelValueLength },
    },
  },
} as const;

export const wasmDecisionBatchSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['decisions'],
  properties: { decisions: { type: 'array', items: wasmDecisionSchema } },
} as const;

let validator: ValidateFunction | undefined;

function batchValidator(): ValidateFunction {
  validator ??= new Ajv({ strict: true, allErrors: false }).compile(wasmDecisionBatchSchema);
  return validator;
}

/** Why `value` is not a valid decisions batch for `expected` views, or undefined when it is. */
export function wasmOutputProblem(value: unknown, expected: number): string | undefined {
  const validate = batchValidator();
  if (!validate(value)) {
    const e = validate.errors?.[0];
    return e ? `${e.instancePath || '(top level)'} ${e.message ?? 'is invalid'}` : 'does not match the decision schema';
  }
  const count = (value as WasmDecisionBatch).decisions.length;
  if (count !== expected) return `returned ${count} decisions for ${expected} views (exactly one per view, in order)`;
  return undefined;
}
