// Field observations for unit tests, aggregated from exchanges by the contract of gateway/fields/api-fields.ts
// (counts, parents, kinds, formats per route, location, status and name), and written into `capture_fields` by
// capture's own migrations and writer. The e2e tests and the bench use the real recorder of the governance workers;
// this is for inputs that must be exact (a presence of 96 in 100) without a gateway in the way.
import { type Store } from '@vigil/plugin-sdk';
import { classifySegment, routeTemplate, pathTemplate, type FieldLocation, type FieldObservation, type JsonKind, type ValueFormat } from '../../gateway/fields/api-fields.js';
import { captureMigrations } from '../../gateway/records/migrations.js';
import { writeFields } from '../../gateway/fields/field-writer.js';

export interface Exchange {
  method: string;
  /** The request path as sent: `/users/42?page=2`. */
  path: string;
  status: number;
  headers?: Record<string, string>;
  responseHeaders?: Record<string, string>;
  requestBody?: unknown;
  responseBody?: unknown;
  /** JSON paths and header/query names a rule masked (`request_body:$.card`, `query:email`). */
  redacted?: string[];
  /** Epoch ms; default 1,700,000,000,000. */
  time?: number;
}

const FORMATS: [ValueFormat, RegExp][] = [
  ['uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i],
  ['date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['email', /^[^@\s]+@[^@\s]+\.[^@\s]+$/],
  ['uri', /^https?:\/\/\S+$/],
  ['ipv4', /^(\d{1,3}\.){3}\d{1,3}$/],
  ['card-like', /^\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}$/],
  ['integer', /^-?\d+$/],
];

function kindOf(v: unknown): JsonKind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonKind;
}

const scalarKind = (s: string): JsonKind => (/^-?\d+$/.test(s) ? 'integer' : /^-?\d+\.\d+$/.test(s) ? 'number' : 'string');

export class FieldAggregator {
  private rows = new Map<string, FieldObservation>();
  /** Times each object-valued path held an object, the parents of its keys. */
  private objects = new Map<string, number>();

  add(x: Exchange): void {
    const route = routeTemplate(x.method, x.path);
    const time = x.time ?? 1_700_000_000_000;
    const redacted = new Set(x.redacted ?? []);
    const key = (location: FieldLocation, status: number) => `${route}\u0000${location}\u0000${status}`;
    this.bump(route, 'exchange', x.status, '', time, null, false);
    this.objects.set(key('exchange', x.status), (this.objects.get(key('exchange', x.status)) ?? 0) + 1);
    this.objects.set(key('exchange', 0), (this.objects.get(key('exchange', 0)) ?? 0) + 1);
    const [pathname, search = ''] = x.path.split('?');
    const template = pathTemplate(pathname);
    const values = pathname.split('/').filter((_, i, all) => i > 0 && i < all.length);
    let p = 0;
    for (const segment of template.path.split('/').slice(1)) {
      if (segment.startsWith('{')) this.scalar(route, 'path', 0, segment.slice(1, -1), values[p] ?? '', time, false);
      p++;
    }
    for (const [name, value] of new URLSearchParams(search)) this.scalar(route, 'query', 0, name, value, time, redacted.has(`query:${name}`));
    for (const [name, value] of Object.entries(x.headers ?? {})) this.scalar(route, 'request_header', 0, name.toLowerCase(), value, time, redacted.has(`request_header:${name.toLowerCase()}`));
    for (const [name, value] of Object.entries(x.responseHeaders ?? {})) this.scalar(route, 'response_header', x.status, name.toLowerCase(), value, time, false);
    if (x.requestBody !== undefined) this.json(route, 'request_body', 0, '$', x.requestBody, time, redacted);
    if (x.responseBody !== undefined) this.json(route, 'response_body', x.status, '$', x.responseBody, time, redacted);
  }

  private scalar(route: string, location: FieldLocation, status: number, name: string, value: string, time: number, masked: boolean) {
    this.bump(route, location, status, name, time, value, masked, scalarKind(value));
  }

  private json(route: string, location: FieldLocation, status: number, path: string, value: unknown, time: number, redacted: Set<string>) {
    this.bump(route, location, status, path, time, typeof value === 'string' ? value : null, redacted.has(`${location}:${path}`), kindOf(value));
    if (Array.isArray(value)) for (const v of value) this.json(route, location, status, `${path}[*]`, v, time, redacted);
    else if (typeof value === 'object' && value !== null) {
      const k = `${route}\u0000${location}\u0000${status}\u0000${path}`;
      this.objects.set(k, (this.objects.get(k) ?? 0) + 1);
      for (const [name, v] of Object.entries(value)) {
        // As the recorder: keys that are values (ids, emails) are one field `.*`; odd keys are quoted.
        const child = classifySegment(name).param ? `${path}.*`
          : /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(name) ? `${path}.${name}` : `${path}['${name.replace(/[\\']/g, (c) => `\\${c}`)}']`;
        this.json(route, location, status, child, v, time, redacted);
      }
    }
  }

  private bump(route: string, location: FieldLocation, status: number, name: string, time: number, text: string | null, masked: boolean, kind?: JsonKind) {
    const k = `${route}\u0000${location}\u0000${status}\u0000${name}`;
    let row = this.rows.get(k);
    if (row === undefined) {
      this.rows.set(k, row = { route, location, status, name, count: 0, parents: 0, kinds: {}, formats: {}, redacted: 0, firstSeen: time, lastSeen: time });
    }
    row.count++;
    if (kind) row.kinds[kind] = (row.kinds[kind] ?? 0) + 1;
    if (text !== null) {
      const format = FORMATS.find(([, re]) => re.test(text));
      if (format) row.formats[format[0]] = (row.formats[format[0]] ?? 0) + 1;
    }
    if (masked) row.redacted++;
    row.firstSeen = Math.min(row.firstSeen, time);
    row.lastSeen = Math.max(row.lastSeen, time);
  }

  /** The rows, with parents: the exchanges for top-level fields, the parent object's count for keys, elements for `[*]`. */
  observations(): FieldObservation[] {
    return [...this.rows.values()].map((row) => {
      const base = `${row.route}\u0000`;
      let parents: number;
      if (row.location === 'exchange') parents = row.count;
      else if (row.name === '$' || !['request_body', 'response_body'].includes(row.location)) {
        parents = this.objects.get(`${base}exchange\u0000${row.location.startsWith('response') ? row.status : 0}`) ?? row.count;
      } else if (row.name.endsWith('[*]')) parents = row.count;
      else {
        const parent = row.name.replace(/(\.[^.[]+|\['(?:[^'\\]|\\.)*'\])$/, '');
        parents = this.objects.get(`${base}${row.location}\u0000${row.status}\u0000${parent}`) ?? row.count;
      }
      return { ...row, parents, kinds: { ...row.kinds }, formats: { ...row.formats } };
    });
  }
}

export function observe(exchanges: Iterable<Exchange>): FieldObservation[] {
  const agg = new FieldAggregator();
  for (const x of exchanges) agg.add(x);
  return agg.observations();
}

/** Creates `capture_fields` (capture's migrations) and writes the rows with capture's writer. */
export async function writeFieldRows(store: Store, rows: readonly FieldObservation[]): Promise<void> {
  await store.migrate(captureMigrations);
  await writeFields(store, rows);
}
