import type { PolicyConfig } from '../../policies/schema.js';
import type { RawExchange } from '../redaction/types.js';

/**
 * What the traffic lane needs from the telemetry lane (the `capture` plugin provides it). Type-only: the proxy
 * never imports the capture plugin's code, it looks the service up on the context.
 */
export interface CaptureService {
  /** Capture settings the traffic lane needs: bytes kept of each body (`capture.max_body_bytes`, default 1 MiB). */
  readonly maxBodyBytes: number;
  /** The policy the telemetry lane governs with; the proxy calls it once in setup with the validated policy. */
  usePolicy(policy: PolicyConfig): void;
}

declare module '@vigil/plugin-sdk' {
  interface Topics {
    /** One proxied exchange whose decision captures something: bounded body copies, published when it ends. */
    'gateway.exchange': RawExchange;
  }
  interface Services {
    capture: CaptureService;
  }
}

export type { RawExchange };
