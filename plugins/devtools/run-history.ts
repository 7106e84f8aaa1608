import type { Store } from '@vigil/plugin-sdk';
import type { ScriptKind } from './project-script.js';

/** Characters of a run's output the history keeps: its end, where a failure's reason is. */
export const OUTPUT_TAIL_CHARS = 16 * 1024;
/** Runs one history answer lists at most. */
export const HISTORY_PAGE = 100;

export type RunState = 'running' | 'succeeded' | 'failed' | 'stopped' | 'timed_out';

export interface FinishedRun {
  id: string;
  folder: string;
  kind: ScriptKind;
  name: string;
  argv: string[];
  actor: string;
  state: Exclude<RunState, 'running'>;
  exit_code: number | null;
  signal: string | null;
  /** Why it ended so: stopped by whom, the time limit, a runner not installed. */
  note: string | null;
  started_at: number;
  ended_at: number;
  output_tail: string;
  output_bytes: number;
  dropped_bytes: number;
}

type Row = Omit<FinishedRun, 'argv'> & { argv: string };

/** The last finished runs, in the plugin's table; bounded to `keep` rows (the oldest deleted as a new one lands). */
export class RunHistory {
  private readonly table: string;

  constructor(private readonly store: Store, private readonly keep: number) {
    this.table = store.table('runs');
  }

  async record(run: FinishedRun): Promise<void> {
    await this.store.insertMany(this.table, ['id', 'folder', 'kind', 'name', 'argv', 'actor', 'state', 'exit_code', 'signal', 'note', 'started_at', 'ended_at', 'output_tail', 'output_bytes', 'dropped_bytes'], [[
      run.id, run.folder, run.kind, run.name, JSON.stringify(run.argv), run.actor, run.state, run.exit_code, run.signal, run.note, run.started_at, run.ended_at,
      run.output_tail.slice(-OUTPUT_TAIL_CHARS), run.output_bytes, run.dropped_bytes,
    ]], { onConflict: 'ON CONFLICT (id) DO NOTHING' });
    // Everything older than the keep-th newest goes; the index on started_at makes both halves a range scan.
    await this.store.run(
      `DELETE FROM ${this.table} WHERE started_at < (SELECT min(started_at) FROM (SELECT started_at FROM ${this.table} ORDER BY started_at DESC LIMIT ${this.keep}) AS newest)`,
    );
  }

  /** Newest first, at most `limit` (≤ HISTORY_PAGE), without the output tails (see `get`). */
  async list(limit: number): Promise<Omit<FinishedRun, 'output_tail'>[]> {
    const rows = await this.store.query<Row>(
      `SELECT id, folder, kind, name, argv, actor, state, exit_code, signal, note, started_at, ended_at, output_bytes, dropped_bytes FROM ${this.table} ORDER BY started_at DESC, id DESC LIMIT ${Math.min(limit, HISTORY_PAGE)}`,
    );
    return rows.map((r) => ({ ...r, argv: JSON.parse(r.argv) as string[] }));
  }

  async get(id: string): Promise<FinishedRun | null> {
    const [row] = await this.store.query<Row>(`SELECT * FROM ${this.table} WHERE id = ?`, [id]);
    return row ? { ...row, argv: JSON.parse(row.argv) as string[] } : null;
  }
}
