import type { Queryable, Store } from '@vigil/plugin-sdk';
import { INITIAL_STATE, type RuleState } from './rule-state.js';

/** What the last evaluation of a rule saw, for the rules list. */
export interface LastEvaluation {
  value: number | null;
  samples: number | null;
  note: string | null;
  error: string | null;
  at: number | null;
}

export interface StoredRuleState extends RuleState {
  rule_id: string;
  last: LastEvaluation;
}

type Row = Record<string, string | number | null>;

function fromRow(r: Row): StoredRuleState {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    rule_id: String(r.rule_id), status: r.status === 'firing' ? 'firing' : 'ok', event_id: (r.event_id ?? null) as string | null,
    last_notified_at: num(r.last_notified_at), transitions: JSON.parse(String(r.transitions)) as number[], flapping: Number(r.flapping) === 1,
    last: { value: num(r.last_value), samples: num(r.last_samples), note: (r.last_note ?? null) as string | null, error: (r.last_error ?? null) as string | null, at: num(r.evaluated_at) },
  };
}

/** One row per rule: its state between ticks, and which tick last claimed it. */
export class RuleStateStore {
  private readonly table: string;

  constructor(private readonly store: Store) {
    this.table = store.table('rule_state');
  }

  async all(): Promise<Map<string, StoredRuleState>> {
    const rows = await this.store.query<Row>(`SELECT * FROM ${this.table}`);
    return new Map(rows.map((r) => [String(r.rule_id), fromRow(r)]));
  }

  async get(ruleId: string): Promise<StoredRuleState> {
    const [row] = await this.store.query<Row>(`SELECT * FROM ${this.table} WHERE rule_id = ?`, [ruleId]);
    return row ? fromRow(row) : { ...INITIAL_STATE, rule_id: ruleId, last: { value: null, samples: null, note: null, error: null, at: null } };
  }

  /**
   * Claims `tick` for each of `ruleIds` that no evaluation of this tick (or a later one) has claimed, and returns
   * those: a compare-and-set per rule, so that two processes running the same tick evaluate each rule once.
   */
  async claim(ruleIds: readonly string[], tick: number): Promise<Set<string>> {
    if (ruleIds.length === 0) return new Set();
    await this.store.insertMany(this.table, ['rule_id', 'status', 'transitions', 'flapping', 'last_tick'],
      ruleIds.map((id) => [id, 'ok', '[]', 0, -1]), { onConflict: 'ON CONFLICT (rule_id) DO NOTHING' });
    const claimed = new Set<string>();
    // Bounded statements: a few hundred ids each.
    for (let i = 0; i < ruleIds.length; i += 500) {
      const slice = ruleIds.slice(i, i + 500);
      const rows = await this.store.query<{ rule_id: string }>(
        `UPDATE ${this.table} SET last_tick = ? WHERE last_tick < ? AND rule_id IN (${slice.map(() => '?').join(', ')}) RETURNING rule_id`,
        [tick, tick, ...slice]);
      for (const r of rows) claimed.add(r.rule_id);
    }
    return claimed;
  }

  async save(ruleId: string, state: RuleState, last: LastEvaluation, q: Queryable = this.store): Promise<void> {
    await q.run(
      `UPDATE ${this.table} SET status = ?, event_id = ?, last_notified_at = ?, transitions = ?, flapping = ?, last_value = ?, last_samples = ?,
         last_note = ?, last_error = ?, evaluated_at = ? WHERE rule_id = ?`,
      [state.status, state.event_id, state.last_notified_at, JSON.stringify(state.transitions), state.flapping ? 1 : 0,
        last.value, last.samples, last.note, last.error, last.at, ruleId]);
  }

  /** Back to `ok` with no memory (after the history is cleared): nothing refers to a deleted event. */
  async resetAll(): Promise<void> {
    await this.store.run(`UPDATE ${this.table} SET status = 'ok', event_id = NULL, transitions = '[]', flapping = 0`);
  }

  async deleteRule(ruleId: string): Promise<void> {
    await this.store.run(`DELETE FROM ${this.table} WHERE rule_id = ?`, [ruleId]);
  }
}
