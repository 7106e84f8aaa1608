// The pure parts of the MariaDB/MySQL engine: which setting bounds a statement on which server, the databases the
// browser leaves out, and type names for a result's columns.
import mysql from 'mysql2';

/** The server's own databases, left out of the list (they are there on every server and hold no user data). */
export const MYSQL_SYSTEM_SCHEMAS: readonly string[] = ['information_schema', 'performance_schema', 'mysql', 'sys'];

/**
 * The session assignment that makes the server cancel a statement after `timeoutMs`: MariaDB's max_statement_time
 * (seconds, any statement, fractions allowed) or MySQL's max_execution_time (ms, SELECT only; the client's KILL QUERY
 * bounds the others).
 */
export function mysqlTimeoutSetting(mariadb: boolean, timeoutMs: number): string {
  const ms = Math.max(1, Math.round(timeoutMs));
  return mariadb ? `max_statement_time = ${(ms / 1000).toFixed(3)}` : `max_execution_time = ${ms}`;
}

const TYPE_NAMES = new Map<number, string>(
  Object.entries(mysql.Types as unknown as Record<string, number | string>)
    .filter((e): e is [string, number] => typeof e[1] === 'number')
    .map(([name, code]) => [code, name.toLowerCase()]),
);

/** A result column's type name from the protocol's type code (`long`, `var_string`, `newdecimal`…), or null. */
export const typeNameOf = (code: number | undefined): string | null => (code === undefined ? null : TYPE_NAMES.get(code) ?? null);
