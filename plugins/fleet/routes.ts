import { HOST_OVERVIEW_SCHEMA, closedObject, type HostOverview, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import { peerName, peerSchema, peerToken, peerUrl } from './config-schema.js';
import type { PeerReplacement, PeerStore, PeerView } from './peer-store.js';
import { FLEET_READ_SCHEME } from './read-auth.js';
import type { ReadTokenStore } from './read-tokens.js';
import type { StatusStore } from './status-store.js';
import type { PeerSettings } from './types.js';

export interface FleetRouteDeps {
  peers: PeerStore;
  statuses: StatusStore;
  tokens: ReadTokenStore;
  /** This machine's overview (cached briefly: peers poll it). */
  overview(): Promise<HostOverview>;
  /** Polls a machine just added, in the background, so the grid shows it before the next round. */
  pollSoon(name: string): void;
  settings(): { interval_ms: number; timeout_ms: number };
}

const noQuery: JsonSchema = { type: 'object', properties: {} };
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const nullableIso: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

const peerView = closedObject({
  name: { type: 'string' },
  url: { type: 'string' },
  source: { enum: ['config', 'store'], description: 'config: declared in fleet.peers, read-only here (409 on change).' },
  token_hint: { type: 'string', description: 'The token\'s last four characters, masked (••••abcd): the token itself is never sent back.' },
}, { title: 'FleetPeer' });

const peerList = closedObject({ hosts: { type: 'array', items: peerView } }, { title: 'FleetConfig' });

const machineView = closedObject({
  name: { type: 'string' },
  url: { type: ['string', 'null'], description: 'null for this machine.' },
  source: { enum: ['self', 'config', 'store'] },
  status: { enum: ['up', 'down', 'pending'], description: 'pending: not polled yet.' },
  error: { type: ['string', 'null'], description: 'Why the last poll failed, in words.' },
  latency_ms: { type: ['number', 'null'] },
  polled_at: nullableIso,
  last_seen_at: { ...nullableIso, description: 'The last good answer; a down machine keeps the overview it gave then.' },
  overview: { oneOf: [{ type: 'null' }, HOST_OVERVIEW_SCHEMA] },
}, { title: 'FleetMachine' });

const tokenView = closedObject({
  id: { type: 'string' },
  label: { type: 'string' },
  hint: { type: 'string', description: 'The token\'s last four characters, masked.' },
  created_at: { type: 'integer', description: 'Epoch ms.' },
  last_used_at: { type: ['integer', 'null'], description: 'Epoch ms of the last read with it, to the minute.' },
}, { title: 'FleetReadToken' });

/**
 * The fleet's API. `GET /api/fleet/peer` is the read API other instances poll, open to a read token only; everything
 * else is behind the dashboard session, and no answer holds a peer's token.
 */
export function registerFleetRoutes(http: HttpRoutes, deps: FleetRouteDeps): void {
  const { peers, statuses, tokens } = deps;

  http.route({
    method: 'GET', path: '/api/fleet/peer', auth: FLEET_READ_SCHEME, tags: ['fleet'],
    summary: 'This machine\'s host overview, for another instance\'s fleet view (a read token in X-Fleet-Token; nothing else is readable with it)',
    query: noQuery,
    response: HOST_OVERVIEW_SCHEMA,
    handler: () => deps.overview(),
  });

  http.route({
    method: 'GET', path: '/api/fleet', tags: ['fleet'],
    summary: 'The fleet grid: this machine and each configured instance as last polled (never waits on a peer)',
    query: noQuery,
    response: closedObject({
      interval_ms: { type: 'integer' },
      timeout_ms: { type: 'integer' },
      machines: { type: 'array', items: machineView, description: 'This machine first, then the config file\'s, then the dashboard\'s.' },
    }, { title: 'FleetGrid' }),
    async handler() {
      const [views, last, self] = await Promise.all([peers.views(), statuses.all(), selfRow(deps)]);
      const machines = views.map((p) => {
        const s = last.get(p.name);
        const current = s && s.url === p.url ? s : undefined;
        return {
          name: p.name, url: p.url, source: p.source, status: current ? (current.up ? 'up' : 'down') : 'pending',
          error: current?.error ?? null, latency_ms: current?.latency_ms ?? null, polled_at: iso(current?.polled_at ?? null),
          last_seen_at: iso(current?.last_seen_at ?? null), overview: current?.overview ?? null,
        };
      });
      return { ...deps.settings(), machines: [self, ...machines] };
    },
  });

  http.route({
    method: 'GET', path: '/api/fleetconfig', tags: ['fleet'],
    summary: 'The machines of the fleet, tokens masked',
    query: noQuery,
    response: peerList,
    handler: async () => ({ hosts: await peers.views() }),
  });

  http.route({
    method: 'POST', path: '/api/fleetconfig', tags: ['fleet'],
    summary: 'Replace the dashboard\'s machines (perch\'s fleetconfig); a machine without a token keeps the one it has',
    body: closedObject({
      hosts: {
        type: 'array', maxItems: 24,
        items: closedObject({ name: peerName, url: peerUrl, token: peerToken }, { title: 'FleetHost', optional: ['token'] }),
      },
    }, { title: 'FleetConfigInput' }),
    response: peerList,
    async handler(ctx) {
      const { hosts } = ctx.request.body as { hosts: PeerReplacement[] };
      await peers.replace(hosts);
      const views = await peers.views();
      for (const h of hosts) if (h.token !== undefined) deps.pollSoon(h.name);
      return { hosts: views };
    },
  });

  http.route({
    method: 'POST', path: '/api/fleet/peers', status: 201, tags: ['fleet'],
    summary: 'Add a machine: its control plane\'s URL and a read token it issued (stored encrypted, never shown again)',
    body: peerSchema,
    response: peerView,
    async handler(ctx) {
      const view: PeerView = await peers.add(ctx.request.body as PeerSettings);
      deps.pollSoon(view.name);
      return view;
    },
  });

  http.route({
    method: 'DELETE', path: '/api/fleet/peers/:name', tags: ['fleet'],
    summary: 'Remove a machine added in the dashboard',
    query: noQuery,
    response: closedObject({ deleted: { type: 'string' } }, { title: 'FleetPeerDeleted' }),
    async handler(ctx) {
      await peers.remove(ctx.params.name);
      return { deleted: ctx.params.name };
    },
  });

  http.route({
    method: 'GET', path: '/api/fleet/tokens', tags: ['fleet'],
    summary: 'The read tokens other instances read this one with (never the tokens themselves)',
    query: noQuery,
    response: closedObject({ data: { type: 'array', items: tokenView } }, { title: 'FleetReadTokenList' }),
    handler: async () => ({ data: await tokens.list() }),
  });

  http.route({
    method: 'POST', path: '/api/fleet/tokens', status: 201, tags: ['fleet'],
    summary: 'Create a read token; the answer is the only time it is shown (only its SHA-256 is kept)',
    body: closedObject({ label: { type: 'string', minLength: 1, maxLength: 100, description: 'Which instance will use it, say.' } }, { title: 'FleetReadTokenInput' }),
    response: closedObject({ ...(tokenView.properties as Record<string, JsonSchema>), token: { type: 'string', description: 'Shown this once.' } }, { title: 'FleetReadTokenCreated' }),
    handler: (ctx) => tokens.create((ctx.request.body as { label: string }).label),
  });

  http.route({
    method: 'DELETE', path: '/api/fleet/tokens/:id', tags: ['fleet'],
    summary: 'Revoke a read token: the instance using it is refused from its next poll',
    query: noQuery,
    response: closedObject({ revoked: { type: 'string' } }, { title: 'FleetReadTokenRevoked' }),
    async handler(ctx) {
      await tokens.revoke(ctx.params.id);
      return { revoked: ctx.params.id };
    },
  });
}

/** This machine's row: read now (a few file reads), so it is never stale. */
async function selfRow(deps: FleetRouteDeps) {
  const at = new Date().toISOString();
  try {
    const overview = await deps.overview();
    return { name: overview.hostname, url: null, source: 'self', status: 'up', error: null, latency_ms: null, polled_at: at, last_seen_at: at, overview };
  } catch (err) {
    return { name: 'this machine', url: null, source: 'self', status: 'down', error: (err as Error).message, latency_ms: null, polled_at: at, last_seen_at: null, overview: null };
  }
}
