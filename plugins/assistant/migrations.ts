import type { Migration } from '@vigil/plugin-sdk';

/**
 * The provider settings: one row (`id` = 'provider'). `api_key` is sealed with AES-GCM under the plugin's key
 * (plugin-sdk's SecretBox), bound to the row's id; the browser is told only whether one is set. `command` is the
 * local command's argv as JSON. Times are epoch ms.
 */
export const assistantMigrations: Migration[] = [
  {
    version: 1,
    name: 'provider settings',
    up: `
      CREATE TABLE assistant_settings (
        id TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT, base_url TEXT, command TEXT, api_key TEXT,
        updated_at BIGINT NOT NULL);
    `,
  },
];
