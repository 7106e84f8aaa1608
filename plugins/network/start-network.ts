import { join } from 'node:path';
import { parseDuration, type HostNetworkService, type PluginContext } from '@vigil/plugin-sdk';
import { CaptureManager } from './capture/capture-manager.js';
import type { NetworkConfig } from './config-schema.js';
import { directElevation, helperElevation } from './elevation.js';
import { firewallStatus } from './firewall/firewall-status.js';
import { InterfaceRates } from './interface-rates.js';
import { listeningPorts } from './listening-ports.js';
import { registerNetworkRoutes } from './routes.js';
import { ReverseDns } from './reverse-dns.js';
import { SocketSnapshots } from './socket-snapshot.js';

export interface RunningNetwork {
  stop(): Promise<void>;
}

/** Builds the plugin: the socket readings, interface rates over the host service, the elevation path, captures, routes. */
export function startNetwork(ctx: PluginContext, config: NetworkConfig): RunningNetwork {
  const root = ctx.resolvePath(config.root);
  const host = ctx.services.get('host');
  const snapshots = new SocketSnapshots({ root, budgetMs: parseDuration(config.owner_walk_budget) });
  // One elevation path: the privileged helper when its plugin runs; without it, Vigil itself when it is root.
  const privilege = ctx.services.find('privilege');
  const elevation = privilege ? helperElevation(privilege) : directElevation(join(ctx.dataDir, 'captures'), (entry) => ctx.http.audit(entry));
  const interfaces = async () => (await host.interfaces()).map((i) => i.name);
  const captures = new CaptureManager({ limits: config.captures, elevation, interfaces, log: ctx.log });
  const dns = new ReverseDns({
    timeoutMs: parseDuration(config.resolve.timeout), concurrency: config.resolve.concurrency,
    perRequest: config.resolve.per_request, ttlMs: parseDuration(config.resolve.ttl),
  });
  const dashboardPort = () => {
    try { return Number(new URL(ctx.runtime.controlPlaneUrl()).port) || undefined; } catch { return undefined; }
  };
  const me = () => ({ pid: process.pid, uid: process.getuid?.() ?? -1, dashboardPort: dashboardPort() });
  registerNetworkRoutes(ctx.http, { root, snapshots, elevation, dns, captures, interfaces, rates: new InterfaceRates(() => host.interfaces()), me });
  // The security overview (probes) judges exposure with these: the same reading as the Network page.
  const hostNetwork: HostNetworkService = {
    async reachableListeners() {
      return listeningPorts(await snapshots.read(), me()).filter((p) => p.visible)
        .map((p) => ({ protocol: p.protocol, address: p.address, port: p.port, process: p.name }));
    },
    async firewall() {
      const status = await firewallStatus(root);
      return status.tool === null ? null : { tool: status.tool, active: status.verdict === 'on' };
    },
  };
  ctx.services.provide('hostNetwork', hostNetwork);
  return {
    async stop() {
      // A capture running when Vigil stops is ended like a Stop: its file is whole and kept.
      const running = captures.current();
      if (running) await captures.stop(running.name).catch(() => undefined);
    },
  };
}
