import type { Logger } from '@vigil/plugin-sdk';

/** What every exporter type is: the delivery queue's `send`, and a release of its files, sockets or process. */
export interface Exporter<R = ExportRecord> {
  /** Starts background resources (the exec exporter's process). Called once, before the first `send`. */
  start?(): void;
  /** Delivers one batch or throws: a `PermanentError` when retrying cannot help, anything else to be retried. */
  send(batch: R[], signal: AbortSignal): Promise<void>;
  /** Releases what the exporter holds; idempotent. Called after its queue has shut down. */
  shutdown(): Promise<void>;
}

/** A record as exporters see it: a governed record (or a record of another exportable topic), plain JSON data. */
export type ExportRecord = Record<string, unknown>;

export interface ExporterDeps {
  /** Already tagged with the exporter's name. */
  log: Logger;
}
