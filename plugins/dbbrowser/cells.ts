import { MAX_BLOB_BYTES, MAX_CELL_CHARS, type Cell } from './types.js';

/** A text cut to MAX_CELL_CHARS, with an ellipsis and the full length when cut. */
export const clipText = (s: string): string =>
  s.length > MAX_CELL_CHARS ? `${s.slice(0, MAX_CELL_CHARS)}… (${s.length.toLocaleString('en')} characters)` : s;

/** A blob as hex, `\x0a1b…` as PostgreSQL prints bytea, its first MAX_BLOB_BYTES only. */
export const blobText = (b: Uint8Array): string => {
  const hex = Buffer.from(b.buffer, b.byteOffset, Math.min(b.length, MAX_BLOB_BYTES)).toString('hex');
  return b.length > MAX_BLOB_BYTES ? `\\x${hex}… (${b.length.toLocaleString('en')} bytes)` : `\\x${hex}`;
};

/** A value of any of the drivers as the browser shows it. */
export function cellOf(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return clipText(v);
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Uint8Array) return blobText(v);
  return clipText(JSON.stringify(v) ?? String(v));
}

/** What a cell weighs against the result's budget, in characters. */
export const cellWeight = (c: Cell): number => (typeof c === 'string' ? c.length + 4 : 8);
