import type { DashboardUser } from '@vigil/plugin-sdk';
import type { User, UserTable } from './user-table.js';

/** The dashboard token's user: the break-glass owner, who is no row in vigil_users. */
export const TOKEN_USER: DashboardUser = Object.freeze({ id: null, email: null, instanceRole: 'owner', projects: Object.freeze({}) });

/** Users remembered per process. */
const CACHE_MAX = 10_000;

export const dashboardUserOf = (u: User): DashboardUser => ({ id: u.id, email: u.email, instanceRole: u.grants.instance, projects: u.grants.projects });

/**
 * Who a session's user is, for every request: read from the store and trusted for `recheckMs` (the bound on how late
 * another process notices a role change or a disabled user; the process that made the change forgets at once).
 */
export class UserDirectory {
  private readonly cache = new Map<string, { user: DashboardUser | null; readAt: number }>();
  private epoch = 0;

  constructor(readonly table: UserTable, private readonly recheckMs = 2000, private readonly now: () => number = Date.now) {}

  /** The enabled user `id`, or null when there is none or they are disabled. */
  async get(id: string): Promise<DashboardUser | null> {
    const now = this.now();
    const cached = this.cache.get(id);
    if (cached && now - cached.readAt < this.recheckMs) return cached.user;
    const epoch = this.epoch;
    const row = await this.table.byId(id);
    const user = row && !row.disabled ? dashboardUserOf(row) : null;
    if (epoch === this.epoch) {
      this.cache.delete(id);
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(id, { user, readAt: now });
    }
    return user;
  }

  /** Forgets what this process read about `id`, after a change made here. */
  forget(id: string): void {
    this.epoch++;
    this.cache.delete(id);
  }
}
