import { isOpen, type OpenAt, type SessionBackend, type SessionEndReason, type SessionRow, type SessionTarget } from './session-backend.js';

/**
 * Sessions in this process's memory, for a runtime without a store (no enabled plugin needs one): they end with the
 * process. Rows are made only by a login with the right token, and pruned at each login (dashboard-sessions.ts).
 */
export class MemorySessionBackend implements SessionBackend {
  readonly kind = 'memory' as const;
  private readonly rows = new Map<string, SessionRow>();

  /** `maxRows`: the bound on memory; a login beyond it drops the session seen least recently. */
  constructor(private readonly maxRows = 10_000) {}

  async prepare(): Promise<void> {}

  async insert(row: SessionRow): Promise<void> {
    if (this.rows.size >= this.maxRows) {
      let stalest: SessionRow | undefined;
      for (const r of this.rows.values()) if (!stalest || r.lastSeenAt < stalest.lastSeenAt) stalest = r;
      this.rows.delete(stalest!.key);
    }
    this.rows.set(row.key, { ...row });
  }

  async find(key: string): Promise<SessionRow | undefined> {
    const row = this.rows.get(key);
    return row && { ...row };
  }

  async touch(key: string, at: number): Promise<void> {
    const row = this.rows.get(key);
    if (row && row.lastSeenAt < at) row.lastSeenAt = at;
  }

  async end(target: SessionTarget, open: OpenAt, reason: SessionEndReason): Promise<number> {
    let ended = 0;
    for (const row of this.rows.values()) {
      if (!isOpen(row, open)) continue;
      const hit = 'key' in target ? row.key === target.key : 'handle' in target ? row.handle === target.handle
        : 'userId' in target ? row.userId === target.userId : row.handle !== target.allBut;
      if (!hit) continue;
      row.endedAt = open.now;
      row.endedReason = reason;
      ended++;
    }
    return ended;
  }

  async endOtherCredentials(credential: string, at: number): Promise<number> {
    let ended = 0;
    for (const row of this.rows.values()) {
      if (row.endedAt !== null || row.credential === credential) continue;
      row.endedAt = at;
      row.endedReason = 'token_changed';
      ended++;
    }
    return ended;
  }

  async listOpen(open: OpenAt, limit: number): Promise<{ rows: SessionRow[]; total: number }> {
    const rows = [...this.rows.values()].filter((r) => isOpen(r, open)).sort((a, b) => b.lastSeenAt - a.lastSeenAt);
    return { rows: rows.slice(0, limit).map((r) => ({ ...r })), total: rows.length };
  }

  async openHandles(handles: readonly string[], open: OpenAt): Promise<Set<string>> {
    const wanted = new Set(handles);
    return new Set([...this.rows.values()].filter((r) => wanted.has(r.handle) && isOpen(r, open)).map((r) => r.handle));
  }

  async prune(before: number, idleMs: number): Promise<number> {
    let pruned = 0;
    for (const [key, row] of this.rows) {
      if ((row.endedAt !== null && row.endedAt < before) || row.expiresAt < before || row.lastSeenAt < before - idleMs) {
        this.rows.delete(key);
        pruned++;
      }
    }
    return pruned;
  }
}
