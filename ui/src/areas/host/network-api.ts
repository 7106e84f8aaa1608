// The Network and Traffic pages' API (plugins/network): the generated server shapes under the names the pages use.
import type {
  CaptureInfo, CaptureList, CapturePackets, FirewallRules, FirewallStatus, KillPortResult, ListeningPort, ListeningPorts, NetworkConnection,
  NetworkConnections, NetworkIo,
} from '../../data/api.gen.js';

export type PortList = ListeningPorts;
export type PortRow = ListeningPort;
export type KillAnswer = KillPortResult;
export type Firewall = FirewallStatus;
export type RuleDump = FirewallRules;
export type ConnectionList = NetworkConnections;
export type ConnectionRow = NetworkConnection;
export type InterfaceRates = NetworkIo;
export type InterfaceRateRow = NetworkIo['interfaces'][number];
export type Captures = CaptureList;
export type Capture = CaptureInfo;
export type PacketPage = CapturePackets;
export type PacketRow = CapturePackets['packets'][number];

/** The config line that turns these pages on, for their empty state. */
export const NETWORK_SNIPPET = 'network: {}   # listening ports, connections, firewall, packet capture';

/** `address:port`, with IPv6 addresses in brackets. */
export function endpoint(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}
