import type { Store } from '@vigil/plugin-sdk';

/** Expected outputs per (project, template): for semantic_similarity definitions without their own, and {{expected}}. */
export class GoldenSets {
  private readonly table: string;

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.table = store.table('golden_sets');
  }

  async get(projectId: string, template: string): Promise<string[] | undefined> {
    const rows = await this.store.query<{ outputs: string }>(`SELECT outputs FROM ${this.table} WHERE project_id = ? AND template = ?`, [projectId, template]);
    return rows[0] ? (JSON.parse(rows[0].outputs) as string[]) : undefined;
  }

  /** A page of the project's golden sets, by template name. */
  async list(projectId: string, page: { limit: number; offset: number }): Promise<{ template: string; outputs: string[]; updated_at: number }[]> {
    const rows = await this.store.query<{ template: string; outputs: string; updated_at: number }>(
      `SELECT template, outputs, updated_at FROM ${this.table} WHERE project_id = ? ORDER BY template LIMIT ? OFFSET ?`, [projectId, page.limit, page.offset]);
    return rows.map((r) => ({ template: r.template, outputs: JSON.parse(r.outputs) as string[], updated_at: Number(r.updated_at) }));
  }

  async put(projectId: string, template: string, outputs: string[]): Promise<void> {
    await this.store.run(
      `INSERT INTO ${this.table} (project_id, template, outputs, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id, template) DO UPDATE SET outputs = excluded.outputs, updated_at = excluded.updated_at`,
      [projectId, template, JSON.stringify(outputs), this.now()]);
  }

  async delete(projectId: string, template: string): Promise<boolean> {
    return (await this.store.run(`DELETE FROM ${this.table} WHERE project_id = ? AND template = ?`, [projectId, template])).changes > 0;
  }
}
