import type { SqlValue, Transaction } from '@vigil/plugin-sdk';
import { TRACE_COLUMNS } from '../trace-record.js';

export const DAY_MS = 86_400_000;

const at = (name: (typeof TRACE_COLUMNS)[number]): number => TRACE_COLUMNS.indexOf(name);
const CREATED = at('created_at');
const STATUS = at('status');
const INPUT = at('input_tokens');
const OUTPUT = at('output_tokens');
const COST = at('cost_usd');

interface DayTotals { items: number; errors: number; input: number; output: number; cost: number }

/**
 * Adds the traces just inserted (their `llm_traces` rows) to the daily usage rollup, in the transaction that
 * inserted them, so the rollup and the stored rows never disagree: a batch sent again inserts nothing and adds
 * nothing. One upsert per (trace day) in the batch; a batch spans at most the 8 days a trace may be dated back.
 */
export async function addToUsageRollup(tx: Transaction, table: string, projectId: string, rows: readonly (readonly SqlValue[])[], arrivedMs: number): Promise<void> {
  if (!rows.length) return;
  const days = new Map<number, DayTotals>();
  for (const r of rows) {
    const day = Math.floor(Number(r[CREATED]) / DAY_MS);
    const d = days.get(day) ?? { items: 0, errors: 0, input: 0, output: 0, cost: 0 };
    d.items++;
    if (r[STATUS] === 'error') d.errors++;
    d.input += Number(r[INPUT] ?? 0);
    d.output += Number(r[OUTPUT] ?? 0);
    d.cost += Number(r[COST] ?? 0);
    days.set(day, d);
  }
  await upsertDays(tx, table, projectId, days, arrivedMs);
}

/** What a trace row counts for: its status, tokens and cost (`llm_traces` columns). */
export interface CountedRow { status: string; input_tokens: number | string | null; output_tokens: number | string | null; cost_usd: number | string | null }

/**
 * A stored trace replaced in place (a Langfuse update, lane/trace-replacer.ts): the difference between the new row
 * and the old, added to its day under today's arrival day, in the replacing transaction. Rows of past arrival days
 * stay as they were (the export's events keep their figures); the correction is an event of its own.
 */
export async function replaceInUsageRollup(tx: Transaction, table: string, projectId: string, createdAt: number,
  before: CountedRow, after: CountedRow, arrivedMs: number): Promise<void> {
  const n = (v: number | string | null) => Number(v ?? 0);
  const d: DayTotals = {
    items: 0, errors: (after.status === 'error' ? 1 : 0) - (before.status === 'error' ? 1 : 0),
    input: n(after.input_tokens) - n(before.input_tokens), output: n(after.output_tokens) - n(before.output_tokens), cost: n(after.cost_usd) - n(before.cost_usd),
  };
  if (!d.errors && !d.input && !d.output && !d.cost) return;
  await upsertDays(tx, table, projectId, new Map([[Math.floor(createdAt / DAY_MS), d]]), arrivedMs);
}

async function upsertDays(tx: Transaction, table: string, projectId: string, days: ReadonlyMap<number, DayTotals>, arrivedMs: number): Promise<void> {
  const t = table;
  const arrived = Math.floor(arrivedMs / DAY_MS);
  // Last in the transaction, so each row is locked only until the commit; in day order, so two batches that touch
  // the same days lock them in the same order (PostgreSQL) and never deadlock.
  for (const [day, d] of [...days].sort((a, b) => a[0] - b[0])) {
    await tx.run(
      `INSERT INTO ${t} (project_id, day, arrived, items, errors, input_tokens, output_tokens, cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id, day, arrived) DO UPDATE SET items = ${t}.items + excluded.items, errors = ${t}.errors + excluded.errors,
         input_tokens = ${t}.input_tokens + excluded.input_tokens, output_tokens = ${t}.output_tokens + excluded.output_tokens,
         cost_usd = ${t}.cost_usd + excluded.cost_usd`,
      [projectId, day, arrived, d.items, d.errors, d.input, d.output, d.cost]);
  }
}
