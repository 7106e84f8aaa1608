// The API client's server shapes as the page uses them (generated: ui/src/data/api.gen.ts), and the few helpers that
// make new items. Secret variables arrive with `value: ""` and `set`: their values never reach the browser.
import type {
  ApiCollection, ApiEnvironment, ApiExportResult, ApiFlow, ApiFlowResult, ApiFlowStep, ApiHistoryEntry, ApiImportResult, ApiKeyValue, ApiRequest,
  ApiSendResult, ApiStore, ApiStoreChange,
} from '../../../data/api.gen.js';
import { postJson } from '../../../data/api.js';

export type {
  ApiCollection, ApiEnvironment, ApiExportResult, ApiFlow, ApiFlowResult, ApiFlowStep, ApiHistoryEntry, ApiImportResult, ApiKeyValue, ApiRequest, ApiSendResult, ApiStore,
};

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export const newId = (prefix: string): string => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

export const blankRequest = (): ApiRequest => ({ id: newId('r'), name: 'New request', folder: '', method: 'GET', url: '', headers: [], body: '', auth: { type: 'none' } });

/** Saves the parts named; the answer is the whole store again. */
export const saveStore = (change: ApiStoreChange): Promise<ApiStore> => postJson<ApiStore>('/api/httpstore', change, { what: 'the API client\'s store' });

/** The query parameters of a URL that may hold {{placeholders}} (not a URL the browser can parse yet). */
export function paramsOf(url: string): ApiKeyValue[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  return url.slice(q + 1).split('#')[0].split('&').filter(Boolean).map((pair) => {
    const eq = pair.indexOf('=');
    const dec = (s: string) => { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; } };
    return eq < 0 ? { name: dec(pair), value: '' } : { name: dec(pair.slice(0, eq)), value: dec(pair.slice(eq + 1)) };
  });
}

/** The URL with its query replaced by `params` (placeholders kept as written). */
export function withParams(url: string, params: ApiKeyValue[]): string {
  const base = url.split('?')[0];
  const enc = (s: string) => s.split(/(\{\{[^}]*\}\})/).map((part, i) => (i % 2 ? part : encodeURIComponent(part))).join('');
  const q = params.filter((p) => p.name && p.enabled !== false).map((p) => `${enc(p.name)}=${enc(p.value)}`).join('&');
  return q ? `${base}?${q}` : base;
}

export const statusTone = (status: number): 'success' | 'warning' | 'danger' | 'neutral' =>
  status >= 500 ? 'danger' : status >= 400 ? 'warning' : status >= 200 && status < 400 ? 'success' : 'neutral';

export const formatBytes = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);
