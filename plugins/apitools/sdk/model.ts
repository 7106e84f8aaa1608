// The language-neutral model of a client: named object types and operations, built once from an OpenAPI 3.0/3.1
// document and then written out by each language's emitter. Inline object schemas are hoisted into named types
// (named from where they appear: `CreateUserRequest`, `UserAddress`), so every language gets the same type names.
import {
  HTTP_METHODS, type JsonSchemaObject, type MediaTypeObject, type OpenApiDocument, type OperationObject,
  type ParameterObject, type ResponseObject,
} from '../openapi/document.js';
import { NameScope, pascalCase, typeNameOf, words } from './names.js';

export type Primitive = 'string' | 'integer' | 'number' | 'boolean';

/** A type as every emitter understands it. `nullable` adds JSON null to it. */
export type TypeRef = { nullable?: boolean } & (
  | { kind: Primitive; format?: string }
  | { kind: 'unknown' }
  | { kind: 'null' }
  | { kind: 'enum'; base: Primitive; values: (string | number | boolean)[] }
  | { kind: 'array'; items: TypeRef }
  | { kind: 'map'; values: TypeRef }
  | { kind: 'named'; name: string }
  | { kind: 'union'; variants: TypeRef[] }
);

export interface FieldModel {
  /** The property name on the wire, exactly as in the schema. */
  jsonName: string;
  type: TypeRef;
  required: boolean;
  description?: string;
  /** `x-vigil-redacted`: the gateway masks this field in what it captures. */
  redacted: boolean;
}

export interface ObjectModel {
  name: string;
  description?: string;
  fields: FieldModel[];
}

export interface ParamModel {
  name: string;
  type: TypeRef;
  required: boolean;
  description?: string;
}

/** What a successful call returns: decoded JSON of `type`, the body as text, or nothing. */
export type ResultModel = { kind: 'json'; type: TypeRef } | { kind: 'text' } | { kind: 'none' };

export interface OperationModel {
  /** The words of its method name (from operationId, else method and path). */
  nameWords: string[];
  operationId?: string;
  method: string;
  path: string;
  summary?: string;
  deprecated: boolean;
  /** In the order they appear in the path. */
  pathParams: ParamModel[];
  queryParams: ParamModel[];
  /** The named type of the query parameters (a type in every language, even where only Go uses it). */
  queryType?: string;
  body?: { type: TypeRef; required: boolean; contentType: string };
  result: ResultModel;
  /** The documented non-2xx statuses, for the method's comment. */
  errorStatuses: string[];
}

export interface ApiModel {
  title: string;
  version: string;
  openapi: string;
  defaultServer?: string;
  types: ObjectModel[];
  operations: OperationModel[];
  /** Operations left out, each with why (a body that is not JSON, …). */
  skipped: { method: string; path: string; why: string }[];
}

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json(?:;.*)?$/i;
const isJsonMedia = (type: string) => JSON_MEDIA.test(type.trim()) || type === '*/*';

/** The JSON entry of a content map, if any. */
function jsonContent(content: Record<string, MediaTypeObject> | undefined): [string, MediaTypeObject] | undefined {
  if (!content) return undefined;
  return Object.entries(content).find(([type]) => isJsonMedia(type));
}

/**
 * Builds the model. `reservedTypeNames` are names the emitters use for themselves (the client, its error type) and
 * each language's builtins that a type name must not shadow.
 */
export function buildModel(doc: OpenApiDocument, reservedTypeNames: Iterable<string>): ApiModel {
  return new ModelBuilder(doc, reservedTypeNames).build();
}

class ModelBuilder {
  private readonly typeNames: NameScope;
  private readonly types: ObjectModel[] = [];
  /** `#/components/schemas/X` → the named type it became, or the inline type of a non-object schema. */
  private readonly componentTypes = new Map<string, TypeRef>();
  private readonly resolving = new Set<string>();

  constructor(private readonly doc: OpenApiDocument, reserved: Iterable<string>) {
    this.typeNames = new NameScope(reserved);
  }

  build(): ApiModel {
    // Component schemas claim their names first: they are the names a reader of the document expects.
    const schemas = this.doc.components?.schemas ?? {};
    const objectComponents: [string, string][] = [];
    for (const key of Object.keys(schemas)) {
      if (this.isObjectSchema(schemas[key])) {
        const name = this.typeNames.claim(typeNameOf(key, 'Schema'));
        this.componentTypes.set(`#/components/schemas/${key}`, { kind: 'named', name });
        objectComponents.push([key, name]);
      }
    }
    for (const [key, name] of objectComponents) {
      // The slot first, so that the objects hoisted out of this one follow it in the output.
      const index = this.types.length;
      this.types.push({ name, fields: [] });
      this.types[index] = this.objectModel(name, schemas[key]);
    }

    const operations: OperationModel[] = [];
    const skipped: ApiModel['skipped'] = [];
    for (const [path, item] of Object.entries(this.doc.paths)) {
      if (!item || typeof item !== 'object') continue;
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!op || typeof op !== 'object') continue;
        const shared = (this.deref(item.parameters ?? []) as ParameterObject[]).map((p) => this.deref(p) as ParameterObject);
        const built = this.operation(method, path, op, shared);
        if (typeof built === 'string') skipped.push({ method: method.toUpperCase(), path, why: built });
        else operations.push(built);
      }
    }
    return {
      title: this.doc.info.title, version: this.doc.info.version, openapi: this.doc.openapi,
      defaultServer: typeof this.doc.servers?.[0]?.url === 'string' ? this.doc.servers[0].url : undefined,
      types: this.types, operations, skipped,
    };
  }

  /** Follows a local `$ref` (`#/components/parameters/X`, …) to what it names; other values pass through. */
  private deref(value: unknown): unknown {
    for (let hops = 0; hops < 16; hops++) {
      if (!value || typeof value !== 'object' || typeof (value as { $ref?: unknown }).$ref !== 'string') return value;
      value = this.pointer((value as { $ref: string }).$ref);
    }
    return undefined;
  }

  private pointer(ref: string): unknown {
    if (!ref.startsWith('#/')) return undefined;
    let at: unknown = this.doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (!at || typeof at !== 'object') return undefined;
      at = (at as Record<string, unknown>)[key];
    }
    return at;
  }

  private isObjectSchema(schema: JsonSchemaObject | undefined): boolean {
    if (!schema || typeof schema !== 'object') return false;
    if (schema.properties && typeof schema.properties === 'object') return true;
    if (Array.isArray(schema.allOf)) return true;
    const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
    return types.length === 1 && types[0] === 'object' && !schema.additionalProperties;
  }

  /** allOf members merged into one object schema (properties and required lists); other keys from the first. */
  private flattenAllOf(schema: JsonSchemaObject, depth = 0): JsonSchemaObject {
    if (!Array.isArray(schema.allOf) || depth > 8) return schema;
    const properties: Record<string, JsonSchemaObject> = { ...(schema.properties ?? {}) };
    const required = new Set(schema.required ?? []);
    for (const part of schema.allOf as JsonSchemaObject[]) {
      const member = this.flattenAllOf((this.deref(part) ?? {}) as JsonSchemaObject, depth + 1);
      Object.assign(properties, member.properties ?? {});
      for (const key of member.required ?? []) required.add(key);
    }
    return { ...schema, allOf: undefined, type: 'object', properties, required: [...required] };
  }

  private objectModel(name: string, raw: JsonSchemaObject): ObjectModel {
    const schema = this.flattenAllOf(raw);
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const fields: FieldModel[] = [];
    for (const [jsonName, property] of Object.entries(schema.properties ?? {})) {
      const prop = (property ?? {}) as JsonSchemaObject;
      fields.push({
        jsonName,
        type: this.typeOf(prop, `${name} ${jsonName}`),
        required: required.has(jsonName),
        description: typeof prop.description === 'string' ? prop.description : undefined,
        redacted: prop['x-vigil-redacted'] === true,
      });
    }
    return { name, description: typeof schema.description === 'string' ? schema.description : undefined, fields };
  }

  /** A schema as a TypeRef; inline objects become named types called after `context` (`User address` → UserAddress). */
  typeOf(schema: JsonSchemaObject | undefined, context: string): TypeRef {
    if (!schema || typeof schema !== 'object') return { kind: 'unknown' };
    if (typeof schema.$ref === 'string') return this.refType(schema.$ref, schema.nullable === true);
    const nullable = schema.nullable === true // OpenAPI 3.0
      || (Array.isArray(schema.type) && schema.type.includes('null'))
      || (Array.isArray(schema.enum) && schema.enum.includes(null));
    const withNull = (t: TypeRef): TypeRef => (nullable && t.kind !== 'unknown' && t.kind !== 'null' ? { ...t, nullable: true } : t);

    for (const key of ['oneOf', 'anyOf'] as const) {
      const variants = schema[key];
      if (!Array.isArray(variants) || variants.length === 0) continue;
      const types = variants.map((v, i) => this.typeOf(v as JsonSchemaObject, variants.length === 1 ? context : `${context} option ${i + 1}`));
      const nonNull = types.filter((t) => t.kind !== 'null');
      const hasNull = nonNull.length < types.length || nullable;
      if (nonNull.length === 0) return { kind: 'null' };
      const one = nonNull.length === 1 ? nonNull[0] : { kind: 'union' as const, variants: nonNull };
      return hasNull && one.kind !== 'unknown' ? { ...one, nullable: true } : one;
    }
    if (Array.isArray(schema.allOf)) {
      if (schema.allOf.length === 1 && !schema.properties) return withNull(this.typeOf(schema.allOf[0] as JsonSchemaObject, context));
      return withNull(this.hoist(schema, context));
    }
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v));
      if (values.length > 0) {
        const base: Primitive = values.every((v) => typeof v === 'string') ? 'string'
          : values.every((v) => Number.isInteger(v)) ? 'integer'
            : values.every((v) => typeof v === 'number') ? 'number'
              : values.every((v) => typeof v === 'boolean') ? 'boolean' : 'string';
        if (values.every((v) => typeof v === typeof values[0])) return withNull({ kind: 'enum', base, values });
      }
    }
    if ('const' in schema && ['string', 'number', 'boolean'].includes(typeof schema.const)) {
      const value = schema.const as string | number | boolean;
      const base: Primitive = typeof value === 'string' ? 'string' : typeof value === 'boolean' ? 'boolean' : Number.isInteger(value) ? 'integer' : 'number';
      return withNull({ kind: 'enum', base, values: [value] });
    }

    let types = Array.isArray(schema.type) ? schema.type.filter((t) => typeof t === 'string') : typeof schema.type === 'string' ? [schema.type] : [];
    if (types.length === 0) {
      // No type: infer from the keywords present, as validators effectively do.
      if (schema.properties) types = ['object'];
      else if (schema.items) types = ['array'];
      else return { kind: 'unknown' };
    }
    const concrete = types.filter((t) => t !== 'null');
    if (concrete.length === 0) return { kind: 'null' };
    if (concrete.length > 1) {
      // One variant per JSON type, so at most one object among them: it takes the plain context name.
      const variants = concrete.map((t) => this.typeOf({ ...schema, type: t, nullable: false }, context));
      return withNull({ kind: 'union', variants });
    }
    const type = concrete[0];
    switch (type) {
      case 'string': case 'integer': case 'number': case 'boolean':
        return withNull(typeof schema.format === 'string' ? { kind: type, format: schema.format } : { kind: type });
      case 'array':
        return withNull({ kind: 'array', items: this.typeOf(schema.items as JsonSchemaObject | undefined, `${context} item`) });
      case 'object': {
        const hasProperties = schema.properties && Object.keys(schema.properties).length > 0;
        if (!hasProperties) {
          const extra = schema.additionalProperties;
          const values = extra && typeof extra === 'object' ? this.typeOf(extra, `${context} value`) : { kind: 'unknown' as const };
          return withNull({ kind: 'map', values });
        }
        return withNull(this.hoist(schema, context));
      }
      default:
        return { kind: 'unknown' };
    }
  }

  private hoist(schema: JsonSchemaObject, context: string): TypeRef {
    const name = this.typeNames.claim(typeNameOf(context, 'Object'));
    // Reserve the slot first so that nested objects named from this one come after it in the output.
    const index = this.types.length;
    this.types.push({ name, fields: [] });
    this.types[index] = this.objectModel(name, schema);
    return { kind: 'named', name };
  }

  private refType(ref: string, nullable: boolean): TypeRef {
    const known = this.componentTypes.get(ref);
    const add = (t: TypeRef): TypeRef => (nullable && t.kind !== 'unknown' ? { ...t, nullable: true } : t);
    if (known) return add(known);
    if (this.resolving.has(ref)) return { kind: 'unknown' }; // a cycle through non-object schemas: nothing to name
    const target = this.pointer(ref) as JsonSchemaObject | undefined;
    if (!target || typeof target !== 'object') return { kind: 'unknown' };
    this.resolving.add(ref);
    try {
      const last = ref.split('/').pop() ?? 'Schema';
      const type = this.typeOf(target, last);
      this.componentTypes.set(ref, type);
      return add(type);
    } finally {
      this.resolving.delete(ref);
    }
  }

  private operation(method: string, path: string, op: OperationObject, shared: ParameterObject[]): OperationModel | string {
    const nameWords = this.operationWords(method, path, op);
    const label = pascalCase(nameWords);
    const params = new Map<string, ParameterObject>();
    for (const p of [...shared, ...((this.deref(op.parameters ?? []) as ParameterObject[]) ?? []).map((x) => this.deref(x) as ParameterObject)]) {
      if (p && typeof p.name === 'string' && typeof p.in === 'string') params.set(`${p.in}:${p.name}`, p);
    }
    const paramModel = (p: ParameterObject, context: string): ParamModel => ({
      name: p.name, type: this.typeOf(p.schema ?? (jsonContent(p.content as Record<string, MediaTypeObject>)?.[1].schema), context),
      required: p.required === true || p.in === 'path', description: typeof p.description === 'string' ? p.description : undefined,
    });
    const pathParams: ParamModel[] = [];
    for (const m of path.matchAll(/\{([^}]+)\}/g)) {
      const declared = params.get(`path:${m[1]}`);
      pathParams.push(declared ? paramModel(declared, `${label} ${m[1]}`) : { name: m[1], type: { kind: 'string' }, required: true });
    }
    const queryParams = [...params.values()].filter((p) => p.in === 'query').map((p) => paramModel(p, `${label} ${p.name}`));
    const queryType = queryParams.length ? this.typeNames.claim(typeNameOf(`${label} query`, 'Query')) : undefined;
    if (queryType) {
      this.types.push({
        name: queryType, description: `the query parameters of ${op.operationId ?? `${method.toUpperCase()} ${path}`}.`,
        fields: queryParams.map((p) => ({ jsonName: p.name, type: p.type, required: p.required, description: p.description, redacted: false })),
      });
    }

    let body: OperationModel['body'];
    const requestBody = this.deref(op.requestBody) as OperationObject['requestBody'];
    if (requestBody && typeof requestBody === 'object' && requestBody.content && typeof requestBody.content === 'object') {
      const json = jsonContent(requestBody.content);
      if (json) {
        body = { type: this.typeOf(json[1].schema, `${label} request`), required: requestBody.required === true, contentType: json[0] === '*/*' ? 'application/json' : json[0] };
      } else if (requestBody.required === true) {
        return `its request body is ${Object.keys(requestBody.content).join(', ') || 'empty'}, not JSON`;
      }
    }

    const responses = (op.responses && typeof op.responses === 'object' ? op.responses : {}) as Record<string, ResponseObject>;
    const statuses = Object.keys(responses);
    const success = statuses.filter((s) => /^2[0-9][0-9]$/.test(s)).sort()[0] ?? statuses.find((s) => /^2XX$/i.test(s));
    let result: ResultModel = { kind: 'none' };
    if (success) {
      const response = this.deref(responses[success]) as ResponseObject | undefined;
      const content = response?.content && typeof response.content === 'object' ? response.content : undefined;
      const json = jsonContent(content);
      if (json) result = { kind: 'json', type: this.typeOf(json[1].schema, `${label} response`) };
      else if (content && Object.keys(content).length > 0) result = { kind: 'text' };
    } else if (statuses.includes('default')) {
      const json = jsonContent((this.deref(responses.default) as ResponseObject | undefined)?.content);
      if (json) result = { kind: 'json', type: this.typeOf(json[1].schema, `${label} response`) };
    }
    return {
      nameWords, operationId: typeof op.operationId === 'string' ? op.operationId : undefined,
      method: method.toUpperCase(), path,
      summary: typeof op.summary === 'string' ? op.summary : typeof op.description === 'string' ? op.description : undefined,
      deprecated: op.deprecated === true, pathParams, queryParams, queryType, body, result,
      errorStatuses: statuses.filter((s) => !/^2/.test(s)),
    };
  }

  /** operationId's words; else the method and the path, with parameters as `by X` (`GET /users/{id}` → get users by id). */
  private operationWords(method: string, path: string, op: OperationObject): string[] {
    const fromId = typeof op.operationId === 'string' ? words(op.operationId) : [];
    if (fromId.length) return fromId;
    const parts: string[] = [method];
    for (const segment of path.split('/').filter(Boolean)) {
      const param = /^\{(.+)\}$/.exec(segment);
      parts.push(...(param ? ['by', ...words(param[1])] : words(segment)));
    }
    return parts.length > 1 ? parts : [method, 'root'];
  }
}
