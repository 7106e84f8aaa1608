import type { SqlValue } from '@vigil/plugin-sdk';
import { StoreError, StoreErrors, sqlExcerpt } from './errors.js';

/**
 * Brings one value to a form both drivers bind the same way. node-sqlite3 binds a bigint as NULL, so bigints become
 * numbers when exact and decimal strings otherwise (an INTEGER column converts such text back to an integer).
 * Uint8Array becomes a Buffer (BLOB / bytea).
 */
export function bindValue(v: unknown, where: () => string): SqlValue {
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'boolean':
      return v;
    case 'bigint':
      return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
    case 'object':
      if (v === null || Buffer.isBuffer(v)) return v;
      if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      break;
    default:
      break;
  }
  const kind = v === undefined ? 'undefined' : typeof v === 'object' ? (v as object).constructor?.name ?? 'object' : typeof v;
  throw new StoreError(StoreErrors.PARAMS,
    `store: ${where()} is ${kind}; SQL values are string, number, bigint, boolean, null or Uint8Array (serialise objects with JSON.stringify, use null for missing values)`);
}

/** Checks the value count against the placeholders and normalises every value. */
export function bindParams(sql: string, placeholders: number, params: readonly unknown[] | undefined): SqlValue[] {
  const values = params ?? [];
  if (values.length !== placeholders) {
    throw new StoreError(StoreErrors.PARAMS,
      `store: the statement has ${placeholders} ? placeholder(s) but ${values.length} value(s) were given (in: ${sqlExcerpt(sql)})`);
  }
  const out = new Array<SqlValue>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = bindValue(values[i], () => `value ${i + 1} of "${sqlExcerpt(sql, 60)}"`);
  return out;
}
