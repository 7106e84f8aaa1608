// The database browser's API as the Database page reads it: the generated server shapes (ui/src/data/api.gen.ts). No
// answer holds a connection's password: `has_password` says whether one is saved.
import type {
  DbColumnList, DbConnection, DbConnectionInput, DbConnectionList, DbLimits, DbQueryInput, DbQueryResult, DbRowsPage, DbTable, DbTableList,
} from '../../../data/api.gen.js';
import { ApiError, errorFromResponse, networkError } from '../../../data/api-error.js';

export type { DbColumnList, DbConnection, DbConnectionList, DbLimits, DbQueryResult, DbRowsPage, DbTable, DbTableList };
export type ConnectionInput = DbConnectionInput;
export type QueryInput = DbQueryInput;
export type Cell = string | number | null;

export const connectionPath = (id: string): string => `/api/db/connections/${encodeURIComponent(id)}`;

/** What each kind of connection is called on the page. */
export const KIND_NAMES: Record<DbConnection['kind'], string> = { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MariaDB/MySQL' };

/** Where a connection points, in one line: the file, or user@host:port/database. */
export const connectionTarget = (c: DbConnection): string =>
  c.kind === 'sqlite' ? c.path ?? '' : `${c.user ?? ''}@${c.host ?? ''}:${c.port ?? ''}/${c.database ?? ''}`;

/**
 * Runs the statement for its CSV and saves the answer as a file. A POST (the statement is the body), so it is fetched
 * with the session cookie and handed to the browser as a blob: no token or statement ever goes into a link.
 */
export async function downloadQueryCsv(id: string, body: QueryInput): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`${connectionPath(id)}/query.csv`, {
      method: 'POST', credentials: 'same-origin',
      headers: { accept: 'text/csv, application/json', 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
  } catch {
    throw networkError('the CSV');
  }
  if (!res.ok) {
    const text = await res.text();
    let parsed: unknown;
    try { parsed = JSON.parse(text); } catch { parsed = undefined; }
    throw errorFromResponse(res.status, parsed, 'the CSV');
  }
  const url = URL.createObjectURL(await res.blob());
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = 'query.csv';
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

export { ApiError };
