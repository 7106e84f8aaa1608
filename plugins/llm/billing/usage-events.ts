import type { Store } from '@vigil/plugin-sdk';
import type { BillingMonth } from './billing-query.js';
import { DAY_MS } from './usage-rollup.js';

/** Events one page of the usage export holds at most, and by default. */
export const EVENTS_PAGE_MAX = 1_000;
export const EVENTS_PAGE_DEFAULT = 500;

/** The CloudEvents `source` of every usage event: with `id`, what OpenMeter deduplicates on. */
export const USAGE_EVENT_SOURCE = '/vigil/llm';
export const USAGE_EVENT_TYPE = 'vigil.llm.usage';

/** A CloudEvents 1.0 event (JSON format) as OpenMeter's `POST /api/v1/events` takes it. */
export interface UsageEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  /** The project's name: OpenMeter's subject (the customer) a meter groups by. */
  subject: string;
  /** The start of the UTC day the calls were made (their traces' time). */
  time: string;
  datacontenttype: 'application/json';
  data: { project: string; day: string; items: number; errors: number; input_tokens: number; output_tokens: number; cost_usd: number };
}

type RollupRow = {
  project_id: string; name: string; day: number | string; arrived: number | string; items: number | string; errors: number | string;
  input_tokens: number | string; output_tokens: number | string; cost_usd: number | string;
};

/** Keyset of the export: the last event's (day, project id, arrival day). */
export interface EventCursor { day: number; project: string; arrived: number }

export const encodeCursor = (c: EventCursor): string => Buffer.from(JSON.stringify([c.day, c.project, c.arrived])).toString('base64url');

export function decodeCursor(text: string): EventCursor | null {
  try {
    const v = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 3 || !Number.isSafeInteger(v[0]) || typeof v[1] !== 'string' || !Number.isSafeInteger(v[2])) return null;
    return { day: v[0] as number, project: v[1] as string, arrived: v[2] as number };
  } catch {
    return null;
  }
}

/**
 * A page of the month's usage events: one per project, trace day and arrival day of the daily rollup, for arrival
 * days that are over (before today, UTC). Such a row never changes again (traces are only added to today's arrival
 * day), so an event's id names fixed figures: exporting the month again sends the same ids with the same data, and a
 * receiver that deduplicates on (source, id), as OpenMeter does, counts each once; a later export adds only the
 * events of the days that closed since. Bounded: one keyset read of at most `limit` rollup rows, by the (day, project)
 * index.
 */
export async function readUsageEvents(store: Store, m: BillingMonth, after: EventCursor | null, limit: number, now: number): Promise<{ data: UsageEvent[]; next: string | null; closed_before: string }> {
  const today = Math.floor(now / DAY_MS);
  const from = Math.floor(m.from / DAY_MS);
  const to = Math.floor(m.to / DAY_MS);
  const keyset = after ? 'AND (u.day > ? OR (u.day = ? AND (u.project_id > ? OR (u.project_id = ? AND u.arrived > ?))))' : '';
  const params = after ? [after.day, after.day, after.project, after.project, after.arrived] : [];
  const rows = await store.query<RollupRow>(
    `SELECT u.project_id, p.name, u.day, u.arrived, u.items, u.errors, u.input_tokens, u.output_tokens, u.cost_usd
     FROM ${store.table('usage_daily')} u JOIN ${store.table('projects')} p ON p.id = u.project_id
     WHERE u.day >= ? AND u.day < ? AND u.arrived < ? ${keyset}
     ORDER BY u.day, u.project_id, u.arrived LIMIT ?`,
    [from, to, today, ...params, limit + 1]);
  const page = rows.slice(0, limit);
  const data = page.map((r): UsageEvent => {
    const day = Number(r.day);
    const date = new Date(day * DAY_MS).toISOString();
    return {
      specversion: '1.0',
      id: `${r.project_id}.${day}.${Number(r.arrived)}`,
      source: USAGE_EVENT_SOURCE,
      type: USAGE_EVENT_TYPE,
      subject: r.name,
      time: date,
      datacontenttype: 'application/json',
      data: {
        project: r.name, day: date.slice(0, 10), items: Number(r.items), errors: Number(r.errors),
        input_tokens: Number(r.input_tokens), output_tokens: Number(r.output_tokens), cost_usd: Math.round(Number(r.cost_usd) * 1e9) / 1e9,
      },
    };
  });
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? encodeCursor({ day: Number(last.day), project: last.project_id, arrived: Number(last.arrived) }) : null;
  return { data, next, closed_before: new Date(today * DAY_MS).toISOString().slice(0, 10) };
}
