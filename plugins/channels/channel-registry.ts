import { HttpError, httpError, insertWithinCap, type SecretBox, type Store } from '@vigil/plugin-sdk';
import { keysOfType, requiredKeysOfType } from './config-schema.js';
import { ChannelsErrors, channelFromConfig, unknownChannel } from './errors.js';

import { maskSecrets, SECRET_KEYS, splitSecrets, type ChannelSecrets } from './secret-fields.js';
import type { Channel, ChannelSettings, ConfiguredChannel } from './types.js';

/** A channel as the browser sees it: secrets masked, and the names of those that are set. */
export interface ChannelView {
  id: string;
  name: string;
  type: string;
  enabled: boolean;
  source: 'config' | 'store';
  settings: Record<string, unknown>;
  secrets: string[];
  created_at: number | null;
  updated_at: number | null;
}

type TargetRow = {
  id: string; name: string; type: string; enabled: number; settings: string; secrets: string | null; masked: string;
  created_at: number; updated_at: number;
};

/** Channels the API may hold: a bound on the rows read per list and on the label values of the delivery metrics. */
export const MAX_STORED_CHANNELS = 200;

const toChannel = (c: ConfiguredChannel, source: Channel['source']): Channel => ({ ...c, name: c.name ?? c.id, enabled: c.enabled ?? true, source });

/**
 * The channels: the config file's (in memory, read-only through the API) and the dashboard's (in the store, secrets
 * sealed). An id is one channel: the file's wins over a stored one of the same id. Stored channels are read on each
 * call, so a channel another process created or changed is used at once.
 */
export class ChannelRegistry {
  private configured = new Map<string, Channel>();

  constructor(private readonly store: Store, private readonly box: () => Promise<SecretBox>, configured: readonly ConfiguredChannel[]) {
    this.setConfigured(configured);
  }

  setConfigured(configured: readonly ConfiguredChannel[]): void {
    this.configured = new Map(configured.map((c) => [c.id, toChannel(c, 'config')]));
  }

  /** Every channel, for the API: secrets masked, none unsealed. */
  async views(): Promise<ChannelView[]> {
    const views: ChannelView[] = [...this.configured.values()].map((c) => {
      const { plain, secrets } = splitSecrets(c);
      const { id, name, enabled, source, type, ...settings } = plain;
      return { id, name, type, enabled, source, settings: { ...settings, ...maskSecrets(secrets) }, secrets: setKeys(secrets), created_at: null, updated_at: null };
    });
    for (const row of await this.rows()) {
      if (this.configured.has(row.id)) continue;
      views.push(viewOf(row));
    }
    return views;
  }

  async view(id: string): Promise<ChannelView> {
    const found = (await this.views()).find((v) => v.id === id);
    if (!found) throw unknownChannel(id);
    return found;
  }

  /** A channel with its secrets, to send through; undefined when no channel has the id. */
  async get(id: string): Promise<Channel | undefined> {
    const configured = this.configured.get(id);
    if (configured) return configured;
    const [row] = await this.store.query<TargetRow>('SELECT * FROM channels_targets WHERE id = ?', [id]);
    if (!row) return undefined;
    const secrets = row.secrets === null ? {} : JSON.parse((await this.box()).unseal(row.secrets, row.id)) as ChannelSecrets;
    return { ...JSON.parse(row.settings) as ChannelSettings, ...secrets, id: row.id, name: row.name, enabled: row.enabled === 1, source: 'store' };
  }

  /** The ids `all` stands for: every enabled channel. */
  async enabledIds(): Promise<string[]> {
    const ids = [...this.configured.values()].filter((c) => c.enabled).map((c) => c.id);
    for (const row of await this.rows()) if (row.enabled === 1 && !this.configured.has(row.id)) ids.push(row.id);
    return ids;
  }

  async create(input: ConfiguredChannel): Promise<ChannelView> {
    if (this.configured.has(input.id)) throw exists(input.id, 'the config file');
    const now = Date.now();
    const row = await this.sealedRow(input.id, input, now, now);
    // Counted and inserted under one lock: a burst of creates cannot each see room and pass the cap together.
    const done = await insertWithinCap(this.store, { table: 'channels_targets', cap: MAX_STORED_CHANNELS }, (tx) => tx.run(
      `INSERT INTO channels_targets (id, name, type, enabled, settings, secrets, masked, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [row.id, row.name, row.type, row.enabled, row.settings, row.secrets, row.masked, row.created_at, row.updated_at],
    ));
    if (!done.inserted) {
      throw httpError(ChannelsErrors.FULL, `the dashboard holds ${done.count} channels already, the most it keeps (${MAX_STORED_CHANNELS}); delete one first`);
    }
    const changed = done.value;
    if (changed.changes === 0) throw exists(input.id, 'the dashboard');
    return viewOf(row);
  }

  /** Replaces a stored channel's settings; a secret left out of `input` keeps its stored value if the type still takes it. */
  async update(id: string, input: ChannelSettings): Promise<ChannelView> {
    if (this.configured.has(id)) throw channelFromConfig(id, 'change it');
    const current = await this.get(id);
    if (!current) throw unknownChannel(id);
    const keep: Record<string, unknown> = {};
    const takes = new Set(keysOfType(input.type));
    for (const key of SECRET_KEYS) {
      if (input[key] === undefined && current[key] !== undefined && takes.has(key)) keep[key] = current[key];
    }
    const merged = { ...input, ...keep } as ChannelSettings;
    const missing = requiredKeysOfType(input.type).filter((k) => merged[k as keyof ChannelSettings] === undefined);
    if (missing.length) throw httpError(ChannelsErrors.SETTINGS, `${missing.join(', ')}: a ${input.type} channel needs ${missing.length > 1 ? 'them' : 'it'} (none is stored to keep)`);
    const [{ created_at }] = await this.store.query<{ created_at: number }>('SELECT created_at FROM channels_targets WHERE id = ?', [id]);
    const row = await this.sealedRow(id, merged, Number(created_at), Date.now());
    await this.store.run(
      'UPDATE channels_targets SET name = ?, type = ?, enabled = ?, settings = ?, secrets = ?, masked = ?, updated_at = ? WHERE id = ?',
      [row.name, row.type, row.enabled, row.settings, row.secrets, row.masked, row.updated_at, id],
    );
    return viewOf(row);
  }

  async delete(id: string): Promise<void> {
    if (this.configured.has(id)) throw channelFromConfig(id, 'delete it');
    const { changes } = await this.store.run('DELETE FROM channels_targets WHERE id = ?', [id]);
    if (changes === 0) throw unknownChannel(id);
  }

  private rows(): Promise<TargetRow[]> {
    return this.store.query<TargetRow>(`SELECT * FROM channels_targets ORDER BY id LIMIT ${MAX_STORED_CHANNELS}`);
  }

  private async sealedRow(id: string, input: ChannelSettings, createdAt: number, updatedAt: number): Promise<TargetRow> {
    const { plain, secrets } = splitSecrets(input as ChannelSettings & { id?: string });
    const { id: _id, name, enabled, ...settings } = plain;
    const hasSecrets = Object.keys(secrets).length > 0;
    return {
      id, name: name ?? id, type: input.type, enabled: enabled === false ? 0 : 1, settings: JSON.stringify(settings),
      secrets: hasSecrets ? (await this.box()).seal(JSON.stringify(secrets), id) : null, masked: JSON.stringify(maskSecrets(secrets)),
      created_at: createdAt, updated_at: updatedAt,
    };
  }
}

const setKeys = (secrets: ChannelSecrets): string[] => Object.keys(secrets).filter((k) => secrets[k as keyof ChannelSecrets] !== undefined);

function viewOf(row: TargetRow): ChannelView {
  const masked = JSON.parse(row.masked) as Record<string, unknown>;
  const { type: _type, ...settings } = JSON.parse(row.settings) as Record<string, unknown>;
  return {
    id: row.id, name: row.name, type: row.type, enabled: row.enabled === 1, source: 'store', settings: { ...settings, ...masked },
    secrets: Object.keys(masked), created_at: Number(row.created_at), updated_at: Number(row.updated_at),
  };
}

const exists = (id: string, where: string): HttpError =>
  httpError(ChannelsErrors.EXISTS, `a channel with the id "${id}" exists already in ${where}; choose another id`);
