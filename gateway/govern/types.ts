import type { PolicyConfig } from '../../policies/schema.js';
import type { FieldRecorder } from '../fields/field-recorder.js';
import type { GovernTask as LooseGovernTask, TelemetryPolicy } from './govern-task.js';

export type { GovernResult, RegovernResult, RegovernTask } from './govern-task.js';
export type { RawExchange } from '../exchange/raw-exchange.js';
export type { GovernedRecord, StorableRecord } from '../records/governed-record.js';

export interface GovernOptions {
  /** Uniform in [0, 1); the sampling roll. */
  random: () => number;
  /** Bound on a decompressed body, in bytes. Default 8 MiB. */
  maxDecodedBytes?: number;
  /** Observes the fields each exchange uses (field-recorder.ts), before redaction; absent: nothing is observed. */
  fields?: FieldRecorder;
}

/** The governance worker's task, with the policy's own type (govern-task.ts types it loosely). */
export interface GovernTask extends LooseGovernTask {
  policy: PolicyConfig & Pick<TelemetryPolicy, 'modules'>;
}

