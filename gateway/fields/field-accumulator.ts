// The fields the governance workers observed (GovernResult.fields), added up across batches on the event loop
// between two writes to `capture_fields`, within the same bounds as a worker's batch (FIELD_LIMITS).
import { FIELD_LIMITS, type FieldObservation, type FieldOverflow } from './api-fields.js';

const KEY = (f: FieldObservation) => `${f.location}\u0000${f.status}\u0000${f.name}`;

/** Adds the counts of `from` into `into` (kinds and formats by name). */
function addCounts<K extends string>(into: Partial<Record<K, number>>, from: Partial<Record<K, number>>): void {
  for (const k of Object.keys(from) as K[]) into[k] = (into[k] ?? 0) + (from[k] ?? 0);
}

/** One observation per route, location, status and name; the bounds' leftovers counted, not kept. */
export class FieldAccumulator {
  private routes = new Map<string, Map<string, FieldObservation>>();

  /**
   * `copy`: keep copies of the observations added (they came from another thread and go with their batch); false
   * where the caller hands over objects nothing else holds (a worker thread's own batches, held-fields.ts).
   */
  constructor(
    private readonly limits: { fieldsPerRoute: number; routes: number } = FIELD_LIMITS,
    private readonly copy = true,
  ) {}

  /** Merges a batch's observations; returns what did not fit. */
  add(fields: readonly FieldObservation[]): FieldOverflow {
    const overflow: FieldOverflow = { route: 0, total: 0 };
    for (const f of fields) {
      let route = this.routes.get(f.route);
      if (route === undefined) {
        if (this.routes.size >= this.limits.routes) { overflow.total++; continue; }
        route = new Map();
        this.routes.set(f.route, route);
      }
      const key = KEY(f);
      const known = route.get(key);
      if (known === undefined) {
        if (route.size >= this.limits.fieldsPerRoute) { overflow.route++; continue; }
        route.set(key, this.copy ? { ...f, kinds: { ...f.kinds }, formats: { ...f.formats } } : f);
        continue;
      }
      known.count += f.count;
      known.parents += f.parents;
      known.redacted += f.redacted;
      known.firstSeen = Math.min(known.firstSeen, f.firstSeen);
      known.lastSeen = Math.max(known.lastSeen, f.lastSeen);
      addCounts(known.kinds, f.kinds);
      addCounts(known.formats, f.formats);
    }
    return overflow;
  }

  get size(): number {
    let n = 0;
    for (const route of this.routes.values()) n += route.size;
    return n;
  }

  /** Everything held, and an empty accumulator. */
  take(): FieldObservation[] {
    const out: FieldObservation[] = [];
    for (const route of this.routes.values()) out.push(...route.values());
    this.routes = new Map();
    return out;
  }

  /** Puts back what a failed write took, as far as the bounds allow (newer observations were added meanwhile). */
  restore(fields: readonly FieldObservation[]): FieldOverflow {
    return this.add(fields);
  }
}
