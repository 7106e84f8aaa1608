// Reading the field observations (capture_fields) back, for the commands that work on them: `vigil spec`, `vigil sdk`
// and `vigil mock` infer a document from them, `vigil check` asks how much one field was used. `store` is the one
// capture's tables live in (`CommandIo.openStore(file, 'capture')`).
import type { Store } from '@vigil/plugin-sdk';
import type { FieldLocation, FieldObservation } from './api-fields.js';
import { isMissingTable } from '../records/stored-records.js';

interface FieldRow {
  route: string;
  location: string;
  status: number;
  name: string;
  count: number;
  parents: number;
  kinds: string;
  formats: string;
  redacted: number;
  first_seen: number;
  last_seen: number;
}

const LOCATIONS = new Set<FieldLocation>(['exchange', 'path', 'query', 'request_header', 'request_body', 'response_header', 'response_body']);

/**
 * Every observation last seen at or after `since` (epoch ms; 0 for all). A store that `vigil run` never wrote
 * fields to (no table yet) has none. Rows the toolchain cannot read (an unknown location, unparsable counts) are
 * skipped rather than guessed at.
 */
export async function readFieldObservations(store: Store, since = 0): Promise<FieldObservation[]> {
  let rows: FieldRow[];
  try {
    rows = await store.query<FieldRow & Record<string, unknown>>(
      `SELECT route, location, status, name, count, parents, kinds, formats, redacted, first_seen, last_seen FROM ${store.table('fields')} WHERE last_seen >= ?`,
      [since],
    );
  } catch (err) {
    if (isMissingTable(err)) return [];
    throw err;
  }
  const out: FieldObservation[] = [];
  for (const r of rows) {
    if (!LOCATIONS.has(r.location as FieldLocation)) continue;
    const kinds = counts(r.kinds);
    const formats = counts(r.formats);
    if (kinds === null || formats === null) continue;
    out.push({
      route: r.route, location: r.location as FieldLocation, status: Number(r.status), name: r.name,
      count: Number(r.count), parents: Number(r.parents), kinds, formats, redacted: Number(r.redacted),
      firstSeen: Number(r.first_seen), lastSeen: Number(r.last_seen),
    });
  }
  return out;
}

/** A JSON object of counts (`{"string": 3}`), or null. */
function counts(text: string): Record<string, number> | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const out: Record<string, number> = {};
    for (const [k, n] of Object.entries(value)) if (typeof n === 'number' && n > 0) out[k] = n;
    return out;
  } catch {
    return null;
  }
}

/** One field's use since `from` (epoch ms), over every status; null when the table does not exist yet. */
export async function fieldUse(
  store: Store, field: { route: string; location: FieldLocation; name: string }, from: number,
): Promise<{ count: number; redacted: number; lastSeen: number | null } | null> {
  try {
    const [row] = await store.query<{ used: number | string | null; redacted: number | string | null; last: number | string | null }>(
      `SELECT SUM(count) AS used, SUM(redacted) AS redacted, MAX(last_seen) AS last FROM ${store.table('fields')}
       WHERE route = ? AND location = ? AND name = ? AND last_seen >= ?`,
      [field.route, field.location, field.name, from]);
    const count = Number(row.used ?? 0);
    return { count, redacted: Number(row.redacted ?? 0), lastSeen: count > 0 ? Number(row.last) : null };
  } catch (err) {
    if (isMissingTable(err)) return null;
    throw err;
  }
}

/** Whether the route had exchanges since `from`; false as well when the table does not exist yet. */
export async function routeSeen(store: Store, route: string, from: number): Promise<boolean> {
  try {
    const [r] = await store.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM ${store.table('fields')} WHERE route = ? AND location = 'exchange' AND last_seen >= ?`, [route, from]);
    return Number(r.n) > 0;
  } catch (err) {
    if (isMissingTable(err)) return false;
    throw err;
  }
}
