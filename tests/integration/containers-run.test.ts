// The containers panel in a real `vigil run`, against the fakes of tests/support/fake-container-engines.ts (no engine
// can run on this machine): a Docker Engine API on a unix socket with state, a Kubernetes API with a kubeconfig, and a
// Podman socket that accepts and never answers. The list spans the environments with the hung one reported within
// its limit; actions change what the engine lists and are audited; a running container is removed only with force;
// logs are bounded in lines and bytes; a followed log streams new lines and ends at its byte cap; /api/caps reports
// the environments found.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startFakeDocker, startFakeKube, startHungSocket, type FakeDocker, type FakeKube } from '../support/fake-container-engines.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'containers-run-dashboard-token-01';
const work = tempDir('vigil-containers-');
let vigil: VigilProcess;
let base = '';
let docker: FakeDocker;
let hung: Awaited<ReturnType<typeof startHungSocket>>;
let kube: FakeKube;

const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  let body: any;
  try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
  return { status: res.status, text, body, headers: res.headers };
};
const act = (body: Record<string, unknown>) => api('/api/ctraction', { method: 'POST', body: JSON.stringify(body) });
const stateOf = async (name: string) => (await api('/api/containers')).body.containers.find((c: { name: string }) => c.name === name)?.state;

test.before(async () => {
  docker = await startFakeDocker(join(work.path, 'docker.sock'));
  hung = await startHungSocket(join(work.path, 'podman.sock'));
  kube = await startFakeKube(join(work.path, 'kubeconfig'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  vigil = await startVigil(writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
probes: {}
containers:
  sockets: { docker: ${docker.socketPath}, podman: ${hung.socketPath}, lxd: ${work.path}/none.sock, incus: ${work.path}/none.sock }
  kubeconfig: ${kube.kubeconfig}
  nerdctl: ${work.path}/no-nerdctl
  timeout: 1s
  logs: { tail: 50, max_tail: 200, max_bytes: 2048, follow_for: 20s }
`), base, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  await docker?.close();
  await hung?.close();
  await kube?.close();
  work.cleanup();
});

test('the list spans Docker and the cluster, and the hung Podman is reported as unreachable within its 1 s', async () => {
  const res = await api('/api/containers');
  assert.is(res.status, 200, res.text);
  const envs = Object.fromEntries(res.body.environments.map((e: { kind: string }) => [e.kind, e]));
  assert.equal(Object.keys(envs).sort(), ['docker', 'kubernetes', 'podman']);
  assert.is(envs.docker.state, 'ok');
  assert.is(envs.docker.containers, 4);
  assert.is(envs.docker.shell, `docker -H unix://${docker.socketPath} exec -it`);
  assert.is(envs.kubernetes.shell, null);
  assert.is(envs.docker.follow, true);
  assert.is(envs.kubernetes.state, 'ok');
  assert.is(envs.kubernetes.pods, 3);
  assert.is(envs.podman.state, 'unreachable');
  assert.is(envs.podman.message, 'no answer in 1 s');
  assert.ok(envs.podman.elapsed_ms >= 900, `the hung daemon had its whole second: ${envs.podman.elapsed_ms}`);
  assert.equal(res.body.containers.map((c: { name: string; state: string }) => [c.name, c.state]),
    [['boring_feynman', 'exited'], ['coolName', 'exited'], ['sleepy_dog', 'exited'], ['running_cat', 'running']]);
  assert.equal(res.body.containers[0].ports, ['3333->2222/tcp']);
  const web = res.body.pods.find((p: { name: string }) => p.name === 'web-7d4b9c8f6d-x2k9p');
  assert.equal([web.namespace, web.ready, web.total, web.restarts, web.node, web.phase], ['shop', 1, 2, 7, 'node-a', 'Running']);
  assert.is(res.body.timeout_ms, 1000);
  assert.ok(res.body.looked_for.some((l: { kind: string; places: string[] }) => l.kind === 'lxd' && l.places[0].endsWith('none.sock')));
});

test('/api/caps reports the environments the plugin found', async () => {
  const caps = await api('/api/caps');
  assert.is(caps.status, 200, caps.text);
  assert.equal(caps.body.containers, ['docker', 'podman', 'kubernetes']);
});

test('start and stop change what the engine lists; each action is in the audit log with who and the outcome', async () => {
  const started = await act({ env: 'docker', id: 'boring_feynman', action: 'start' });
  assert.is(started.status, 200, started.text);
  assert.is(started.body.container.state, 'running');
  assert.ok(docker.requests.includes('POST /containers/boring_feynman/start'), docker.requests.join('\n'));
  assert.is(await stateOf('boring_feynman'), 'running');
  const stopped = await act({ env: 'docker', id: 'boring_feynman', action: 'stop' });
  assert.is(stopped.status, 200, stopped.text);
  assert.is(await stateOf('boring_feynman'), 'exited');
  const audit = await waitFor(async () => {
    const a = await api('/api/audit?limit=50');
    const mine = a.body.entries.filter((e: { action: string }) => e.action.startsWith('container '));
    return mine.length >= 2 ? mine : undefined;
  }, { what: 'the two audit entries' });
  const actions = audit.map((e: { action: string; target: string; status: number; detail: string }) => [e.action, e.target, e.status, e.detail]);
  assert.ok(actions.some((a: unknown[]) => a[0] === 'container start' && a[1] === 'docker boring_feynman' && a[2] === 200 && a[3] === 'now running'), JSON.stringify(actions));
  assert.ok(actions.some((a: unknown[]) => a[0] === 'container stop' && a[3] === 'now exited'), JSON.stringify(actions));
});

test('a running container is not removed without force (409, audited as refused); with force it is gone from the list', async () => {
  const refused = await act({ env: 'docker', id: 'running_cat', action: 'remove' });
  assert.is(refused.status, 409, refused.text);
  assert.is(refused.body.error.code, 'VIGIL_ERR_CONTAINERS_RUNNING');
  assert.ok(!docker.requests.some((r) => r.startsWith('DELETE')), 'the engine was never asked to remove it');
  assert.is(await stateOf('running_cat'), 'running');
  const removed = await act({ env: 'docker', id: 'running_cat', action: 'remove', force: true });
  assert.is(removed.status, 200, removed.text);
  assert.is(removed.body.container, null);
  assert.ok(docker.requests.includes('DELETE /containers/running_cat?force=1'));
  assert.is(await stateOf('running_cat'), undefined);
  const audit = await waitFor(async () => {
    const a = await api('/api/audit?limit=50');
    const e = a.body.entries.filter((x: { action: string }) => x.action.startsWith('container remove'));
    return e.length >= 2 ? e : undefined;
  }, { what: 'the remove audit entries' });
  assert.ok(audit.some((e: { action: string; status: number }) => e.action === 'container remove' && e.status === 409));
  assert.ok(audit.some((e: { action: string; status: number; detail: string }) => e.action === 'container remove (force)' && e.status === 200 && e.detail === 'removed'));
});

test('bad actions: a pod is read-only, an unknown container 404, an environment not found 404, a malformed body 400', async () => {
  const pod = await act({ env: 'kubernetes', id: 'shop/web-7d4b9c8f6d-x2k9p', action: 'restart' });
  assert.is(pod.status, 400, pod.text);
  assert.is(pod.body.error.code, 'VIGIL_ERR_CONTAINERS_NOT_SUPPORTED');
  const unknown = await act({ env: 'docker', id: 'nope', action: 'start' });
  assert.is(unknown.status, 404, unknown.text);
  assert.is(unknown.body.error.code, 'VIGIL_ERR_CONTAINERS_CONTAINER_UNKNOWN');
  const lxd = await act({ env: 'lxd', id: 'x', action: 'start' });
  assert.is(lxd.status, 404);
  assert.is(lxd.body.error.code, 'VIGIL_ERR_CONTAINERS_ENGINE_UNKNOWN');
  assert.is((await act({ env: 'docker', id: 'x', action: 'pause' })).status, 400);
  assert.is((await act({ env: 'docker', id: 'x', action: 'start', extra: 1 })).status, 400);
  const hungAction = await act({ env: 'podman', id: 'x', action: 'start' });
  assert.is(hungAction.status, 504, hungAction.text);
  assert.is(hungAction.body.error.code, 'VIGIL_ERR_CONTAINERS_UNREACHABLE');
});

test('logs: the last lines, demultiplexed, capped at max_tail and at max_bytes; pod logs through the cluster', async () => {
  const some = await api('/api/ctrlogs?env=docker&id=coolName&tail=5');
  assert.is(some.status, 200, some.text);
  assert.is(some.body.text, ['coolName line 296', 'coolName line 297', 'coolName line 298', 'coolName line 299', 'coolName line 300', ''].join('\n'));
  assert.is(some.body.cut, false);
  const many = await api('/api/ctrlogs?env=docker&id=coolName&tail=100000');
  assert.is(many.body.tail, 200, 'the tail is capped at max_tail');
  assert.is(many.body.cut, true);
  assert.ok(Buffer.byteLength(many.body.text) <= 2048, `${Buffer.byteLength(many.body.text)} bytes`);
  assert.ok(many.body.text.startsWith('coolName line 101\n'), many.body.text.slice(0, 40));
  const pod = await api('/api/ctrlogs?env=kubernetes&id=shop/web-7d4b9c8f6d-x2k9p&tail=2&container=web');
  assert.is(pod.status, 200, pod.text);
  assert.is(pod.body.text, 'web-7d4b9c8f6d-x2k9p/web request 499 served\nweb-7d4b9c8f6d-x2k9p/web request 500 served\n');
  assert.ok(kube.requests.some((r) => r.includes('tailLines=2') && r.includes('limitBytes=2048')), kube.requests.join('\n'));
  assert.is((await api('/api/ctrlogs?env=kubernetes&id=../../etc')).status, 400);
  assert.is((await api('/api/ctrlogs?env=docker&id=missing')).status, 404);
});

test('a followed log streams the new lines as they come and ends at the byte cap', async () => {
  const ctl = new AbortController();
  const res = await fetch(`${base}/api/ctrlogs/follow?env=docker&id=sleepy_dog&tail=2`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: ctl.signal });
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/plain/);
  const reader = res.body!.getReader();
  let text = '';
  const readUntil = async (what: string) => waitFor(async () => {
    const { value, done } = await reader.read();
    if (value) text += Buffer.from(value).toString('utf8');
    if (done) throw new Error(`ended before "${what}": ${text.slice(-300)}`);
    return text.includes(what) ? true : undefined;
  }, { what, timeoutMs: 10_000, intervalMs: 1 });
  await readUntil('sleepy_dog line 300\n');
  assert.ok(text.startsWith('sleepy_dog line 299\n'), text.slice(0, 60));
  docker.say('sleepy_dog', 'a new line after the follow began', 2);
  await readUntil('a new line after the follow began\n');
  for (let i = 0; i < 100; i++) docker.say('sleepy_dog', `filler ${i} ${'x'.repeat(40)}`);
  await readUntil('[vigil: the follow ended at 2048 bytes');
  const rest = await reader.read();
  assert.ok(rest.done || !rest.value?.length, 'nothing after the cap');
  ctl.abort();
  const pods = await api('/api/ctrlogs/follow?env=kubernetes&id=shop/web-7d4b9c8f6d-x2k9p');
  assert.is(pods.status, 200, 'the cluster follows too');
});

test('GET /api/pgcontainers offers the PostgreSQL containers with the host port 5432 is published on', async () => {
  const none = await api('/api/pgcontainers');
  assert.is(none.status, 200, none.text);
  assert.equal(none.body.containers, [], 'the example\'s images are ubuntu');
  // A container as `docker run -d -p 55432:5432 postgres:16` lists it (the specification's summary fields).
  docker.containers.set('5e1f0c2a9b7d', {
    summary: {
      Id: '5e1f0c2a9b7d', Names: ['/shop-db'], Image: 'postgres:16', ImageID: 'sha256:1', Command: 'docker-entrypoint.sh postgres', Created: 1764580000,
      State: 'running', Status: 'Up 5 minutes', Ports: [{ IP: '0.0.0.0', PrivatePort: 5432, PublicPort: 55432, Type: 'tcp' }], Labels: {},
    },
    running: true, tty: false, lines: [],
  });
  const res = await api('/api/pgcontainers');
  assert.equal(res.body.containers, [{ env: 'docker', id: '5e1f0c2a9b7d', name: 'shop-db', image: 'postgres:16', running: true, host: '127.0.0.1', port: 55432 }]);
});

test('a daemon with more containers than the bound: the newest 500, said to be cut (a list that large is parsed in the worker)', async () => {
  const labels = Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`com.example.label-${k}`, 'x'.repeat(40)]));
  for (let i = 0; i < 700; i++) {
    const id = `bulk${String(i).padStart(4, '0')}`.padEnd(64, 'a');
    docker.containers.set(id, {
      summary: { Id: id, Names: [`/bulk-${i}`], Image: 'ubuntu:latest', Command: 'sleep infinity', Created: 1764580000 + i, State: 'exited', Status: 'Exit 0', Ports: [], Labels: labels },
      running: false, tty: false, lines: [],
    });
  }
  const res = await api('/api/containers');
  assert.is(res.status, 200, res.text.slice(0, 300));
  const env = res.body.environments.find((e: { kind: string }) => e.kind === 'docker');
  assert.is(env.state, 'ok', env.message);
  assert.is(env.containers, 500);
  assert.is(env.cut, true);
  assert.is(res.body.containers.filter((c: { env: string }) => c.env === 'docker').length, 500);
  assert.ok(docker.requests.some((r) => r.includes('limit=501')), 'the daemon was asked for one more than the bound');
});

test.run();
