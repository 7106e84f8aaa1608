/**
 * The dashboard's API types from the control plane's OpenAPI document: every named schema (`components/schemas`) as
 * a type, and two maps keyed by operation, `'GET /api/gateway/records/{id}'`, to its JSON answer and its JSON body.
 * The UI reads server shapes only through these, so a route that changes its schema changes the UI's types with it.
 */
import { declaration, typeOf } from './schema-to-ts.js';

type Schema = Parameters<typeof typeOf>[0] & object;
interface MediaTypes { content?: Record<string, { schema?: Schema }> }
interface Operation {
  responses?: Record<string, MediaTypes>;
  requestBody?: MediaTypes;
  'x-websocket'?: boolean;
}
/** The part of an OpenAPI 3.1 document the types come from. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const jsonSchema = (m: MediaTypes | undefined): Schema | undefined => m?.content?.['application/json']?.schema;

/** The answer of the first success status that carries JSON; undefined when the operation answers no JSON. */
function successSchema(op: Operation): Schema | undefined {
  const statuses = Object.keys(op.responses ?? {}).filter((s) => /^2\d\d$/.test(s)).sort();
  for (const status of statuses) {
    const schema = jsonSchema(op.responses![status]);
    if (schema) return schema;
  }
  return undefined;
}

/** One `'METHOD /path': Type;` line a JSON answer or body, operations in path order. */
function operationMap(name: string, doc: OpenApiDocument, pick: (op: Operation) => Schema | undefined, comment: string): string {
  const lines: string[] = [];
  for (const path of Object.keys(doc.paths).sort()) {
    for (const method of METHODS) {
      const op = doc.paths[path][method];
      if (!op || op['x-websocket']) continue;
      const schema = pick(op);
      if (schema) lines.push(`  '${method.toUpperCase()} ${path}': ${typeOf(schema, 1)};`);
    }
  }
  return `/** ${comment} */\nexport interface ${name} {\n${lines.join('\n')}\n}\n`;
}

/** Global types a generated name would shadow inside the module, so a schema's `title` must not be one of them. */
const TS_GLOBALS = new Set(['Array', 'Date', 'Error', 'Map', 'Object', 'Promise', 'Record', 'Response', 'Request', 'Set', 'String', 'URL']);

/** The generated module: a header saying how to regenerate it, the named schemas, then the two operation maps. */
export function apiTypesModule(doc: OpenApiDocument, header: string): string {
  const named = doc.components?.schemas ?? {};
  const shadowing = Object.keys(named).filter((name) => TS_GLOBALS.has(name));
  if (shadowing.length > 0) throw new Error(`schema titles that shadow a TypeScript global: ${shadowing.join(', ')}; rename them`);
  const parts = [
    header.split('\n').map((l) => `// ${l}`.trimEnd()).join('\n'),
    ...Object.keys(named).sort().map((name) => declaration(name, named[name])),
    operationMap('ApiAnswers', doc, successSchema, 'The JSON answer of each operation, by `METHOD /path` as the OpenAPI document spells it.'),
    operationMap('ApiBodies', doc, (op) => jsonSchema(op.requestBody), 'The JSON request body of each operation that takes one.'),
  ];
  return `${parts.join('\n')}`;
}
