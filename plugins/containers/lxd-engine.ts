// LXD and Incus through their REST API on the unix socket (the same API: Incus forked LXD): instances (containers
// and virtual machines) with start, stop, restart and delete, and the console log as their output.
import { EngineRefused } from './docker-engine.js';
import { apiRequest, engineMessage, type ApiEndpoint } from './socket-request.js';
import { MAX_CONTAINERS_PER_ENGINE, MAX_LIST_BYTES, type ContainerAction, type ContainerRow, type Engine, type EngineListing, type ListParser, type LogRequest } from './types.js';

interface LxdInstance {
  name: string;
  status?: string;
  type?: string;
  created_at?: string;
  config?: Record<string, string>;
  state?: { network?: Record<string, { addresses?: { family: string; address: string; scope: string }[] }> } | null;
}

/** Rows from `GET /1.0/instances?recursion=1` (its `metadata`). */
export function lxdRows(env: 'lxd' | 'incus', list: LxdInstance[]): ContainerRow[] {
  return list.map((i) => {
    const state = (i.status ?? '').toLowerCase();
    const t = i.created_at ? Date.parse(i.created_at) : NaN;
    const image = [i.config?.['image.os'], i.config?.['image.release']].filter(Boolean).join(' ') || i.config?.['image.description'] || '';
    return {
      env, id: i.name, name: i.name, image, state, status: `${i.status ?? ''}${i.type === 'virtual-machine' ? ' (VM)' : ''}`,
      created: Number.isFinite(t) && t > 0 ? Math.floor(t / 1000) : null, ports: [], running: state === 'running',
    };
  });
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/;

export class LxdEngine implements Engine {
  private readonly api: ApiEndpoint;

  constructor(readonly kind: 'lxd' | 'incus', readonly endpoint: string, private readonly parse: ListParser) {
    this.api = { socketPath: endpoint };
  }

  async list(timeoutMs: number): Promise<EngineListing> {
    const a = await apiRequest(this.api, '/1.0/instances?recursion=1', { timeoutMs, maxBytes: MAX_LIST_BYTES });
    if (a.status !== 200) throw new EngineRefused(a.status, `listing instances: ${engineMessage(a)}`);
    if (a.cut) return { containers: [], pods: [], cut: true };
    const rows = (await this.parse(this.kind, a.body)).containers;
    return { containers: rows.slice(0, MAX_CONTAINERS_PER_ENGINE), pods: [], cut: rows.length > MAX_CONTAINERS_PER_ENGINE };
  }

  private path(id: string): string {
    if (!NAME.test(id)) throw new EngineRefused(400, `"${id}" is not an instance name`);
    return `/1.0/instances/${id}`;
  }

  async running(id: string, timeoutMs: number): Promise<boolean | undefined> {
    const a = await apiRequest(this.api, this.path(id), { timeoutMs, maxBytes: 1024 * 1024 });
    if (a.status === 404) return undefined;
    if (a.status !== 200) throw new EngineRefused(a.status, engineMessage(a));
    return ((JSON.parse(a.body.toString('utf8')) as { metadata?: { status?: string } }).metadata?.status ?? '').toLowerCase() === 'running';
  }

  async act(id: string, action: ContainerAction, force: boolean, timeoutMs: number): Promise<void> {
    const a = action === 'remove'
      ? await apiRequest(this.api, this.path(id), { method: 'DELETE', timeoutMs, maxBytes: 64 * 1024 })
      : await apiRequest(this.api, `${this.path(id)}/state`, { method: 'PUT', body: { action, timeout: 10, force }, timeoutMs, maxBytes: 64 * 1024 });
    if (a.status >= 300) throw new EngineRefused(a.status, `${action} ${id}: ${engineMessage(a)}`);
    // Changes are background operations: wait for this one within what is left of the time limit.
    const op = (JSON.parse(a.body.toString('utf8')) as { operation?: string }).operation;
    if (!op || !/^\/1\.0\/operations\/[A-Za-z0-9-]+$/.test(op)) return;
    const w = await apiRequest(this.api, `${op}/wait?timeout=${Math.max(1, Math.floor(timeoutMs / 1000) - 1)}`, { timeoutMs, maxBytes: 64 * 1024 });
    const result = JSON.parse(w.body.toString('utf8')) as { metadata?: { status?: string; err?: string } };
    if (w.status !== 200 || result.metadata?.err) throw new EngineRefused(w.status === 200 ? 500 : w.status, `${action} ${id}: ${result.metadata?.err || engineMessage(w)}`);
  }

  async logs(id: string, r: LogRequest): Promise<{ text: string; cut: boolean }> {
    const a = await apiRequest(this.api, `${this.path(id)}/console`, { timeoutMs: r.timeoutMs, maxBytes: r.maxBytes });
    if (a.status !== 200) throw new EngineRefused(a.status, `reading the console log: ${engineMessage(a)}`);
    const lines = a.body.toString('utf8').split('\n');
    return { text: lines.slice(-r.tail - 1).join('\n'), cut: a.cut };
  }

  shellPrefix(): string {
    return `${this.kind === 'incus' ? 'incus' : 'lxc'} exec`;
  }
}
