import type { Migration } from '@vigil/plugin-sdk';

/**
 * The channels' tables. Times are epoch ms; JSON is TEXT.
 *
 * - targets: channels created through the API (the config file's live in memory). `settings` holds the settings
 *   without secrets; `secrets` the secrets as one AES-GCM sealed JSON (secret-box.ts); `masked` what the browser may
 *   see of them.
 * - messages: each event's message, once, however many channels it goes to; the queue's jobs carry only ids.
 * - deliveries: one row per (event, channel), its primary key: a second `deliver` of the pair inserts nothing, so it
 *   is never queued or sent twice. `lease_until` is held while a send is under way, so a job that the queue retries
 *   while an earlier run of it still waits on the receiver does not send a second time.
 */
export const channelsMigrations: Migration[] = [
  {
    version: 1,
    name: 'targets, messages, deliveries',
    up: `
      CREATE TABLE channels_targets (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, enabled INTEGER NOT NULL, settings TEXT NOT NULL,
        secrets TEXT, masked TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
      CREATE TABLE channels_messages (event_id TEXT PRIMARY KEY, message TEXT NOT NULL, created_at BIGINT NOT NULL);
      CREATE TABLE channels_deliveries (
        event_id TEXT NOT NULL, channel_id TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL,
        last_error TEXT, lease_until BIGINT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, delivered_at BIGINT,
        PRIMARY KEY (event_id, channel_id));
      CREATE INDEX channels_deliveries_pending ON channels_deliveries (state, updated_at);
      CREATE INDEX channels_messages_time ON channels_messages (created_at);
    `,
  },
];
