import { randomBytes } from 'node:crypto';
import type { Logger } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/index.js';

/** One entry: who did what, when, to what, and how it ended. Times are epoch ms. */
export interface AuditEntry {
  id: string;
  at: number;
  /** The user's id; null for the dashboard token and for sign-ins that failed before a user was known. */
  actorId: string | null;
  /** What the entry shows as the actor: an email, `dashboard token`, or what a failed sign-in claimed. */
  actor: string;
  /** `sign-in`, `sign-in refused`, `sign-out`, or a route: `POST /api/llm/projects/:project/evals`. */
  action: string;
  /** The path the request named (first 512 characters), or the sign-in method. */
  target: string;
  project: string | null;
  /** The HTTP status the request was answered with. */
  status: number;
  address: string | null;
  /** One line of context (why a sign-in was refused), at most 512 characters. */
  detail: string | null;
}

export type AuditInput = Omit<AuditEntry, 'id' | 'at'>;

/** Entries one page of `GET /api/audit` returns at most. */
export const AUDIT_PAGE_LIMIT = 200;
/** How long entries are kept, in ms: 180 days. Older ones are deleted by the hourly prune. */
export const AUDIT_RETENTION_MS = 180 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;
const TEXT_CHARS = 512;

interface Row {
  id: string; at: number; actor_id: string | null; actor: string; action: string; target: string; project: string | null;
  status: number; address: string | null; detail: string | null;
}

const clip = (s: string | null): string | null => (s === null ? null : s.length > TEXT_CHARS ? `${s.slice(0, TEXT_CHARS - 1)}…` : s);

/**
 * The audit log in the core store (`vigil_audit`, made by user-table.ts's migration). Ids sort by time: a 13-digit
 * base-36 ms prefix and random bits, so the page cursor is the last id seen.
 */
export class AuditLog {
  private lastPrune = 0;

  constructor(private readonly store: StoreBackend, private readonly options: { log?: Logger; now?: () => number } = {}) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Writes one entry; a failure is logged, never thrown (the change it records has happened already). */
  async write(entry: AuditInput): Promise<void> {
    const at = this.now();
    const id = `${at.toString(36).padStart(13, '0')}${randomBytes(6).toString('hex')}`;
    try {
      await this.store.run(
        'INSERT INTO vigil_audit (id, at, actor_id, actor, action, target, project, status, address, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [id, at, entry.actorId, clip(entry.actor)!, clip(entry.action)!, clip(entry.target)!, entry.project, entry.status, entry.address, clip(entry.detail)]);
      if (at - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = at;
        await this.store.run('DELETE FROM vigil_audit WHERE at < ?', [at - AUDIT_RETENTION_MS]);
      }
    } catch (err) {
      this.options.log?.error('audit log: cannot write an entry', { action: entry.action, actor: entry.actor, err: err as Error });
    }
  }

  /** Newest first, `limit` (≤ AUDIT_PAGE_LIMIT) entries older than the cursor `before` (an entry id); `action` is a prefix. */
  async page(o: { before?: string; limit: number; actor?: string; project?: string; action?: string }): Promise<{ entries: AuditEntry[]; next: string | null }> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (o.before) { where.push('id < ?'); params.push(o.before); }
    // A prefix compared as text (no LIKE: its wildcards would need escaping), the same on SQLite and PostgreSQL.
    if (o.action) { where.push('substr(action, 1, ?) = ?'); params.push(o.action.length, o.action); }
    if (o.actor) { where.push('actor = ?'); params.push(o.actor); }
    if (o.project) { where.push('project = ?'); params.push(o.project); }
    const limit = Math.min(Math.max(1, o.limit), AUDIT_PAGE_LIMIT);
    const rows = await this.store.query<Row & Record<string, unknown>>(
      `SELECT id, at, actor_id, actor, action, target, project, status, address, detail FROM vigil_audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
      [...params, limit + 1]);
    const entries = rows.slice(0, limit).map((r) => ({
      id: r.id, at: Number(r.at), actorId: r.actor_id, actor: r.actor, action: r.action, target: r.target, project: r.project,
      status: Number(r.status), address: r.address, detail: r.detail,
    }));
    return { entries, next: rows.length > limit ? entries[entries.length - 1].id : null };
  }
}
