import type { Migration } from '@vigil/plugin-sdk';

/** Settings of the installation, one JSON value per name (today only `display`). */
export const uiMigrations: Migration[] = [
  {
    version: 1,
    name: 'installation settings',
    up: 'CREATE TABLE ui_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at BIGINT NOT NULL);',
  },
];
