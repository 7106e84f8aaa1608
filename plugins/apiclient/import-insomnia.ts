// Insomnia's export format 4 (`"_type": "export", "__export_format": 4`): a flat `resources` list whose items point to
// their parent by `parentId`. Requests sit under the workspace or request groups (folders); environments hold `data`.
// Insomnia writes variables as `{{ _.name }}` (Nunjucks): they become `{{name}}`.
import { badImport } from './errors.js';
import { emptyRequest, localId, LIMITS, type ApiRequest, type EnvVariable, type Imported, type KeyValue, type RequestAuth } from './types.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? v as Json : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

export const isInsomnia = (doc: Json): boolean => doc._type === 'export' && Number(doc.__export_format) === 4;

const vars = (text: string): string => text.replace(/\{\{\s*_\.([\w$.-]+)\s*\}\}/g, '{{$1}}');

function authOf(a: unknown): RequestAuth {
  const auth = obj(a);
  if (auth.disabled === true) return { type: 'none' };
  if (str(auth.type) === 'bearer') return { type: 'bearer', token: vars(str(auth.token)) };
  if (str(auth.type) === 'basic') return { type: 'basic', username: vars(str(auth.username)), password: vars(str(auth.password)) };
  return { type: 'none' };
}

export function importInsomnia(doc: Json): Imported {
  const resources = arr(doc.resources).map(obj);
  const byId = new Map(resources.map((r) => [str(r._id), r]));
  const folderOf = (parentId: string): string => {
    const names: string[] = [];
    for (let p = byId.get(parentId), n = 0; p && str(p._type) === 'request_group' && n < 16; p = byId.get(str(p.parentId)), n++) names.unshift(str(p.name));
    return names.join(' / ');
  };
  const requests: ApiRequest[] = [];
  for (const r of resources.filter((x) => str(x._type) === 'request')) {
    if (requests.length >= LIMITS.requests) throw badImport(`the export holds more than ${LIMITS.requests} requests`);
    const headers: KeyValue[] = arr(r.headers).map(obj).filter((h) => str(h.name))
      .map((h) => ({ name: vars(str(h.name)), value: vars(str(h.value)), ...(h.disabled === true ? { enabled: false } : {}) }));
    const body = obj(r.body);
    let text = vars(str(body.text));
    if (!text && Array.isArray(body.params) && str(body.mimeType) === 'application/x-www-form-urlencoded') {
      text = arr(body.params).map(obj).filter((p) => p.disabled !== true).map((p) => `${encodeURIComponent(str(p.name))}=${encodeURIComponent(vars(str(p.value)))}`).join('&');
    }
    if (str(body.mimeType) === 'multipart/form-data') throw badImport(`request "${str(r.name)}" has a multipart body, which is not imported`);
    if (str(body.mimeType) && !headers.some((h) => h.name.toLowerCase() === 'content-type')) headers.push({ name: 'Content-Type', value: str(body.mimeType) });
    const query = arr(r.parameters).map(obj).filter((p) => p.disabled !== true && str(p.name)).map((p) => `${str(p.name)}=${vars(str(p.value))}`).join('&');
    const url = vars(str(r.url)) + (query ? (str(r.url).includes('?') ? '&' : '?') + query : '');
    requests.push(emptyRequest({
      name: str(r.name) || url, folder: folderOf(str(r.parentId)), method: (str(r.method) || 'GET').toUpperCase(), url, headers, body: text, auth: authOf(r.authentication),
    }));
  }
  const variables: EnvVariable[] = [];
  for (const env of resources.filter((x) => str(x._type) === 'environment')) {
    for (const [name, value] of Object.entries(obj(env.data))) {
      if (variables.length >= LIMITS.variables || variables.some((v) => v.name === name)) continue;
      if (typeof value !== 'object' || value === null) variables.push({ name, value: str(value), secret: false });
    }
  }
  const workspace = resources.find((x) => str(x._type) === 'workspace');
  return { format: 'insomnia', collection: { id: localId('c'), name: str(workspace?.name) || 'Insomnia export', requests }, variables };
}
