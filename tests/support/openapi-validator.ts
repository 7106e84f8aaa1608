// Validates OpenAPI documents with a real validator (@seriousme/openapi-schema-validator: the official 3.0/3.1
// JSON Schemas, offline). Every document a toolchain test produces goes through it. The 3.1 schema lets a Schema
// Object be anything (its dialect is JSON Schema 2020-12), so each schema of a 3.1 document is also checked against
// the 2020-12 meta-schema with Ajv: `type: 7` or `required: "x"` would pass the first check alone.
import * as assert from 'uvu/assert';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';

const metaSchema = new Ajv2020({ strict: false });

/** Fails the test with the validator's errors when `document` is not a valid OpenAPI document of its version. */
export async function assertValidOpenApi(document: unknown, what = 'document'): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
  assert.ok(result.valid, `${what} is not valid OpenAPI: ${JSON.stringify(result.errors, null, 2)?.slice(0, 3000)}`);
  if (!String((document as { openapi?: unknown }).openapi).startsWith('3.1')) return;
  for (const [where, schema] of schemasOf(document, '')) {
    const ok = metaSchema.validateSchema(schema as object);
    assert.ok(ok, `${what}: ${where} is not a JSON Schema 2020-12 schema: ${JSON.stringify(metaSchema.errors)?.slice(0, 1000)}`);
  }
}

/** Every `schema` of parameters, media types and headers, and every component schema. */
function* schemasOf(value: unknown, at: string): Generator<[string, unknown]> {
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'schema') yield [`${at}/schema`, child];
    else if (key === 'schemas' && at.endsWith('/components')) for (const [name, s] of Object.entries(child as object)) yield [`${at}/schemas/${name}`, s];
    else if (key !== 'example' && key !== 'examples') yield* schemasOf(child, `${at}/${key}`);
  }
}
