import type { Migration } from '@vigil/plugin-sdk';

/**
 * The saved connections. `password` is sealed with AES-GCM under the plugin's key (plugin-sdk's SecretBox), bound to
 * the connection's id; the browser is told only whether one is saved. Times are epoch ms.
 */
export const dbBrowserMigrations: Migration[] = [
  {
    version: 1,
    name: 'saved connections',
    up: `
      CREATE TABLE dbbrowser_connections (
        id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, path TEXT, host TEXT, port INTEGER,
        database_name TEXT, username TEXT, password TEXT, ssl INTEGER NOT NULL, writable INTEGER NOT NULL,
        created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
    `,
  },
];
