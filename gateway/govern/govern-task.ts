// The contract of the governance engine's worker module (govern-worker.ts): the batch it takes and what it answers,
// and the same for records governed elsewhere (a middleware's) that the agent governs again.
import type { FieldObservation, FieldOverflow } from '../fields/api-fields.js';
import type { RawExchange } from '../exchange/raw-exchange.js';
import type { GovernedRecord, StorableRecord } from '../records/governed-record.js';
import type { SentBodyTexts } from '../records/ingest-body-texts.js';

/** The gateway's policy as the governance workers receive it (the `policy` service's `workerJson`, parsed). */
export interface TelemetryPolicy {
  /** The rules (`service` is not needed), each `wasm` module path absolute. */
  rules?: readonly object[];
  /**
   * SHA-256 of each WASM module the rules name, by path, read when the policy was set: a thread holding a module
   * loaded under another digest loads it again, so a module rebuilt in place applies on a reload.
   */
  modules?: Readonly<Record<string, string>>;
}

/**
 * The task of the governance engine's worker module (govern-worker.ts): capture's worker threads (store-rows-worker.ts)
 * call it with batches of exchanges and the policy they were decided under; it answers one storable record per
 * exchange.
 */
export interface GovernTask {
  /** The policy the exchanges were decided under. */
  policy: TelemetryPolicy;
  exchanges: RawExchange[];
  /**
   * Also observe the fields the exchanges use (`GovernResult.fields`). Absent or false: no observation, and
   * governance costs what it did before field observations existed. `true`: each route is observed fully while it
   * warms up (and after a batch found something new), then one exchange in K is walked and counts K times, so counts
   * are estimates. `'full'`: every exchange is walked, counts are exact (at about twice governance's CPU).
   */
  recordFields?: boolean | 'full';
}

/** The worker module's answer to one task. */
export interface GovernResult {
  /** One record per exchange, in input order. */
  records: StorableRecord[];
  /** WASM policy calls that failed while the batch was governed, by reason (its records failed closed). */
  sandboxFailures: Record<string, number>;
  /**
   * The fields the batch's exchanges used (api-fields.ts), merged per route, location, status and name; taken
   * before redaction, holding no value. Absent from workers that do not record them.
   */
  fields?: FieldObservation[];
  /** Observations the worker's caps left out in this batch. */
  fieldOverflow?: FieldOverflow;
}

/**
 * Why the agent changed a record a middleware sent (the `regovernRecords` export of the policy service's worker
 * module): a header, a query parameter, a JSON field or a detected value its policy masks was in clear; a part its
 * policy restricts was there (`restrict`); a body it could not govern was dropped (`body_dropped`: text where
 * `json_fields` apply, nesting past the scan's depth); the record could not be governed at all and only its metadata
 * was kept (`govern_failed`).
 */
export type RegovernReason = 'header' | 'query_param' | 'json_field' | 'detector' | 'restrict' | 'body_dropped' | 'govern_failed';

/** What the agent's policy made of one received record. */
export type RegovernedRecord =
  /** The policy captures nothing on the record's route: it is not stored. */
  | { readonly restricted: true }
  /** The record to store; `reasons` is empty when it was stored as sent. */
  | { readonly restricted: false; readonly record: StorableRecord; readonly reasons: readonly RegovernReason[] };

/**
 * The task of the worker module's `regovernRecords` export: records governed elsewhere (by a middleware, with
 * whatever policy it had), to be governed again with `policy`, each by the decision for its method and path.
 */
export interface RegovernTask {
  policy: TelemetryPolicy;
  records: GovernedRecord[];
  /**
   * The JSON text of each record's bodies as the middleware sent it, by index (ingest-body-texts.ts): stored as it
   * is where the policy leaves a body alone, so a record keeps its body's own text as the gateway's does. Absent or
   * null: the parsed bodies are serialised.
   */
  bodyTexts?: readonly SentBodyTexts[] | null;
}

/** One outcome per record, in input order. */
export interface RegovernResult {
  records: RegovernedRecord[];
}
