// How much each checked field was used, from the field observations: its count (over the rows last seen since `from`),
// when it was last seen, and whether the route was seen at all.
import type { Store } from '@vigil/plugin-sdk';
import { fieldUse, routeSeen } from '../../../gateway/fields/field-reads.js';
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

export async function fieldUsage(store: Store, specs: readonly FieldSpec[], from: number): Promise<FieldUsage[]> {
  const out: FieldUsage[] = [];
  const routes = new Map<string, boolean>();
  for (const spec of specs) {
    let seen = routes.get(spec.routeKey);
    if (seen === undefined) routes.set(spec.routeKey, seen = await routeSeen(store, spec.routeKey, from));
    const use = await fieldUse(store, { route: spec.routeKey, location: spec.location, name: spec.name }, from);
    // No table yet: a store `vigil run` never wrote fields to, where nothing was used.
    out.push(use === null ? { spec, count: 0, redacted: 0, lastSeen: null, routeSeen: false } : { spec, ...use, routeSeen: seen });
  }
  return out;
}
