// What the gateway's pages read: `/api/gateway/*` (plugins/capture, plugins/proxy), as types.

export interface Figures {
  requests: number;
  errors: number;
  /** errors / requests; 0 without requests. */
  error_rate: number;
  p95_ms: number | null;
  p99_ms: number | null;
  tokens: number;
}

/** `GET /api/gateway/overview?range=` */
export interface Overview extends Figures {
  range: '1h' | '24h' | '7d';
  from: number;
  to: number;
  step_ms: number;
  volume: (Figures & { time: number })[];
  top_routes: (Figures & { route: string })[];
}

/** `GET /api/gateway/proxy`: where the gateway listens, and what it forwards to. */
export interface ProxyStatus {
  url: string;
  upstream: string;
}

/** A stored record as `/api/gateway/records` lists it (plugins/capture/README.md). */
export interface GatewayRecord {
  id: string;
  time: number;
  method: string;
  path: string;
  route: string[];
  query: Record<string, string | string[]>;
  status: number;
  duration_ms: number;
  headers: Record<string, string | string[]> | null;
  response_headers: Record<string, string | string[]> | null;
  request_body: unknown;
  response_body: unknown;
  labels: Record<string, string>;
  matched_rules: string[];
  tokens: number | null;
  sampled: boolean;
  truncated: boolean;
  dropped_reason: string | null;
  error: string | null;
}

export interface RecordPage {
  data: GatewayRecord[];
  limit: number;
  offset: number;
  /** Cursor of the next (older) page, for `before=`; null at the end. */
  next: string | null;
  /** Cursor of the previous (newer) page, for `after=`; null on the newest page. */
  prev: string | null;
}

/** A URL for a `curl` through the gateway: a proxy listening on every interface is reached on this host's name. */
export function reachableUrl(url: string, hostname: string): string {
  // location.hostname already brackets an IPv6 address; a bare one gets them.
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, `http://${host}`);
}
