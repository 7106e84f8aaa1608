// A Kubernetes cluster through its API server, with the user's kubeconfig: pods across namespaces (read-only) and
// their logs. Nothing is changed in a cluster from here.
import { EngineRefused } from './docker-engine.js';
import { readKubeConfig, type KubeTarget } from './kube-config.js';
import { apiRequest, engineMessage, openRequest } from './socket-request.js';
import { MAX_LIST_BYTES, MAX_PODS, type Engine, type EngineListing, type ListParser, type LogRequest, type PodRow } from './types.js';

interface KubePod {
  metadata?: { name?: string; namespace?: string; creationTimestamp?: string };
  spec?: { nodeName?: string; containers?: { name: string }[] };
  status?: { phase?: string; containerStatuses?: { name: string; ready?: boolean; restartCount?: number }[] };
}

const seconds = (iso: string | undefined): number | null => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? Math.floor(t / 1000) : null;
};

/** Rows from a PodList (`GET /api/v1/pods`). */
export function podRows(items: KubePod[]): PodRow[] {
  return items.map((p) => {
    const statuses = p.status?.containerStatuses ?? [];
    const containers = (p.spec?.containers ?? []).map((c) => c.name);
    return {
      env: 'kubernetes' as const,
      namespace: p.metadata?.namespace ?? 'default', name: p.metadata?.name ?? '',
      ready: statuses.filter((s) => s.ready).length, total: containers.length || statuses.length,
      restarts: statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0),
      node: p.spec?.nodeName ?? null, phase: p.status?.phase ?? 'Unknown', created: seconds(p.metadata?.creationTimestamp), containers,
    };
  });
}

const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** `namespace/name` of a pod, checked against Kubernetes' name rules (DNS subdomain). */
export function podRef(id: string): { namespace: string; name: string } {
  const [namespace, name, extra] = id.split('/');
  if (extra !== undefined || !namespace || !name || !NAME.test(namespace) || !NAME.test(name)) throw new EngineRefused(400, `"${id}" is not namespace/pod`);
  return { namespace, name };
}

export class KubeEngine implements Engine {
  readonly kind = 'kubernetes' as const;
  private target?: Promise<KubeTarget>;

  constructor(readonly endpoint: string, private readonly parse: ListParser, private readonly context?: string) {}

  /** The kubeconfig is read at the first use and kept: a changed file needs a restart (as `kubectl` reads it per run, this is the one difference). */
  private cluster(): Promise<KubeTarget> {
    this.target ??= readKubeConfig(this.endpoint, this.context);
    this.target.catch(() => { this.target = undefined; });
    return this.target;
  }

  async server(): Promise<string> {
    const t = await this.cluster();
    return `${t.context} (${t.server})`;
  }

  async list(timeoutMs: number): Promise<EngineListing> {
    const t = await this.cluster();
    const a = await apiRequest(t.api, `/api/v1/pods?limit=${MAX_PODS}`, { timeoutMs, maxBytes: MAX_LIST_BYTES * 4 });
    if (a.status !== 200) throw new EngineRefused(a.status, `listing pods: ${engineMessage(a)}`);
    if (a.cut) return { containers: [], pods: [], cut: true };
    const parsed = await this.parse('kubernetes', a.body);
    return { containers: [], pods: parsed.pods, cut: parsed.more };
  }

  private logPath(id: string, r: LogRequest, follow: boolean): string {
    const { namespace, name } = podRef(id);
    const q = new URLSearchParams({ tailLines: String(r.tail), limitBytes: String(r.maxBytes) });
    if (r.container) q.set('container', r.container);
    if (follow) q.set('follow', 'true');
    return `/api/v1/namespaces/${namespace}/pods/${name}/log?${q}`;
  }

  async logs(id: string, r: LogRequest): Promise<{ text: string; cut: boolean }> {
    const t = await this.cluster();
    const a = await apiRequest(t.api, this.logPath(id, r, false), { timeoutMs: r.timeoutMs, maxBytes: r.maxBytes });
    if (a.status !== 200) throw new EngineRefused(a.status, `reading logs: ${engineMessage(a)}`);
    return { text: a.body.toString('utf8'), cut: a.cut || a.body.length >= r.maxBytes };
  }

  async follow(id: string, r: LogRequest, signal: AbortSignal): Promise<AsyncIterable<Buffer>> {
    const t = await this.cluster();
    const path = this.logPath(id, { ...r, maxBytes: r.maxBytes }, true);
    const res = await openRequest(t.api, path, { timeoutMs: r.timeoutMs, signal });
    if (res.statusCode !== 200) {
      res.resume();
      throw new EngineRefused(res.statusCode ?? 502, `following logs: HTTP ${res.statusCode}`);
    }
    signal.addEventListener('abort', () => res.destroy(), { once: true });
    return res as AsyncIterable<Buffer>;
  }
}
