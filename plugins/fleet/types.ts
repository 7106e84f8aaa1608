import type { HostOverview } from '@vigil/plugin-sdk';

/** The `fleet:` section, with its defaults filled in. */
export interface FleetConfig {
  interval: string | number;
  timeout: string | number;
  max_response_bytes: number;
  key_file?: string;
  peers: PeerSettings[];
}

/** A machine to poll: the base URL of another Vigil's control plane and a read token it issued. */
export interface PeerSettings {
  name: string;
  url: string;
  token: string;
}

/** A machine with its token in hand (opened from the store, or from the config file). */
export interface Peer extends PeerSettings {
  source: 'config' | 'store';
  /** `••••abcd`: what the browser may see of the token. */
  hint: string;
  /** Why the machine cannot be polled (its stored token does not open with this key): it shows as down with this. */
  unusable?: string;
}

/** The poller's last result for one machine. */
export interface PeerStatus {
  name: string;
  url: string;
  up: boolean;
  /** Why the last poll failed, in words (never the token). */
  error: string | null;
  /** The last good answer; kept while the machine is down. */
  overview: HostOverview | null;
  latency_ms: number | null;
  polled_at: number;
  last_seen_at: number | null;
}

/** At most this many machines in one fleet (perch's limit). */
export const MAX_PEERS = 24;
