import type { PolicyConfig } from '../../policies/schema.js';
import type { FieldRecorder } from './field-recorder.js';

// The gateway's data model lives in the SDK, where every plugin (and third-party exporters) can import it.
export type { RawExchange, GovernedRecord, GovernResult, StorableRecord } from '@vigil/plugin-sdk';
import type { GovernTask as SdkGovernTask, TelemetryPolicy as SdkTelemetryPolicy } from '@vigil/plugin-sdk';

export interface GovernOptions {
  /** Uniform in [0, 1); the sampling roll. */
  random: () => number;
  /** Bound on a decompressed body, in bytes. Default 8 MiB. */
  maxDecodedBytes?: number;
  /** Observes the fields each exchange uses (field-recorder.ts), before redaction; absent: nothing is observed. */
  fields?: FieldRecorder;
}

/** The governance worker's task, with the policy's own type (the SDK types it loosely). */
export interface GovernTask extends SdkGovernTask {
  policy: PolicyConfig & Pick<SdkTelemetryPolicy, 'modules'>;
}

