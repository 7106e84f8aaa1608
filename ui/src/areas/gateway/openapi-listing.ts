// The control plane's OpenAPI 3.1 listing (GET /api, runtime/http/openapi.ts) read for people: operations grouped by
// their owner's tag, filtered by words, with parameter types in a line and a curl command to copy. Pure, so it is
// tested in Node (tests/unit/ui/areas/gateway/openapi-listing.test.ts).

/** The parts of a JSON Schema the listing shows. */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  contentMediaType?: string;
  $ref?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface RawOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string }>;
  'x-websocket'?: boolean;
}

export interface SecurityScheme {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
  description?: string;
}

/** `GET /api` */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  tags?: { name: string; description?: string }[];
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, RawOperation>>;
  components?: { securitySchemes?: Record<string, SecurityScheme>; schemas?: Record<string, Schema> };
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  /** The owner (the plugin that registered it, or `control-plane`): what the listing groups by. */
  tag: string;
  /** Further tags, e.g. `gateway`. */
  topics: string[];
  /** Names of the security schemes any one of which is enough; empty when it needs no credential. */
  credentials: string[];
  parameters: Parameter[];
  /** The request body's media type and schema, when there is one. */
  body?: { type: string; schema?: Schema };
  /** The documented success status. */
  status: string;
  websocket: boolean;
}

export interface TagGroup {
  tag: string;
  operations: Operation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** A named schema (`#/components/schemas/Name`) as the document defines it; any other schema as it is. */
function resolved(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  const name = schema?.$ref?.match(/^#\/components\/schemas\/(.+)$/)?.[1];
  return name === undefined ? schema : doc.components?.schemas?.[name] ?? schema;
}

/** Every operation of the document, in path order and, within a path, in method order. */
export function listOperations(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const [tag = 'other', ...rest] = op.tags ?? [];
      const [type, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      out.push({
        id: op.operationId ?? `${method}${path}`,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? '',
        description: op.description ?? '',
        tag,
        topics: [...new Set(rest)].filter((t) => t !== tag),
        credentials: [...new Set((op.security ?? doc.security ?? []).flatMap((s) => Object.keys(s)))],
        parameters: op.parameters ?? [],
        body: type ? { type, schema: resolved(doc, media?.schema) } : undefined,
        status: Object.keys(op.responses ?? {}).find((s) => s !== 'default') ?? '200',
        websocket: op['x-websocket'] === true,
      });
    }
  }
  return out;
}

/**
 * Operations grouped by owner, in the order of the document's `tags` (then any tag it does not list), each group in
 * path order. Groups left empty are dropped.
 */
export function groupByTag(operations: readonly Operation[], tags: readonly string[] = []): TagGroup[] {
  const order = [...tags, ...operations.map((o) => o.tag)];
  const groups = new Map<string, Operation[]>();
  for (const tag of order) if (!groups.has(tag)) groups.set(tag, []);
  for (const op of operations) groups.get(op.tag)!.push(op);
  return [...groups].filter(([, ops]) => ops.length).map(([tag, ops]) => ({ tag, operations: ops }));
}

/**
 * Whether the operation matches every word of `query` (case-insensitive) in its method, path, summary, description,
 * tags or parameter names. An empty query matches everything.
 */
export function matchesQuery(op: Operation, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const text = [op.method, op.path, op.summary, op.description, op.tag, ...op.topics, ...op.parameters.map((p) => p.name)].join(' ').toLowerCase();
  return words.every((w) => text.includes(w));
}

const literal = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** A schema's type in one short phrase: `integer`, `string[]`, `1h | 24h | 7d`, `object`. */
export function typeText(schema: Schema | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return schema.$ref.split('/').pop() ?? 'object';
  if (schema.enum) return schema.enum.map(literal).join(' | ');
  if (schema.const !== undefined) return literal(schema.const);
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `${typeText(schema.items)}[]`;
  if (type) return schema.format ? `${type} (${schema.format})` : type;
  return schema.properties ? 'object' : 'any';
}

/** The limits a value must keep, as short phrases: `default 50`, `1 to 10`, `matches ^[a-z]+$`, `at most 10 items`. */
export function constraintTexts(schema: Schema | undefined): string[] {
  if (!schema) return [];
  const out: string[] = [];
  if (schema.default !== undefined) out.push(`default ${literal(schema.default)}`);
  if (schema.minimum !== undefined && schema.maximum !== undefined) out.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) out.push(`at least ${schema.minimum}`);
  else if (schema.maximum !== undefined) out.push(`at most ${schema.maximum}`);
  if (schema.minLength !== undefined && schema.minLength > 0) out.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) out.push(`at most ${schema.maxLength} characters`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.pattern) out.push(`matches ${schema.pattern}`);
  return out;
}

/** The schemes that take a bearer token in the Authorization header, and the environment variable for each. */
const envName = (scheme: string): string => (scheme === 'dashboard' ? 'VIGIL_TOKEN' : `VIGIL_${scheme.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/\W+/g, '_').toUpperCase()}`);

/**
 * The header a curl command sends for the first scheme that a command line can use (a cookie cannot be), with the
 * secret as an environment variable: never the secret itself. Undefined when the operation needs no credential.
 */
export function credentialHeader(op: Operation, schemes: Record<string, SecurityScheme>): string | undefined {
  for (const name of op.credentials) {
    const scheme = schemes[name];
    if (!scheme) continue;
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return `Authorization: Bearer $${envName(name)}`;
    if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) return `${scheme.name}: $${envName(name)}`;
  }
  return undefined;
}

/** How a person would name the credentials an operation accepts. */
export function credentialText(op: Operation, schemes: Record<string, SecurityScheme>): string {
  if (!op.credentials.length) return 'None: open to anyone who reaches the control plane';
  const names = op.credentials.map((name) => {
    if (name === 'dashboard') return 'the dashboard token (bearer)';
    if (name === 'dashboardCookie') return 'the dashboard session cookie';
    const s = schemes[name];
    if (s?.type === 'apiKey' && s.name) return `${name} (${s.in} ${s.name})`;
    if (s?.type === 'http') return `${name} (${s.scheme ?? 'http'})`;
    return name;
  });
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];
}

/** A value that a schema accepts, for an example body: the default, the first allowed value, or a placeholder. */
export function exampleOf(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? Object.keys(schema.properties ?? {}));
      for (const [key, value] of Object.entries(schema.properties ?? {})) if (required.has(key)) out[key] = exampleOf(value, depth + 1);
      return out;
    }
    case 'array': return [];
    case 'boolean': return false;
    case 'integer': case 'number': return schema.minimum ?? 0;
    case 'string': return '';
    default: return null;
  }
}

/** `it's` as a single-quoted shell word. */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A curl command for the operation on `origin`. Path parameters and required query parameters without a default
 * become shell variables (`$ID`); the credential is an environment variable (`$VIGIL_TOKEN`), so the command can be
 * shared and the token never appears on the page. Undefined for a websocket.
 */
export function curlCommand(op: Operation, origin: string, schemes: Record<string, SecurityScheme>): string | undefined {
  if (op.websocket) return undefined;
  const variable = (name: string) => `$${name.replace(/\W+/g, '_').toUpperCase()}`;
  let url = origin + op.path.replace(/\{([^}]+)\}/g, (_, name: string) => variable(name));
  const query = op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => {
    const value = p.schema?.default ?? p.schema?.enum?.[0];
    return `${encodeURIComponent(p.name)}=${value === undefined ? variable(p.name) : encodeURIComponent(literal(value))}`;
  });
  if (query.length) url += `?${query.join('&')}`;
  const parts = ['curl -s'];
  if (op.method !== 'GET') parts[0] += ` -X ${op.method}`;
  const header = credentialHeader(op, schemes);
  if (header) parts.push(`-H "${header}"`);
  if (op.body?.type === 'application/json') {
    parts.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(exampleOf(op.body.schema)))}`);
  } else if (op.body) {
    parts.push(`-H ${shellQuote(`Content-Type: ${op.body.type}`)}`, '--data-binary @body');
  }
  // Double quotes let the shell expand the variables in the URL; nothing else in it is special to the shell.
  parts.push(`"${url}"`);
  // Short commands stay on one line; longer ones get one option a line.
  return parts.length <= 3 ? parts.join(' ') : parts.join(' \\\n  ');
}
