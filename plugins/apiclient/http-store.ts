// Perch's http.json in Vigil's store: collections, environments, flows (rows of `apiclient_items`), the active
// environment, and the history of the last 50 sends. Secret variables are sealed with SecretBox, bound to the
// environment and the variable's name; what the browser gets says only whether each is set.
import { uuidv7, type SecretBox, type Store, type Transaction } from '@vigil/plugin-sdk';
import { httpError } from '@vigil/plugin-sdk';
import { ApiClientErrors } from './errors.js';
import { emptyScope, type Scope } from './variables.js';
import { LIMITS, type ApiRequest, type Collection, type Environment, type EnvVariable, type Flow } from './types.js';

type Kind = 'collection' | 'environment' | 'flow';

/** A variable as stored: a secret one holds `sealed` and no value. */
interface StoredVariable { name: string; secret: boolean; value?: string; sealed?: string }

export interface HistoryEntry { id: string; at: number; method: string; url: string; status: number | null; duration_ms: number | null; request: ApiRequest }

export interface StoreView { collections: Collection[]; environments: Environment[]; active_env: string | null; history: HistoryEntry[]; flows: Flow[] }

export interface StoreChange { collections?: Collection[]; environments?: Environment[]; active_env?: string | null; flows?: Flow[]; clear_history?: boolean }

interface ItemRow { id: string; name: string; body: string; [k: string]: unknown }
interface HistoryRow { id: string; at: number; method: string; url: string; status: number | null; duration_ms: number | null; request: string; [k: string]: unknown }

const sealedFor = (envId: string, name: string) => `${envId}\u0000${name}`;

export class HttpStore {
  private readonly items: string;
  private readonly history: string;
  private readonly settings: string;

  constructor(private readonly store: Store, private readonly box: () => Promise<SecretBox>, private readonly now: () => number = Date.now) {
    this.items = store.table('items');
    this.history = store.table('history');
    this.settings = store.table('settings');
  }

  private async list<T>(kind: Kind, limit: number, q: Store | Transaction = this.store): Promise<(T & { id: string; name: string })[]> {
    const rows = await q.query<ItemRow>(`SELECT id, name, body FROM ${this.items} WHERE kind = ? ORDER BY position LIMIT ${limit}`, [kind]);
    return rows.map((r) => ({ ...JSON.parse(r.body) as T, id: r.id, name: r.name }));
  }

  private async replace(tx: Transaction, kind: Kind, list: { id: string; name: string }[], body: (item: { id: string; name: string }) => unknown): Promise<void> {
    await tx.run(`DELETE FROM ${this.items} WHERE kind = ?`, [kind]);
    const at = this.now();
    await tx.insertMany(this.items, ['kind', 'id', 'name', 'position', 'body', 'updated_at'],
      list.map((item, i) => [kind, item.id, item.name, i, JSON.stringify(body(item)), at]));
  }

  /** Everything, secret values left out: what `GET /api/httpstore` answers. */
  async view(): Promise<StoreView> {
    const environments = (await this.list<{ variables: StoredVariable[] }>('environment', LIMITS.environments)).map((e) => ({
      id: e.id, name: e.name,
      variables: e.variables.map((v): EnvVariable => (v.secret ? { name: v.name, value: '', secret: true, set: v.sealed !== undefined } : { name: v.name, value: v.value ?? '', secret: false })),
    }));
    return {
      collections: await this.list<Collection>('collection', LIMITS.collections),
      environments,
      active_env: await this.activeEnv(),
      history: await this.recent(),
      flows: await this.list<Flow>('flow', LIMITS.flows),
    };
  }

  async activeEnv(): Promise<string | null> {
    const rows = await this.store.query<{ value: string }>(`SELECT value FROM ${this.settings} WHERE key = 'active_env'`);
    return rows.length ? rows[0].value : null;
  }

  /** Applies the parts `change` names; each part replaces what was saved. A secret variable sent without a value keeps its saved one. */
  async apply(change: StoreChange): Promise<void> {
    const box = change.environments?.some((e) => e.variables.some((v) => v.secret && v.value)) ? await this.box() : null;
    await this.store.transaction(async (tx) => {
      if (change.collections) await this.replace(tx, 'collection', change.collections, (c) => ({ requests: (c as Collection).requests }));
      if (change.flows) await this.replace(tx, 'flow', change.flows, (f) => ({ steps: (f as Flow).steps }));
      if (change.environments) {
        // Saves of environments take turns, and the secrets to keep are read in the turn: read before it, a save that
        // committed meanwhile would be undone by the secret kept from before it. The upsert holds the row's lock on
        // PostgreSQL until commit; SQLite writes one transaction at a time.
        await tx.run(`INSERT INTO ${this.settings} (key, value) VALUES ('environments_saved_at', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
          [String(this.now())]);
        const before = await this.list<{ variables: StoredVariable[] }>('environment', LIMITS.environments, tx);
        await this.replace(tx, 'environment', change.environments, (item) => {
          const env = item as Environment;
          const old = before.find((e) => e.id === env.id);
          return {
            variables: env.variables.map((v): StoredVariable => {
              if (!v.secret) return { name: v.name, secret: false, value: v.value };
              if (v.value) return { name: v.name, secret: true, sealed: box!.seal(v.value, sealedFor(env.id, v.name)) };
              // No value, and `set` not false: keep the sealed one (the browser never had it). `set: false` forgets it.
              const kept = v.set === false ? undefined : old?.variables.find((o) => o.name === v.name && o.secret)?.sealed;
              return kept === undefined ? { name: v.name, secret: true } : { name: v.name, secret: true, sealed: kept };
            }),
          };
        });
      }
      if (change.active_env !== undefined) {
        await tx.run(`DELETE FROM ${this.settings} WHERE key = 'active_env'`);
        if (change.active_env !== null) await tx.run(`INSERT INTO ${this.settings} (key, value) VALUES ('active_env', ?)`, [change.active_env]);
      }
      if (change.clear_history) await tx.run(`DELETE FROM ${this.history}`);
    });
  }

  /** The variables of an environment (the active one when `id` is undefined; none when null), secrets unsealed. */
  async scope(id: string | null | undefined): Promise<Scope> {
    const envId = id === undefined ? await this.activeEnv() : id;
    const scope = emptyScope();
    if (envId === null) return scope;
    const envs = await this.store.query<ItemRow>(`SELECT id, name, body FROM ${this.items} WHERE kind = 'environment' AND id = ?`, [envId]);
    if (!envs.length) {
      if (id === undefined) return scope;
      throw httpError(ApiClientErrors.NOT_FOUND, `no environment has the id "${envId}"`);
    }
    const variables = (JSON.parse(envs[0].body) as { variables: StoredVariable[] }).variables;
    const box = variables.some((v) => v.sealed) ? await this.box() : null;
    for (const v of variables) {
      if (v.secret) {
        if (v.sealed === undefined) continue;
        scope.values.set(v.name, box!.unseal(v.sealed, sealedFor(envId, v.name)));
        scope.secret.add(v.name);
      } else scope.values.set(v.name, v.value ?? '');
    }
    return scope;
  }

  async flow(id: string): Promise<Flow> {
    const rows = await this.store.query<ItemRow>(`SELECT id, name, body FROM ${this.items} WHERE kind = 'flow' AND id = ?`, [id]);
    if (!rows.length) throw httpError(ApiClientErrors.NOT_FOUND, `no flow has the id "${id}"`);
    return { ...(JSON.parse(rows[0].body) as Flow), id: rows[0].id, name: rows[0].name };
  }

  /** Adds a send to the history (its template: placeholders unfilled) and drops what is past the last 50. */
  async record(entry: Omit<HistoryEntry, 'id' | 'at'>): Promise<void> {
    const id = uuidv7();
    await this.store.run(`INSERT INTO ${this.history} (id, at, method, url, status, duration_ms, request) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [id, this.now(), entry.method, entry.url, entry.status, entry.duration_ms, JSON.stringify(entry.request)]);
    await this.store.run(`DELETE FROM ${this.history} WHERE id NOT IN (SELECT id FROM ${this.history} ORDER BY id DESC LIMIT ${LIMITS.history})`);
  }

  async recent(): Promise<HistoryEntry[]> {
    const rows = await this.store.query<HistoryRow>(`SELECT * FROM ${this.history} ORDER BY id DESC LIMIT ${LIMITS.history}`);
    return rows.map((r) => ({
      id: r.id, at: Number(r.at), method: r.method, url: r.url, status: r.status === null ? null : Number(r.status),
      duration_ms: r.duration_ms === null ? null : Number(r.duration_ms), request: JSON.parse(r.request) as ApiRequest,
    }));
  }
}
