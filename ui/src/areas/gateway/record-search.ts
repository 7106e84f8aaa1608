// "Record by id" for the palette: the gateway's records are looked up by their exact id.
import { getJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { RecordHit } from '../types.js';
import type { GatewayRecord } from './gateway-api.js';

export async function findRecord(id: string, signal: AbortSignal): Promise<RecordHit[]> {
  try {
    const r = await getJson<GatewayRecord>(`/api/gateway/records/${encodeURIComponent(id)}`, { signal, what: 'the record' });
    return [{ id: r.id, title: `${r.method} ${r.path}`, detail: `${r.status || 'no answer'} · ${Math.round(r.duration_ms)} ms · record`, path: `/gateway/requests/${encodeURIComponent(r.id)}` }];
  } catch (err) {
    if ((err as ApiError).kind === 'not_found') return [];
    throw err;
  }
}
