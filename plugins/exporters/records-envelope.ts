import type { ExportRecord } from './exporter.js';

/**
 * `{"records":[…]}` of a batch, joined from the records' JSON texts as they are: what webhooks receive and wasm
 * modules read. Its bytes are the ones sent (and signed), so a receiver gets each stored record verbatim.
 */
export function recordsEnvelope(batch: readonly ExportRecord[]): string {
  let out = '{"records":[';
  for (let i = 0; i < batch.length; i++) out += (i === 0 ? '' : ',') + batch[i].json;
  return out + ']}';
}
