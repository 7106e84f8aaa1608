// How much each checked field was used, from capture_fields: its count (over the rows last seen since `from`),
// when it was last seen, and whether the route was seen at all.
import type { Store } from '@vigil/plugin-sdk';
import type { FieldSpec } from './field-spec.js';

export interface FieldUsage {
  spec: FieldSpec;
  /** Times present, over every status (response side), in rows last seen since the window's start. */
  count: number;
  /** Of those, times a rule or detector masked it. */
  redacted: number;
  /** Epoch ms, or null when unused. */
  lastSeen: number | null;
  /** The route had exchanges in the window; false: never (or not since the window's start). */
  routeSeen: boolean;
}

/** A store `vigil run` never wrote to has no capture_fields: nothing was used. */
const MISSING_TABLE = /no such table|does not exist/i;

export async function fieldUsage(store: Store, specs: readonly FieldSpec[], from: number): Promise<FieldUsage[]> {
  const table = store.table('fields');
  const out: FieldUsage[] = [];
  const routes = new Map<string, boolean>();
  for (const spec of specs) {
    let routeSeen = routes.get(spec.routeKey);
    try {
      if (routeSeen === undefined) {
        const [r] = await store.query<{ n: number | string }>(
          `SELECT COUNT(*) AS n FROM ${table} WHERE route = ? AND location = 'exchange' AND last_seen >= ?`, [spec.routeKey, from]);
        routeSeen = Number(r.n) > 0;
        routes.set(spec.routeKey, routeSeen);
      }
      const [row] = await store.query<{ used: number | string | null; redacted: number | string | null; last: number | string | null }>(
        `SELECT SUM(count) AS used, SUM(redacted) AS redacted, MAX(last_seen) AS last FROM ${table}
         WHERE route = ? AND location = ? AND name = ? AND last_seen >= ?`,
        [spec.routeKey, spec.location, spec.name, from]);
      const count = Number(row.used ?? 0);
      out.push({ spec, count, redacted: Number(row.redacted ?? 0), lastSeen: count > 0 ? Number(row.last) : null, routeSeen });
    } catch (err) {
      if (!MISSING_TABLE.test((err as Error).message)) throw err;
      out.push({ spec, count: 0, redacted: 0, lastSeen: null, routeSeen: false });
    }
  }
  return out;
}
