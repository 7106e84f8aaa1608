// Docker's Engine API over its unix socket, and Podman's Docker-compatible one (the same paths, `/v1.41` and up).
// Requests are unversioned: the daemon answers with its own API version, and only long-stable fields are read.
import { demultiplex, FrameDemuxer } from './docker-frames.js';
import { apiRequest, engineMessage, openRequest, type ApiAnswer, type ApiEndpoint } from './socket-request.js';
import {
  MAX_CONTAINERS_PER_ENGINE, MAX_LIST_BYTES, type ContainerAction, type ContainerRow, type Engine, type EngineListing, type ListParser, type LogRequest,
} from './types.js';

/** What `GET /containers/json` answers per container (the fields read). */
interface DockerSummary {
  Id: string;
  Names?: string[];
  Image?: string;
  Created?: number;
  State?: string;
  Status?: string;
  Ports?: { IP?: string; PrivatePort: number; PublicPort?: number; Type: string }[];
}

/** `0.0.0.0:8080->80/tcp`, as `docker ps` prints a published port; `80/tcp` for one only exposed. */
export function portText(p: NonNullable<DockerSummary['Ports']>[number]): string {
  return p.PublicPort ? `${p.IP ? `${p.IP}:` : ''}${p.PublicPort}->${p.PrivatePort}/${p.Type}` : `${p.PrivatePort}/${p.Type}`;
}

/** Rows from `GET /containers/json?all=1`. */
export function dockerRows(env: 'docker' | 'podman', list: DockerSummary[]): ContainerRow[] {
  return list.map((c) => {
    const state = (c.State ?? '').toLowerCase();
    return {
      env, id: c.Id, name: (c.Names?.[0] ?? c.Id.slice(0, 12)).replace(/^\//, ''), image: c.Image ?? '', state, status: c.Status ?? '',
      created: typeof c.Created === 'number' ? c.Created : null, ports: [...new Set((c.Ports ?? []).map(portText))], running: state === 'running',
    };
  });
}

export class EngineRefused extends Error {
  constructor(readonly status: number, message: string) { super(message); }
}

const ok = (a: ApiAnswer, what: string): ApiAnswer => {
  if (a.status >= 200 && a.status < 300) return a;
  throw new EngineRefused(a.status, `${what}: ${engineMessage(a)}`);
};

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export class DockerEngine implements Engine {
  private readonly api: ApiEndpoint;

  constructor(readonly kind: 'docker' | 'podman', readonly endpoint: string, private readonly parse: ListParser) {
    this.api = { socketPath: endpoint };
  }

  async list(timeoutMs: number): Promise<EngineListing> {
    // limit: the newest N, running or not (the daemon sorts by creation): the answer is bounded at the source.
    const a = ok(await apiRequest(this.api, `/containers/json?all=1&limit=${MAX_CONTAINERS_PER_ENGINE + 1}`, { timeoutMs, maxBytes: MAX_LIST_BYTES }), 'listing containers');
    if (a.cut) return { containers: [], pods: [], cut: true };
    const rows = (await this.parse(this.kind, a.body)).containers;
    return { containers: rows.slice(0, MAX_CONTAINERS_PER_ENGINE), pods: [], cut: rows.length > MAX_CONTAINERS_PER_ENGINE };
  }

  private async inspect(id: string, timeoutMs: number): Promise<{ running: boolean; tty: boolean } | undefined> {
    if (!ID.test(id)) return undefined;
    const a = await apiRequest(this.api, `/containers/${encodeURIComponent(id)}/json`, { timeoutMs, maxBytes: 1024 * 1024 });
    if (a.status === 404) return undefined;
    const info = JSON.parse(ok(a, 'inspecting the container').body.toString('utf8')) as { State?: { Running?: boolean }; Config?: { Tty?: boolean } };
    return { running: Boolean(info.State?.Running), tty: Boolean(info.Config?.Tty) };
  }

  async running(id: string, timeoutMs: number): Promise<boolean | undefined> {
    return (await this.inspect(id, timeoutMs))?.running;
  }

  async act(id: string, action: ContainerAction, force: boolean, timeoutMs: number): Promise<void> {
    const path = `/containers/${encodeURIComponent(id)}`;
    // stop and restart: t=10, the daemon's SIGTERM-to-SIGKILL grace, well inside the action's time limit.
    const [method, url] = action === 'remove' ? ['DELETE', `${path}?force=${force ? 1 : 0}`] : ['POST', `${path}/${action}${action === 'start' ? '' : '?t=10'}`];
    const a = await apiRequest(this.api, url, { method, timeoutMs, maxBytes: 64 * 1024 });
    // 304: already started or already stopped; the state asked for holds.
    if (a.status === 304) return;
    ok(a, `${action} ${id}`);
  }

  private logsPath(id: string, r: LogRequest, follow: boolean): string {
    return `/containers/${encodeURIComponent(id)}/logs?stdout=1&stderr=1&tail=${r.tail}${follow ? '&follow=1' : ''}`;
  }

  async logs(id: string, r: LogRequest): Promise<{ text: string; cut: boolean }> {
    const info = await this.inspect(id, r.timeoutMs);
    if (!info) throw new EngineRefused(404, `no container ${id}`);
    const a = ok(await apiRequest(this.api, this.logsPath(id, r, false), { timeoutMs: r.timeoutMs, maxBytes: r.maxBytes + 8 }), 'reading logs');
    const bytes = info.tty ? a.body : demultiplex(a.body);
    return { text: bytes.subarray(0, r.maxBytes).toString('utf8'), cut: a.cut };
  }

  async follow(id: string, r: LogRequest, signal: AbortSignal): Promise<AsyncIterable<Buffer>> {
    const info = await this.inspect(id, r.timeoutMs);
    if (!info) throw new EngineRefused(404, `no container ${id}`);
    const res = await openRequest(this.api, this.logsPath(id, r, true), { timeoutMs: r.timeoutMs, signal });
    if ((res.statusCode ?? 0) >= 300) {
      res.resume();
      throw new EngineRefused(res.statusCode ?? 502, `following logs: HTTP ${res.statusCode}`);
    }
    signal.addEventListener('abort', () => res.destroy(), { once: true });
    const demuxer = info.tty ? undefined : new FrameDemuxer();
    return (async function* () {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        if (!demuxer) yield chunk;
        else for (const part of demuxer.push(chunk)) yield part;
      }
    })();
  }

  shellPrefix(): string {
    return `${this.kind === 'podman' ? `podman --url unix://${this.endpoint}` : `docker -H unix://${this.endpoint}`} exec -it`;
  }
}
