// "Record by id" for the palette: a trace of any project, looked up by its exact id.
import { getJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { formatLatency } from '../../format/numbers.js';
import type { RecordHit } from '../types.js';
import { tracePath, type Trace } from './llm-api.js';

export async function findTrace(id: string, signal: AbortSignal): Promise<RecordHit[]> {
  try {
    const { project, trace: t } = await getJson<{ project: string; trace: Trace }>(`/api/llm/traces/${encodeURIComponent(id)}`, { signal, what: 'the trace' });
    const title = t.name ? `${t.name} · ${t.model}` : t.model;
    return [{ id: t.id, title, detail: `${project} · ${t.status === 'error' ? 'failed' : 'ok'} · ${formatLatency(t.latency_ms)} · LLM trace`, path: tracePath(project, t.id) }];
  } catch (err) {
    if ((err as ApiError).kind === 'not_found') return [];
    throw err;
  }
}
