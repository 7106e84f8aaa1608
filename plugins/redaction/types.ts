import type { PolicyConfig } from '../../policies/schema.js';
import type { RouteDecision } from '../../policies/merge.js';

/** What the proxy puts on the bus (topic 'gateway.exchange'). Bodies are bounded copies of the bytes on the wire. */
export interface RawExchange {
  id: string;
  /** Epoch ms, request start. */
  time: number;
  method: string;
  /** Raw request-target, query included. */
  target: string;
  /** Normalised path (`normalizePath(target)`). */
  path: string;
  /** From the decision. */
  ruleIndexes: number[];
  /** Already extracted by the proxy from request headers (they are metric dimensions). */
  labels: Record<string, string>;
  /** Node's rawHeaders (name, value, name, value…), or null when headers are restricted. */
  requestHeaders: string[] | null;
  responseHeaders: string[] | null;
  /** 0 when the upstream gave no response. */
  status: number;
  durationMs: number;
  /** Null when restricted (nothing was allocated). */
  requestBody: Uint8Array | null;
  requestTruncated: boolean;
  responseBody: Uint8Array | null;
  responseTruncated: boolean;
  /** Upstream error code when status is 0 / 502 / 504. */
  error?: string;
}

/** What is stored and exported. Never holds an unredacted value that a decision says to redact. */
export interface GovernedRecord {
  id: string;
  time: number;
  method: string;
  path: string;
  /** The matched rules' globs. */
  route: string[];
  query: Record<string, string | string[]>;
  status: number;
  duration_ms: number;
  /** Canonical capitalisation (Content-Type, X-Api-Key); null when headers are restricted. */
  headers: Record<string, string | string[]> | null;
  response_headers: Record<string, string | string[]> | null;
  /** JSON value, string for text, null when not kept (restricted, empty, sampled out, or dropped: see dropped_reason). */
  request_body: unknown;
  response_body: unknown;
  labels: Record<string, string>;
  matched_rules: string[];
  tokens: number | null;
  /** True when this exchange's bodies were selected for keeping (by the `sample` roll, or by `keep_errors`). */
  sampled: boolean;
  /** True when a captured body was cut by the capture limit. */
  truncated: boolean;
  /** Why a captured body is missing although it was selected, e.g. `request_body: truncated at capture limit…`. */
  dropped_reason: string | null;
}

export interface GovernOptions {
  /** Uniform in [0, 1); the sampling roll. */
  random: () => number;
  /** Bound on a decompressed body, in bytes. Default 8 MiB. */
  maxDecodedBytes?: number;
}

/** The governance worker's task (a piscina task module's input). */
export interface GovernTask {
  /** The same policy the proxy compiled (its `service` is ignored; rules' `wasm` paths are absolute). */
  policy: PolicyConfig;
  exchanges: RawExchange[];
}

/** The governance worker's result for one task. */
export interface GovernResult {
  /** One record per exchange, in input order. */
  records: GovernedRecord[];
  /**
   * WASM policy calls that failed while this batch was governed, by reason (timeout, trap, memory, invalid_output,
   * crash, or unavailable when a module could not be called at all). For `vigil_sandbox_failures_total{sandbox="wasm",reason}`.
   */
  sandboxFailures: Record<string, number>;
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
