// What the server engines share of paging a table: which column pages it (a one-column primary key: keyset; none:
// LIMIT/OFFSET), where the cursor says to start, and the page and next cursor from the rows the server gave (one
// more than the page, which tells whether there is a next one).
import { httpError } from '@vigil/plugin-sdk';
import { cellOf } from './cells.js';
import { DbBrowserErrors } from './errors.js';
import { decodeCursor, encodeCursor } from './sqlite-task.js';
import { MAX_PAGE_ROWS, type ColumnInfo, type RowsPage } from './types.js';

export interface PagePlan {
  /** The column pages follow, or null for LIMIT/OFFSET. */
  key: string | null;
  /** Rows of the page; the query asks for one more. */
  n: number;
  /** The last key of the page before (keyset), the offset (offset), or null on the first page. */
  position: unknown;
}

/** The plan of a page, or a 400 for a cursor this browser did not hand out for this kind of paging. */
export function planPage(cols: ColumnInfo[], limit: number, cursor: string | undefined): PagePlan {
  const keys = cols.filter((k) => k.primary_key);
  const key = keys.length === 1 ? keys[0].name : null;
  try {
    return { key, n: Math.min(Math.max(1, limit), MAX_PAGE_ROWS), position: decodeCursor(cursor, key ? 'k' : 'o') };
  } catch (err) {
    throw httpError(DbBrowserErrors.CURSOR, (err as Error).message);
  }
}

/** The page of `got` (up to n + 1 rows as arrays, in `cols`' order) and the next page's cursor. */
export function finishPage(cols: ColumnInfo[], plan: PagePlan, got: unknown[][]): RowsPage {
  const page = got.slice(0, plan.n);
  const keyIndex = plan.key ? cols.findIndex((k) => k.name === plan.key) : -1;
  const next = got.length <= plan.n ? null
    : plan.key ? encodeCursor('k', page[page.length - 1][keyIndex]) : encodeCursor('o', Number(plan.position ?? 0) + plan.n);
  return { columns: cols.map((k) => ({ name: k.name, type: k.type })), rows: page.map((r) => r.map(cellOf)), next, paging: plan.key ? 'keyset' : 'offset' };
}
