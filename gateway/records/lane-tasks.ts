import type { SqlValue } from '@vigil/plugin-sdk';
import type { FieldObservation, FieldOverflow } from '../fields/api-fields.js';
import type { RegovernReason } from '../govern/govern-task.js';
import type { StorableRecord } from './governed-record.js';
import type { PackedExchanges } from '../exchange/exchange-batch.js';
import type { PackedRecords } from './record-batch.js';
import type { StoreOutcome } from './record-writer.js';

export interface CaptureConfig {
  max_body_bytes: string | number;
  queue: number;
  queue_bytes: string | number;
  batch: number;
  batch_delay: string | number;
  workers: number;
  retention: string | number;
  retention_interval: string | number;
  rollup_retention: string | number;
  tenant_label: string;
  /** true: sampled once each route is stable (estimated counts); 'full': every exchange (exact counts). */
  record_fields: boolean | 'full';
  fields_flush: string | number;
  /** Bearer token of the ingest route (POST /api/gateway/records); absent, the route refuses everything. */
  ingest_token?: string;
  pricing: { per_1k_tokens: number; per_request: number; currency: string };
}

/** What each thread of the capture pool receives once. */
export interface StoreRowsWorkerData {
  tenantLabel: string;
  /** Observe the fields each route uses (`capture.record_fields`): sampled (true) or every exchange ('full'). */
  recordFields: boolean | 'full';
  /** `capture.fields_flush` in ms: a thread that holds observations writes them once its last write is this old. */
  fieldsFlushMs: number;
}

/**
 * The capture pool's other task: the thread that runs it writes the field observations it holds (with a store of
 * its own). The lane sends one per thread every `fields_flush` and at stop.
 */
export interface FlushFieldsTask {
  flushFields: true;
}

/** What a FlushFieldsTask did. */
export interface FlushedFields {
  fieldOverflow?: FieldOverflow;
  fieldsError?: string;
}

/** A capture pool task: a governance task (`GovernTask`) with its exchanges packed for the trip. */
export interface StoreRowsTask {
  /**
   * The policy the exchanges were decided under, as JSON made once per policy: a string crosses to the worker in one
   * copy, where the object would be cloned field by field on both threads for every batch and serialised again there
   * to find its compiled rules (bench/capture-task-policy.ts).
   */
  policy: string;
  exchanges: PackedExchanges;
  /** Send the governed records back, as their stored JSON and key fields (someone subscribes to `gateway.record`). */
  withRecords: boolean;
  /** Bytes of the lane's budget the batch holds (its exchanges' `heldBytes`), given back when it is over. */
  heldBytes: number;
}

/** A capture pool result: what became of one batch (`stored`/`storeFailed`: through the worker's own connection). */
export interface StoredRows extends StoreOutcome {
  /** Rows for the main thread to store: only when the worker has no store of its own (`sqlite::memory:`). */
  rows?: SqlValue[][];
  rollups?: SqlValue[][];
  rulePaths?: SqlValue[][];
  /** Metered tokens per route and tenant, for `vigil_tokens_total`. */
  tokens: [route: string, tenant: string, tokens: number][];
  /** Each stored (or failed) record's JSON text and key fields, when the task asked for them. */
  records?: PackedRecords;
  /** Exchanges of the batch the governance module refused (no record for them), and the first refusal's message. */
  failed: number;
  firstError: string | null;
  /** WASM policy calls that failed while the batch was governed, by reason (its records failed closed). */
  sandboxFailures: Record<string, number>;
  /**
   * The fields the batch's exchanges used (with `recordFields`), only from a thread without a store of its own: the
   * others hold them and write them themselves (held-fields.ts).
   */
  fields?: FieldObservation[];
  /** What the caps left out: the governance worker's, and the thread's accumulator's. */
  fieldOverflow?: FieldOverflow;
  /** Why the thread's write of the fields it held failed (they are kept for its next write). */
  fieldsError?: string;
}

/**
 * The capture pool's third task: the body of one POST /api/gateway/records, as received (its buffer moved to the
 * worker). The thread parses and checks it, governs every record again with `policy` (the agent's, as JSON), and
 * stores what is new through its own connection.
 */
export interface IngestTask {
  ingest: Uint8Array;
  /** The policy in force when the POST arrived (the policy service's `workerJson`). */
  policy: string;
  /** Send the stored records back for `gateway.record`, as their JSON and key fields. */
  withRecords: boolean;
}

/** What an IngestTask did: the body refused whole (400), or what became of each record. */
export type IngestedRecords = { invalid: string } | IngestedBatch;

export interface IngestedBatch extends StoreOutcome {
  invalid?: undefined;
  /** Records not stored: the agent's policy captures nothing on their route. */
  restricted: number;
  /** Records skipped: their id is stored already, or came earlier in the batch. */
  duplicates: number;
  /** Stored records the agent's policy changed (`agent_masked`), and how many per reason (one record, several). */
  regoverned: number;
  reasons: Partial<Record<RegovernReason, number>>;
  /** Metered tokens per route and tenant, for `vigil_tokens_total`. */
  tokens: [route: string, tenant: string, tokens: number][];
  /** The stored records' JSON text and key fields, when the task asked for them. */
  records?: PackedRecords;
  /**
   * Only from a thread without a store of its own (`sqlite::memory:`): the governed records (duplicates within the
   * batch left out) and each one's reasons, for the main thread to find the ones stored already and store the rest.
   * Counts above are then for every governed record, not only new ones.
   */
  unstored?: { records: StorableRecord[]; reasons: RegovernReason[][] };
}
