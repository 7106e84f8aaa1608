import type { Dialect, SqlValue } from '@vigil/plugin-sdk';
import { StoreError, StoreErrors } from './errors.js';
import { bindValue } from './sql-values.js';

const identifier = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** Table and column names are spliced into SQL, so only plain identifiers (optionally schema-qualified) pass. */
export function checkIdentifier(name: string, what: string): void {
  if (typeof name !== 'string' || !identifier.test(name)) {
    throw new StoreError(StoreErrors.IDENTIFIER,
      `store: ${what} ${JSON.stringify(name)} is not a plain SQL identifier (letters, digits and _, not starting with a digit)`);
  }
}

/** Most rows in one statement, so big batches pay the statement overhead a few times, not once per row. */
const maxRowsPerStatement = 500;

export interface InsertChunk {
  sql: string;
  params: SqlValue[];
}

/**
 * Splits `rows` into multi-row INSERT statements that each stay under `maxParams` bound values.
 * Statements of a full chunk share one SQL text, so the database's statement cache (and ours) sees few distinct texts.
 */
export function buildInsertChunks(
  dialect: Dialect, maxParams: number, table: string, columns: readonly string[],
  rows: readonly (readonly SqlValue[])[], onConflict: string | undefined,
): InsertChunk[] {
  checkIdentifier(table, 'table');
  if (columns.length === 0) throw new StoreError(StoreErrors.ROW_SHAPE, `store: insertMany into ${table} needs at least one column`);
  for (const c of columns) checkIdentifier(c, `column of ${table}`);
  const width = columns.length;
  const perStatement = Math.max(1, Math.min(maxRowsPerStatement, Math.floor(maxParams / width)));
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
  const tail = onConflict ? ` ${onConflict}` : '';
  const texts = new Map<number, string>();
  const chunks: InsertChunk[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const count = Math.min(perStatement, rows.length - start);
    let sql = texts.get(count);
    if (sql === undefined) {
      sql = head + valuesList(dialect, count, width) + tail;
      texts.set(count, sql);
    }
    const params = new Array<SqlValue>(count * width);
    for (let r = 0; r < count; r++) {
      const row = rows[start + r];
      if (!Array.isArray(row) || row.length !== width) {
        throw new StoreError(StoreErrors.ROW_SHAPE,
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
    chunks.push({ sql, params });
  }
  return chunks;
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
