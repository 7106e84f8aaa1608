import type { PolicyConfig } from '../../policies/schema.js';
import type { RouteDecision } from '../../policies/merge.js';

// The gateway's data model lives in the SDK, where every plugin (and third-party exporters) can import it.
export type { RawExchange, GovernedRecord, GovernResult, StorableRecord } from '@vigil/plugin-sdk';
import type { RawExchange, GovernedRecord, GovernTask as SdkGovernTask, TelemetryPolicy as SdkTelemetryPolicy } from '@vigil/plugin-sdk';

export interface GovernOptions {
  /** Uniform in [0, 1); the sampling roll. */
  random: () => number;
  /** Bound on a decompressed body, in bytes. Default 8 MiB. */
  maxDecodedBytes?: number;
}

/** The governance worker's task, with the policy's own type (the SDK types it loosely). */
export interface GovernTask extends SdkGovernTask {
  policy: PolicyConfig & Pick<SdkTelemetryPolicy, 'modules'>;
}


export interface Detection {
  kind: DetectorKind;
  start: number;
  end: number;
}

export type DetectorKind =
  | 'card_number' | 'jwt' | 'email' | 'aws_access_key_id' | 'private_key' | 'bearer_token' | 'api_key' | 'iban' | 'us_ssn';

export interface Detectors {
  /** Sensitive-looking spans in `value`, sorted by start, without overlaps. */
  detect(value: string): Detection[];
  /** A display form of `value` in which no detected secret appears in clear. */
  maskSample(value: string): string;
  /** `text` with detected spans (of `kinds`, default all) replaced by the marker. */
  redactText(text: string, kinds?: readonly DetectorKind[]): string;
}

/** The `redaction` service, for capture (the worker module), scan and LLM persistence. */
export interface RedactionService {
  /** A piscina task module: `default(task: GovernTask): Promise<GovernResult>`. */
  workerModule: URL;
  detectors: Detectors;
  govern(exchange: RawExchange, decision: RouteDecision, options: GovernOptions): GovernedRecord;
}

declare module '@vigil/plugin-sdk' {
  interface Services {
    redaction: RedactionService;
  }
}
