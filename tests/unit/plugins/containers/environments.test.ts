// The listing across environments over real sockets: the fake Docker API, a daemon that never answers, a missing
// socket and the fake cluster, each reported on its own, the hung one within its time limit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { detectEngines, listAll, placesOf } from '../../../../plugins/containers/environments.js';
import { readKubeConfig, KubeConfigError } from '../../../../plugins/containers/kube-config.js';
import { startFakeDocker, startFakeKube, startHungSocket, type FakeDocker, type FakeKube } from '../../../support/fake-container-engines.js';
import { tempDir } from '../../../support/tmp.js';
import { writeFileSync } from 'node:fs';

const work = tempDir('vigil-containers-env-');
let docker: FakeDocker;
let hung: Awaited<ReturnType<typeof startHungSocket>>;
let kube: FakeKube;

test.before(async () => {
  docker = await startFakeDocker(join(work.path, 'docker.sock'));
  hung = await startHungSocket(join(work.path, 'podman.sock'));
  kube = await startFakeKube(join(work.path, 'kubeconfig'));
});

test.after(async () => {
  await docker.close();
  await hung.close();
  await kube.close();
  work.cleanup();
});

const places = () => placesOf({
  sockets: { docker: docker.socketPath, podman: hung.socketPath, lxd: join(work.path, 'no-lxd.sock'), incus: join(work.path, 'no-incus.sock') },
  kubeconfig: kube.kubeconfig, nerdctl: join(work.path, 'no-nerdctl'), timeout: '1s', action_timeout: '5s', logs: { tail: 10, max_tail: 100, max_bytes: 4096, follow_for: '5s' },
}, { PATH: '' }, (p) => p);

test('found: the sockets and the kubeconfig that exist; not the missing LXD, Incus and nerdctl', async () => {
  const engines = await detectEngines(places());
  assert.equal(engines.map((e) => [e.kind, e.endpoint]), [['docker', docker.socketPath], ['podman', hung.socketPath], ['kubernetes', kube.kubeconfig]]);
});

test('a hung daemon is reported as unreachable within its limit while Docker and the cluster answer', async () => {
  const engines = await detectEngines(places());
  const l = await listAll(engines, 400);
  const byKind = Object.fromEntries(l.environments.map((e) => [e.kind, e]));
  assert.is(byKind.docker.state, 'ok');
  assert.is(byKind.docker.containers, 4);
  assert.is(byKind.kubernetes.state, 'ok');
  assert.is(byKind.kubernetes.pods, 3);
  assert.match(byKind.kubernetes.endpoint, /^fake \(http:\/\/127\.0\.0\.1:\d+\)$/);
  assert.is(byKind.podman.state, 'unreachable');
  assert.is(byKind.podman.message, 'no answer in 400 ms');
  assert.ok(hung.accepted() >= 1, 'the hung daemon was asked');
  assert.is(l.containers.length, 4);
  assert.is(l.pods.length, 3);
});

test('a socket nobody listens on is unreachable at once, with the reason', async () => {
  const gone = join(work.path, 'gone.sock');
  writeFileSync(gone, '');
  const engines = await detectEngines({ ...places(), docker: [gone], podman: [], kubernetes: [] });
  const l = await listAll(engines, 2000);
  assert.is(l.environments[0].state, 'unreachable');
  assert.match(l.environments[0].message!, /refused|socket/);
});

test('a kubeconfig whose user runs a credential program is reported as such, not run', async () => {
  const file = join(work.path, 'exec-kubeconfig');
  writeFileSync(file, `apiVersion: v1
current-context: c
clusters: [{ name: k, cluster: { server: "https://127.0.0.1:1" } }]
contexts: [{ name: c, context: { cluster: k, user: u } }]
users: [{ name: u, user: { exec: { command: aws, args: [eks, get-token] } } }]
`);
  await readKubeConfig(file).then(() => assert.unreachable('should refuse'), (err) => {
    assert.instance(err, KubeConfigError);
    assert.match(err.message, /plugin program/);
  });
  const l = await listAll(await detectEngines({ ...places(), docker: [], podman: [], kubernetes: [file] }), 1000);
  assert.is(l.environments[0].state, 'error');
});

test.run();
