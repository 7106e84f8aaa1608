// Reading governed records back for the dashboard's list and detail (GET /api/gateway/records…): the filters as SQL
// on `capture_records`, a page by offset or by keyset, bounded in bytes. The route parses the query and writes the
// cursors; this file alone knows the table's layout.
import type { SqlValue, Store } from '@vigil/plugin-sdk';
import { bodySearchCondition } from './record-search-index.js';

/** What a list of records is filtered by; every field optional, all of them must hold. */
export interface RecordFilters {
  /** A rule glob (match.path) the record matched, exactly. */
  route?: string;
  /** An exact status (404), a class (`5xx`), or `0` for exchanges the upstream never answered. */
  status?: string;
  /** Records at or after this time (epoch ms). */
  since?: number;
  /** Labels that must have these values; names in the policy's label syntax (they are spliced into a JSON path). */
  labels?: readonly (readonly [name: string, value: string])[];
  /** The request method, upper case. */
  method?: string;
  /** Text the path holds, any case (ASCII letters on SQLite). */
  text?: string;
  /** Words of the bodies: the match of plugin-sdk's searchMatch, over the body index (record-search-index.ts). */
  body?: Parameters<typeof bodySearchCondition>[1];
}

/** A position in the newest-first list: a record's time and id. */
export interface RecordCursor { time: number; id: string }

/** One page asked for: by offset, or just older than `before`, or just newer than `after` (one of the three). */
export interface RecordPageQuery {
  filters: RecordFilters;
  limit: number;
  offset: number;
  before?: RecordCursor | null;
  after?: RecordCursor | null;
}

/** A page read: its records newest first, with their JSON texts; `more` when another page follows past the far end. */
export interface RecordPage {
  rows: { time: number; id: string; record: string }[];
  /** A record or `limit` more matched past this page's far end. */
  more: boolean;
  /** MAX_PAGE_BYTES, not `limit`, ended the page. */
  truncated: boolean;
}

/**
 * Bytes of stored records one page holds at most; a page always holds one record, whatever its size. Records carry
 * bodies (up to `max_body_bytes` each, more once escaped): 200 of them whole could be a gigabyte on the heap.
 */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;

/**
 * Filters as SQL terms. Route and label filters first look for their JSON text in the stored column (`instr`/
 * `strpos` on the exact serialisation `recordRow` wrote), which is cheap, and parse the JSON only to confirm; on
 * SQLite both columns are in the time index, so a record that does not match is never read.
 */
function filterTerms(store: Store, f: RecordFilters): { parts: string[]; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  const pg = store.dialect === 'postgres';
  if (f.route !== undefined) {
    // Exact membership in the JSON array of matched globs: case-sensitive, and `_` or `%` in a glob are literal.
    if (pg) { parts.push('strpos(route, ?) > 0 AND route::jsonb @> ?::jsonb'); params.push(JSON.stringify(f.route), JSON.stringify([f.route])); }
    else { parts.push('instr(route, ?) > 0 AND EXISTS (SELECT 1 FROM json_each(route) WHERE json_each.value = ?)'); params.push(JSON.stringify(f.route), f.route); }
  }
  if (f.status !== undefined) {
    if (f.status.endsWith('xx')) {
      const c = Number(f.status[0]) * 100;
      parts.push('status >= ? AND status < ?');
      params.push(c, c + 100);
    } else { parts.push('status = ?'); params.push(Number(f.status)); }
  }
  if (f.since !== undefined) { parts.push('time >= ?'); params.push(f.since); }
  for (const [name, value] of f.labels ?? []) {
    const text = `${JSON.stringify(name)}:${JSON.stringify(value)}`;
    if (pg) { parts.push('strpos(labels, ?) > 0 AND (labels::jsonb ->> ?) = ?'); params.push(text, name, value); }
    else { parts.push('instr(labels, ?) > 0 AND json_extract(labels, ?) = ?'); params.push(text, `$."${name}"`, value); }
  }
  // Method and path live in the record's JSON only: its exact text (`"method":"GET"`, as recordJson writes it) or a
  // LIKE on the escaped fragment rules most records out before the JSON is parsed to confirm.
  if (f.method !== undefined) {
    parts.push(pg ? "strpos(record, ?) > 0 AND (record::jsonb ->> 'method') = ?" : "instr(record, ?) > 0 AND json_extract(record, '$.method') = ?");
    params.push(`"method":${JSON.stringify(f.method)}`, f.method);
  }
  if (f.text !== undefined) {
    const needle = f.text.toLowerCase();
    const like = `%${JSON.stringify(needle).slice(1, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(pg
      ? "record ILIKE ? ESCAPE '\\' AND strpos(lower(record::jsonb ->> 'path'), ?) > 0"
      : "record LIKE ? ESCAPE '\\' AND instr(lower(json_extract(record, '$.path')), ?) > 0");
    params.push(like, needle);
  }
  if (f.body !== undefined) {
    const search = bodySearchCondition(store, f.body);
    parts.push(search.sql);
    params.push(...search.params);
  }
  return { parts, params };
}

async function recordsById(store: Store, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await store.query<{ id: string; record: string }>(`SELECT id, record FROM capture_records WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
  return new Map(rows.map((r) => [r.id, r.record]));
}

/**
 * One page of records, newest first. Read in two steps: the matching rows' times, ids and sizes (one row more than
 * the page tells whether another follows), then the records of those that fit MAX_PAGE_BYTES, nearest the cursor
 * first. A record deleted between the two reads (retention) is left out.
 */
export async function readRecordPage(store: Store, q: RecordPageQuery): Promise<RecordPage> {
  const { parts, params } = filterTerms(store, q.filters);
  const { before, after } = q;
  // Keyset: `time <=` bounds the index range, the tie-break on id keeps records of the same millisecond in order.
  if (before) { parts.push('time <= ? AND (time < ? OR id < ?)'); params.push(before.time, before.time, before.id); }
  if (after) { parts.push('time >= ? AND (time > ? OR id > ?)'); params.push(after.time, after.time, after.id); }
  // Newer than `after`: the oldest of them, read upwards, so that the page ends right above the cursor.
  const direction = after ? 'ASC' : 'DESC';
  const found = await store.query<{ time: number | string; id: string; bytes: number | string }>(
    `SELECT time, id, octet_length(record) AS bytes FROM capture_records ${parts.length ? `WHERE ${parts.join(' AND ')}` : ''} ` +
    `ORDER BY time ${direction}, id ${direction} LIMIT ? OFFSET ?`, [...params, q.limit + 1, q.offset]);
  const over = found.length > q.limit;
  if (over) found.pop();
  let kept = 0;
  let bytes = 0;
  while (kept < found.length && (kept === 0 || bytes + Number(found[kept].bytes) <= MAX_PAGE_BYTES)) bytes += Number(found[kept++].bytes);
  const truncated = kept < found.length;
  const texts = await recordsById(store, found.slice(0, kept).map((r) => r.id));
  const rows = found.slice(0, kept).filter((r) => texts.has(r.id)).map((r) => ({ time: Number(r.time), id: r.id, record: texts.get(r.id)! }));
  if (after) rows.reverse();
  return { rows, more: over || truncated, truncated };
}

/** One stored record's JSON text, or undefined. */
export async function readRecord(store: Store, id: string): Promise<string | undefined> {
  const rows = await store.query<{ record: string }>('SELECT record FROM capture_records WHERE id = ?', [id]);
  return rows[0]?.record;
}
