// What the network routes answer with; the UI's types are generated from these. The maxItems are the answers'
// bounds, which the handlers enforce.
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { BUSIEST_MAX } from './connections.js';

/** Listening sockets one answer lists at most. */
export const PORTS_MAX = 1000;
/** Connections one answer lists at most. */
export const CONNECTIONS_MAX = 2000;
/** Packets one page of the in-place view decodes at most. */
export const PACKETS_PAGE_MAX = 1000;
/** Interfaces one answer lists at most. */
export const INTERFACES_MAX = 256;

const count: JsonSchema = { type: 'number', minimum: 0 };
const int: JsonSchema = { type: 'integer', minimum: 0 };
const maybe = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, 'null'] });
const text: JsonSchema = { type: 'string' };
const protocol: JsonSchema = { enum: ['tcp', 'udp'] };
const family: JsonSchema = { enum: [4, 6] };
/** A yes/no query flag as perch writes it (`?resolve`, `?resolve=1`) or as a boolean. */
const flag = (description: string): JsonSchema => ({ type: 'string', enum: ['', '0', '1', 'true', 'false'], description });
/** Whether a flag of `flag()` is on. */
export const flagOn = (v: unknown): boolean => v === '' || v === '1' || v === 'true' || v === true;
const captureName: JsonSchema = { type: 'string', minLength: 1, maxLength: 128, description: 'A capture\'s name, as GET /api/captures lists it.' };

export const elevationSchema = closedObject({
  via: { enum: ['direct', 'helper', null], description: 'How privileged actions run: direct (Vigil is root), through the helper (sudo or pkexec), or not at all.' },
  password_needed: { type: 'boolean', description: 'The helper needs this session\'s password first (POST /api/privilege/unlock).' },
  note: text,
}, { title: 'NetworkElevation' });

export const portsQuery: JsonSchema = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 200, description: 'A port or pid (digits), else text in the process name, command line, user or address.' },
    visible: flag('Only sockets other machines can reach (not bound to loopback): 1, true, or no value.'),
    protocol: { enum: ['tcp', 'udp'] },
    limit: { type: 'integer', minimum: 1, maximum: PORTS_MAX, default: 500 },
  },
};

const portRow = closedObject({
  protocol, family, address: text, port: int, inode: int,
  visible: { type: 'boolean', description: 'Other machines can reach it: bound to a wildcard or an outside address.' },
  uid: int, user: text,
  pid: { type: ['integer', 'null'], description: 'The process Stop and Force act on (the lowest pid holding the socket); null when none could be read.' },
  pids: { type: 'array', items: int, maxItems: 4096 },
  name: maybe(text), command: maybe(text),
  start_ticks: { type: ['integer', 'null'], description: 'The process\'s start (clock ticks since boot); killport refuses the pid when it changed.' },
  own: { type: ['string', 'null'], description: 'Set on Vigil\'s own sockets (no buttons): what they are.' },
  can_signal: { type: 'boolean', description: 'Vigil may signal the process itself.' },
  elevated_command: { type: ['string', 'null'], description: 'For another user\'s listener: the command that stops it with privileges (by pid, or by port through lsof when the pid is hidden).' },
}, { title: 'ListeningPort' });

const walkFacts = {
  hidden_processes: { type: 'integer', minimum: 0, description: 'Processes whose descriptors Vigil may not read (another user\'s, when not root): their sockets show no process.' },
  partial: { type: 'boolean', description: 'The walk of every process\'s descriptors hit network.owner_walk_budget: some owners are missing.' },
  truncated: { type: 'boolean', description: 'A socket table held more than 20,000 lines; the rest were not read.' },
  taken_at: { type: 'string', format: 'date-time' },
} satisfies Record<string, JsonSchema>;

export const portsSchema = closedObject({
  ports: { type: 'array', items: portRow, maxItems: PORTS_MAX },
  total: { ...int, description: 'Listening sockets on this machine.' },
  matched: { ...int, description: 'Those the filter kept, before the limit.' },
  ...walkFacts,
  vigil: closedObject({ pid: int, uid: int }, { title: 'NetworkSelf' }),
  elevation: elevationSchema,
}, { title: 'ListeningPorts', description: 'Listening TCP and UDP sockets, IPv4 and IPv6, with their processes, sorted by port.' });

export const killBody: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['pid', 'inode'],
  properties: {
    pid: { type: 'integer', minimum: 1, maximum: 4_194_304, description: 'The pid the row showed.' },
    inode: { type: 'integer', minimum: 1, description: 'The row\'s socket inode: the process must still hold it, and it must still listen.' },
    start_ticks: { type: 'integer', minimum: 0, description: 'The row\'s start_ticks: refused when the pid now names a process started at another time.' },
    force: { type: 'boolean', default: false, description: 'SIGKILL (Force) instead of SIGTERM (Stop).' },
    elevated: { type: 'boolean', default: false, description: 'Through the privileged helper, for another user\'s process.' },
  },
};

export const killSchema = closedObject({
  pid: int, port: int, signal: { enum: ['SIGTERM', 'SIGKILL'] }, via: { enum: ['direct', 'helper'] },
  exited: { type: 'boolean', description: 'The process had ended within 2 s of the signal.' },
  message: text,
}, { title: 'KillPortResult' });

export const connectionsQuery: JsonSchema = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 200, description: 'Text in addresses, ports, state, process name, command line or user.' },
    protocol: { enum: ['tcp', 'udp'] },
    state: { type: 'string', pattern: '^[A-Z_0-9]{1,20}$', description: 'One state (ESTABLISHED, TIME_WAIT, …).' },
    limit: { type: 'integer', minimum: 1, maximum: CONNECTIONS_MAX, default: 500 },
    resolve: flag('Look up the names of the remote addresses shown (bounded: network.resolve): 1, true, or no value.'),
  },
};

const connectionRow = closedObject({
  protocol, family, local_address: text, local_port: int, remote_address: text, remote_port: int, state: text,
  uid: int, user: text, pid: { type: ['integer', 'null'] }, name: maybe(text), command: maybe(text),
}, { title: 'NetworkConnection' });

export const connectionsSchema = closedObject({
  connections: { type: 'array', items: connectionRow, maxItems: CONNECTIONS_MAX },
  total: { ...int, description: 'Connections on this machine.' },
  matched: { ...int, description: 'Those the filter kept, before the limit.' },
  states: { type: 'array', maxItems: 16, items: closedObject({ state: text, count: int }, { title: 'ConnectionStateCount' }) },
  busiest: {
    type: 'array', maxItems: BUSIEST_MAX,
    items: closedObject({ address: text, connections: int, processes: { type: 'array', items: text, maxItems: 5 } }, { title: 'BusyRemote' }),
  },
  names: {
    type: 'object', additionalProperties: { type: ['string', 'null'] }, maxProperties: 500,
    description: 'With resolve=1: the name of each remote address looked up (null: none found in time).',
  },
  resolve: {
    oneOf: [{ type: 'null' }, closedObject({ asked: int, skipped: { ...int, description: 'Addresses past network.resolve.per_request, left unresolved.' } }, { title: 'ResolveCount' })],
  },
  ...walkFacts,
}, { title: 'NetworkConnections', description: 'TCP and UDP connections with their processes, grouped by state, with the busiest remote addresses.' });

export const netioSchema = closedObject({
  taken_at: { type: 'string', format: 'date-time' },
  interval_ms: { ...int, description: 'The time the rates are measured over.' },
  interfaces: {
    type: 'array', maxItems: INTERFACES_MAX,
    items: closedObject({
      name: text, loopback: { type: 'boolean' },
      rx_bps: maybe(count), tx_bps: maybe(count), rx_pps: maybe(count), tx_pps: maybe(count),
      rx_bytes: count, tx_bytes: count, rx_errors: count, tx_errors: count, rx_dropped: count, tx_dropped: count,
      new_errors: maybe(count), new_drops: maybe(count),
    }, { title: 'InterfaceRate' }),
  },
}, { title: 'NetworkIo', description: 'Per-interface rates in and out (bytes and packets a second) with error and drop counters, from /proc/net/dev.' });

const toolState = closedObject({
  tool: { enum: ['ufw', 'firewalld', 'nftables'] }, installed: { type: 'boolean' }, path: maybe(text),
  enabled: { type: ['boolean', 'null'] }, service: maybe(text), summary: text,
}, { title: 'FirewallToolState' });

export const firewallSchema = closedObject({
  tools: { type: 'array', items: toolState, maxItems: 3 },
  verdict: { enum: ['on', 'off', 'none'] },
  tool: { enum: ['ufw', 'firewalld', 'nftables', null] },
  message: text,
  elevation: elevationSchema,
}, { title: 'FirewallStatus', description: 'The firewall read without privileges: each tool installed, its enabled switch and its service.' });

export const firewallRulesBody: JsonSchema = {
  type: 'object', additionalProperties: false,
  properties: { tool: { enum: ['ufw', 'firewalld', 'nftables'], description: 'Default: the tool GET /api/firewall names.' } },
};

export const firewallRulesSchema = closedObject({
  tool: { enum: ['ufw', 'firewalld', 'nftables'] }, command: text, output: text, exit_code: { type: ['integer', 'null'] },
  truncated: { type: 'boolean', description: 'The dump passed 1 MiB and was cut.' },
}, { title: 'FirewallRules' });

export const captureInfoSchema = closedObject({
  name: text, interface: text, filter: text, max_packets: int, max_seconds: int, snaplen: int,
  started_at: text, ended_at: maybe(text), status: { enum: ['running', 'done'] },
  stop_reason: { enum: ['packets', 'time', 'size', 'stopped', 'error', null] },
  packets: { type: ['integer', 'null'] }, bytes: int, error: maybe(text), started_by: text,
}, { title: 'CaptureInfo' });

export const capturesSchema = closedObject({
  captures: { type: 'array', items: captureInfoSchema, maxItems: 1000 },
  running: { oneOf: [{ type: 'null' }, captureInfoSchema] },
  limits: closedObject({ max_packets: int, max_seconds: int, max_bytes: int, keep: int }, { title: 'CaptureLimits' }),
  interfaces: { type: 'array', items: text, maxItems: INTERFACES_MAX + 1 },
  tcpdump: { type: ['string', 'null'], description: 'Where tcpdump is; null when it is not installed.' },
  elevation: elevationSchema,
}, { title: 'CaptureList' });

export const captureBody: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['interface', 'packets', 'seconds'],
  properties: {
    interface: { type: 'string', minLength: 1, maxLength: 32, description: 'An interface of GET /api/captures, or "any".' },
    packets: { type: 'integer', minimum: 1, maximum: 1_000_000, description: 'Stop after this many packets (at most network.captures.max_packets).' },
    seconds: { type: 'integer', minimum: 1, maximum: 3600, description: 'Stop after this long (at most network.captures.max_seconds).' },
    filter: { type: 'string', maxLength: 256, default: '', description: 'A tcpdump filter expression, e.g. "tcp port 443".' },
  },
};

export const captureNameBody: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['name'], properties: { name: captureName },
};
export const captureNameQuery: JsonSchema = { type: 'object', required: ['name'], properties: { name: captureName } };

export const packetsQuery: JsonSchema = {
  type: 'object', required: ['name'],
  properties: {
    name: captureName,
    offset: { type: 'integer', minimum: 0, default: 0 },
    limit: { type: 'integer', minimum: 1, maximum: PACKETS_PAGE_MAX, default: 200 },
  },
};

export const packetsSchema = closedObject({
  name: text, linktype: int, snaplen: int,
  total: { ...int, description: 'Packets in the file (as far as it was read).' },
  offset: int,
  cut: { type: 'boolean', description: 'The last record was cut short: still being written, or damaged.' },
  file_truncated: { type: 'boolean', description: 'The file is larger than network.captures.max_bytes; only that much was read.' },
  packets: {
    type: 'array', maxItems: PACKETS_PAGE_MAX,
    items: closedObject({
      index: int, time_us: count, length: int, captured: int, protocol: text,
      src: maybe(text), dst: maybe(text), src_port: { type: ['integer', 'null'] }, dst_port: { type: ['integer', 'null'] },
      tcp_flags: maybe(text), info: text,
    }, { title: 'PacketSummary' }),
  },
}, { title: 'CapturePackets', description: 'A page of a capture, one decoded summary per packet.' });

export const deletedSchema = closedObject({ deleted: text }, { title: 'CaptureDeleted' });
