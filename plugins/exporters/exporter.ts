import type { Logger } from '@vigil/plugin-sdk';
import type { GovernedRecordJson } from '../../gateway/records/governed-record.js';

/** What every exporter type is: the delivery queue's `send`, and a release of its files, sockets or process. */
export interface Exporter<R = ExportRecord> {
  /** Starts background resources (the exec exporter's process). Called once, before the first `send`. */
  start?(): void;
  /** Delivers one batch or throws: a `PermanentError` when retrying cannot help, anything else to be retried. */
  send(batch: R[], signal: AbortSignal): Promise<void>;
  /** Releases what the exporter holds; idempotent. Called after its queue has shut down. */
  shutdown(): Promise<void>;
}

/**
 * A record as exporters see it: `json` is its JSON text, written out as it is (never parsed and serialised again).
 * From the bus it is a `GovernedRecordJson`, the stored text with its key fields; from a wasm exporter, the
 * module's record with whichever of those fields it holds.
 */
export type ExportRecord = Pick<GovernedRecordJson, 'json'> & Partial<Omit<GovernedRecordJson, 'json'>>;

export interface ExporterDeps {
  /** Already tagged with the exporter's name. */
  log: Logger;
}
