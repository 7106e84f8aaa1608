// Each engine's answer, as its API or command gives it, turned into the panel's rows.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { dockerRows, portText } from '../../../../plugins/containers/docker-engine.js';
import { podRef, podRows } from '../../../../plugins/containers/kube-engine.js';
import { lxdRows } from '../../../../plugins/containers/lxd-engine.js';
import { nerdctlRows } from '../../../../plugins/containers/nerdctl-engine.js';
import { parseList } from '../../../../plugins/containers/list-parse.js';
import { publishedPostgres } from '../../../../plugins/containers/routes.js';
import { fixture } from '../../../support/paths.js';

test('Docker: the specification\'s example list, names without their slash, states lower case, ports as docker ps prints them', () => {
  const rows = dockerRows('docker', JSON.parse(readFileSync(fixture('containers', 'docker-containers.json'), 'utf8')));
  assert.is(rows.length, 4);
  assert.equal(rows[0], {
    env: 'docker', id: '8dfafdbc3a40', name: 'boring_feynman', image: 'ubuntu:latest', state: 'exited', status: 'Exit 0',
    created: 1367854155, ports: ['3333->2222/tcp'], running: false,
  });
  assert.equal(rows.map((r) => r.name), ['boring_feynman', 'coolName', 'sleepy_dog', 'running_cat']);
  assert.is(portText({ IP: '0.0.0.0', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' }), '0.0.0.0:8080->80/tcp');
  assert.is(portText({ PrivatePort: 53, Type: 'udp' }), '53/udp');
});

test('Docker: one port published on IPv4 and IPv6 with the same text is listed once; a nameless container gets its short id', () => {
  const [row] = dockerRows('podman', [{ Id: 'abcdef0123456789', State: 'running', Ports: [{ PrivatePort: 80, PublicPort: 8080, Type: 'tcp' }, { PrivatePort: 80, PublicPort: 8080, Type: 'tcp' }] }]);
  assert.equal(row.ports, ['8080->80/tcp']);
  assert.is(row.name, 'abcdef012345');
  assert.is(row.running, true);
  assert.is(row.env, 'podman');
});

test('Kubernetes: ready counts, restarts summed over containers, node and phase; a pending pod has no node', () => {
  const pods = podRows(JSON.parse(readFileSync(fixture('containers', 'kube-pods.json'), 'utf8')).items);
  assert.equal(pods.map((p) => [p.namespace, p.name, `${p.ready}/${p.total}`, p.restarts, p.node, p.phase]), [
    ['shop', 'web-7d4b9c8f6d-x2k9p', '1/2', 7, 'node-a', 'Running'],
    ['kube-system', 'coredns-76f75df574-8cq2w', '1/1', 1, 'node-a', 'Running'],
    ['shop', 'migrate-28893120-q7zrl', '0/1', 0, null, 'Pending'],
  ]);
  assert.is(pods[0].created, Date.parse('2026-12-01T09:14:03Z') / 1000);
  assert.equal(pods[0].containers, ['web', 'log-shipper']);
});

test('Kubernetes: a pod is namespace/name with DNS names only; anything else is refused before a request', () => {
  assert.equal(podRef('shop/web-1'), { namespace: 'shop', name: 'web-1' });
  for (const bad of ['web', 'shop/', '/web', 'shop/web/x', '../etc/passwd', 'Shop/Web', 'shop/web?x=1']) {
    assert.throws(() => podRef(bad), /namespace\/pod/, bad);
  }
});

test('nerdctl: one JSON object per line; the state from the status line when the field is missing', () => {
  const out = [
    '{"Command":"\\"nginx -g \'daemon off;\'\\"","CreatedAt":"2026-12-01 09:14:03 +0000 UTC","ID":"1f2e3d4c5b6a","Image":"docker.io/library/nginx:1.27","Names":"web","Ports":"0.0.0.0:8080->80/tcp","Status":"Up 2 hours"}',
    '{"ID":"aa11bb22cc33","Image":"docker.io/library/alpine:3","Names":"job","Status":"Exited (0) 3 hours ago"}',
    '',
  ].join('\n');
  const rows = nerdctlRows(out);
  assert.equal(rows.map((r) => [r.name, r.state, r.running, r.ports]), [['web', 'running', true, ['0.0.0.0:8080->80/tcp']], ['job', 'exited', false, []]]);
  assert.is(rows[0].created, Date.parse('2026-12-01T09:14:03Z') / 1000);
  // The engine hands its output to the list parser (a worker past 256 KiB), which reads the same rows.
  assert.equal(parseList('nerdctl', Buffer.from(out)).containers, rows);
  const many = Array.from({ length: 3000 }, (_, i) => `{"ID":"c${i}","Names":"n${i}","Status":"Up 1 hour"}`).join('\n');
  assert.is(parseList('nerdctl', Buffer.from(many)).containers.length, 3000);
});

test('LXD and Incus: instances with their status, the image\'s OS and release, virtual machines marked', () => {
  const rows = lxdRows('incus', [
    { name: 'build', status: 'Running', type: 'container', created_at: '2026-11-30T08:00:00Z', config: { 'image.os': 'Debian', 'image.release': 'bookworm' } },
    { name: 'win', status: 'Stopped', type: 'virtual-machine', created_at: '0001-01-01T00:00:00Z', config: {} },
  ]);
  assert.equal(rows.map((r) => [r.name, r.state, r.status, r.image, r.running]), [
    ['build', 'running', 'Running', 'Debian bookworm', true],
    ['win', 'stopped', 'Stopped (VM)', '', false],
  ]);
  assert.is(rows[1].created, null);
});

test('PostgreSQL containers: the host port 5432 is published on, 0.0.0.0 read as loopback', () => {
  const row = (ports: string[]) => ({ env: 'docker' as const, id: 'x', name: 'db', image: 'postgres:16', state: 'running', status: '', created: null, ports, running: true });
  assert.equal(publishedPostgres(row(['0.0.0.0:55432->5432/tcp'])), { host: '127.0.0.1', port: 55432 });
  assert.equal(publishedPostgres(row(['10.0.0.5:5433->5432/tcp'])), { host: '10.0.0.5', port: 5433 });
  assert.equal(publishedPostgres(row(['5432/tcp'])), { host: null, port: null });
});

test.run();
