import type { Migration } from '@vigil/plugin-sdk';

/** Settings of the installation, one JSON value per name (today only `display`); the home grid's layout. */
export const uiMigrations: Migration[] = [
  {
    version: 1,
    name: 'installation settings',
    up: 'CREATE TABLE ui_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at BIGINT NOT NULL);',
  },
  {
    version: 2,
    name: 'home layout',
    // Keyed by owner so a per-user layout needs no new table once the dashboard has users; today one row.
    up: 'CREATE TABLE ui_home_layouts (owner TEXT PRIMARY KEY, layout TEXT NOT NULL, updated_at BIGINT NOT NULL);',
  },
];
