// Where the toolchain reads field observations: capture's `capture_fields` table in the store of a `vigil run`
// config. `vigil spec`, `vigil sdk` and `vigil mock` take `-config FILE` through these two functions.
import type { CommandIo, FieldLocation, FieldObservation, Queryable } from '@vigil/plugin-sdk';
import type { OpenApiDocument } from '../openapi/document.js';
import { inferSpec, type InferOptions } from './infer-spec.js';

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
export async function readFieldObservations(store: Queryable, since = 0): Promise<FieldObservation[]> {
  let rows: FieldRow[];
  try {
    rows = await store.query<FieldRow & Record<string, unknown>>(
      'SELECT route, location, status, name, count, parents, kinds, formats, redacted, first_seen, last_seen FROM capture_fields WHERE last_seen >= ?',
      [since],
    );
  } catch (err) {
    if (/no such table|does not exist/i.test((err as Error).message)) return [];
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

/** No observations to infer from: the command says how to get some and exits 1. */
export class NoObservationsError extends Error {}

/**
 * The inferred document of the store of `vigil run -config configFile`, observations from the last `sinceMs`
 * (all when undefined). Throws the config error of an invalid file (`io.config.describe` prints it) and
 * NoObservationsError when there is nothing to infer from.
 */
export async function inferFromConfig(
  io: CommandIo, configFile: string, options: InferOptions & { sinceMs?: number } = {},
): Promise<{ document: OpenApiDocument; observations: FieldObservation[] }> {
  const opened = await io.openStore(configFile, 'capture');
  let observations: FieldObservation[];
  try {
    observations = await readFieldObservations(opened.store, options.sinceMs === undefined ? 0 : Date.now() - options.sinceMs);
  } finally {
    await opened.close();
  }
  if (!observations.some((f) => f.location === 'exchange' || f.count > 0)) {
    throw new NoObservationsError(
      `no field observations in the store of ${configFile}${options.sinceMs === undefined ? '' : ' in that period'}: ` +
      `run \`vigil run -config ${configFile}\` with capture on and send traffic through the gateway (every exchange ` +
      'records the fields of its route), then run this again',
    );
  }
  return { document: inferSpec(observations, options), observations };
}
