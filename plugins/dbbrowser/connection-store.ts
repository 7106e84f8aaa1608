import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { httpError, pathWithin, uuidv7, type SecretBox, type Store } from '@vigil/plugin-sdk';
import { badConnection, DbBrowserErrors, unknownConnection } from './errors.js';

/** Connections the browser keeps at most. */
export const MAX_CONNECTIONS = 64;

export type ConnectionKind = 'sqlite' | 'postgres' | 'mysql';

/** A connection as saved, its password still sealed. */
export interface SavedConnection {
  id: string;
  name: string;
  kind: ConnectionKind;
  path: string | null;
  host: string | null;
  port: number | null;
  database: string | null;
  user: string | null;
  sealedPassword: string | null;
  ssl: boolean;
  writable: boolean;
  updatedAt: number;
}

/** What the browser sees of a connection: never the password, only whether one is saved. */
export interface ConnectionView {
  id: string;
  name: string;
  kind: ConnectionKind;
  path: string | null;
  host: string | null;
  port: number | null;
  database: string | null;
  user: string | null;
  ssl: boolean;
  has_password: boolean;
  writable: boolean;
}

export interface ConnectionInput {
  name: string;
  kind: ConnectionKind;
  path?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  ssl?: boolean;
  writable?: boolean;
}

export interface ConnectionChange {
  name?: string;
  writable?: boolean;
  /** A new password; null forgets the saved one. */
  password?: string | null;
}

interface Row {
  id: string; name: string; kind: string; path: string | null; host: string | null; port: number | null; database_name: string | null;
  username: string | null; password: string | null; ssl: number; writable: number; updated_at: number; [k: string]: unknown;
}

const fromRow = (r: Row): SavedConnection => ({
  id: r.id, name: r.name, kind: r.kind as ConnectionKind, path: r.path, host: r.host, port: r.port === null ? null : Number(r.port),
  database: r.database_name, user: r.username, sealedPassword: r.password, ssl: Boolean(Number(r.ssl)), writable: Boolean(Number(r.writable)),
  updatedAt: Number(r.updated_at),
});

export const viewOf = (c: SavedConnection): ConnectionView => ({
  id: c.id, name: c.name, kind: c.kind, path: c.path, host: c.host, port: c.port, database: c.database, user: c.user, ssl: c.ssl,
  has_password: c.sealedPassword !== null, writable: c.writable,
});

/**
 * The SQLite path `input` names, resolved (symlinks too) and checked to lie under one of `roots`, or a 400 that says
 * which roots there are. The file must exist: the browser never creates a database.
 */
export async function allowedSqlitePath(input: string, roots: string[]): Promise<string> {
  if (!isAbsolute(input)) throw badConnection(`the SQLite path must be absolute, e.g. ${resolve(roots[0] ?? '/', 'app.db')}`);
  let real: string;
  try {
    real = await realpath(input);
  } catch {
    throw badConnection(`there is no file at ${input}`);
  }
  const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => r)));
  if (!realRoots.some((root) => root !== real && pathWithin(root, real))) throw badConnection(`${input} is outside the folders SQLite files may be opened from (dbbrowser.roots: ${roots.join(', ') || 'none'})`);
  if (!(await stat(real)).isFile()) throw badConnection(`${input} is not a file`);
  return real;
}

/** The saved connections, in the plugin's table; passwords sealed under the plugin's key, bound to the id. */
export class ConnectionStore {
  private readonly table: string;

  constructor(private readonly store: Store, private readonly box: () => Promise<SecretBox>, private readonly now: () => number = Date.now) {
    this.table = store.table('connections');
  }

  async list(): Promise<SavedConnection[]> {
    return (await this.store.query<Row>(`SELECT * FROM ${this.table} ORDER BY name LIMIT ${MAX_CONNECTIONS}`)).map(fromRow);
  }

  async get(id: string): Promise<SavedConnection> {
    const rows = await this.store.query<Row>(`SELECT * FROM ${this.table} WHERE id = ?`, [id]);
    if (!rows.length) throw unknownConnection(id);
    return fromRow(rows[0]);
  }

  /** The password in plain text, for the driver only. */
  async password(c: SavedConnection): Promise<string | null> {
    return c.sealedPassword === null ? null : (await this.box()).unseal(c.sealedPassword, c.id);
  }

  /** Saves a connection whose settings the caller checked (the path resolved, the server answered). */
  async add(input: ConnectionInput & { path?: string }): Promise<SavedConnection> {
    const [{ n }] = await this.store.query<{ n: number }>(`SELECT count(*) AS n FROM ${this.table}`);
    if (Number(n) >= MAX_CONNECTIONS) throw httpError(DbBrowserErrors.TOO_MANY_CONNECTIONS, `${MAX_CONNECTIONS} connections are saved already; delete one first`);
    const id = uuidv7();
    const at = this.now();
    const sealed = input.password ? (await this.box()).seal(input.password, id) : null;
    const { changes } = await this.store.run(
      `INSERT INTO ${this.table} (id, name, kind, path, host, port, database_name, username, password, ssl, writable, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
      [id, input.name, input.kind, input.path ?? null, input.host ?? null, input.port ?? null, input.database ?? null, input.user ?? null, sealed,
        input.ssl ? 1 : 0, input.writable ? 1 : 0, at, at]);
    if (!changes) throw badConnection(`a connection named "${input.name}" is saved already`);
    return this.get(id);
  }

  async change(id: string, change: ConnectionChange): Promise<SavedConnection> {
    const current = await this.get(id);
    const sets: string[] = ['updated_at = ?'];
    const params: (string | number | null)[] = [Math.max(this.now(), current.updatedAt + 1)];
    if (change.name !== undefined) { sets.push('name = ?'); params.push(change.name); }
    if (change.writable !== undefined) { sets.push('writable = ?'); params.push(change.writable ? 1 : 0); }
    if (change.password !== undefined) { sets.push('password = ?'); params.push(change.password === null ? null : (await this.box()).seal(change.password, id)); }
    try {
      await this.store.run(`UPDATE ${this.table} SET ${sets.join(', ')} WHERE id = ?`, [...params, id]);
    } catch (err) {
      if (/unique|duplicate/i.test((err as Error).message)) throw badConnection(`a connection named "${change.name}" is saved already`);
      throw err;
    }
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const { changes } = await this.store.run(`DELETE FROM ${this.table} WHERE id = ?`, [id]);
    if (!changes) throw unknownConnection(id);
  }
}
