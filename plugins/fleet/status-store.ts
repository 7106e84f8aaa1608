import type { HostOverview, Store } from '@vigil/plugin-sdk';
import type { PollResult } from './peer-poll.js';
import type { PeerStatus } from './types.js';

interface Row {
  name: string; url: string; up: number | boolean; error: string | null; overview: string | null; latency_ms: number | null;
  polled_at: number; last_seen_at: number | null; [k: string]: unknown;
}

/** The poller's last result per machine, in the store so every process answers the grid alike. */
export class StatusStore {
  private readonly table: string;

  constructor(private readonly store: Store) {
    this.table = store.table('status');
  }

  async all(): Promise<Map<string, PeerStatus>> {
    const rows = await this.store.query<Row>(`SELECT name, url, up, error, overview, latency_ms, polled_at, last_seen_at FROM ${this.table}`);
    return new Map(rows.map((r) => [r.name, {
      name: r.name, url: r.url, up: Boolean(Number(r.up)), error: r.error,
      overview: r.overview === null ? null : JSON.parse(r.overview) as HostOverview,
      latency_ms: r.latency_ms === null ? null : Number(r.latency_ms), polled_at: Number(r.polled_at),
      last_seen_at: r.last_seen_at === null ? null : Number(r.last_seen_at),
    }]));
  }

  /**
   * Records one poll. A failure keeps the last good overview and when it was seen; a machine whose URL changed
   * starts afresh (what the old URL said is another machine's).
   */
  async record(name: string, url: string, result: PollResult, at: number): Promise<void> {
    if (result.up) {
      await this.store.run(
        `INSERT INTO ${this.table} (name, url, up, error, overview, latency_ms, polled_at, last_seen_at) VALUES (?, ?, 1, NULL, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET url = excluded.url, up = 1, error = NULL, overview = excluded.overview,
           latency_ms = excluded.latency_ms, polled_at = excluded.polled_at, last_seen_at = excluded.last_seen_at`,
        [name, url, JSON.stringify(result.overview), result.latency_ms, at, at],
      );
      return;
    }
    await this.store.run(
      `INSERT INTO ${this.table} (name, url, up, error, overview, latency_ms, polled_at, last_seen_at) VALUES (?, ?, 0, ?, NULL, ?, ?, NULL)
       ON CONFLICT (name) DO UPDATE SET up = 0, error = excluded.error, latency_ms = excluded.latency_ms, polled_at = excluded.polled_at,
         overview = CASE WHEN ${this.table}.url = excluded.url THEN ${this.table}.overview ELSE NULL END,
         last_seen_at = CASE WHEN ${this.table}.url = excluded.url THEN ${this.table}.last_seen_at ELSE NULL END,
         url = excluded.url`,
      [name, url, result.error, result.latency_ms, at],
    );
  }

  /** Forgets machines no longer in the fleet. */
  async keepOnly(names: readonly string[]): Promise<void> {
    const rows = await this.store.query<{ name: string }>(`SELECT name FROM ${this.table}`);
    const gone = rows.map((r) => r.name).filter((n) => !names.includes(n));
    for (const name of gone) await this.store.run(`DELETE FROM ${this.table} WHERE name = ?`, [name]);
  }
}
