// The validators the mock checks requests with (and its own generated and LLM-written values against).
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';

// The string formats the toolchain infers (see `ValueFormat` in the SDK) and the common OpenAPI ones, without
// ajv-formats: shapes, not calendar arithmetic. Numeric formats (int32, int64, float, double) constrain nothing here.
const FORMATS: Record<string, RegExp | true> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
  url: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
  hostname: /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i,
  ipv4: /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/,
  ipv6: /^[0-9a-f:]+$/i,
  byte: /^[A-Za-z0-9+/]*={0,2}$/,
  int32: true, int64: true, float: true, double: true, binary: true, password: true,
};

/** An Ajv for OpenAPI schemas: OpenAPI's own keywords (`example`, `xml`, `discriminator`) are ignored, not errors. */
export function createMockAjv(options: { coerce?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: options.coerce ? 'array' : false, logger: false, validateSchema: false });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  return ajv;
}

export interface ProblemDetail {
  /** Where: `body/email`, `query.limit`, `path.id`. */
  path: string;
  message: string;
}

/** Ajv's errors in the words a client reads, each with where it is; `root` prefixes the location. */
export function problems(errors: readonly ErrorObject[] | null | undefined, root: string): ProblemDetail[] {
  return (errors ?? []).map((e) => {
    const missing = e.keyword === 'required' ? `/${(e.params as { missingProperty: string }).missingProperty}` : '';
    const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
    const allowed = e.keyword === 'enum' ? `: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}` : '';
    return { path: `${root}${e.instancePath}${missing}`, message: `${e.message ?? 'is invalid'}${extra}${allowed}` };
  });
}
