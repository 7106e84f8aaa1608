import type { Dialect, SqlValue } from '@vigil/plugin-sdk';
import { StoreError, StoreErrorCode } from './errors.js';
import { bindValue } from './sql-values.js';

const identifier = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** Table and column names are spliced into SQL, so only plain identifiers (optionally schema-qualified) pass. */
export function checkIdentifier(name: string, what: string): void {
  if (typeof name !== 'string' || !identifier.test(name)) {
    throw new StoreError(StoreErrorCode.IDENTIFIER,
      `store: ${what} ${JSON.stringify(name)} is not a plain SQL identifier (letters, digits and _, not starting with a digit)`);
  }
}

/** Most rows in one statement (a power of two), so big batches pay the statement overhead a few times, not once per row. */
const maxRowsPerStatement = 512;
/** SQL texts already built, by shape and row count; the shapes a process inserts are few (bounded regardless). */
const sqlTexts = new Map<string, string>();
const MAX_SQL_TEXTS = 1024;

export interface InsertChunk {
  sql: string;
  params: SqlValue[];
}

/**
 * Splits `rows` into multi-row INSERT statements that each stay under `maxParams` bound values.
 *
 * Every statement holds a power of two rows: as many full statements as fit, then the rest by its binary digits
 * (100 rows: 64, 32, 4). So a table's inserts use at most ten SQL texts, whatever the batch sizes, and the
 * connection's prepared statements are reused. With one text per row count, the telemetry lane's batches (cut by
 * time, so of every size) made SQLite parse a new statement of hundreds of placeholders for most batches, and evict
 * the cached ones.
 */
export function buildInsertChunks(
  dialect: Dialect, maxParams: number, table: string, columns: readonly string[],
  rows: readonly (readonly SqlValue[])[], onConflict: string | undefined,
): InsertChunk[] {
  checkIdentifier(table, 'table');
  if (columns.length === 0) throw new StoreError(StoreErrorCode.ROW_SHAPE, `store: insertMany into ${table} needs at least one column`);
  for (const c of columns) checkIdentifier(c, `column of ${table}`);
  const width = columns.length;
  const perStatement = largestPowerOfTwoUpTo(Math.max(1, Math.min(maxRowsPerStatement, Math.floor(maxParams / width))));
  const chunks: InsertChunk[] = [];
  for (let start = 0; start < rows.length;) {
    const count = Math.min(perStatement, largestPowerOfTwoUpTo(rows.length - start));
    const params = new Array<SqlValue>(count * width);
    for (let r = 0; r < count; r++) {
      const row = rows[start + r];
      if (!Array.isArray(row) || row.length !== width) {
        throw new StoreError(StoreErrorCode.ROW_SHAPE,
          `store: insertMany into ${table}: row ${start + r} has ${Array.isArray(row) ? row.length : 'no'} values, expected ${width} (${columns.join(', ')})`);
      }
      const base = r * width;
      for (let c = 0; c < width; c++) {
        const v = row[c];
        const t = typeof v;
        // Hot loop: plain values skip the normaliser (and the closure its error message needs).
        params[base + c] = t === 'string' || t === 'number' || v === null || t === 'boolean'
          ? v as SqlValue
          : bindValue(v, () => `insertMany into ${table}: row ${start + r}, column ${columns[c]}`);
      }
    }
    chunks.push({ sql: insertSql(dialect, table, columns, count, onConflict), params });
    start += count;
  }
  return chunks;
}

/** For 1 ≤ n < 2^31. */
const largestPowerOfTwoUpTo = (n: number): number => 1 << (31 - Math.clz32(n));

function insertSql(dialect: Dialect, table: string, columns: readonly string[], count: number, onConflict: string | undefined): string {
  const key = `${dialect}\u0000${table}\u0000${columns.join(',')}\u0000${count}\u0000${onConflict ?? ''}`;
  let sql = sqlTexts.get(key);
  if (sql === undefined) {
    sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${valuesList(dialect, count, columns.length)}${onConflict ? ` ${onConflict}` : ''}`;
    if (sqlTexts.size >= MAX_SQL_TEXTS) sqlTexts.clear();
    sqlTexts.set(key, sql);
  }
  return sql;
}

function valuesList(dialect: Dialect, count: number, width: number): string {
  const groups = new Array<string>(count);
  if (dialect === 'sqlite') {
    const group = `(${new Array(width).fill('?').join(', ')})`;
    groups.fill(group);
  } else {
    let n = 0;
    for (let r = 0; r < count; r++) {
      const slots = new Array<string>(width);
      for (let c = 0; c < width; c++) slots[c] = `$${++n}`;
      groups[r] = `(${slots.join(', ')})`;
    }
  }
  return groups.join(', ');
}
