import { HttpError, httpError, uuidv7, type Store } from '@vigil/plugin-sdk';
import { definitionFromConfig, EvaluatorsErrors } from './errors.js';
import type { DefinitionInput, EvalDefinition } from './types.js';

type Row = {
  project_id: string; id: string; name: string; type: EvalDefinition['type']; sample_rate: number; template: string | null;
  version_min: number | null; version_max: number | null; on_missing_output: EvalDefinition['on_missing_output']; settings: string; source: EvalDefinition['source'];
  created_at: number | string; updated_at: number | string;
};

/** How long a process trusts its list of a project's definitions: a change made elsewhere applies within this. */
export const DEFINITIONS_TTL_MS = 5_000;

function toDefinition(r: Row): EvalDefinition {
  const versions = r.version_min === null && r.version_max === null ? null : {
    ...(r.version_min !== null ? { min: Number(r.version_min) } : {}),
    ...(r.version_max !== null ? { max: Number(r.version_max) } : {}),
  };
  return {
    id: r.id, project_id: r.project_id, name: r.name, type: r.type, sample_rate: Number(r.sample_rate), template: r.template, versions,
    on_missing_output: r.on_missing_output, settings: JSON.parse(r.settings) as EvalDefinition['settings'], source: r.source, created_at: Number(r.created_at), updated_at: Number(r.updated_at),
  };
}

const notFound = (id: string): HttpError => httpError(EvaluatorsErrors.DEFINITION_NOT_FOUND, `the project has no eval definition ${JSON.stringify(id)}`);

/** Columns set from a definition's input, in order. */
function values(def: DefinitionInput): [string, string, number, string | null, number | null, number | null, string, string] {
  return [def.name, def.type, def.sample_rate ?? 1, def.template ?? null, def.versions?.min ?? null, def.versions?.max ?? null, def.on_missing_output ?? 'skip',
    JSON.stringify(def.settings)];
}

/** Eval definitions per project in the store: what the API, the config sync and the enqueue hook read and change. */
export class DefinitionStore {
  private readonly table: string;
  private readonly cache = new Map<string, { until: number; list: Promise<EvalDefinition[]> }>();

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.table = store.table('definitions');
  }

  async list(projectId: string): Promise<EvalDefinition[]> {
    const rows = await this.store.query<Row>(`SELECT * FROM ${this.table} WHERE project_id = ? ORDER BY created_at, id`, [projectId]);
    return rows.map(toDefinition);
  }

  /** The project's definitions, cached DEFINITIONS_TTL_MS (cleared at once by a change made in this process). */
  cached(projectId: string): Promise<EvalDefinition[]> {
    const now = this.now();
    const hit = this.cache.get(projectId);
    if (hit && hit.until > now) return hit.list;
    if (this.cache.size > 1000) this.cache.clear();
    const list = this.list(projectId);
    list.catch(() => this.cache.delete(projectId));
    this.cache.set(projectId, { until: now + DEFINITIONS_TTL_MS, list });
    return list;
  }

  async get(projectId: string, id: string): Promise<EvalDefinition | undefined> {
    const rows = await this.store.query<Row>(`SELECT * FROM ${this.table} WHERE project_id = ? AND id = ?`, [projectId, id]);
    return rows[0] ? toDefinition(rows[0]) : undefined;
  }

  async mustGet(projectId: string, id: string): Promise<EvalDefinition> {
    const def = await this.get(projectId, id);
    if (!def) throw notFound(id);
    return def;
  }

  async create(projectId: string, def: DefinitionInput): Promise<EvalDefinition> {
    const now = this.now();
    const id = def.id ?? uuidv7(now);
    const rows = await this.store.query<Row>(
      `INSERT INTO ${this.table} (project_id, id, name, type, sample_rate, template, version_min, version_max, on_missing_output, settings, source, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'store', ?, ?) ON CONFLICT (project_id, id) DO NOTHING RETURNING *`,
      [projectId, id, ...values(def), now, now]);
    if (!rows.length) throw httpError(EvaluatorsErrors.DEFINITION_EXISTS, `the project already has an eval definition "${id}"`);
    this.cache.delete(projectId);
    return toDefinition(rows[0]);
  }

  async replace(projectId: string, id: string, def: DefinitionInput): Promise<EvalDefinition> {
    const current = await this.mustGet(projectId, id);
    if (current.source === 'config') throw definitionFromConfig(id, 'change it');
    const rows = await this.store.query<Row>(
      `UPDATE ${this.table} SET name = ?, type = ?, sample_rate = ?, template = ?, version_min = ?, version_max = ?, on_missing_output = ?, settings = ?, updated_at = ?
       WHERE project_id = ? AND id = ? AND source = 'store' RETURNING *`, [...values(def), this.now(), projectId, id]);
    if (!rows.length) throw notFound(id);
    this.cache.delete(projectId);
    return toDefinition(rows[0]);
  }

  async delete(projectId: string, id: string): Promise<void> {
    const current = await this.mustGet(projectId, id);
    if (current.source === 'config') throw definitionFromConfig(id, 'remove it');
    await this.store.run(`DELETE FROM ${this.table} WHERE project_id = ? AND id = ? AND source = 'store'`, [projectId, id]);
    this.cache.delete(projectId);
  }

  /**
   * Makes the store hold the config file's definitions as the file says (the file wins). A definition the file no
   * longer declares stays, with its results, as a store definition the API manages.
   */
  async syncConfig(declared: readonly (DefinitionInput & { id: string; projectId: string })[]): Promise<void> {
    const now = this.now();
    await this.store.transaction(async (tx) => {
      const keep = new Set(declared.map((d) => `${d.projectId}\u0000${d.id}`));
      for (const d of declared) {
        await tx.run(
          `INSERT INTO ${this.table} (project_id, id, name, type, sample_rate, template, version_min, version_max, on_missing_output, settings, source, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'config', ?, ?)
           ON CONFLICT (project_id, id) DO UPDATE SET name = excluded.name, type = excluded.type, sample_rate = excluded.sample_rate,
             template = excluded.template, version_min = excluded.version_min, version_max = excluded.version_max,
             on_missing_output = excluded.on_missing_output, settings = excluded.settings, source = 'config', updated_at = excluded.updated_at`,
          [d.projectId, d.id, ...values(d), now, now]);
      }
      const configured = await tx.query<{ project_id: string; id: string }>(`SELECT project_id, id FROM ${this.table} WHERE source = 'config'`);
      for (const r of configured) {
        if (!keep.has(`${r.project_id}\u0000${r.id}`)) {
          await tx.run(`UPDATE ${this.table} SET source = 'store', updated_at = ? WHERE project_id = ? AND id = ?`, [now, r.project_id, r.id]);
        }
      }
    });
    this.cache.clear();
  }
}
