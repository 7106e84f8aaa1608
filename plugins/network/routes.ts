// The Network and Traffic pages' API, under perch's names (net, killport, connections, netio, firewall,
// firewallrules, captures, capture, capturefile, capturedelete). Reads are bounded (response-schemas.ts); every
// change is a POST, for the owner by default, and lands in the audit log with a line of detail.
import { createReadStream } from 'node:fs';
import { BINARY_BODY, httpError, type HttpRoutes, type RouteContext } from '@vigil/plugin-sdk';
import type { CaptureManager } from './capture/capture-manager.js';
import { decodePcap, PcapFormatError } from './capture/pcap-decode.js';
import { allConnections, viewConnections } from './connections.js';
import type { Elevation, FirewallTool } from './elevation.js';
import { NetworkErrors } from './errors.js';
import { firewallStatus } from './firewall/firewall-status.js';
import type { InterfaceRates } from './interface-rates.js';
import { killPort } from './kill-port.js';
import { filterPorts, listeningPorts, type Identity } from './listening-ports.js';
import {
  captureBody, captureInfoSchema, captureNameBody, captureNameQuery, capturesSchema, connectionsQuery, connectionsSchema, deletedSchema,
  firewallRulesBody, firewallRulesSchema, firewallSchema, INTERFACES_MAX, killBody, killSchema, netioSchema, packetsQuery, packetsSchema,
  portsQuery, portsSchema, flagOn,
} from './response-schemas.js';
import type { ReverseDns } from './reverse-dns.js';
import type { SocketSnapshot, SocketSnapshots } from './socket-snapshot.js';
import { findTool } from './tool-path.js';

export interface NetworkRouteDeps {
  root: string;
  snapshots: SocketSnapshots;
  me: () => Identity;
  elevation: Elevation;
  rates: InterfaceRates;
  dns: ReverseDns;
  captures: CaptureManager;
  interfaces(): Promise<string[]>;
}

const TAGS = ['host'];

const walkFacts = (s: SocketSnapshot) => ({ hidden_processes: s.hidden, partial: s.partial, truncated: s.truncated, taken_at: new Date(s.at).toISOString() });
const actorOf = (ctx: RouteContext) => ctx.state.auth?.user?.email ?? 'dashboard token';
const note = (ctx: RouteContext, detail: string) => { ctx.state.audit_detail = detail; };
const asker = (ctx: RouteContext) => ({ principal: ctx.state.auth, address: ctx.ip || null });

export function registerNetworkRoutes(http: HttpRoutes, d: NetworkRouteDeps): void {
  http.route({
    method: 'GET', path: '/api/net', tags: TAGS,
    summary: 'Listening ports (TCP and UDP, IPv4 and IPv6) with the owning user, pid and command line',
    description: 'Read from /proc/net/{tcp,tcp6,udp,udp6} and every process\'s descriptors (no subprocess), one walk a second at most, ' +
      'bounded by network.owner_walk_budget; at most 1,000 rows.',
    query: portsQuery,
    response: portsSchema,
    async handler(ctx) {
      const snap = await d.snapshots.read();
      const me = d.me();
      const rows = listeningPorts(snap, me);
      const q = ctx.query;
      const { ports, matched } = filterPorts(rows, {
        q: typeof q.q === 'string' ? q.q : undefined, visible: flagOn(q.visible), protocol: q.protocol as 'tcp' | 'udp' | undefined, limit: Number(q.limit ?? 500),
      });
      ctx.set('Cache-Control', 'no-store');
      return { ports, total: rows.length, matched, ...walkFacts(snap), vigil: { pid: me.pid, uid: me.uid }, elevation: d.elevation.status(ctx.state.auth) };
    },
  });

  http.route({
    method: 'POST', path: '/api/killport', tags: TAGS,
    summary: 'Stop (SIGTERM) or Force (SIGKILL) the process of one listening socket',
    description: 'Signals exactly the pid given, after checking right before the signal that it is still the process listed (same start) and still ' +
      'holds the socket, which still listens: otherwise 409 and nothing is signalled. Vigil\'s own pid is refused (403); another user\'s ' +
      'process needs elevated: true and the privileged helper (403 with the command to run otherwise). Waits up to 2 s for the process to end.',
    body: killBody,
    response: killSchema,
    async handler(ctx) {
      const body = ctx.request.body as { pid: number; inode: number; start_ticks?: number; force?: boolean; elevated?: boolean };
      note(ctx, `${body.force ? 'SIGKILL' : 'SIGTERM'} pid ${body.pid} (socket ${body.inode})${body.elevated ? ' through the helper' : ''}`);
      const me = d.me();
      const result = await killPort({ root: d.root, me, elevation: d.elevation }, body, asker(ctx));
      note(ctx, `${result.signal} pid ${result.pid} on port ${result.port} via ${result.via}: ${result.exited ? 'ended' : 'still running'}`);
      return result;
    },
  });

  http.route({
    method: 'GET', path: '/api/connections', tags: TAGS,
    summary: 'TCP and UDP connections with their processes: filterable, grouped by state, the busiest remote addresses',
    description: 'The same walk as /api/net. resolve=1 looks up the names of the remote addresses shown and the busiest ones, network.resolve.per_request ' +
      'at most, network.resolve.concurrency at once, each under network.resolve.timeout, cached network.resolve.ttl. At most 2,000 rows.',
    query: connectionsQuery,
    response: connectionsSchema,
    async handler(ctx) {
      const snap = await d.snapshots.read();
      const all = allConnections(snap);
      const q = ctx.query;
      const view = viewConnections(all, {
        q: typeof q.q === 'string' ? q.q : undefined, protocol: q.protocol as 'tcp' | 'udp' | undefined,
        state: typeof q.state === 'string' ? q.state : undefined, limit: Number(q.limit ?? 500),
      });
      let names: Record<string, string | null> = {};
      let resolve: { asked: number; skipped: number } | null = null;
      if (flagOn(q.resolve)) {
        // The busiest first, so the summary is named even when the rows are many.
        const looked = await d.dns.names([...view.busiest.map((b) => b.address), ...view.connections.map((c) => c.remote_address)]);
        names = looked.names;
        resolve = { asked: looked.asked, skipped: looked.skipped };
      }
      ctx.set('Cache-Control', 'no-store');
      return { ...view, total: all.length, names, resolve, ...walkFacts(snap) };
    },
  });

  http.route({
    method: 'GET', path: '/api/netio', tags: TAGS,
    summary: 'Per-interface rates in and out, with error and drop counters',
    description: 'Differences of /proc/net/dev (through the probes plugin\'s host service) against a reading at least 0.5 s older; the first request waits 0.5 s.',
    response: netioSchema,
    async handler(ctx) {
      const { interval_ms, interfaces } = await d.rates.rates();
      ctx.set('Cache-Control', 'no-store');
      return { taken_at: new Date().toISOString(), interval_ms, interfaces: interfaces.slice(0, INTERFACES_MAX) };
    },
  });

  http.route({
    method: 'GET', path: '/api/firewall', tags: TAGS,
    summary: 'Firewall state without privileges: ufw, firewalld or nftables installed, enabled, and its service',
    description: 'ufw\'s switch from /etc/ufw/ufw.conf, the units\' state from `systemctl is-active` and `is-enabled` (5 s each at most).',
    response: firewallSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return { ...(await firewallStatus(d.root)), elevation: d.elevation.status(ctx.state.auth) };
    },
  });

  http.route({
    method: 'POST', path: '/api/firewallrules', tags: TAGS,
    summary: 'The live firewall rule set, dumped through the privileged path',
    description: '`ufw status verbose`, `firewall-cmd --list-all` or `nft list ruleset`: a fixed command per tool, 10 s and 1 MiB at most.',
    body: firewallRulesBody,
    response: firewallRulesSchema,
    async handler(ctx) {
      const asked = (ctx.request.body as { tool?: FirewallTool } | undefined)?.tool;
      const status = asked ? undefined : await firewallStatus(d.root);
      const tool = asked ?? status?.tool;
      if (!tool) throw httpError(NetworkErrors.TOOL_MISSING, 'no firewall tool is installed (ufw, firewalld or nftables)');
      note(ctx, `rules of ${tool}`);
      const dump = await d.elevation.firewallRules(tool, asker(ctx));
      return { tool, ...dump };
    },
  });

  http.route({
    method: 'GET', path: '/api/captures', tags: TAGS,
    summary: 'Packet captures kept, the running one, the limits, the interfaces, and whether capture is available here',
    response: capturesSchema,
    async handler(ctx) {
      const [captures, interfaces, tcpdump] = await Promise.all([d.captures.files.list(d.captures.limits.keep), d.interfaces(), findTool('tcpdump')]);
      ctx.set('Cache-Control', 'no-store');
      return {
        captures, running: d.captures.current() ?? null, limits: d.captures.limits, interfaces: [...interfaces.slice(0, INTERFACES_MAX), 'any'],
        tcpdump: tcpdump ?? null, elevation: d.elevation.status(ctx.state.auth),
      };
    },
  });

  http.route({
    method: 'POST', path: '/api/capture', tags: TAGS,
    summary: 'Start a packet capture (tcpdump), ended by its packet count or its time limit, whichever comes first',
    description: 'One at a time (409 while one runs). It may record passwords and tokens sent in clear text: the file is kept in the plugin\'s ' +
      'data folder (mode 0700) until deleted. Answers at once with the running capture; GET /api/capture?name= follows it.',
    body: captureBody,
    response: captureInfoSchema,
    async handler(ctx) {
      const body = ctx.request.body as { interface: string; packets: number; seconds: number; filter?: string };
      note(ctx, `capture on ${body.interface.slice(0, 32)}: ${body.packets} packets, ${body.seconds} s${body.filter ? `, filter ${body.filter.slice(0, 200)}` : ''}`);
      return d.captures.start(body, actorOf(ctx), asker(ctx));
    },
  });

  http.route({
    method: 'GET', path: '/api/capture', tags: TAGS,
    summary: 'One capture\'s facts: running or done, why it ended, its packets and size',
    query: captureNameQuery,
    response: captureInfoSchema,
    async handler(ctx) {
      const name = String(ctx.query.name);
      const running = d.captures.current();
      if (running?.name === name) return running;
      await d.captures.files.path(name);
      const info = await d.captures.files.info(name);
      if (!info) throw httpError(NetworkErrors.CAPTURE_NOT_FOUND, `no capture is named ${name}`);
      ctx.set('Cache-Control', 'no-store');
      return info;
    },
  });

  http.route({
    method: 'POST', path: '/api/capturestop', tags: TAGS,
    summary: 'Stop the running capture now (its file is kept)',
    body: captureNameBody,
    response: captureInfoSchema,
    async handler(ctx) {
      const { name } = ctx.request.body as { name: string };
      note(ctx, `stop capture ${name}`);
      return d.captures.stop(name);
    },
  });

  http.route({
    method: 'GET', path: '/api/capturefile', tags: TAGS, role: 'owner',
    summary: 'Download a capture as a pcap file (it may hold credentials: for the owner)',
    query: captureNameQuery,
    response: BINARY_BODY,
    async handler(ctx) {
      const name = String(ctx.query.name);
      const file = await d.captures.files.path(name);
      ctx.type = 'application/vnd.tcpdump.pcap';
      ctx.set('Content-Disposition', `attachment; filename="${name}"`);
      ctx.set('Cache-Control', 'no-store');
      return createReadStream(file);
    },
  });

  http.route({
    method: 'GET', path: '/api/capturepackets', tags: TAGS, role: 'owner',
    summary: 'A page of a capture decoded in place: time, addresses, ports, protocol, length and TCP flags per packet',
    description: 'Reads network.captures.max_bytes of the file at most; decodes `limit` packets (≤ 1,000) from `offset`, walking only record headers before them.',
    query: packetsQuery,
    response: packetsSchema,
    async handler(ctx) {
      const name = String(ctx.query.name);
      const offset = Number(ctx.query.offset ?? 0);
      const limit = Number(ctx.query.limit ?? 200);
      const { bytes, size } = await d.captures.files.bytes(name, d.captures.limits.max_bytes);
      try {
        const page = decodePcap(bytes, offset, limit);
        ctx.set('Cache-Control', 'no-store');
        return {
          name, linktype: page.header.linktype, snaplen: page.header.snaplen, total: page.total, offset, cut: page.cut,
          file_truncated: size > bytes.length, packets: page.packets,
        };
      } catch (err) {
        if (err instanceof PcapFormatError) throw httpError(NetworkErrors.CAPTURE_UNREADABLE, `${name}: ${err.message}`);
        throw err;
      }
    },
  });

  http.route({
    method: 'POST', path: '/api/capturedelete', tags: TAGS,
    summary: 'Delete a capture file',
    body: captureNameBody,
    response: deletedSchema,
    async handler(ctx) {
      const { name } = ctx.request.body as { name: string };
      note(ctx, `delete capture ${name}`);
      await d.captures.delete(name);
      return { deleted: name };
    },
  });
}
