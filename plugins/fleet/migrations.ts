import type { Migration } from '@vigil/plugin-sdk';

/**
 * The fleet's tables. Times are epoch ms; JSON is TEXT.
 *
 * - peers: machines added through the API (the config file's live in memory). `token` is the peer's read token
 *   sealed with AES-GCM (secret-box.ts); `hint` its last four characters, the most the browser sees of it.
 * - status: the poller's last result per machine (API and config alike), so every process sharing the store answers
 *   `GET /api/fleet` with the same grid whichever of them polled. `overview` is the last good answer, kept while the
 *   machine is down so the grid can show what it last said.
 * - read_tokens: tokens other instances read this one's overview with; only their SHA-256 is stored.
 */
export const fleetMigrations: Migration[] = [
  {
    version: 1,
    name: 'peers, status, read tokens',
    up: `
      CREATE TABLE fleet_peers (name TEXT PRIMARY KEY, url TEXT NOT NULL, token TEXT NOT NULL, hint TEXT NOT NULL, created_at BIGINT NOT NULL);
      CREATE TABLE fleet_status (
        name TEXT PRIMARY KEY, url TEXT NOT NULL, up INTEGER NOT NULL, error TEXT, overview TEXT, latency_ms INTEGER,
        polled_at BIGINT NOT NULL, last_seen_at BIGINT);
      CREATE TABLE fleet_read_tokens (
        id TEXT PRIMARY KEY, label TEXT NOT NULL, digest TEXT NOT NULL UNIQUE, hint TEXT NOT NULL, created_at BIGINT NOT NULL,
        last_used_at BIGINT);
    `,
  },
];
