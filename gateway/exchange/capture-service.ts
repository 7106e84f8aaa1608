// What the telemetry lane offers: the traffic lane takes its body copies' bytes from its budget; alert rules read its
// minute rollups.

/**
 * What the telemetry lane (the `capture` plugin) offers the traffic lane (the `proxy` plugin, the middleware) and
 * alert rules (the `alerts` plugin's gateway sources).
 */
export interface CaptureService {
  /** Bytes of each body the proxy may copy (`capture.max_body_bytes`, default 1 MiB). */
  readonly maxBodyBytes: number;
  /**
   * Takes bytes from the lane's budget for body copies (`capture.queue_bytes`) before they are allocated; false when
   * they do not fit, and then the body is not copied. Bytes taken travel with the published exchange
   * (`RawExchange.heldBytes`), and the lane gives them back when it is done with it.
   */
  takeBodyBytes(bytes: number): boolean;
  /** Gives back bytes taken for copies that will not be published after all. */
  giveBodyBytes(bytes: number): void;
  /**
   * Consecutive windows of the minute rollups, oldest first (alert rules): requests, errors (5xx and the gateway's
   * own error answers) and the P95 latency estimated from the rollups' buckets. Windows are whole minutes: `to` and
   * `stepMs` are rounded down to the minute. `route` narrows to one of the policy's route globs.
   */
  rollupWindows(query: { route?: string; to: number; stepMs: number; count: number }): Promise<RollupWindow[]>;
}

/** One window of the gateway's minute rollups. */
export interface RollupWindow {
  requests: number;
  errors: number;
  /** Estimated within its latency bucket's bounds; null without requests. */
  p95_latency_ms: number | null;
}

declare module '@vigil/plugin-sdk' {
  interface Services {
    capture: CaptureService;
  }
}
