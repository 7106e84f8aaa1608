import type { AlertEventStatus, AlertScope, BulkInsert, Queryable, Store } from '@vigil/plugin-sdk';
import type { AlertRule, Severity } from './types.js';

/** One event as stored (times epoch ms). */
export interface AlertEvent {
  id: string;
  rule_id: string;
  rule_name: string;
  source: string;
  scope: AlertScope;
  severity: Severity;
  status: AlertEventStatus;
  value: number | null;
  threshold: number | null;
  summary: string;
  window_ms: number;
  samples: number;
  fired_at: number;
  resolved_at: number | null;
  suppressed: 'cooldown' | 'flapping' | null;
  channels: string[] | 'all';
  notify_resolved: boolean;
}

export interface EventFilter {
  status?: AlertEventStatus;
  since?: number;
  project?: string;
  rule_id?: string;
  /** Events of rules whose source starts with it (`host.`). */
  source_prefix?: string;
  /** Epoch ms: fired before it. */
  until?: number;
  limit: number;
  offset: number;
}

type EventRow = Record<string, string | number | null>;

function fromRow(r: EventRow): AlertEvent {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: String(r.id), rule_id: String(r.rule_id), rule_name: String(r.rule_name), source: String(r.source),
    scope: JSON.parse(String(r.scope)) as AlertScope, severity: String(r.severity) as Severity, status: String(r.status) as AlertEventStatus,
    value: num(r.value), threshold: num(r.threshold), summary: String(r.summary), window_ms: Number(r.window_ms), samples: Number(r.samples),
    fired_at: Number(r.fired_at), resolved_at: num(r.resolved_at), suppressed: (r.suppressed ?? null) as AlertEvent['suppressed'],
    channels: JSON.parse(String(r.channels)) as AlertEvent['channels'], notify_resolved: Number(r.notify_resolved) === 1,
  };
}

const COLUMNS = ['id', 'rule_id', 'rule_name', 'source', 'scope', 'project', 'severity', 'status', 'value', 'threshold', 'summary', 'window_ms',
  'samples', 'fired_at', 'resolved_at', 'suppressed', 'channels', 'notify_resolved', 'handed_over'];

/** The history: events, firing then resolved. */
export class EventStore {
  private readonly table: string;

  constructor(private readonly store: Store) {
    this.table = store.table('events');
  }

  /** A new event of `rule`; false when one with this id exists (another process, a retried tick, a replayed version). */
  async insert(rule: AlertRule, e: Pick<AlertEvent, 'id' | 'value' | 'threshold' | 'summary' | 'samples' | 'fired_at' | 'suppressed'> & { status?: AlertEventStatus; resolved_at?: number }, q: Queryable & BulkInsert = this.store): Promise<boolean> {
    const row = [
      e.id, rule.id, rule.name, rule.source, JSON.stringify(rule.scope), rule.scope.project ?? null, rule.severity, e.status ?? 'firing', e.value, e.threshold,
      e.summary, rule.window_ms, e.samples, e.fired_at, e.resolved_at ?? null, e.suppressed, JSON.stringify(rule.channels), rule.notify_resolved ? 1 : 0,
      // Suppressed events have nothing to hand over.
      e.suppressed ? 1 : 0,
    ];
    return (await q.insertMany(this.table, COLUMNS, [row], { onConflict: 'ON CONFLICT DO NOTHING' })) === 1;
  }

  /** Resolves a firing event; false when it was not firing (resolved already, or cleared). */
  async resolve(id: string, at: number, q: Queryable = this.store): Promise<boolean> {
    return (await q.run(`UPDATE ${this.table} SET status = 'resolved', resolved_at = ? WHERE id = ? AND status = 'firing'`, [at, id])).changes === 1;
  }

  async get(id: string): Promise<AlertEvent | undefined> {
    const [row] = await this.store.query<EventRow>(`SELECT * FROM ${this.table} WHERE id = ?`, [id]);
    return row ? fromRow(row) : undefined;
  }

  async list(filter: EventFilter): Promise<AlertEvent[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (filter.status) { where.push('status = ?'); params.push(filter.status); }
    if (filter.since !== undefined) { where.push('fired_at >= ?'); params.push(filter.since); }
    if (filter.project !== undefined) { where.push('project = ?'); params.push(filter.project); }
    if (filter.rule_id !== undefined) { where.push('rule_id = ?'); params.push(filter.rule_id); }
    if (filter.source_prefix !== undefined) { where.push('substr(source, 1, ?) = ?'); params.push(filter.source_prefix.length, filter.source_prefix); }
    if (filter.until !== undefined) { where.push('fired_at < ?'); params.push(filter.until); }
    const rows = await this.store.query<EventRow>(
      `SELECT * FROM ${this.table} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY fired_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...params, filter.limit, filter.offset]);
    return rows.map(fromRow);
  }

  async countFiring(): Promise<number> {
    const [row] = await this.store.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${this.table} WHERE status = 'firing'`);
    return Number(row.n);
  }

  /** Events fired within [from, to), for digests: counted by rule. */
  async firedBetween(project: string, from: number, to: number): Promise<{ rule_name: string; n: number }[]> {
    const rows = await this.store.query<{ rule_name: string; n: number | string }>(
      `SELECT rule_name, COUNT(*) AS n FROM ${this.table} WHERE project = ? AND fired_at >= ? AND fired_at < ? GROUP BY rule_name ORDER BY COUNT(*) DESC`,
      [project, from, to]);
    return rows.map((r) => ({ rule_name: r.rule_name, n: Number(r.n) }));
  }

  /** Notifications a process stored and did not hand to the channels (it died between): at most `limit`, oldest first. */
  async notHandedOver(since: number, limit: number): Promise<string[]> {
    const rows = await this.store.query<{ id: string }>(
      `SELECT id FROM ${this.table} WHERE handed_over = 0 AND fired_at >= ? ORDER BY fired_at LIMIT ?`, [since, limit]);
    return rows.map((r) => r.id);
  }

  async markHandedOver(id: string): Promise<void> {
    await this.store.run(`UPDATE ${this.table} SET handed_over = 1 WHERE id = ?`, [id]);
  }

  /** Clears the history; returns how many events went. */
  async clear(): Promise<number> {
    return (await this.store.run(`DELETE FROM ${this.table}`)).changes;
  }

  async deleteBefore(at: number): Promise<number> {
    return (await this.store.run(`DELETE FROM ${this.table} WHERE fired_at < ? AND status = 'resolved'`, [at])).changes;
  }
}
