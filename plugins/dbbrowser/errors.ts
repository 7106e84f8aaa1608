import { defineErrorCodes, httpError, type HttpError } from '@vigil/plugin-sdk';

/** Codes of the database browser (plugin `dbbrowser`). */
export const DbBrowserErrors = defineErrorCodes('DBBROWSER', {
  CONNECTION_UNKNOWN: {
    status: 404,
    meaning: 'No saved database connection has that id.',
    action: 'List the connections with `GET /api/db/connections`.',
  },
  CONNECTION_INVALID: {
    status: 400,
    meaning: 'A connection to save is not usable: a SQLite path outside `dbbrowser.roots`, a file that is missing or not a SQLite database, a name in use, or a PostgreSQL, MariaDB or MySQL server that refused the login.',
    action: 'Fix what the message names; SQLite files must lie under one of the folders `dbbrowser.roots` lists.',
  },
  TOO_MANY_CONNECTIONS: {
    status: 409,
    meaning: 'As many connections as the browser keeps (64) are saved already.',
    action: 'Delete a connection you no longer use.',
  },
  TABLE_UNKNOWN: {
    status: 404,
    meaning: 'The database has no table or view of that name in that schema.',
    action: 'List the tables with `GET /api/db/connections/:id/tables`.',
  },
  CURSOR: {
    status: 400,
    meaning: 'The page cursor was not one this browser handed out for this table.',
    action: 'Leave `cursor` out for the first page, then pass the `next` of each page as it is.',
  },
  STATEMENT: {
    status: 400,
    meaning: 'The statement is empty, or holds more than one statement (the editor runs one at a time).',
    action: 'Run one statement per request; a trailing semicolon is fine.',
  },
  READ_ONLY: {
    status: 403,
    meaning: 'The database itself refused a write: the connection is read-only (SQLite opened read-only, PostgreSQL in a read-only transaction, MariaDB/MySQL in a read-only session and transaction: error 1792).',
    action: 'Turn on writes for this connection (a switch saved with it) if you mean to change data; every statement then run on it is in the audit log.',
  },
  QUERY_FAILED: {
    status: 400,
    meaning: 'The database refused or failed the statement (a syntax error, a missing table, a constraint); the message is the database\'s own.',
    action: 'Fix the statement as the database\'s message says.',
  },
  TIMEOUT: {
    status: 408,
    meaning: 'The statement ran longer than its timeout and was cancelled by the database (SQLite interrupted, PostgreSQL statement_timeout, MariaDB max_statement_time or MySQL max_execution_time, backed by a KILL QUERY).',
    action: 'Narrow the query (a WHERE, a LIMIT, an index), or give a longer `timeout_ms` up to `dbbrowser.max_statement_timeout`.',
  },
  UNREACHABLE: {
    status: 502,
    meaning: 'The database could not be reached or opened: the PostgreSQL, MariaDB or MySQL server did not answer or refused the login, or the SQLite file is gone or unreadable.',
    action: 'Check the server is up and the saved host, port, user and password; for SQLite, that the file still exists and Vigil\'s user can read it.',
  },
  SECRET_KEY: {
    status: 500,
    meaning: 'The key the connection passwords are encrypted with is missing, unreadable, readable by others, or is not the key a password was saved with.',
    action: 'Restore `<data_dir>/plugins/dbbrowser/secrets.key` (mode 0600), or enter the connection\'s password again.',
  },
});

export const unknownConnection = (id: string): HttpError => httpError(DbBrowserErrors.CONNECTION_UNKNOWN, `no database connection has the id "${id}"`);
export const badConnection = (message: string): HttpError => httpError(DbBrowserErrors.CONNECTION_INVALID, message);
