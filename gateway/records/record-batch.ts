import type { GovernedRecordJson, StorableRecord } from './governed-record.js';

/**
 * A batch's governed records packed for the trip from a capture worker to the event loop, where they are published
 * on `gateway.record`: each record's stored JSON text, and its key fields in one flat array. The event loop never
 * parses the text (bench/record-export.ts); a flat array of strings and numbers clones faster than one object per
 * record, whose keys the clone would carry again for every record.
 *
 * Per record, `fields` holds: id, time, method, path, status, error, the route count and the route globs, the label
 * count and each label's name and value.
 */
export interface PackedRecords {
  readonly json: readonly string[];
  readonly fields: readonly (string | number | null)[];
}

/** Packs `records` with their JSON texts (`json[i]` is `records[i]`'s stored text). */
export function packRecords(records: readonly StorableRecord[], json: readonly string[]): PackedRecords {
  const fields: (string | number | null)[] = [];
  for (const r of records) {
    fields.push(r.id, r.time, r.method, r.path, r.status, r.error, r.route.length, ...r.route);
    const names = Object.keys(r.labels);
    fields.push(names.length);
    for (const name of names) fields.push(name, r.labels[name]);
  }
  return { json, fields };
}

/** The `gateway.record` payloads of a packed batch, in order. */
export function unpackRecords(packed: PackedRecords): GovernedRecordJson[] {
  const { json, fields: f } = packed;
  const out = new Array<GovernedRecordJson>(json.length);
  let at = 0;
  for (let i = 0; i < json.length; i++) {
    const id = f[at] as string;
    const time = f[at + 1] as number;
    const method = f[at + 2] as string;
    const path = f[at + 3] as string;
    const status = f[at + 4] as number;
    const error = f[at + 5] as string | null;
    const routes = f[at + 6] as number;
    at += 7;
    const route = new Array<string>(routes);
    for (let k = 0; k < routes; k++) route[k] = f[at++] as string;
    const count = f[at++] as number;
    const labels: Record<string, string> = {};
    for (let k = 0; k < count; k++, at += 2) {
      const name = f[at] as string;
      // Label names come from the policy: `__proto__` must become a label, not the object's prototype.
      if (name === '__proto__') Object.defineProperty(labels, name, { value: f[at + 1], enumerable: true, writable: true, configurable: true });
      else labels[name] = f[at + 1] as string;
    }
    out[i] = { json: json[i], id, time, method, path, route, status, labels, error };
  }
  return out;
}

/** The `gateway.record` payload of one record and its stored JSON text (for records stored on the event loop). */
export function recordFields(r: StorableRecord, json: string): GovernedRecordJson {
  return { json, id: r.id, time: r.time, method: r.method, path: r.path, route: r.route, status: r.status, labels: r.labels, error: r.error };
}
