import type { Migration } from '@vigil/plugin-sdk';

/**
 * Collections, environments and flows are rows of `items` (kind, id), their content JSON text; the values of secret
 * environment variables inside are sealed with the plugin's key (SecretBox), bound to the environment and the name.
 * `history` keeps the last 50 requests sent, as their templates (placeholders unfilled, so no secret is in them).
 * `settings` holds the active environment, and when environments were last saved (a row whose lock saves of
 * environments take in turn). Times are epoch ms.
 */
export const apiClientMigrations: Migration[] = [
  {
    version: 1,
    name: 'collections, environments, flows, history',
    up: `
      CREATE TABLE apiclient_items (
        kind TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, position INTEGER NOT NULL, body TEXT NOT NULL,
        updated_at BIGINT NOT NULL, PRIMARY KEY (kind, id));
      CREATE TABLE apiclient_history (
        id TEXT PRIMARY KEY, at BIGINT NOT NULL, method TEXT NOT NULL, url TEXT NOT NULL, status INTEGER,
        duration_ms INTEGER, request TEXT NOT NULL);
      CREATE INDEX apiclient_history_at ON apiclient_history (at);
      CREATE TABLE apiclient_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
];
