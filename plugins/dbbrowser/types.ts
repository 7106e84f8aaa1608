/** A value as the browser shows it: text, a number, or null. Blobs and long texts arrive shortened (cells.ts). */
export type Cell = string | number | null;

export interface ResultColumn {
  name: string;
  /** The database's type name where it tells one (PostgreSQL always; SQLite for table columns only). */
  type: string | null;
}

/** One statement's answer, bounded by the row cap and a byte budget. */
export interface QueryResult {
  columns: ResultColumn[];
  rows: Cell[][];
  /** The rows returned when the result was cut (the row cap or the byte budget), else null. */
  cut_at: number | null;
  cut_by: 'row_cap' | 'bytes' | null;
  /** What the database says the statement was (`SELECT`, `INSERT`…), where it says. */
  command: string | null;
  /** Rows changed, for statements that change rows; null otherwise. */
  affected: number | null;
  duration_ms: number;
}

export interface TableInfo {
  schema: string;
  name: string;
  kind: 'table' | 'view';
  /** Rows in the table; null when not counted (a view, or the counting budget ran out). */
  row_count: number | null;
  /** True for a count(*), false for PostgreSQL's planner estimate (pg_class.reltuples) of a big table. */
  row_count_exact: boolean;
}

export interface TableList {
  schemas: string[];
  tables: TableInfo[];
  /** True when there were more tables than the list holds (MAX_TABLES). */
  truncated: boolean;
}

export interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
  primary_key: boolean;
  default: string | null;
}

export interface RowsPage {
  columns: ResultColumn[];
  rows: Cell[][];
  /** The cursor of the next page, or null on the last. */
  next: string | null;
  /** keyset: pages follow the primary key (or SQLite's rowid), each as fast as the first; offset: LIMIT/OFFSET. */
  paging: 'keyset' | 'offset';
}

export interface QueryOptions {
  timeoutMs: number;
  cap: number;
  writable: boolean;
}

/** Where a server engine (PostgreSQL, MariaDB/MySQL) connects, and as whom; the password unsealed for the driver only. */
export interface ServerLogin {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string | null;
  ssl: boolean;
}

/** One open database, whatever its kind. Every call is bounded by a timeout, a row cap or both. */
export interface DbEngine {
  tables(): Promise<TableList>;
  columns(schema: string, table: string): Promise<ColumnInfo[]>;
  rows(schema: string, table: string, limit: number, cursor: string | undefined, timeoutMs: number): Promise<RowsPage>;
  query(sql: string, options: QueryOptions): Promise<QueryResult>;
  close(): Promise<void>;
}

/** Tables a list holds at most. */
export const MAX_TABLES = 2000;
/** Rows of one page of a table at most. */
export const MAX_PAGE_ROWS = 500;
/** Characters of one text cell kept; the rest is cut with an ellipsis. */
export const MAX_CELL_CHARS = 10_000;
/** Bytes of a blob shown (as hex). */
export const MAX_BLOB_BYTES = 64;
/** The characters of text a result holds at most before it is cut (about 8 MB of UTF-16). */
export const MAX_RESULT_CHARS = 4 * 1024 * 1024;
