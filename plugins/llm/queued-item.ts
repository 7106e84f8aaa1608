import type { ItemError } from './item-schema.js';
import type { TraceItem } from './trace-item.js';

/** An accepted item on its way to storage: the item as sent, with its id, `created_at` and cost settled. */
export interface QueuedItem extends TraceItem {
  id: string;
  /** Epoch ms, assigned at ingest. */
  created_at: number;
  /** As sent, or from the price table; absent when neither knows. */
  cost_usd?: number;
  /** True when `cost_usd` came from the price table rather than the client. */
  cost_estimated?: boolean;
  /**
   * Set by the server, never taken from the wire: a Langfuse generation stored because it stayed idle without an
   * end (langfuse-upserts.ts). Its end, when it comes, replaces the stored trace and clears the mark.
   */
  incomplete?: 'never_ended';
}

/** The body of a 202 from `POST /v1/traces`; the OTLP and Langfuse routes answer in their own formats from it. */
export interface IngestOutcome {
  /** Valid items within the month's limit: stored, or dropped by budget sampling (`sampled_out` of them). */
  accepted: number;
  rejected: number;
  /** Accepted items that budget sampling dropped: the project is over its monthly budget. */
  sampled_out: number;
  errors: ItemError[];
  /** The ids of the accepted items, in order: the client's own, or assigned here. */
  ids: string[];
}
