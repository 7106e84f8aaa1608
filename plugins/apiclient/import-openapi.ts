// OpenAPI 3.x documents (JSON or YAML, parsed before this), including the one `vigil spec` infers from gateway
// traffic. One request per operation, in a folder per first tag; `{{baseUrl}}` from the first server; path parameters
// as `{{name}}`, required query and header parameters too; a JSON body from the operation's example, or one made from
// its schema; bearer and API-key security as `{{token}}` and `{{apiKey}}`.
import { badImport } from './errors.js';
import { emptyRequest, localId, LIMITS, METHODS, type ApiRequest, type EnvVariable, type Imported, type KeyValue, type RequestAuth } from './types.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? v as Json : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export const isOpenApi = (doc: Json): boolean => /^3\./.test(str(doc.openapi));

/** Follows a local `$ref` (`#/components/...`); other references are left unresolved. */
function deref(doc: Json, v: unknown, depth = 0): Json {
  let o = obj(v);
  for (let n = 0; typeof o.$ref === 'string' && n < 8 && depth < 32; n++) {
    const ref = o.$ref as string;
    if (!ref.startsWith('#/')) return {};
    o = obj(ref.slice(2).split('/').reduce<unknown>((at, k) => obj(at)[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc));
  }
  return o;
}

/** A value shaped like a schema: its example or default, else one made from its type (depth-bounded). */
function sample(doc: Json, s: unknown, depth = 0): unknown {
  const schema = deref(doc, s, depth);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (depth > 6) return null;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const all = arr(schema.allOf);
  if (all.length) return Object.assign({}, ...all.map((x) => obj(sample(doc, x, depth + 1))));
  const one = arr(schema.oneOf).concat(arr(schema.anyOf));
  if (one.length) return sample(doc, one[0], depth + 1);
  const type = Array.isArray(schema.type) ? str(schema.type.find((t) => t !== 'null')) : str(schema.type);
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries(obj(schema.properties)).slice(0, 50).map(([k, v]) => [k, sample(doc, v, depth + 1)]));
  }
  if (type === 'array') return [sample(doc, schema.items, depth + 1)];
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return false;
  if (type === 'string') return str(schema.format) === 'date-time' ? new Date(0).toISOString() : '';
  return null;
}

function bodyOf(doc: Json, op: Json, headers: KeyValue[]): string {
  const content = obj(deref(doc, op.requestBody).content);
  const type = Object.keys(content).find((t) => /json/i.test(t)) ?? Object.keys(content)[0];
  if (!type) return '';
  headers.push({ name: 'Content-Type', value: type });
  const media = obj(content[type]);
  const first = Object.values(obj(media.examples))[0];
  const value = media.example !== undefined ? media.example : first !== undefined ? deref(doc, first).value : sample(doc, media.schema);
  if (value === undefined) return '';
  return typeof value === 'string' && !/json/i.test(type) ? value : JSON.stringify(value, null, 2);
}

function securityOf(doc: Json, op: Json, headers: KeyValue[], query: string[]): RequestAuth {
  const requirement = arr(op.security ?? doc.security).map(obj)[0];
  if (!requirement) return { type: 'none' };
  const schemes = obj(obj(doc.components).securitySchemes);
  for (const name of Object.keys(requirement)) {
    const s = deref(doc, schemes[name]);
    if (str(s.type) === 'http' && str(s.scheme).toLowerCase() === 'bearer') return { type: 'bearer', token: '{{token}}' };
    if (str(s.type) === 'http' && str(s.scheme).toLowerCase() === 'basic') return { type: 'basic', username: '{{username}}', password: '{{password}}' };
    if (str(s.type) === 'apiKey' && str(s.in) === 'header') headers.push({ name: str(s.name), value: '{{apiKey}}' });
    if (str(s.type) === 'apiKey' && str(s.in) === 'query') query.push(`${str(s.name)}={{apiKey}}`);
  }
  return { type: 'none' };
}

function baseUrl(doc: Json): string {
  const server = obj(arr(doc.servers)[0]);
  let url = str(server.url) || 'http://localhost';
  for (const [name, v] of Object.entries(obj(server.variables))) url = url.replaceAll(`{${name}}`, str(obj(v).default));
  if (url.startsWith('/')) url = `http://localhost${url}`;
  return url.replace(/\/+$/, '');
}

export function importOpenApi(doc: Json): Imported {
  const info = obj(doc.info);
  const requests: ApiRequest[] = [];
  const pathParams = new Set<string>();
  for (const [path, item] of Object.entries(obj(doc.paths))) {
    const pathItem = deref(doc, item);
    for (const method of METHODS.map((m) => m.toLowerCase())) {
      if (!pathItem[method]) continue;
      if (requests.length >= LIMITS.requests) throw badImport(`the document has more than ${LIMITS.requests} operations`);
      const op = obj(pathItem[method]);
      const params = [...arr(pathItem.parameters), ...arr(op.parameters)].map((p) => deref(doc, p));
      const headers: KeyValue[] = [];
      const query: string[] = [];
      for (const p of params) {
        const name = str(p.name);
        if (str(p.in) === 'path') pathParams.add(name);
        if (str(p.in) === 'query' && p.required === true) query.push(`${name}={{${name}}}`);
        if (str(p.in) === 'header' && p.required === true) headers.push({ name, value: `{{${name}}}` });
      }
      const auth = securityOf(doc, op, headers, query);
      const body = bodyOf(doc, op, headers);
      const url = `{{baseUrl}}${path.replace(/\{([^}]+)\}/g, '{{$1}}')}${query.length ? `?${query.join('&')}` : ''}`;
      requests.push(emptyRequest({
        name: str(op.summary) || str(op.operationId) || `${method.toUpperCase()} ${path}`, folder: str(arr(op.tags)[0]),
        method: method.toUpperCase(), url, headers, body, auth,
      }));
    }
  }
  if (!requests.length) throw badImport('the OpenAPI document has no operations under `paths`');
  const variables: EnvVariable[] = [{ name: 'baseUrl', value: baseUrl(doc), secret: false },
    ...[...pathParams].slice(0, LIMITS.variables - 1).map((name) => ({ name, value: '', secret: false }))];
  return { format: 'openapi', collection: { id: localId('c'), name: str(info.title) || 'OpenAPI', requests }, variables };
}
