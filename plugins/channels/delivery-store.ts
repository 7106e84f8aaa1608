import type { ChannelDelivery, ChannelMessage, Store } from '@vigil/plugin-sdk';

type DeliveryRow = {
  event_id: string; channel_id: string; state: ChannelDelivery['state']; attempts: number; last_error: string | null;
  lease_until: number | null; created_at: number; updated_at: number; delivered_at: number | null;
};

const COLUMNS = 'event_id, channel_id, state, attempts, last_error, lease_until, created_at, updated_at, delivered_at';

const toDelivery = (r: DeliveryRow): ChannelDelivery => ({
  event_id: r.event_id, channel_id: r.channel_id, state: r.state, attempts: Number(r.attempts), last_error: r.last_error,
  created_at: Number(r.created_at), updated_at: Number(r.updated_at), delivered_at: r.delivered_at === null ? null : Number(r.delivered_at),
});

/** The outcome of trying to take a delivery for one send. */
export type Claim =
  | { taken: true; attempts: number }
  /** Another run holds it until `leaseUntil`, or it is settled already (`delivery.state` is not pending), or it is gone. */
  | { taken: false; delivery?: ChannelDelivery; leaseUntil?: number };

/** Events per statement when reading several: a bound on the statement, whatever the caller asks. */
const EVENTS_PER_READ = 500;

/**
 * The messages and the state of each (event, channel) delivery. Every change of state is one conditional UPDATE, so
 * that of two runs of one job (a retry while a slow send still waits) only one sends, and a settled delivery is never
 * sent again.
 */
export class DeliveryStore {
  constructor(private readonly store: Store) {}

  /**
   * Stores the message (once per event) and a delivery per channel: `pending`, or `failed` at once with the reason
   * given in `refused`. A pair that exists already is left as it is. Resolves to every pair's row, and which are new.
   */
  async record(eventId: string, message: ChannelMessage, channelIds: readonly string[], refused: ReadonlyMap<string, string>): Promise<{ rows: ChannelDelivery[]; created: Set<string> }> {
    const now = Date.now();
    return this.store.transaction(async (tx) => {
      await tx.run('INSERT INTO channels_messages (event_id, message, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [eventId, JSON.stringify(message), now]);
      const created = new Set<string>();
      for (const channelId of channelIds) {
        const reason = refused.get(channelId);
        const inserted = await tx.query<{ channel_id: string }>(
          `INSERT INTO channels_deliveries (${COLUMNS}) VALUES (?, ?, ?, 0, ?, NULL, ?, ?, NULL) ON CONFLICT DO NOTHING RETURNING channel_id`,
          [eventId, channelId, reason === undefined ? 'pending' : 'failed', reason ?? null, now, now],
        );
        if (inserted.length) created.add(channelId);
      }
      const rows = channelIds.length === 0 ? [] : await tx.query<DeliveryRow>(
        `SELECT ${COLUMNS} FROM channels_deliveries WHERE event_id = ? AND channel_id IN (${channelIds.map(() => '?').join(', ')}) ORDER BY channel_id`,
        [eventId, ...channelIds],
      );
      return { rows: rows.map(toDelivery), created };
    });
  }

  async message(eventId: string): Promise<ChannelMessage | undefined> {
    const [row] = await this.store.query<{ message: string }>('SELECT message FROM channels_messages WHERE event_id = ?', [eventId]);
    return row ? JSON.parse(row.message) as ChannelMessage : undefined;
  }

  async get(eventId: string, channelId: string): Promise<ChannelDelivery | undefined> {
    const [row] = await this.store.query<DeliveryRow>(`SELECT ${COLUMNS} FROM channels_deliveries WHERE event_id = ? AND channel_id = ?`, [eventId, channelId]);
    return row ? toDelivery(row) : undefined;
  }

  async forEvents(eventIds: readonly string[]): Promise<ChannelDelivery[]> {
    const out: ChannelDelivery[] = [];
    for (let i = 0; i < eventIds.length; i += EVENTS_PER_READ) {
      const ids = eventIds.slice(i, i + EVENTS_PER_READ);
      const rows = await this.store.query<DeliveryRow>(
        `SELECT ${COLUMNS} FROM channels_deliveries WHERE event_id IN (${ids.map(() => '?').join(', ')}) ORDER BY event_id, channel_id`, ids,
      );
      out.push(...rows.map(toDelivery));
    }
    return out;
  }

  /** Takes a pending delivery for one send until `leaseUntil`, counting the attempt; see `Claim` for when it cannot. */
  async claim(eventId: string, channelId: string, leaseUntil: number): Promise<Claim> {
    const now = Date.now();
    const [taken] = await this.store.query<{ attempts: number }>(
      `UPDATE channels_deliveries SET attempts = attempts + 1, lease_until = ?, updated_at = ?
       WHERE event_id = ? AND channel_id = ? AND state = 'pending' AND (lease_until IS NULL OR lease_until < ?) RETURNING attempts`,
      [leaseUntil, now, eventId, channelId, now],
    );
    if (taken) return { taken: true, attempts: Number(taken.attempts) };
    const [row] = await this.store.query<DeliveryRow>(`SELECT ${COLUMNS} FROM channels_deliveries WHERE event_id = ? AND channel_id = ?`, [eventId, channelId]);
    if (!row) return { taken: false };
    return { taken: false, delivery: toDelivery(row), ...(row.state === 'pending' && row.lease_until !== null ? { leaseUntil: Number(row.lease_until) } : {}) };
  }

  /**
   * Records the outcome of the send this run holds: `delivered`, `failed`, or `pending` again with the error (a retry
   * follows). Resolves to the row, or undefined when the delivery was no longer pending.
   */
  async settle(eventId: string, channelId: string, state: ChannelDelivery['state'], error: string | null): Promise<ChannelDelivery | undefined> {
    const now = Date.now();
    const [row] = await this.store.query<DeliveryRow>(
      `UPDATE channels_deliveries SET state = ?, last_error = ?, lease_until = NULL, updated_at = ?, delivered_at = ?
       WHERE event_id = ? AND channel_id = ? AND state = 'pending' RETURNING ${COLUMNS}`,
      [state, error, now, state === 'delivered' ? now : null, eventId, channelId],
    );
    return row ? toDelivery(row) : undefined;
  }

  /** Pending deliveries untouched since `before`: those whose job may have been lost (a crash between record and enqueue). */
  async stalePending(before: number, limit: number): Promise<{ event_id: string; channel_id: string }[]> {
    return this.store.query<{ event_id: string; channel_id: string }>(
      `SELECT event_id, channel_id FROM channels_deliveries WHERE state = 'pending' AND updated_at < ? ORDER BY updated_at LIMIT ${Math.floor(limit)}`,
      [before],
    );
  }

  /** Deletes settled deliveries older than `before`, and messages no delivery needs any more. */
  async prune(before: number): Promise<number> {
    const { changes } = await this.store.run(`DELETE FROM channels_deliveries WHERE state <> 'pending' AND updated_at < ?`, [before]);
    await this.store.run(
      `DELETE FROM channels_messages WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM channels_deliveries d WHERE d.event_id = channels_messages.event_id)`,
      [before],
    );
    return changes;
  }
}
