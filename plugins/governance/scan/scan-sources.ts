// Where `vigil scan` reads exchanges: the records `vigil run` stored (capture's table), or a HAR 1.2 file.
import { type Store } from '@vigil/plugin-sdk';
import { storedRecordRows } from '../../../gateway/records/stored-records.js';
import type { ScanInput } from './scan-core.js';

/** Stored records, newest first, from `since` (epoch ms), at most `limit` (the SDK's reader of capture's table). */
export async function* storedRecords(store: Store, since: number, limit: number): AsyncGenerator<ScanInput> {
  for await (const row of storedRecordRows(store, since, limit)) {
    const r = JSON.parse(row.record) as ScanInput;
    yield { ...r, id: row.id, route: Array.isArray(r.route) ? r.route : [] };
  }
}

interface HarPair { name: string; value: string }
interface HarEntry {
  request?: { method?: string; url?: string; queryString?: HarPair[]; headers?: HarPair[]; postData?: { text?: string } };
  response?: { status?: number; headers?: HarPair[]; content?: { text?: string; encoding?: string } };
}

function pairs(list: HarPair[] | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of list ?? []) if (p && typeof p.name === 'string') (out[p.name] ??= []).push(String(p.value ?? ''));
  return out;
}

function body(text: string | undefined): unknown {
  if (typeof text !== 'string' || text === '') return null;
  try { return JSON.parse(text) as unknown; } catch { return text; }
}

/** HAR 1.2 entries as scan inputs; throws with a reason when the document is not a HAR log. */
export function harEntries(text: string): ScanInput[] {
  const doc = JSON.parse(text) as { log?: { entries?: HarEntry[] } };
  const entries = doc?.log?.entries;
  if (!Array.isArray(entries)) throw new Error('not a HAR file: no log.entries list');
  return entries.map((e, i) => {
    const url = new URL(e.request?.url ?? '/', 'http://har.invalid');
    const query = e.request?.queryString ? pairs(e.request.queryString) : pairs([...url.searchParams].map(([name, value]) => ({ name, value })));
    const content = e.response?.content;
    const responseText = content?.encoding === 'base64' && typeof content.text === 'string'
      ? Buffer.from(content.text, 'base64').toString('utf8') : content?.text;
    return {
      id: `har-${i}`, method: e.request?.method ?? 'GET', path: url.pathname, route: [], query,
      headers: pairs(e.request?.headers), response_headers: pairs(e.response?.headers),
      request_body: body(e.request?.postData?.text), response_body: body(responseText),
      status: typeof e.response?.status === 'number' ? e.response.status : 200,
    };
  });
}
