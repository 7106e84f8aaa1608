import { randomUUID } from 'node:crypto';
import type { Migration } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/index.js';
import { isProjectRole, isRole, type Grants, type ProjectRole, type Role } from './roles.js';

/** Recorded in `vigil_migrations` under this name (no plugin name has a colon). */
export const userMigrationOwner = 'vigil-core:users';

export const userMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'dashboard users, project roles and the audit log',
    up: `CREATE TABLE vigil_users (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      name TEXT,
      source TEXT NOT NULL,
      oidc_subject TEXT,
      password_hash TEXT,
      instance_role TEXT,
      disabled INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL,
      last_login_at BIGINT
    );
    CREATE UNIQUE INDEX vigil_users_email ON vigil_users (email);
    CREATE UNIQUE INDEX vigil_users_subject ON vigil_users (oidc_subject);
    CREATE TABLE vigil_user_projects (
      user_id TEXT NOT NULL,
      project TEXT NOT NULL,
      role TEXT NOT NULL,
      PRIMARY KEY (user_id, project)
    );
    CREATE TABLE vigil_audit (
      id TEXT PRIMARY KEY,
      at BIGINT NOT NULL,
      actor_id TEXT,
      actor TEXT NOT NULL,
      action TEXT NOT NULL,
      target TEXT NOT NULL,
      project TEXT,
      status INTEGER NOT NULL,
      address TEXT,
      detail TEXT
    );
    CREATE INDEX vigil_audit_at ON vigil_audit (at, id);
    CREATE TABLE vigil_oidc_logins (
      state_hash TEXT PRIMARY KEY,
      verifier TEXT NOT NULL,
      nonce TEXT NOT NULL,
      next TEXT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
  },
];

export type UserSource = 'oidc' | 'local';

/** One person who can sign in. Times are epoch ms. */
export interface User {
  id: string;
  email: string;
  name: string | null;
  source: UserSource;
  /** `<issuer> <sub>` of an OIDC user once they signed in; null for local users and invited ones not yet seen. */
  oidcSubject: string | null;
  passwordHash: string | null;
  grants: Grants;
  disabled: boolean;
  createdAt: number;
  lastLoginAt: number | null;
}

interface UserRow {
  id: string; email: string; name: string | null; source: string; oidc_subject: string | null; password_hash: string | null;
  instance_role: string | null; disabled: number | boolean; created_at: number; last_login_at: number | null;
}

const COLUMNS = 'id, email, name, source, oidc_subject, password_hash, instance_role, disabled, created_at, last_login_at';
/** Users `list()` returns at most (the Users page's bound). */
export const USER_LIST_LIMIT = 500;
/** Project grants one user may hold (bounds a row of the Users page and a grants read). */
export const GRANTS_PER_USER_LIMIT = 200;

/** Emails compare without case: `Ada@Example.com` and `ada@example.com` are one person. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** Users and their project grants in the core store (`vigil_users`, `vigil_user_projects`). */
export class UserTable {
  constructor(private readonly store: StoreBackend, private readonly now: () => number = Date.now) {}

  prepare(): Promise<void> {
    return this.store.migrate(userMigrationOwner, userMigrations);
  }

  private async withGrants(rows: UserRow[]): Promise<User[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const grants = new Map<string, Record<string, ProjectRole>>();
    for (let i = 0; i < ids.length; i += 500) {
      const slice = ids.slice(i, i + 500);
      const found = await this.store.query<{ user_id: string; project: string; role: string }>(
        `SELECT user_id, project, role FROM vigil_user_projects WHERE user_id IN (${slice.map(() => '?').join(', ')}) ORDER BY project`, slice);
      for (const g of found) {
        if (!isProjectRole(g.role)) continue;
        let map = grants.get(g.user_id);
        if (!map) grants.set(g.user_id, (map = {}));
        map[g.project] = g.role;
      }
    }
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      name: r.name,
      source: r.source === 'oidc' ? 'oidc' : 'local',
      oidcSubject: r.oidc_subject,
      passwordHash: r.password_hash,
      grants: { instance: isRole(r.instance_role) ? r.instance_role : null, projects: grants.get(r.id) ?? {} },
      disabled: r.disabled === true || Number(r.disabled) === 1,
      createdAt: Number(r.created_at),
      lastLoginAt: r.last_login_at === null ? null : Number(r.last_login_at),
    }));
  }

  private async one(where: string, value: string): Promise<User | undefined> {
    const rows = await this.store.query<UserRow & Record<string, unknown>>(`SELECT ${COLUMNS} FROM vigil_users WHERE ${where} = ?`, [value]);
    return (await this.withGrants(rows))[0];
  }

  byId(id: string): Promise<User | undefined> {
    return this.one('id', id);
  }

  byEmail(email: string): Promise<User | undefined> {
    return this.one('email', normaliseEmail(email));
  }

  bySubject(subject: string): Promise<User | undefined> {
    return this.one('oidc_subject', subject);
  }

  /** Every user, by email, at most USER_LIST_LIMIT; and how many there are. */
  async list(): Promise<{ users: User[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.store.query<UserRow & Record<string, unknown>>(`SELECT ${COLUMNS} FROM vigil_users ORDER BY email LIMIT ?`, [USER_LIST_LIMIT]),
      this.store.query<{ n: number }>('SELECT COUNT(*) AS n FROM vigil_users'),
    ]);
    return { users: await this.withGrants(rows), total: Number(count.n) };
  }

  /** Makes a user; resolves with it, or undefined when the email is taken. */
  async create(u: { email: string; name?: string | null; source: UserSource; oidcSubject?: string | null; passwordHash?: string | null; instanceRole: Role | null }): Promise<User | undefined> {
    const id = randomUUID();
    const email = normaliseEmail(u.email);
    const { changes } = await this.store.run(
      `INSERT INTO vigil_users (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, NULL) ON CONFLICT DO NOTHING`,
      [id, email, u.name ?? null, u.source, u.oidcSubject ?? null, u.passwordHash ?? null, u.instanceRole, this.now()]);
    return changes === 1 ? this.byId(id) : undefined;
  }

  async setInstanceRole(id: string, role: Role | null): Promise<boolean> {
    return (await this.store.run('UPDATE vigil_users SET instance_role = ? WHERE id = ?', [role, id])).changes === 1;
  }

  /** Sets (or with null removes) the user's role in `project`. */
  async setProjectRole(id: string, project: string, role: ProjectRole | null): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.run('DELETE FROM vigil_user_projects WHERE user_id = ? AND project = ?', [id, project]);
      if (role !== null) await tx.run('INSERT INTO vigil_user_projects (user_id, project, role) VALUES (?, ?, ?)', [id, project, role]);
    });
  }

  async setDisabled(id: string, disabled: boolean): Promise<boolean> {
    return (await this.store.run('UPDATE vigil_users SET disabled = ? WHERE id = ?', [disabled ? 1 : 0, id])).changes === 1;
  }

  async setPasswordHash(id: string, hash: string): Promise<boolean> {
    return (await this.store.run("UPDATE vigil_users SET password_hash = ? WHERE id = ? AND source = 'local'", [hash, id])).changes === 1;
  }

  /** An OIDC sign-in: binds the subject (an invited user's first sign-in), the name, and the time. */
  async recordSignIn(id: string, o: { oidcSubject?: string; name?: string | null }): Promise<void> {
    if (o.oidcSubject !== undefined) {
      await this.store.run('UPDATE vigil_users SET oidc_subject = ?, name = COALESCE(?, name), last_login_at = ? WHERE id = ?',
        [o.oidcSubject, o.name ?? null, this.now(), id]);
    } else {
      await this.store.run('UPDATE vigil_users SET last_login_at = ? WHERE id = ?', [this.now(), id]);
    }
  }

  /** Whether any local user exists (the login form then offers email and password). */
  async hasLocalUsers(): Promise<boolean> {
    return (await this.store.query("SELECT 1 AS one FROM vigil_users WHERE source = 'local' LIMIT 1")).length > 0;
  }

  async countProjectGrants(id: string): Promise<number> {
    const [row] = await this.store.query<{ n: number }>('SELECT COUNT(*) AS n FROM vigil_user_projects WHERE user_id = ?', [id]);
    return Number(row.n);
  }
}
