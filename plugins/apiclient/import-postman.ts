// Postman Collection Format v2.1 (and v2.0, the same shape for what is read here):
// https://schema.postman.com/json/collection/v2.1.0/collection.json. Folders are nested `item` arrays; a request's
// `url` is a string or an object with `raw`; bodies are raw, urlencoded or graphql (formdata and files are refused
// by name); auth is bearer or basic, as the request's or inherited from a folder or the collection.
import { badImport } from './errors.js';
import { emptyRequest, localId, LIMITS, type ApiRequest, type EnvVariable, type Imported, type KeyValue, type RequestAuth } from './types.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? v as Json : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

export const isPostman = (doc: Json): boolean => /schema\.(getpostman|postman)\.com\/json\/collection\/v2/.test(str(obj(doc.info).schema));

function authOf(a: unknown): RequestAuth | undefined {
  const auth = obj(a);
  const type = str(auth.type);
  if (!type) return undefined;
  const field = (list: unknown, key: string) => str(obj(arr(list).find((p) => str(obj(p).key) === key)).value);
  if (type === 'bearer') return { type: 'bearer', token: field(auth.bearer, 'token') };
  if (type === 'basic') return { type: 'basic', username: field(auth.basic, 'username'), password: field(auth.basic, 'password') };
  return { type: 'none' };
}

const pairs = (list: unknown): KeyValue[] => arr(list).map(obj).filter((p) => str(p.key))
  .map((p) => ({ name: str(p.key), value: str(p.value), ...(p.disabled === true ? { enabled: false } : {}) }));

function urlOf(u: unknown): string {
  if (typeof u === 'string') return u;
  const url = obj(u);
  if (str(url.raw)) return str(url.raw);
  const host = Array.isArray(url.host) ? url.host.map(str).join('.') : str(url.host);
  const path = Array.isArray(url.path) ? url.path.map(str).join('/') : str(url.path);
  const query = pairs(url.query).filter((q) => q.enabled !== false).map((q) => `${q.name}=${q.value}`).join('&');
  return `${url.protocol ? `${str(url.protocol)}://` : ''}${host}${path ? `/${path}` : ''}${query ? `?${query}` : ''}`;
}

function bodyOf(b: unknown, headers: KeyValue[]): string {
  const body = obj(b);
  const setType = (t: string) => { if (!headers.some((h) => h.name.toLowerCase() === 'content-type')) headers.push({ name: 'Content-Type', value: t }); };
  switch (str(body.mode)) {
    case 'raw': {
      const lang = str(obj(obj(body.options).raw).language);
      if (lang === 'json') setType('application/json');
      return str(body.raw);
    }
    case 'urlencoded': {
      setType('application/x-www-form-urlencoded');
      return pairs(body.urlencoded).filter((p) => p.enabled !== false).map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`).join('&');
    }
    case 'graphql': {
      setType('application/json');
      const g = obj(body.graphql);
      let variables: unknown = {};
      try { variables = str(g.variables) ? JSON.parse(str(g.variables)) : {}; } catch { /* kept empty */ }
      return JSON.stringify({ query: str(g.query), variables });
    }
    case 'formdata': case 'file': throw badImport(`Postman ${str(body.mode)} bodies are not imported (the editor sends text bodies)`);
    default: return '';
  }
}

export function importPostman(doc: Json): Imported {
  const info = obj(doc.info);
  const requests: ApiRequest[] = [];
  const walk = (items: unknown, folder: string, inherited: RequestAuth | undefined, depth: number) => {
    if (depth > 16) throw badImport('folders are nested more than 16 deep');
    for (const it of arr(items).map(obj)) {
      const auth = authOf(it.auth) ?? inherited;
      if (Array.isArray(it.item)) { walk(it.item, folder ? `${folder} / ${str(it.name)}` : str(it.name), auth, depth + 1); continue; }
      if (it.request === undefined) continue;
      if (requests.length >= LIMITS.requests) throw badImport(`the collection holds more than ${LIMITS.requests} requests`);
      const r = typeof it.request === 'string' ? { url: it.request } : obj(it.request);
      const headers = typeof r.header === 'string' ? [] : pairs(r.header);
      const body = bodyOf(r.body, headers);
      requests.push(emptyRequest({
        name: str(it.name) || urlOf(r.url), folder, method: (str(r.method) || 'GET').toUpperCase(), url: urlOf(r.url), headers, body,
        auth: authOf(r.auth) ?? auth ?? { type: 'none' },
      }));
    }
  };
  walk(doc.item, '', authOf(doc.auth), 0);
  const variables: EnvVariable[] = arr(doc.variable).map(obj).filter((v) => str(v.key)).slice(0, LIMITS.variables)
    .map((v) => ({ name: str(v.key), value: str(v.value), secret: false }));
  return { format: 'postman', collection: { id: localId('c'), name: str(info.name) || 'Postman collection', requests }, variables };
}
