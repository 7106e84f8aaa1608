import type { SecretBox, Store } from '@vigil/plugin-sdk';
import type { ProviderKind, ProviderSettings } from './providers/types.js';

const ROW = 'provider';

/** What the browser sees of the settings: never the key, only whether one is set. */
export interface SettingsView {
  configured: boolean;
  provider: ProviderKind | null;
  model: string | null;
  base_url: string | null;
  command: string[] | null;
  key_set: boolean;
}

/** A change from `POST /api/llmconfig`: `api_key` absent keeps the saved key, null forgets it. */
export interface SettingsInput {
  provider: ProviderKind;
  model?: string;
  base_url?: string;
  command?: string[];
  api_key?: string | null;
}

interface Row { provider: string; model: string | null; base_url: string | null; command: string | null; api_key: string | null; [k: string]: unknown }

export const NOT_CONFIGURED: SettingsView = { configured: false, provider: null, model: null, base_url: null, command: null, key_set: false };

/** The one provider setting, in the plugin's table; the API key sealed under the plugin's key, bound to the row. */
export class SettingsStore {
  private readonly table: string;

  constructor(private readonly store: Store, private readonly box: () => Promise<SecretBox>, private readonly now: () => number = Date.now) {
    this.table = store.table('settings');
  }

  private async row(): Promise<Row | undefined> {
    return (await this.store.query<Row>(`SELECT * FROM ${this.table} WHERE id = ?`, [ROW]))[0];
  }

  async view(): Promise<SettingsView> {
    const r = await this.row();
    if (!r) return NOT_CONFIGURED;
    return {
      configured: true, provider: r.provider as ProviderKind, model: r.model, base_url: r.base_url,
      command: r.command === null ? null : JSON.parse(r.command) as string[], key_set: r.api_key !== null,
    };
  }

  /** The settings with the key opened, for the provider; null when none are saved. */
  async settings(): Promise<ProviderSettings | null> {
    const r = await this.row();
    if (!r) return null;
    return {
      provider: r.provider as ProviderKind, model: r.model, base_url: r.base_url,
      command: r.command === null ? null : JSON.parse(r.command) as string[],
      api_key: r.api_key === null ? null : (await this.box()).unseal(r.api_key, ROW),
    };
  }

  /** Saves settings the caller checked; a key is kept across a change of model or URL unless it is replaced or forgotten. */
  async save(input: SettingsInput): Promise<SettingsView> {
    const current = await this.row();
    let sealed = current?.api_key ?? null;
    if (input.api_key === null || input.provider === 'ollama' || input.provider === 'cli') sealed = null;
    else if (typeof input.api_key === 'string') sealed = (await this.box()).seal(input.api_key, ROW);
    const values = [input.provider, input.model ?? null, input.base_url ?? null, input.command ? JSON.stringify(input.command) : null, sealed, this.now()];
    await this.store.run(
      `INSERT INTO ${this.table} (id, provider, model, base_url, command, api_key, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET provider = excluded.provider, model = excluded.model, base_url = excluded.base_url,
       command = excluded.command, api_key = excluded.api_key, updated_at = excluded.updated_at`,
      [ROW, ...values]);
    return this.view();
  }

  async clear(): Promise<void> {
    await this.store.run(`DELETE FROM ${this.table} WHERE id = ?`, [ROW]);
  }
}
