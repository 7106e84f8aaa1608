// A cluster over HTTPS as kubeconfigs usually describe one: the server's CA in a file beside the kubeconfig, the user's
// client certificate and key inline (base64), and a server that refuses a client without a certificate of its CA.
// Certificates are made here with the openssl command.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { detectEngines, listAll } from '../../../../plugins/containers/environments.js';
import { fixture } from '../../../support/paths.js';
import { tempDir } from '../../../support/tmp.js';

const work = tempDir('vigil-kube-tls-');
const at = (name: string) => join(work.path, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe', timeout: 30_000 });
let server: Server;
let port = 0;

/** A CA, a server certificate for 127.0.0.1 and a client certificate, all signed by it; and a second, unrelated CA. */
function makeCertificates(): void {
  for (const ca of ['ca', 'other-ca']) {
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${ca}`, '-keyout', at(`${ca}.key`), '-out', at(`${ca}.crt`));
  }
  writeFileSync(at('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  for (const [name, subject, ext] of [['server', '/CN=127.0.0.1', ['-extfile', at('san.ext')]], ['client', '/CN=vigil/O=system:masters', []]] as const) {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', subject, '-keyout', at(`${name}.key`), '-out', at(`${name}.csr`));
    openssl('x509', '-req', '-in', at(`${name}.csr`), '-CA', at('ca.crt'), '-CAkey', at('ca.key'), '-CAcreateserial', '-days', '2', '-out', at(`${name}.crt`), ...ext);
  }
}

const kubeconfig = (file: string, caFile: string) => writeFileSync(at(file), `apiVersion: v1
kind: Config
current-context: tls
clusters:
- name: tls
  cluster: { server: "https://127.0.0.1:${port}", certificate-authority: ${caFile} }
contexts:
- name: tls
  context: { cluster: tls, user: admin }
users:
- name: admin
  user:
    client-certificate-data: ${readFileSync(at('client.crt')).toString('base64')}
    client-key-data: ${readFileSync(at('client.key')).toString('base64')}
`);

test.before(async () => {
  makeCertificates();
  const pods = readFileSync(fixture('containers', 'kube-pods.json'));
  server = createServer({ key: readFileSync(at('server.key')), cert: readFileSync(at('server.crt')), ca: readFileSync(at('ca.crt')), requestCert: true, rejectUnauthorized: true }, (req, res) => {
    if (req.url?.startsWith('/api/v1/pods')) res.writeHead(200, { 'content-type': 'application/json' }).end(pods);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

test.after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  work.cleanup();
});

const places = (kube: string) => ({ docker: [], podman: [], nerdctl: [], lxd: [], incus: [], kubernetes: [kube] });

test('the CA from a file beside the kubeconfig and an inline client certificate: the pods are listed', async () => {
  kubeconfig('good.yaml', 'ca.crt');
  const l = await listAll(await detectEngines(places(at('good.yaml'))), 5000);
  assert.is(l.environments[0].state, 'ok', l.environments[0].message ?? '');
  assert.is(l.pods.length, 3);
  assert.is(l.environments[0].endpoint, `tls (https://127.0.0.1:${port})`);
});

test('a server whose certificate is not of the kubeconfig\'s CA is an error that says so, not a hang', async () => {
  kubeconfig('wrong-ca.yaml', 'other-ca.crt');
  const l = await listAll(await detectEngines(places(at('wrong-ca.yaml'))), 5000);
  assert.is(l.environments[0].state, 'unreachable');
  assert.match(l.environments[0].message!, /certificate/i);
});

test.run();
