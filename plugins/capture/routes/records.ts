import { parseSearchTerms, searchMatch, type HttpRoutes, type Store } from '@vigil/plugin-sdk';
import { readRecord, readRecordPage, type RecordCursor, type RecordFilters } from '../../../gateway/records/records-query.js';
import { badQuery, CaptureErrors, recordNotFound } from '../errors.js';
import { parseSince } from '../time-range.js';
import { pageOf, pageProperties } from './page-query.js';
import { governedRecordSchema, recordPageSchema } from './schemas.js';

/** A position in the newest-first list: a record's time and id, `<epoch ms>.<id>` (the first dot splits them). */
const CURSOR = /^([0-9]{1,15})\.([\x21-\x7e]{1,200})$/;
const cursorProperty = (description: string) => ({ type: 'string', pattern: CURSOR.source, description });

/** Characters of the `q` filter: a path fragment, not a document. */
export const MAX_TEXT_FILTER = 200;
/** The body search's bounds: characters, and words and phrases (each one more index lookup). */
export const MAX_SEARCH_CHARS = 256;
const MAX_SEARCH_TERMS = 12;

const listQuery = {
  type: 'object',
  properties: {
    route: { type: 'string', maxLength: 1024, description: 'A rule glob (match.path) the record matched.' },
    q: { type: 'string', minLength: 1, maxLength: MAX_TEXT_FILTER, description: `Text the path holds, any case (ASCII letters on SQLite); at most ${MAX_TEXT_FILTER} characters.` },
    search: {
      type: 'string', minLength: 1, maxLength: MAX_SEARCH_CHARS,
      description: `Full-text search of the stored (governed) request and response bodies: every word must match, "a phrase" in order, word* as a prefix; nothing else is an operator. At most ${MAX_SEARCH_CHARS} characters and ${MAX_SEARCH_TERMS} words. Records are indexed by a job every few seconds, so the newest may not be found yet.`,
    },
    method: { type: 'string', pattern: '^[A-Za-z]{1,16}$', description: 'The request method (GET, POST, …), any case.' },
    tenant: { type: 'string', minLength: 1, maxLength: 1024, description: 'The tenant: the value of the label capture.tenant_label names (tenant by default).' },
    status: { type: 'string', pattern: '^([1-5]xx|[1-5][0-9]{2}|0)$', description: 'An exact status (404), a class (5xx), or 0 for exchanges the upstream never answered.' },
    since: { type: 'string', description: 'Epoch ms, an ISO 8601 date-time (UTC without an offset), or a duration back from now (15m, 24h, 7d).' },
    before: cursorProperty('The `next` cursor of a page: the records just older than it. As fast at any depth, and records stored meanwhile do not shift the page.'),
    after: cursorProperty('The `prev` cursor of a page: the records just newer than it (still listed newest first).'),
    ...pageProperties,
  },
  // Label names follow the policy's label syntax, so they can be spliced into a JSON path without quoting issues.
  patternProperties: { '^label\\.[a-zA-Z_][a-zA-Z0-9_]*$': { type: 'string', maxLength: 1024, description: 'label.<name>=<value>: records whose label has that value.' } },
};

const cursorText = (r: RecordCursor): string => `${r.time}.${r.id}`;
function parseCursor(text: string): RecordCursor {
  const m = CURSOR.exec(text)!;
  return { time: Number(m[1]), id: m[2] };
}

/** The filters a validated query names; `since` is parsed here, so a bad one is a 400 before any read. */
function filtersOf(q: Record<string, unknown>, tenantLabel: string, dialect: Store['dialect']): RecordFilters {
  const text = (key: string) => (typeof q[key] === 'string' ? q[key] as string : undefined);
  const labels = Object.entries(q).filter(([key]) => key.startsWith('label.')).map(([key, value]) => [key.slice(6), String(value)] as const);
  const tenant = text('tenant');
  if (tenant !== undefined) labels.push([tenantLabel, tenant]);
  const since = text('since');
  return {
    route: text('route'), status: text('status'), since: since === undefined ? undefined : parseSince(since),
    labels, method: text('method')?.toUpperCase(), text: text('q'), body: bodyMatch(text('search'), dialect),
  };
}

/** The body search's match for the store, or a 400 for text that cannot be searched. */
function bodyMatch(search: string | undefined, dialect: Store['dialect']): RecordFilters['body'] {
  if (search === undefined) return undefined;
  const parsed = parseSearchTerms(search, { maxChars: MAX_SEARCH_CHARS, maxTerms: MAX_SEARCH_TERMS });
  if ('error' in parsed) throw badQuery(CaptureErrors.SEARCH, parsed.error);
  return searchMatch(dialect, parsed.terms);
}

/** The list's response, spliced from the stored JSON texts: records are stored as the JSON the API answers with. */
function pageJson(records: readonly string[], page: { limit: number; offset: number; next: string | null; prev: string | null; truncated: boolean }): Buffer {
  return Buffer.from(`{"data":[${records.join(',')}],"limit":${page.limit},"offset":${page.offset},"next":${JSON.stringify(page.next)},` +
    `"prev":${JSON.stringify(page.prev)},"truncated":${page.truncated}}`);
}

/** `tenantLabel`: the label that names the tenant (capture.tenant_label), for the `tenant` filter. */
export function registerRecordRoutes(http: HttpRoutes, store: Store, tenantLabel: string): void {
  http.route({
    method: 'GET', path: '/api/gateway/records', tags: ['gateway'],
    summary: 'Governed records, newest first, with filters',
    response: recordPageSchema,
    description: '`next` is the cursor of the page after this one (older records; null at the end), `prev` of the page before it (newer records; null on the newest page). Pass one as `before=` or `after=`. '
      + 'A page holds at most 8 MB of records (one always): `truncated` is true when that, not `limit`, ended it. `offset` goes to 10,000 at most.',
    query: listQuery,
    async handler(ctx) {
      const { limit, offset } = pageOf(ctx.query);
      const before = typeof ctx.query.before === 'string' ? parseCursor(ctx.query.before) : null;
      const after = typeof ctx.query.after === 'string' ? parseCursor(ctx.query.after) : null;
      if ([before, after, offset > 0 ? offset : null].filter((x) => x !== null).length > 1) {
        throw badQuery(CaptureErrors.PAGE, 'before, after and offset each choose the page: give one of them');
      }
      const { rows, more, truncated } = await readRecordPage(store, { filters: filtersOf(ctx.query, tenantLabel, store.dialect), limit, offset, before, after });
      const at = (i: number) => (rows[i] ? cursorText(rows[i]) : null);
      const next = after ? at(rows.length - 1) : more ? at(rows.length - 1) : null;
      const prev = after ? (more ? at(0) : null) : before || offset > 0 ? at(0) : null;
      ctx.type = 'application/json';
      return pageJson(rows.map((r) => r.record), { limit, offset, next, prev, truncated });
    },
  });
  http.route({
    method: 'GET', path: '/api/gateway/records/:id', tags: ['gateway'],
    summary: 'One governed record',
    response: governedRecordSchema,
    async handler(ctx) {
      const record = await readRecord(store, ctx.params.id);
      if (record === undefined) throw recordNotFound(ctx.params.id);
      ctx.type = 'application/json';
      return Buffer.from(record);
    },
  });
}
