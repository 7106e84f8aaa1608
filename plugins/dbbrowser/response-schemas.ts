import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { MAX_CONNECTIONS } from './connection-store.js';
import { MAX_PAGE_ROWS, MAX_TABLES } from './types.js';

const text = (description?: string): JsonSchema => (description ? { type: 'string', description } : { type: 'string' });
const nullableText: JsonSchema = { type: ['string', 'null'] };
const cell: JsonSchema = { type: ['string', 'number', 'null'], description: 'Texts past 10,000 characters and blobs past 64 bytes (hex, \\x…) arrive shortened.' };

export const connectionView = closedObject({
  id: text(),
  name: text(),
  kind: { enum: ['sqlite', 'postgres', 'mysql'] },
  path: { type: ['string', 'null'], description: 'SQLite: the file, symlinks resolved.' },
  host: nullableText,
  port: { type: ['integer', 'null'] },
  database: nullableText,
  user: nullableText,
  ssl: { type: 'boolean' },
  has_password: { type: 'boolean', description: 'Whether a password is saved (encrypted); the password itself is never sent back.' },
  writable: { type: 'boolean', description: 'Writes on: statements run in read-write transactions (SQLite opened read-write), each one in the audit log. Off: the database refuses writes.' },
}, { title: 'DbConnection' });

export const connectionList = closedObject({
  connections: { type: 'array', maxItems: MAX_CONNECTIONS, items: connectionView },
  roots: { type: 'array', items: text(), description: 'Folders SQLite files may be opened from.' },
  limits: closedObject({
    row_cap: { type: 'integer' }, max_row_cap: { type: 'integer' }, statement_timeout_ms: { type: 'integer' },
    max_statement_timeout_ms: { type: 'integer' }, page_rows: { type: 'integer' },
  }, { title: 'DbLimits' }),
}, { title: 'DbConnectionList' });

const connectionName: JsonSchema = { type: 'string', minLength: 1, maxLength: 80, pattern: '^[^\\u0000-\\u001f]+$' };
const password: JsonSchema = { type: 'string', minLength: 1, maxLength: 1024, description: 'Stored encrypted; never sent back.' };

export const connectionInput = closedObject({
  name: connectionName,
  kind: { enum: ['sqlite', 'postgres', 'mysql'] },
  path: { type: 'string', minLength: 1, maxLength: 4096, description: 'sqlite: an absolute path under one of dbbrowser.roots.' },
  host: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^\\s/]+$' },
  port: { type: 'integer', minimum: 1, maximum: 65535 },
  database: { type: 'string', minLength: 1, maxLength: 63 },
  user: { type: 'string', minLength: 1, maxLength: 63 },
  password,
  ssl: { type: 'boolean' },
  writable: { type: 'boolean', description: 'Default false: the database refuses writes.' },
}, { title: 'DbConnectionInput', optional: ['path', 'host', 'port', 'database', 'user', 'password', 'ssl', 'writable'] });

export const connectionChange = closedObject({
  name: connectionName,
  writable: { type: 'boolean' },
  password: { oneOf: [password, { type: 'null' }], description: 'A new password; null forgets the saved one.' },
}, { title: 'DbConnectionChange', optional: ['name', 'writable', 'password'] });

export const tableList = closedObject({
  schemas: { type: 'array', items: text() },
  tables: {
    type: 'array', maxItems: MAX_TABLES,
    items: closedObject({
      schema: text(), name: text(), kind: { enum: ['table', 'view'] },
      row_count: { type: ['integer', 'null'], description: 'null: not counted (a view, or the 2 s counting budget ran out).' },
      row_count_exact: { type: 'boolean', description: `false: the server's estimate (PostgreSQL's pg_class.reltuples, MariaDB/MySQL's information_schema.TABLES.TABLE_ROWS), given for tables above 100,000 rows.` },
    }, { title: 'DbTable' }),
  },
  truncated: { type: 'boolean', description: `More than ${MAX_TABLES} tables: the list holds the first by schema and name.` },
}, { title: 'DbTableList' });

export const columnList = closedObject({
  columns: {
    type: 'array',
    items: closedObject({ name: text(), type: text(), nullable: { type: 'boolean' }, primary_key: { type: 'boolean' }, default: nullableText }, { title: 'DbColumn' }),
  },
}, { title: 'DbColumnList' });

const resultColumn = closedObject({ name: text(), type: nullableText }, { title: 'DbResultColumn' });

export const rowsPage = closedObject({
  columns: { type: 'array', items: resultColumn },
  rows: { type: 'array', maxItems: MAX_PAGE_ROWS, items: { type: 'array', items: cell } },
  next: { type: ['string', 'null'], description: 'The cursor of the next page; null on the last.' },
  paging: { enum: ['keyset', 'offset'], description: 'keyset: by primary key (or SQLite rowid), every page as fast as the first; offset: LIMIT/OFFSET.' },
}, { title: 'DbRowsPage' });

export const tableQuery: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['schema', 'table'],
  properties: {
    schema: { type: 'string', minLength: 1, maxLength: 128 },
    table: { type: 'string', minLength: 1, maxLength: 128 },
    limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_ROWS, default: 100 },
    cursor: { type: 'string', maxLength: 4096 },
  },
};

export const queryInput = closedObject({
  sql: { type: 'string', minLength: 1, maxLength: 100_000, description: 'One statement; a trailing semicolon is fine.' },
  max_rows: { type: 'integer', minimum: 1, maximum: 100_000, description: 'The row cap (default dbbrowser.row_cap, at most dbbrowser.max_row_cap).' },
  timeout_ms: { type: 'integer', minimum: 100, maximum: 3_600_000, description: 'The statement timeout (default dbbrowser.statement_timeout, at most dbbrowser.max_statement_timeout).' },
}, { title: 'DbQueryInput', optional: ['max_rows', 'timeout_ms'] });

export const queryResult = closedObject({
  columns: { type: 'array', items: resultColumn },
  rows: { type: 'array', items: { type: 'array', items: cell } },
  cut_at: { type: ['integer', 'null'], description: 'Set when the result was cut: the rows returned ("cut at N rows").' },
  cut_by: { enum: ['row_cap', 'bytes', null], description: 'row_cap: the row cap; bytes: the result passed about 8 MB.' },
  command: nullableText,
  affected: { type: ['integer', 'null'], description: 'Rows a write changed.' },
  duration_ms: { type: 'integer' },
  read_only: { type: 'boolean', description: 'The statement ran where the database refuses writes.' },
  row_cap: { type: 'integer' },
  timeout_ms: { type: 'integer' },
}, { title: 'DbQueryResult' });
