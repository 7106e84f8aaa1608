import type { PolicyConfig } from '../../policies/schema.js';
import type { GovernedRecord, RawExchange } from '../redaction/types.js';

/** What the capture plugin offers the traffic lane. */
export interface CaptureService {
  /** Bytes of each body the proxy may copy (`capture.max_body_bytes`). */
  readonly maxBodyBytes: number;
  /** The policy the telemetry lane governs with; the proxy calls it in setup with its validated policy. */
  usePolicy(policy: PolicyConfig): void;
}

export interface CaptureConfig {
  max_body_bytes: string | number;
  queue: number;
  batch: number;
  workers: number;
  retention: string | number;
  rollup_retention: string | number;
  tenant_label: string;
  pricing: { per_1k_tokens: number; per_request: number; currency: string };
}

declare module '@vigil/plugin-sdk' {
  interface Topics {
    /** Raw exchanges: bounded copies of live traffic. In-process only, never exported. */
    'gateway.exchange': RawExchange;
    /** Governed records: what may be stored, shown and exported. */
    'gateway.record': GovernedRecord;
  }
  interface Services {
    capture: CaptureService;
  }
}
