import { join } from 'node:path';
import { HOST_OVERVIEW_SCHEMA, parseDuration, type HostOverview, type PluginContext } from '@vigil/plugin-sdk';
import { Agent } from 'undici';
import { fleetMigrations } from './migrations.js';
import type { PollOptions } from './peer-poll.js';
import { PeerStore } from './peer-store.js';
import { pollOne, pollRound, type PollerDeps } from './poller.js';
import { registerReadAuth } from './read-auth.js';
import { ReadTokenStore } from './read-tokens.js';
import { registerFleetRoutes } from './routes.js';
import { secretBoxOpener } from './secret-box.js';
import { StatusStore } from './status-store.js';
import type { FleetConfig } from './types.js';

export interface RunningFleet {
  stop(): Promise<void>;
  reload(next: FleetConfig): void;
}

/** Keys the poll job and the key are built with: a reload cannot apply them. */
const RESTART_KEYS = ['interval', 'key_file'] as const;
/** Peers poll this machine's overview; one reading serves every request within this long. */
const OVERVIEW_CACHE_MS = 1000;

/**
 * Builds the fleet: tables, the read tokens and their auth scheme, the machines (config file and store), the poll
 * job (one round per interval across the processes sharing the store) and the routes.
 */
export async function startFleet(ctx: PluginContext, config: FleetConfig): Promise<RunningFleet> {
  await ctx.store.migrate(fleetMigrations);
  let current = config;
  const host = ctx.services.get('host');
  const keyFile = config.key_file ? ctx.resolvePath(config.key_file) : join(ctx.dataDir, 'secrets.key');
  const openBox = secretBoxOpener(keyFile);
  const peers = new PeerStore(ctx.store, openBox, config.peers);
  const statuses = new StatusStore(ctx.store);
  const tokens = new ReadTokenStore(ctx.store);
  const intervalMs = parseDuration(config.interval);
  const timeout = () => parseDuration(current.timeout);
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 2, connect: { timeout: timeout() } });

  const polls = ctx.metrics.counter('polls_total', { help: 'Polls of other instances\' overview, by outcome (up, down).', labelNames: ['outcome'] });
  const validate = (value: unknown) => ctx.validate(HOST_OVERVIEW_SCHEMA, value, 'the peer\'s overview');
  const options = (): PollOptions => ({ timeoutMs: timeout(), maxBytes: current.max_response_bytes, dispatcher, validate });
  const deps: PollerDeps = { peers, statuses, options, counted: (outcome) => polls.labels(outcome).inc() };

  let cached: { at: number; value: Promise<HostOverview> } | undefined;
  const overview = (): Promise<HostOverview> => {
    const now = Date.now();
    if (!cached || now - cached.at >= OVERVIEW_CACHE_MS) {
      cached = { at: now, value: host.overview() };
      cached.value.catch(() => { cached = undefined; });
    }
    return cached.value;
  };

  const pollSoon = ctx.contain('poll a new machine', async (name: string) => {
    const peer = (await peers.all()).find((p) => p.name === name);
    if (peer) await pollOne(deps, peer);
  });

  registerReadAuth(ctx.http, tokens);
  registerFleetRoutes(ctx.http, {
    peers, statuses, tokens, overview, pollSoon,
    settings: () => ({ interval_ms: intervalMs, timeout_ms: timeout() }),
  });
  ctx.jobs.every('poll', intervalMs, () => pollRound(deps), { immediate: true, leaseMs: Math.max(10 * intervalMs, 4 * timeout()) });

  let stopped = false;
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      await dispatcher.close();
    },
    reload(next) {
      for (const key of RESTART_KEYS) {
        if (JSON.stringify(next[key]) !== JSON.stringify(current[key])) throw new Error(`fleet.${key} changed: restart vigil to apply it`);
      }
      peers.setConfigured(next.peers);
      current = next;
    },
  };
}
