// A real `vigil run` for the browser suites: the dashboard, the gateway (proxy, governance, capture) in front of a
// recording upstream, on free ports, with a known token.
import { join } from 'node:path';
import { freePort, scaledTimeout } from './net.js';
import { startRecordingUpstream } from './recording-upstream.js';
import { tempDir } from './tmp.js';
import { startVigil, writeConfig, type VigilProcess } from './vigil-process.js';

export const E2E_TOKEN = 'e2e-dashboard-token-0123456789abcdef';

export interface Dashboard {
  /** The control plane, e.g. http://127.0.0.1:41234 */
  url: string;
  token: string;
  /** The gateway, e.g. http://127.0.0.1:41235 (undefined without an upstream). */
  gateway?: string;
  /** `url/?token=…`: the dashboard link Vigil prints. */
  link: string;
  vigil: VigilProcess;
  /** Creates an LLM project through the dashboard API (needs `llm`); resolves to its key. */
  createProject(name: string): Promise<string>;
  /** Sends `n` requests through the gateway, spread over the given paths. */
  traffic(paths: string[], n: number, init?: RequestInit): Promise<void>;
  stop(): Promise<void>;
}

export interface DashboardOptions {
  /** Start the proxy in front of a recording upstream (default true). */
  gateway?: boolean;
  /** `capture.pricing`, for suites that check cost (default: none, so every cost is 0). */
  pricing?: { per_1k_tokens?: number; per_request?: number; currency?: string };
  /** Writes into the store (its URL, SQLite in the data directory) before `vigil run` starts: records to list, say. */
  seed?: (storeUrl: string) => Promise<unknown>;
  /** The `rules:` section as YAML, instead of the e2e policy below; `''` for none. */
  rules?: string;
  /** Enable the LLM plugin: `true` for `llm: {}`, or the section's YAML body (indented by two spaces). */
  llm?: boolean | string;
  /** More top-level YAML for the config (an `evaluators:` section, say). */
  extra?: string;
  /** Environment variables of the `vigil run` process (a judge provider's `api_key_env`, say). */
  env?: Record<string, string>;
  /** The control plane's port (default: a free one), for suites that must name its URL first (an OIDC redirect). */
  port?: number;
  /** More keys of `control_plane:`, as YAML indented by two spaces (an `oidc:` section, say). */
  controlPlane?: string;
}

/** The policy of the e2e runs: a tenant label, masked credentials and card numbers, metered tokens. */
const RULES = `rules:
  - name: all-traffic
    match: { path: /** }
    labels: { tenant: header:X-Tenant-Id }
    redact: { headers: [Authorization] }
  - name: payments
    match: { path: /api/payments/** }
    redact: { json_fields: [$.card.number] }
  - name: llm
    match: { path: /v1/chat/completions }
    meter: { tokens: $.usage.total_tokens }
`;

export async function startDashboard(options: DashboardOptions = {}): Promise<Dashboard> {
  const dir = tempDir('vigil-e2e-');
  const upstream = options.gateway === false ? undefined : await startRecordingUpstream({
    '/api/fail': (_q, r) => { r.statusCode = 503; r.end('{"error":"down"}'); },
    '/v1/chat/completions': (_q, r) => { r.setHeader('content-type', 'application/json'); r.end('{"usage":{"total_tokens":120}}'); },
  }, (_q, r) => { r.setHeader('content-type', 'application/json'); r.end('{"ok":true}'); });
  const [cp, gw] = [options.port ?? await freePort(), await freePort()];
  const url = `http://127.0.0.1:${cp}`;
  const config = writeConfig(dir.path, `data_dir: ${join(dir.path, 'data')}
control_plane:
  listen: 127.0.0.1:${cp}
  token: ${E2E_TOKEN}
${options.controlPlane ?? ''}ui: {}
capture: { batch_delay: 5ms${options.pricing ? `, pricing: ${JSON.stringify(options.pricing)}` : ''} }
${options.rules ?? RULES}${options.llm ? (options.llm === true ? 'llm: {}\n' : `llm:\n${options.llm}\n`) : ''}${upstream ? `service: { upstream: http://127.0.0.1:${upstream.port}, listen: 127.0.0.1:${gw} }\n` : ''}${options.extra ?? ''}`);
  let vigil: VigilProcess;
  try {
    await options.seed?.(`sqlite:${join(dir.path, 'data', 'vigil.db')}`);
    vigil = await startVigil(config, url, options.env ? { env: options.env } : undefined);
  } catch (err) {
    upstream?.close();
    dir.cleanup();
    throw err;
  }
  const gateway = upstream ? `http://127.0.0.1:${gw}` : undefined;
  return {
    url,
    token: E2E_TOKEN,
    gateway,
    link: `${url}/?token=${E2E_TOKEN}`,
    vigil,
    async createProject(name) {
      const res = await fetch(`${url}/api/llm/projects`, {
        method: 'POST', headers: { authorization: `Bearer ${E2E_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }),
      });
      const body = await res.json() as { key?: string };
      if (res.status !== 201 || !body.key) throw new Error(`creating project ${name}: ${res.status} ${JSON.stringify(body)}`);
      return body.key;
    },
    async traffic(paths, n, init = {}) {
      if (!gateway) throw new Error('this dashboard runs without the gateway');
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${gateway}${paths[i % paths.length]}`, { ...init, headers: { 'x-tenant-id': ['acme', 'globex'][i % 2], ...(init.headers as Record<string, string> | undefined) } });
        await res.arrayBuffer();
      }
    },
    async stop() {
      await vigil.stop();
      upstream?.close();
      dir.cleanup();
    },
  };
}

/** Waits until the gateway's overview counts at least `n` requests in the last hour (capture stores in batches). */
export async function waitForRequests(d: Dashboard, n: number): Promise<void> {
  const deadline = Date.now() + scaledTimeout(15_000);
  for (;;) {
    const res = await fetch(`${d.url}/api/gateway/overview?range=1h`, { headers: { authorization: `Bearer ${d.token}` } });
    const body = await res.json() as { requests: number };
    if (body.requests >= n) return;
    if (Date.now() > deadline) throw new Error(`the overview counts ${body.requests} requests, not ${n}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
