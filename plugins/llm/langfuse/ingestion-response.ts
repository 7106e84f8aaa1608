/**
 * The answer to a Langfuse ingestion batch: always 207 with JSON (the SDK calls `res.json()` on every response),
 * `{ successes: [{ id, status }], errors: [{ id, status, message, error }] }`, per event id. An event Vigil
 * accepted but does not store (spans, events, sdk-log) is a success: Langfuse's server answers the same.
 */
import type { EventError } from './ingestion-event.js';

export const INGESTION_STATUS = 207;

export interface IngestionResponse {
  successes: { id: string; status: number }[];
  errors: EventError[];
}

export function ingestionResponse(acceptedIds: readonly string[], errors: readonly EventError[]): IngestionResponse {
  return { successes: acceptedIds.map((id) => ({ id, status: 201 })), errors: [...errors] };
}
