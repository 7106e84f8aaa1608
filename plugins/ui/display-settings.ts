// The dashboard's display settings, one set per installation, kept in the store (so instances sharing PostgreSQL
// share them) and written onto index.html's <html> so the first paint is already in the right theme.
import type { JsonSchema, Store } from '@vigil/plugin-sdk';

export interface DisplaySettings {
  theme: 'system' | 'light' | 'dark';
  simple_mode: boolean;
  reduce_effects: boolean;
}

export const DEFAULT_SETTINGS: DisplaySettings = Object.freeze({ theme: 'system', simple_mode: false, reduce_effects: false });

export const displaySettingsSchema: JsonSchema = {
  title: 'DisplaySettings',
  type: 'object',
  required: ['theme', 'simple_mode', 'reduce_effects'],
  additionalProperties: false,
  properties: {
    theme: { enum: ['system', 'light', 'dark'], description: 'system follows the browser\'s prefers-color-scheme.' },
    simple_mode: { type: 'boolean', description: 'Hide the pages meant for developers.' },
    reduce_effects: { type: 'boolean', description: 'No animations or translucency (also on when the browser prefers reduced motion).' },
  },
};

/** A stored value as settings: anything unreadable (a row edited by hand) falls back to the default, key by key. */
export function settingsFrom(value: unknown): DisplaySettings {
  const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return {
    theme: v.theme === 'light' || v.theme === 'dark' || v.theme === 'system' ? v.theme : DEFAULT_SETTINGS.theme,
    simple_mode: typeof v.simple_mode === 'boolean' ? v.simple_mode : DEFAULT_SETTINGS.simple_mode,
    reduce_effects: typeof v.reduce_effects === 'boolean' ? v.reduce_effects : DEFAULT_SETTINGS.reduce_effects,
  };
}

const NAME = 'display';

export class SettingsStore {
  private readonly table: string;

  constructor(private readonly store: Store) {
    this.table = store.table('settings');
  }

  /** Read on every use: another instance sharing the store may have changed them. */
  async read(): Promise<DisplaySettings> {
    const rows = await this.store.query<{ value: string }>(`SELECT value FROM ${this.table} WHERE name = ?`, [NAME]);
    if (!rows.length) return { ...DEFAULT_SETTINGS };
    try {
      return settingsFrom(JSON.parse(rows[0].value));
    } catch {
      return { ...DEFAULT_SETTINGS };
    }
  }

  async write(settings: DisplaySettings): Promise<void> {
    await this.store.run(
      `INSERT INTO ${this.table} (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [NAME, JSON.stringify(settingsFrom(settings)), Date.now()]);
  }
}
