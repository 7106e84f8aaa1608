import type { Store } from '@vigil/plugin-sdk';

/**
 * The digests sent, one row per digest id (`alerts_digests`): what keeps a week's digest from going out twice across
 * restarts and processes, whatever the channels have pruned of their deliveries since (their retention may be shorter
 * than a week). A row is written once the channels hold the digest's deliveries, so a process that dies before that
 * leaves the digest due, not lost.
 */
export class DigestLedger {
  private readonly table: string;

  constructor(private readonly store: Store) {
    this.table = store.table('digests');
  }

  /** Which of `ids` were sent. */
  async sent(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.store.query<{ id: string }>(`SELECT id FROM ${this.table} WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
    return new Set(rows.map((r) => r.id));
  }

  /** Records a digest as sent; false when it was recorded already (another process, a repeated job). */
  async record(id: string, project: string, week: string, at: number): Promise<boolean> {
    return (await this.store.run(`INSERT INTO ${this.table} (id, project, week, sent_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, [id, project, week, at])).changes === 1;
  }
}
