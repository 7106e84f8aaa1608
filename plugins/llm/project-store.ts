import { httpError, uuidv7, VigilError, type Store } from '@vigil/plugin-sdk';
import { LlmErrors, projectFromConfig, projectNotFound } from './errors.js';
import { generateKey, hashHint, hashKey, keyHint } from './project-keys.js';
import type { ConfigProject, ProjectSettings } from './types.js';

export const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A project row with its own settings (not yet merged with the defaults). */
export interface ProjectRow {
  id: string;
  name: string;
  source: 'config' | 'store';
  settings: ProjectSettings;
  created_at: number;
  updated_at: number;
}

export interface KeyInfo {
  hint: string;
  source: 'config' | 'store';
  created_at: number;
  /** Epoch ms at which a rotated key stops working; null for an active key. */
  expires_at: number | null;
}

type RawProject = { id: string; name: string; source: ProjectRow['source']; settings: string; created_at: number | string; updated_at: number | string };

const toRow = (r: RawProject): ProjectRow => ({
  id: r.id, name: r.name, source: r.source, settings: JSON.parse(r.settings) as ProjectSettings,
  created_at: Number(r.created_at), updated_at: Number(r.updated_at),
});

/** The tables a project's data lives in, deleted with it. */
const DATA_TABLES = ['traces', 'prompt_versions', 'usage', 'usage_daily', 'dead_items', 'prompt_details', 'prompt_labels', 'prompt_label_history'] as const;
/** Rows deleted per statement when a project goes, so SQLite's write lock is never held long. */
const DELETE_CHUNK = 5_000;

/**
 * Projects and their keys in the store: what the CLI, the dashboard and the config sync change, and what key lookups
 * read. Keys are kept as SHA-256 only. Projects the config file declares are changed only by the config sync.
 */
export class ProjectStore {
  private readonly projects: string;
  private readonly keys: string;

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.projects = store.table('projects');
    this.keys = store.table('project_keys');
  }

  async list(): Promise<(ProjectRow & { keys: KeyInfo[] })[]> {
    const rows = (await this.store.query<RawProject>(`SELECT * FROM ${this.projects} ORDER BY name`)).map(toRow);
    const keys = await this.store.query<{ project_id: string; hint: string; source: KeyInfo['source']; created_at: number; expires_at: number | null }>(
      `SELECT project_id, hint, source, created_at, expires_at FROM ${this.keys} WHERE expires_at IS NULL OR expires_at > ? ORDER BY created_at`, [this.now()]);
    return rows.map((p) => ({
      ...p,
      keys: keys.filter((k) => k.project_id === p.id).map((k) => ({
        hint: k.hint, source: k.source, created_at: Number(k.created_at), expires_at: k.expires_at === null ? null : Number(k.expires_at),
      })),
    }));
  }

  /** Projects by name, a page at a time, without their keys (billing). */
  async page(limit: number, offset: number): Promise<ProjectRow[]> {
    return (await this.store.query<RawProject>(`SELECT * FROM ${this.projects} ORDER BY name LIMIT ? OFFSET ?`, [limit, offset])).map(toRow);
  }

  async get(name: string): Promise<ProjectRow | undefined> {
    const rows = await this.store.query<RawProject>(`SELECT * FROM ${this.projects} WHERE name = ?`, [name]);
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  async getById(id: string): Promise<ProjectRow | undefined> {
    const rows = await this.store.query<RawProject>(`SELECT * FROM ${this.projects} WHERE id = ?`, [id]);
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * The project whose key hashes to `keyHash`, while that key is active or in its grace period, with the end of that
   * grace (epoch ms; null for an active key): a cache of the answer must not outlive it.
   */
  async byKeyHash(keyHash: string): Promise<{ project: ProjectRow; expires_at: number | null } | undefined> {
    const rows = await this.store.query<RawProject & { key_expires_at: number | string | null }>(
      `SELECT p.*, k.expires_at AS key_expires_at FROM ${this.keys} k JOIN ${this.projects} p ON p.id = k.project_id
       WHERE k.key_hash = ? AND (k.expires_at IS NULL OR k.expires_at > ?)`, [keyHash, this.now()]);
    if (!rows[0]) return undefined;
    const { key_expires_at: end, ...project } = rows[0];
    return { project: toRow(project), expires_at: end === null ? null : Number(end) };
  }

  /** Makes a project and its first key; the key is returned once and kept only as its hash. */
  async create(name: string, settings: ProjectSettings = {}): Promise<{ project: ProjectRow; key: string }> {
    checkName(name);
    const key = generateKey();
    const now = this.now();
    const project: ProjectRow = { id: uuidv7(now), name, source: 'store', settings, created_at: now, updated_at: now };
    const created = await this.store.transaction(async (tx) => {
      const inserted = await tx.query(
        `INSERT INTO ${this.projects} (id, name, source, settings, created_at, updated_at) VALUES (?, ?, 'store', ?, ?, ?)
         ON CONFLICT (name) DO NOTHING RETURNING id`, [project.id, name, JSON.stringify(settings), now, now]);
      if (inserted.length === 0) return false;
      await tx.run(`INSERT INTO ${this.keys} (key_hash, project_id, source, hint, created_at, expires_at) VALUES (?, ?, 'store', ?, ?, NULL)`,
        [hashKey(key), project.id, keyHint(key), now]);
      return true;
    });
    if (!created) throw httpError(LlmErrors.PROJECT_EXISTS, `a project named "${name}" exists already`);
    return { project, key };
  }

  /**
   * A new key for the project. Its keys that were active keep working for `graceMs` more (0: they stop now); keys
   * already in a grace period keep the end they had, if sooner.
   */
  async rotateKey(name: string, graceMs: number): Promise<{ key: string; previousExpireAt: number }> {
    const project = await this.mustGet(name);
    if (project.source === 'config') throw projectFromConfig(name, 'its key comes from the file (key or key_sha256); change it');
    const key = generateKey();
    const now = this.now();
    const until = now + graceMs;
    await this.store.transaction(async (tx) => {
      await tx.run(`UPDATE ${this.keys} SET expires_at = ? WHERE project_id = ? AND (expires_at IS NULL OR expires_at > ?)`,
        [until, project.id, until]);
      await tx.run(`INSERT INTO ${this.keys} (key_hash, project_id, source, hint, created_at, expires_at) VALUES (?, ?, 'store', ?, ?, NULL)`,
        [hashKey(key), project.id, keyHint(key), now]);
    });
    return { key, previousExpireAt: until };
  }

  async updateSettings(name: string, settings: ProjectSettings): Promise<ProjectRow> {
    const project = await this.mustGet(name);
    if (project.source === 'config') throw projectFromConfig(name, 'its settings come from the file; change them');
    const now = this.now();
    await this.store.run(`UPDATE ${this.projects} SET settings = ?, updated_at = ? WHERE id = ?`, [JSON.stringify(settings), now, project.id]);
    return { ...project, settings, updated_at: now };
  }

  /**
   * Deletes the project, its keys (they stop working at once here, within the key cache's 1 s elsewhere) and then
   * its data, in chunks. Returns the traces deleted.
   */
  async delete(name: string): Promise<{ traces: number }> {
    const project = await this.mustGet(name);
    if (project.source === 'config') throw projectFromConfig(name, 'remove it from the file');
    await this.store.transaction(async (tx) => {
      await tx.run(`DELETE FROM ${this.keys} WHERE project_id = ?`, [project.id]);
      await tx.run(`DELETE FROM ${this.projects} WHERE id = ?`, [project.id]);
    });
    return { traces: await this.deleteData(project.id) };
  }

  private async deleteData(projectId: string): Promise<number> {
    let traces = 0;
    for (const name of DATA_TABLES) {
      const table = this.store.table(name);
      if (name === 'traces') {
        for (;;) {
          const { changes } = await this.store.run(
            `DELETE FROM ${table} WHERE project_id = ? AND id IN (SELECT id FROM ${table} WHERE project_id = ? LIMIT ${DELETE_CHUNK})`,
            [projectId, projectId]);
          traces += changes;
          if (changes < DELETE_CHUNK) break;
        }
      } else {
        await this.store.run(`DELETE FROM ${table} WHERE project_id = ?`, [projectId]);
      }
    }
    return traces;
  }

  /**
   * Makes the store hold the config file's projects as the file says (the file wins): each one's settings and its
   * one key, replacing any other key it had. A project the file no longer declares stays, with its data, as a store
   * project without keys (`vigil project rotate-key` gives it one; `vigil project delete` removes it).
   */
  async syncConfig(declared: readonly ConfigProject[]): Promise<{ added: string[]; demoted: string[] }> {
    const now = this.now();
    const added: string[] = [];
    const demoted: string[] = [];
    await this.store.transaction(async (tx) => {
      const existing = await tx.query<{ id: string; name: string; source: string }>(`SELECT id, name, source FROM ${this.projects}`);
      const byName = new Map(existing.map((r) => [r.name, r]));
      const names = new Set(declared.map((p) => p.name));
      for (const p of declared) {
        const { name, key, key_sha256: keySha, ...settings } = p;
        const keyHash = keySha ?? hashKey(key!);
        const hint = keySha ? hashHint(keySha) : keyHint(key!);
        // An upsert, not a read then a write: several processes starting at once on one PostgreSQL all sync.
        const [{ id }] = await tx.query<{ id: string }>(
          `INSERT INTO ${this.projects} (id, name, source, settings, created_at, updated_at) VALUES (?, ?, 'config', ?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET source = 'config', settings = excluded.settings, updated_at = excluded.updated_at
           RETURNING id`, [uuidv7(now), name, JSON.stringify(settings), now, now]);
        if (!byName.has(name)) added.push(name);
        await tx.run(`INSERT INTO ${this.keys} (key_hash, project_id, source, hint, created_at, expires_at) VALUES (?, ?, 'config', ?, ?, NULL)
          ON CONFLICT (key_hash) DO NOTHING`, [keyHash, id, hint, now]);
        const owner = await tx.query<{ project_id: string }>(`SELECT project_id FROM ${this.keys} WHERE key_hash = ?`, [keyHash]);
        if (owner[0]?.project_id !== id) {
          throw new VigilError(LlmErrors.CONFIG, `llm.projects: the key of project "${name}" is already a key of another project in the store; give it its own key`);
        }
        await tx.run(`DELETE FROM ${this.keys} WHERE project_id = ? AND key_hash <> ?`, [id, keyHash]);
        await tx.run(`UPDATE ${this.keys} SET source = 'config', hint = ?, expires_at = NULL WHERE key_hash = ?`, [hint, keyHash]);
      }
      for (const r of existing) {
        if (r.source !== 'config' || names.has(r.name)) continue;
        demoted.push(r.name);
        await tx.run(`UPDATE ${this.projects} SET source = 'store', updated_at = ? WHERE id = ?`, [now, r.id]);
        await tx.run(`DELETE FROM ${this.keys} WHERE project_id = ? AND source = 'config'`, [r.id]);
      }
    });
    return { added, demoted };
  }

  private async mustGet(name: string): Promise<ProjectRow> {
    const project = await this.get(name);
    if (!project) throw projectNotFound(name);
    return project;
  }
}

export function checkName(name: string): void {
  if (!PROJECT_NAME.test(name)) {
    throw httpError(LlmErrors.PROJECT_NAME,
      `project name ${JSON.stringify(name)} must be 1-64 characters: letters, digits, ".", "_" and "-", starting with a letter or digit`);
  }
}
