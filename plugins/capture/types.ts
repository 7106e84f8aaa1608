import type { SqlValue } from '@vigil/plugin-sdk';
import type { PackedExchanges } from './exchange-batch.js';

export interface CaptureConfig {
  max_body_bytes: string | number;
  queue: number;
  batch: number;
  workers: number;
  retention: string | number;
  retention_interval: string | number;
  rollup_retention: string | number;
  tenant_label: string;
  pricing: { per_1k_tokens: number; per_request: number; currency: string };
}

/** What each thread of the capture pool receives once. */
export interface StoreRowsWorkerData {
  /** The redaction service's `workerModule`, as an href. */
  governModule: string;
  tenantLabel: string;
}

/** A capture pool task: a governance task (`GovernTask`) with its exchanges packed for the trip. */
export interface StoreRowsTask {
  /** The policy the exchanges were decided under. */
  policy: { rules?: readonly object[] };
  exchanges: PackedExchanges;
}

/** A capture pool result: what one batch adds to the store. */
export interface StoredRows {
  /** `capture_records` rows in `RECORD_COLUMNS` order; the governed record's JSON is the last value. */
  rows: SqlValue[][];
  /** `capture_rollups` rows in `ROLLUP_COLUMNS` order, one per key of the batch. */
  rollups: SqlValue[][];
  /** Exchanges of the batch the governance module refused (no row for them), and the first refusal's message. */
  failed: number;
  firstError: string | null;
  /** WASM policy calls that failed while the batch was governed, by reason (its records failed closed). */
  sandboxFailures: Record<string, number>;
}

