// `vigil spec --merge existing.yaml`: what the traffic showed, added to a hand-written document without taking
// anything away. New paths, operations, parameters, statuses, bodies and properties are added; nothing written by
// hand (descriptions, summaries, examples, operation ids, `x-` keys, types, required lists, operations the traffic
// never reached) is changed or removed. Where the traffic disagrees with a hand-written type, the change list says
// so and the document keeps the hand-written one.
import type {
  JsonSchemaObject, MediaTypeObject, OpenApiDocument, OperationObject, ParameterObject, PathItemObject,
} from './document.js';
import { HTTP_METHODS } from './document.js';
import { pathParams, pathSkeleton } from './route-paths.js';

export interface SpecChange {
  kind: 'path' | 'operation' | 'parameter' | 'request_body' | 'response' | 'header' | 'property' | 'type_differs';
  /** `GET /users/{id}`, with the place: `response 200 $.email`, `query page`. */
  where: string;
}

export interface MergeResult {
  document: OpenApiDocument;
  changes: SpecChange[];
}

const JSON_TYPE = 'application/json';

/** `existing` with what `inferred` adds; neither argument is modified. */
export function mergeSpec(existing: OpenApiDocument, inferred: OpenApiDocument): MergeResult {
  const document = structuredClone(existing);
  const changes: SpecChange[] = [];
  const legacy = document.openapi.startsWith('3.0.');
  const fit = (s: JsonSchemaObject) => (legacy ? toOpenApi30(s) : s);
  const skeletons = new Map(Object.keys(document.paths).map((p) => [pathSkeleton(p), p]));
  for (const [inferredPath, item] of Object.entries(inferred.paths)) {
    const path = skeletons.get(pathSkeleton(inferredPath));
    if (path === undefined) {
      document.paths[inferredPath] = mapSchemas(structuredClone(item), fit);
      skeletons.set(pathSkeleton(inferredPath), inferredPath);
      changes.push({ kind: 'path', where: inferredPath });
      continue;
    }
    // The hand-written spelling wins: `{userId}` stays, the inferred `{id}` is renamed to it.
    const rename = new Map(pathParams(inferredPath).map((name, i) => [name, pathParams(path)[i]]));
    const target: PathItemObject = document.paths[path];
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const had = target[method];
      if (had === undefined) {
        const added = mapSchemas(structuredClone(op), fit);
        added.parameters = added.parameters?.map((p) => (p.in === 'path' ? { ...p, name: rename.get(p.name) ?? p.name } : p));
        target[method] = added;
        changes.push({ kind: 'operation', where });
        continue;
      }
      mergeOperation(document, target, had, op, where, fit, changes);
    }
  }
  return { document, changes };
}

function mergeOperation(
  doc: OpenApiDocument, item: PathItemObject, had: OperationObject, op: OperationObject, where: string,
  fit: (s: JsonSchemaObject) => JsonSchemaObject, changes: SpecChange[],
): void {
  // Declared parameters, `$ref`s followed (`#/components/parameters/Page`); one that cannot be followed is skipped.
  const declared = new Set([...(item.parameters ?? []), ...(had.parameters ?? [])]
    .map((p) => resolveRef(doc, p))
    .filter((p): p is ParameterObject => typeof p?.name === 'string' && typeof p.in === 'string')
    .map((p) => `${p.in} ${p.name.toLowerCase()}`));
  for (const p of op.parameters ?? []) {
    // Path parameters are the hand-written ones, whatever their names; others are added when new.
    if (p.in === 'path' || declared.has(`${p.in} ${p.name.toLowerCase()}`)) continue;
    const param: ParameterObject = { ...p, ...(p.schema ? { schema: fit(structuredClone(p.schema)) } : {}) };
    (had.parameters ??= []).push(param);
    changes.push({ kind: 'parameter', where: `${where} ${p.in} ${p.name}` });
  }
  if (op.requestBody) {
    if (had.requestBody === undefined) {
      had.requestBody = mapBody(structuredClone(op.requestBody), fit);
      changes.push({ kind: 'request_body', where });
    } else {
      const body = resolveRef(doc, had.requestBody);
      if (body?.content) mergeContent(doc, body.content, op.requestBody.content, `${where} request`, fit, changes);
    }
  }
  had.responses ??= {};
  for (const [status, response] of Object.entries(op.responses)) {
    const written = had.responses[status];
    if (written === undefined) {
      if (status === 'default' && Object.keys(had.responses).length > 0) continue;
      had.responses[status] = mapBody(structuredClone(response), fit);
      changes.push({ kind: 'response', where: `${where} ${status}` });
      continue;
    }
    // A `$ref` (`#/components/responses/NotFound`) is merged where it points; a remote one is left alone.
    const existing = resolveRef(doc, written);
    if (existing === undefined) continue;
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const headers = existing.headers ??= {};
      if (Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase())) continue;
      headers[name] = { ...header, ...(header.schema ? { schema: fit(structuredClone(header.schema)) } : {}) };
      changes.push({ kind: 'header', where: `${where} ${status} ${name}` });
    }
    if (response.content) {
      if (existing.content === undefined) {
        existing.content = mapBody({ content: structuredClone(response.content) }, fit).content;
        changes.push({ kind: 'response', where: `${where} ${status} body` });
      } else mergeContent(doc, existing.content, response.content, `${where} ${status}`, fit, changes);
    }
  }
}

function mergeContent(
  doc: OpenApiDocument, had: Record<string, MediaTypeObject>, seen: Record<string, MediaTypeObject>, where: string,
  fit: (s: JsonSchemaObject) => JsonSchemaObject, changes: SpecChange[],
): void {
  const inferred = seen[JSON_TYPE]?.schema;
  if (inferred === undefined) return;
  // The hand-written JSON media type, whatever its spelling (`application/json; charset=utf-8`, `+json`).
  const type = Object.keys(had).find((t) => /^application\/([a-z0-9.+-]*\+)?json\b/i.test(t));
  if (type === undefined) {
    had[JSON_TYPE] = { schema: fit(structuredClone(inferred)) };
    changes.push({ kind: 'request_body', where: `${where} ${JSON_TYPE}` });
    return;
  }
  const media = had[type];
  if (media.schema === undefined) {
    media.schema = fit(structuredClone(inferred));
    return;
  }
  mergeSchema(doc, media.schema, inferred, where, '$', fit, changes, new Set());
}

/** Adds the properties the traffic showed to a hand-written schema, following local `$ref`s into components. */
function mergeSchema(
  doc: OpenApiDocument, had: JsonSchemaObject, seen: JsonSchemaObject, where: string, at: string,
  fit: (s: JsonSchemaObject) => JsonSchemaObject, changes: SpecChange[], visiting: Set<JsonSchemaObject>,
): void {
  const target = resolveRef(doc, had);
  if (target === undefined || visiting.has(target)) return; // a remote ref, or a recursive schema already walked
  visiting.add(target);
  if (target.allOf || target.oneOf || target.anyOf) return; // a composed schema is the author's: not guessed into
  if (!covers(target, seen)) changes.push({ kind: 'type_differs', where: `${where} ${at}: traffic ${JSON.stringify(seen.type)}, spec ${JSON.stringify(target.type)} (kept)` });
  if (seen.properties) {
    const isObject = target.properties !== undefined || hasType(target.type, 'object') || target.type === undefined;
    if (isObject) {
      const properties = target.properties ??= {};
      for (const [key, schema] of Object.entries(seen.properties)) {
        if (properties[key] === undefined) {
          properties[key] = fit(structuredClone(schema));
          changes.push({ kind: 'property', where: `${where} ${at}.${key}` });
        } else mergeSchema(doc, properties[key], schema, where, `${at}.${key}`, fit, changes, visiting);
      }
    }
  }
  if (seen.items && typeof target.items === 'object' && target.items !== null) {
    mergeSchema(doc, target.items, seen.items, where, `${at}[*]`, fit, changes, visiting);
  }
}

/**
 * The object a local `$ref` (`#/components/…`, a JSON pointer into the document) points to, followed through
 * chains; the object itself when it is no reference; undefined for a remote or broken one.
 */
function resolveRef<T extends object>(doc: OpenApiDocument, value: T): T | undefined {
  let current: unknown = value;
  for (let hops = 0; hops < 16; hops++) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string') return typeof current === 'object' && current !== null ? current as T : undefined;
    if (!ref.startsWith('#/')) return undefined;
    current = ref.slice(2).split('/').reduce<unknown>((at, token) => {
      const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
      return typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
    }, doc);
  }
  return undefined;
}

const typesOf = (t: JsonSchemaObject['type']): string[] => (t === undefined ? [] : Array.isArray(t) ? t : [t]);
const hasType = (t: JsonSchemaObject['type'], k: string) => typesOf(t).includes(k);

/** Whether the hand-written types allow every type seen (an integer is a number; 3.0's `nullable` allows null). */
function covers(had: JsonSchemaObject, seen: JsonSchemaObject): boolean {
  const allowed = typesOf(had.type);
  if (allowed.length === 0) return true;
  return typesOf(seen.type).every((k) => allowed.includes(k) || (k === 'integer' && allowed.includes('number')) || (k === 'null' && had.nullable === true));
}

/** Applies `fit` to every schema of an operation or response being added whole. */
function mapSchemas(item: PathItemObject, fit: (s: JsonSchemaObject) => JsonSchemaObject): PathItemObject;
function mapSchemas(item: OperationObject, fit: (s: JsonSchemaObject) => JsonSchemaObject): OperationObject;
function mapSchemas(item: PathItemObject | OperationObject, fit: (s: JsonSchemaObject) => JsonSchemaObject): PathItemObject | OperationObject {
  const op = item as OperationObject;
  if (op.responses !== undefined) {
    op.parameters = op.parameters?.map((p) => (p.schema ? { ...p, schema: fit(p.schema) } : p));
    if (op.requestBody) op.requestBody = mapBody(op.requestBody, fit);
    for (const status of Object.keys(op.responses)) op.responses[status] = mapBody(op.responses[status], fit);
    return op;
  }
  const path = item as PathItemObject;
  for (const method of HTTP_METHODS) if (path[method]) path[method] = mapSchemas(path[method], fit);
  return path;
}

function mapBody<T extends { content?: Record<string, MediaTypeObject>; headers?: Record<string, { schema?: JsonSchemaObject }> }>(
  body: T, fit: (s: JsonSchemaObject) => JsonSchemaObject,
): T {
  for (const media of Object.values(body.content ?? {})) if (media.schema) media.schema = fit(media.schema);
  for (const header of Object.values(body.headers ?? {})) if (header.schema) header.schema = fit(header.schema);
  return body;
}

/**
 * A 3.1 schema in 3.0's dialect, for additions to a 3.0 document: `type: [string, null]` → `type: string,
 * nullable: true`; several types → `anyOf`; a null alone → `nullable` with no type.
 */
export function toOpenApi30(schema: JsonSchemaObject): JsonSchemaObject {
  const out: JsonSchemaObject = { ...schema };
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, toOpenApi30(s)]));
  if (schema.items && typeof schema.items === 'object') out.items = toOpenApi30(schema.items);
  const types = typesOf(schema.type);
  if (Array.isArray(schema.type)) {
    const real = types.filter((t) => t !== 'null');
    delete out.type;
    if (types.includes('null')) out.nullable = true;
    if (real.length === 1) out.type = real[0];
    else if (real.length > 1) {
      // Type-specific keywords go with their type's branch; the rest stay on the schema.
      const { properties, required, items, format, pattern, ...rest } = out;
      const branch = (t: string): JsonSchemaObject => {
        if (t === 'object') return { type: t, ...(properties ? { properties } : {}), ...(required ? { required } : {}) };
        if (t === 'array') return { type: t, items: items ?? {} };
        if (t === 'string') return { type: t, ...(format ? { format } : {}), ...(pattern ? { pattern } : {}) };
        return { type: t };
      };
      return { ...rest, anyOf: real.map(branch) };
    }
  }
  return out;
}
