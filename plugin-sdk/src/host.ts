import type { JsonSchema } from './json-schema.js';
import { closedObject } from './response-body.js';

/**
 * The host monitor's seam for other plugins: the `host` service the `probes` plugin provides. The fleet serves
 * `overview()` to its peers and the home screen's widgets read it; neither reads `/proc` itself.
 */

/** This machine now, in one small answer (a few hundred bytes): what a fleet grid and the home tiles show. */
export interface HostOverview {
  hostname: string;
  /** `PRETTY_NAME` of /etc/os-release, else the kernel's name. */
  os: string;
  kernel: string;
  arch: string;
  uptime_s: number;
  /** When these figures were read, ISO 8601. */
  taken_at: string;
  cpu: {
    /** Busy share of all cores since the previous reading, 0..100; null on the first reading after a start. */
    percent: number | null;
    cores: number;
    /** 1, 5 and 15-minute load averages. */
    load: [number, number, number];
  };
  memory: { total_bytes: number; used_bytes: number; percent: number; swap_total_bytes: number; swap_used_bytes: number };
  /** The hottest sensor, °C; null without sensors. */
  temperature_c: number | null;
  /** The fullest real partition, %; null when none could be read. */
  disk_percent: number | null;
  /** The first battery; null without one. */
  battery: { percent: number; charging: boolean; plugged: boolean } | null;
}

/** One interface's counters since boot, as /proc/net/dev has them (they reset when a driver reloads). */
export interface HostInterfaceCounters {
  name: string;
  rx_bytes: number; rx_packets: number; rx_errors: number; rx_dropped: number;
  tx_bytes: number; tx_packets: number; tx_errors: number; tx_dropped: number;
}

/** The container environments the `containers` plugin knows. */
export type ContainerEnvironmentKind = 'docker' | 'podman' | 'nerdctl' | 'lxd' | 'incus' | 'kubernetes';

/** What the `containers` plugin offers other plugins: which environments this machine has (`/api/caps` reports them). */
export interface ContainersService {
  /** The environments found now: a socket or kubeconfig that exists, a nerdctl that can run (file checks, no request). */
  engines(): Promise<ContainerEnvironmentKind[]>;
}

/** What the `probes` plugin offers other plugins. */
export interface HostService {
  /** Reads this machine now (a few file reads, no subprocess). */
  overview(): Promise<HostOverview>;
  /** Every interface's counters now, the loopback included (one read of /proc/net/dev): rates are the caller's deltas. */
  interfaces(): Promise<HostInterfaceCounters[]>;
}

const count: JsonSchema = { type: 'number', minimum: 0 };

/** The JSON Schema of `HostOverview`: the probes plugin's answer and what the fleet checks a peer's answer against. */
export const HOST_OVERVIEW_SCHEMA: JsonSchema = closedObject({
  hostname: { type: 'string' },
  os: { type: 'string' },
  kernel: { type: 'string' },
  arch: { type: 'string' },
  uptime_s: count,
  taken_at: { type: 'string', format: 'date-time' },
  cpu: closedObject({
    percent: { type: ['number', 'null'], minimum: 0, maximum: 100 },
    cores: { type: 'integer', minimum: 1 },
    load: { type: 'array', items: count, minItems: 3, maxItems: 3 },
  }, { title: 'HostCpu' }),
  memory: closedObject({
    total_bytes: count, used_bytes: count, percent: { type: 'number', minimum: 0, maximum: 100 },
    swap_total_bytes: count, swap_used_bytes: count,
  }, { title: 'HostMemory' }),
  temperature_c: { type: ['number', 'null'] },
  disk_percent: { type: ['number', 'null'], minimum: 0, maximum: 100 },
  battery: {
    oneOf: [
      { type: 'null' },
      closedObject({ percent: { type: 'number', minimum: 0, maximum: 100 }, charging: { type: 'boolean' }, plugged: { type: 'boolean' } }, { title: 'HostBattery' }),
    ],
  },
}, { title: 'HostOverview', description: 'This machine now: what a fleet grid and the home tiles show.' });

/** A socket that listens on an address other machines can reach (not loopback). */
export interface ReachableListener {
  protocol: 'tcp' | 'udp';
  /** The address bound: `0.0.0.0`, `::` or one interface's address. */
  address: string;
  port: number;
  /** The owning process's name, or null when Vigil's user cannot see it. */
  process: string | null;
}

/** The firewall as read without privileges. */
export interface FirewallState {
  /** ufw, firewalld or nftables. */
  tool: string;
  /** The tool's own switch (ufw's ENABLED, firewalld's service) is on: the rules are enforced. */
  active: boolean;
}

/**
 * What the host's network plugin offers other plugins (the security overview judges exposure with it). Optional:
 * a consumer says "not checked" without it.
 */
export interface HostNetworkService {
  reachableListeners(): Promise<ReachableListener[]>;
  /** The first firewall tool installed, or null when none is. */
  firewall(): Promise<FirewallState | null>;
}
