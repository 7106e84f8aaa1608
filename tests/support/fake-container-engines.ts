// Fakes of the container engines' APIs, for what cannot run on the test machine: a Kubernetes cluster, a daemon that
// hangs, and Docker with states and outputs a test sets up at will (a real dockerd is tested too:
// tests/support/real-dockerd.ts). Each speaks the real protocol over the real transport:
// the Docker Engine API on a unix socket (answers from its specification's examples, tests/fixtures/containers), the
// Kubernetes API on loopback HTTP with a bearer token and a kubeconfig pointing at it, and a daemon socket that
// accepts connections and never answers.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fixture } from './paths.js';

interface FakeContainer {
  summary: Record<string, unknown> & { Id: string; Names: string[] };
  running: boolean;
  tty: boolean;
  /** Output lines, each with its stream (1 stdout, 2 stderr). */
  lines: { stream: 1 | 2; text: string }[];
}

/** One multiplexed-stream frame: stream type, three zero bytes, big-endian length, payload. */
export function frame(stream: 1 | 2, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'api-version': '1.25', 'content-length': Buffer.byteLength(text) }).end(text);
};

const listen = (server: Server | ReturnType<typeof createNetServer>, where: string | number, host?: string): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    if (typeof where === 'string') server.listen(where, () => resolve());
    else server.listen(where, host, () => resolve());
  });

export interface FakeDocker {
  socketPath: string;
  /** Requests seen, `METHOD path`, in order. */
  requests: string[];
  containers: Map<string, FakeContainer>;
  /** Appends a line to a container's output (a followed log sees it). */
  say(id: string, text: string, stream?: 1 | 2): void;
  close(): Promise<void>;
}

/**
 * The Docker Engine API on a unix socket, holding enough state that start, stop and remove change what the list
 * answers. Containers start as the specification's example has them (exited); `running_cat` is started at first so
 * both states are there. `GET /containers/{id}/logs` answers in the multiplexed format (no TTY), `follow=1` stays
 * open and sends lines as `say` adds them.
 */
export async function startFakeDocker(socketPath: string): Promise<FakeDocker> {
  const list = JSON.parse(readFileSync(fixture('containers', 'docker-containers.json'), 'utf8')) as FakeContainer['summary'][];
  const containers = new Map<string, FakeContainer>();
  for (const summary of list) {
    const name = summary.Names[0].slice(1);
    containers.set(summary.Id, {
      summary, running: false, tty: false,
      lines: Array.from({ length: 300 }, (_, i) => ({ stream: (i % 10 === 9 ? 2 : 1) as 1 | 2, text: `${name} line ${i + 1}` })),
    });
  }
  const requests: string[] = [];
  const followers = new Map<string, Set<ServerResponse>>();
  const execs = new Map<string, string>();
  /** Hijacked exec streams: no longer the HTTP server's connections, so closed here. */
  const hijacked = new Set<Socket>();
  const find = (ref: string) => containers.get(ref) ?? [...containers.values()].find((c) => c.summary.Names[0] === `/${ref}` || c.summary.Id.startsWith(ref));
  const setRunning = (c: FakeContainer, running: boolean) => {
    c.running = running;
    c.summary.State = running ? 'running' : 'exited';
    c.summary.Status = running ? 'Up Less than a second' : 'Exited (0) Less than a second ago';
  };
  setRunning(containers.get('4cb07b47f9fb')!, true);

  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://docker');
    // Docker accepts an API version prefix: /v1.43/containers/json.
    const path = url.pathname.replace(/^\/v1\.\d+/, '');
    requests.push(`${req.method} ${path}${url.search}`);
    if (req.method === 'GET' && path === '/containers/json') {
      const all = url.searchParams.get('all') === '1' || url.searchParams.get('all') === 'true';
      const limit = Number(url.searchParams.get('limit') ?? '-1');
      let rows = [...containers.values()].filter((c) => all || c.running).map((c) => c.summary);
      if (limit > 0) rows = rows.slice(0, limit);
      return json(res, 200, rows);
    }
    const resize = /^\/exec\/([0-9a-f]{64})\/resize$/.exec(path);
    if (req.method === 'POST' && resize) return execs.has(resize[1]) ? res.writeHead(201).end() : json(res, 404, { message: 'No such exec instance' });
    const m = /^\/containers\/([^/]+)(?:\/(json|start|stop|restart|logs|exec))?$/.exec(path);
    const c = m ? find(decodeURIComponent(m[1])) : undefined;
    if (m && !c) return json(res, 404, { message: `No such container: ${decodeURIComponent(m[1])}` });
    if (!m || !c) return json(res, 404, { message: 'page not found' });
    const action = m[2];
    if (req.method === 'GET' && action === 'json') {
      return json(res, 200, {
        Id: c.summary.Id, Name: c.summary.Names[0], Image: c.summary.ImageID,
        State: { Status: c.running ? 'running' : 'exited', Running: c.running, Paused: false, Restarting: false, ExitCode: 0 },
        Config: { Tty: c.tty, Image: c.summary.Image },
      });
    }
    if (req.method === 'POST' && (action === 'start' || action === 'stop')) {
      if (c.running === (action === 'start')) return res.writeHead(304).end();
      setRunning(c, action === 'start');
      return res.writeHead(204).end();
    }
    if (req.method === 'POST' && action === 'restart') {
      setRunning(c, true);
      return res.writeHead(204).end();
    }
    if (req.method === 'DELETE' && !action) {
      const force = url.searchParams.get('force') === '1' || url.searchParams.get('force') === 'true';
      if (c.running && !force) {
        return json(res, 409, { message: `You cannot remove a running container ${c.summary.Id}. Stop the container before attempting removal or force remove` });
      }
      containers.delete(c.summary.Id);
      return res.writeHead(204).end();
    }
    if (req.method === 'POST' && path === `/containers/${m[1]}/exec`) {
      if (!c.running) return json(res, 409, { message: `Container ${c.summary.Id} is not running` });
      const execId = randomBytes(32).toString('hex');
      execs.set(execId, c.summary.Id);
      return json(res, 201, { Id: execId });
    }
    if (req.method === 'GET' && action === 'logs') {
      const tail = url.searchParams.get('tail');
      const lines = tail && tail !== 'all' ? c.lines.slice(-Number(tail)) : c.lines;
      res.writeHead(200, { 'content-type': 'application/vnd.docker.multiplexed-stream' });
      for (const l of lines) res.write(frame(l.stream, Buffer.from(`${l.text}\n`)));
      if (url.searchParams.get('follow') !== '1') return res.end();
      const set = followers.get(c.summary.Id) ?? new Set();
      followers.set(c.summary.Id, set);
      set.add(res);
      res.on('close', () => set.delete(res));
      return;
    }
    json(res, 404, { message: 'page not found' });
  });
  // `POST /exec/{id}/start` with `Upgrade: tcp`: 101, then the raw stream of a TTY. The shell is a stand-in that
  // echoes keystrokes as a TTY would and answers each line with `ran: <line>` and a prompt.
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://docker');
    const m = /^(?:\/v1\.\d+)?\/exec\/([0-9a-f]{64})\/start$/.exec(url.pathname);
    requests.push(`${req.method} ${url.pathname} upgrade`);
    if (!m || !execs.has(m[1])) { socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'); return; }
    let skip = Number(req.headers['content-length'] ?? 0);
    let line = '';
    socket.write('HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n/ # ');
    const input = (chunk: Buffer) => {
      const body = chunk.subarray(Math.min(skip, chunk.length));
      skip = Math.max(0, skip - chunk.length);
      for (const ch of body.toString('utf8')) {
        if (ch === '\r') { socket.write(`\r\nran: ${line}\r\n/ # `); if (line === 'exit') socket.end(); line = ''; } else { line += ch; socket.write(ch); }
      }
    };
    hijacked.add(socket);
    socket.on('close', () => hijacked.delete(socket));
    socket.on('error', () => undefined);
    if (head.length) input(head);
    socket.on('data', input);
  });
  rmSync(socketPath, { force: true });
  await listen(server, socketPath);
  return {
    socketPath, requests, containers,
    say(id, text, stream = 1) {
      const c = find(id)!;
      c.lines.push({ stream, text });
      for (const res of followers.get(c.summary.Id) ?? []) res.write(frame(stream, Buffer.from(`${text}\n`)));
    },
    close: () => new Promise((resolve) => {
      for (const set of followers.values()) for (const res of set) res.destroy();
      for (const socket of hijacked) socket.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A daemon that accepts connections on its socket and never answers (a hung dockerd). */
export async function startHungSocket(socketPath: string): Promise<{ socketPath: string; accepted: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createNetServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    // Reads the request and never writes a byte back.
    s.resume();
  });
  rmSync(socketPath, { force: true });
  await listen(server, socketPath);
  return {
    socketPath, accepted: () => accepted,
    close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}

export interface FakeKube {
  url: string;
  kubeconfig: string;
  requests: string[];
  close(): Promise<void>;
}

/**
 * The Kubernetes API on loopback HTTP: `GET /api/v1/pods` answers the fixture's PodList, pod logs are plain text
 * bounded by tailLines and limitBytes; a request without the kubeconfig's bearer token gets a 401 Status. Writes the
 * kubeconfig that points at it (server, token, context) to `kubeconfigPath`.
 */
export async function startFakeKube(kubeconfigPath: string, token = 'fake-cluster-token-123'): Promise<FakeKube> {
  const pods = JSON.parse(readFileSync(fixture('containers', 'kube-pods.json'), 'utf8')) as { items: { metadata: { name: string; namespace: string } }[] };
  const requests: string[] = [];
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://kube');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.headers.authorization !== `Bearer ${token}`) {
      return json(res, 401, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
    if (req.method === 'GET' && url.pathname === '/api/v1/pods') return json(res, 200, pods);
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/.exec(url.pathname);
    if (req.method === 'GET' && m) {
      const pod = pods.items.find((p) => p.metadata.namespace === m[1] && p.metadata.name === m[2]);
      if (!pod) return json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `pods "${m[2]}" not found`, reason: 'NotFound', code: 404 });
      const container = url.searchParams.get('container') ?? 'first';
      const all = Array.from({ length: 500 }, (_, i) => `${m[2]}/${container} request ${i + 1} served`);
      const tail = Number(url.searchParams.get('tailLines') ?? all.length);
      let text = `${all.slice(-tail).join('\n')}\n`;
      const limit = Number(url.searchParams.get('limitBytes') ?? 0);
      if (limit > 0) text = Buffer.from(text).subarray(0, limit).toString('utf8');
      return res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
    }
    json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 });
  });
  await listen(server, 0, '127.0.0.1');
  const port = (server.address() as { port: number }).port;
  const url = `http://127.0.0.1:${port}`;
  writeFileSync(kubeconfigPath, `apiVersion: v1
kind: Config
current-context: fake
clusters:
- name: fake-cluster
  cluster:
    server: ${url}
contexts:
- name: fake
  context:
    cluster: fake-cluster
    user: fake-user
users:
- name: fake-user
  user:
    token: ${token}
`);
  return {
    url, kubeconfig: kubeconfigPath, requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
