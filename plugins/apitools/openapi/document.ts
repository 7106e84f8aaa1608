// The part of OpenAPI 3.1 that the toolchain writes (`vigil spec`) and reads (`vigil sdk`, `vigil mock`, `spec --merge`).
// Schemas are JSON Schema 2020-12, as OpenAPI 3.1 uses them.
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';

export type JsonSchemaObject = {
  type?: string | string[];
  format?: string;
  properties?: Record<string, JsonSchemaObject>;
  required?: string[];
  items?: JsonSchemaObject;
  additionalProperties?: boolean | JsonSchemaObject;
  enum?: unknown[];
  oneOf?: JsonSchemaObject[];
  anyOf?: JsonSchemaObject[];
  $ref?: string;
  description?: string;
  example?: unknown;
  examples?: unknown[];
  [extension: `x-${string}`]: unknown;
  [key: string]: unknown;
};

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchemaObject;
  [key: string]: unknown;
}

export interface MediaTypeObject {
  schema?: JsonSchemaObject;
  example?: unknown;
  [key: string]: unknown;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { schema?: JsonSchemaObject; description?: string; [key: string]: unknown }>;
  content?: Record<string, MediaTypeObject>;
  [key: string]: unknown;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; description?: string; content: Record<string, MediaTypeObject>; [key: string]: unknown };
  responses: Record<string, ResponseObject>;
  [key: string]: unknown;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItemObject = { [M in HttpMethod]?: OperationObject } & {
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  [key: string]: unknown;
};

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; [key: string]: unknown };
  servers?: { url: string; description?: string }[];
  paths: Record<string, PathItemObject>;
  components?: { schemas?: Record<string, JsonSchemaObject>; [key: string]: unknown };
  [key: string]: unknown;
}

/** Why a file is not an OpenAPI 3.x document the toolchain can read: the message names the file and the key. */
export class OpenApiFileError extends Error {}

/**
 * An OpenAPI 3.0 or 3.1 document from a YAML or JSON file. Only the outline is checked here (the version, `info`,
 * `paths`); each command reads what it needs and says what it cannot use.
 */
export async function readOpenApiFile(file: string): Promise<OpenApiDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new OpenApiFileError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = parseYaml(text, { maxAliasCount: 100 }); // JSON is YAML; the alias bound stops a billion-laughs file
  } catch (err) {
    throw new OpenApiFileError(`${file} is neither YAML nor JSON: ${(err as Error).message}`);
  }
  return asOpenApiDocument(value, file);
}

export function asOpenApiDocument(value: unknown, file: string): OpenApiDocument {
  const fail = (why: string): never => { throw new OpenApiFileError(`${file}: ${why}`); };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not an OpenAPI document (expected a mapping at the top)');
  const doc = value as Record<string, unknown>;
  if (typeof doc.openapi !== 'string' || !/^3\.[01]\.[0-9]+$/.test(doc.openapi)) {
    return fail(`openapi: expected 3.0.x or 3.1.x, got ${JSON.stringify(doc.openapi ?? null)}`);
  }
  const info = doc.info as Record<string, unknown> | undefined;
  if (typeof info !== 'object' || info === null || typeof info.title !== 'string' || typeof info.version !== 'string') {
    return fail('info: expected { title, version } strings');
  }
  if (typeof doc.paths !== 'object' || doc.paths === null || Array.isArray(doc.paths)) return fail('paths: expected a mapping');
  for (const path of Object.keys(doc.paths)) if (!path.startsWith('/')) return fail(`paths["${path}"]: a path starts with /`);
  return doc as unknown as OpenApiDocument;
}
