import { randomUUID } from 'node:crypto';
import type { Queryable, Store } from '@vigil/plugin-sdk';

export type LabelRow = { label: string; version: number; updated_at: number; updated_by: string };
export type LabelMove = { label: string; version: number | null; previous_version: number | null; at: number; actor: string };

/** Moves in a row lost to another writer of the same label before giving up (each loss means that writer moved it). */
const MAX_RACES = 20;
/** Rows a label history answers at most, newest first. */
export const HISTORY_LIMIT = 200;

/**
 * Labels of prompt templates and their history. A move is a compare-and-set on the label's row (insert when it has
 * none, update when it still names the version just read, delete likewise), retried when another process moved it
 * between the read and the write; the history row is written in the same transaction, so every move is recorded once,
 * with the version it replaced, whatever the number of processes.
 */
export class PromptLabels {
  private readonly labels: string;
  private readonly history: string;

  constructor(private readonly store: Store) {
    this.labels = store.table('prompt_labels');
    this.history = store.table('prompt_label_history');
  }

  async list(projectId: string, template: string): Promise<LabelRow[]> {
    const rows = await this.store.query<LabelRow>(
      `SELECT label, version, updated_at, updated_by FROM ${this.labels} WHERE project_id = ? AND template = ? ORDER BY label`, [projectId, template]);
    return rows.map((r) => ({ label: r.label, version: Number(r.version), updated_at: Number(r.updated_at), updated_by: r.updated_by }));
  }

  /** The version a label names, or null. */
  async versionOf(projectId: string, template: string, label: string, db: Queryable = this.store): Promise<number | null> {
    const rows = await db.query<{ version: number }>(
      `SELECT version FROM ${this.labels} WHERE project_id = ? AND template = ? AND label = ?`, [projectId, template, label]);
    return rows.length ? Number(rows[0].version) : null;
  }

  /** Labels that name `version`. */
  async ofVersion(projectId: string, template: string, version: number): Promise<string[]> {
    const rows = await this.store.query<{ label: string }>(
      `SELECT label FROM ${this.labels} WHERE project_id = ? AND template = ? AND version = ? ORDER BY label`, [projectId, template, version]);
    return rows.map((r) => r.label);
  }

  /** Moves of the template's labels, newest first, at most HISTORY_LIMIT. */
  async moves(projectId: string, template: string, limit = HISTORY_LIMIT): Promise<LabelMove[]> {
    const rows = await this.store.query<LabelMove>(
      `SELECT label, version, previous_version, at, actor FROM ${this.history} WHERE project_id = ? AND template = ? ORDER BY at DESC, id DESC LIMIT ?`,
      [projectId, template, Math.min(limit, HISTORY_LIMIT)]);
    return rows.map((r) => ({
      label: r.label, version: r.version === null ? null : Number(r.version),
      previous_version: r.previous_version === null ? null : Number(r.previous_version), at: Number(r.at), actor: r.actor,
    }));
  }

  /**
   * Points `label` at `version` (null removes it). Returns the move, or null when the label already named that
   * version (nothing changes and nothing is recorded). The caller checks that the version exists.
   */
  async move(projectId: string, template: string, label: string, version: number | null, actor: string, now = Date.now()): Promise<LabelMove | null> {
    for (let race = 0; race < MAX_RACES; race++) {
      const outcome = await this.store.transaction(async (tx) => {
        const previous = await this.versionOf(projectId, template, label, tx);
        if (previous === version) return { move: null };
        let changes: number;
        if (previous === null) {
          ({ changes } = await tx.run(
            `INSERT INTO ${this.labels} (project_id, template, label, version, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
            [projectId, template, label, version, now, actor]));
        } else if (version === null) {
          ({ changes } = await tx.run(`DELETE FROM ${this.labels} WHERE project_id = ? AND template = ? AND label = ? AND version = ?`,
            [projectId, template, label, previous]));
        } else {
          ({ changes } = await tx.run(
            `UPDATE ${this.labels} SET version = ?, updated_at = ?, updated_by = ? WHERE project_id = ? AND template = ? AND label = ? AND version = ?`,
            [version, now, actor, projectId, template, label, previous]));
        }
        if (changes === 0) return undefined; // another process moved it since the read: read again
        await tx.run(`INSERT INTO ${this.history} (id, project_id, template, label, version, previous_version, at, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          [randomUUID(), projectId, template, label, version, previous, now, actor]);
        return { move: { label, version, previous_version: previous, at: now, actor } };
      });
      if (outcome) return outcome.move;
    }
    throw new Error(`label "${label}" of "${template}" was moved by others ${MAX_RACES} times in a row; try again`);
  }
}
