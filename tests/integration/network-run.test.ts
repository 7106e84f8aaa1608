// The network plugin in a real `vigil run` on this machine: listeners the test starts (real processes) appear with
// their pid and command line; Stop ends exactly the one asked for; a pid that no longer holds the socket, or whose
// start differs, is refused and nothing is signalled; Vigil's own port has no buttons; a tcpdump capture of loopback
// traffic the test makes ends at its packet count and at its time limit, and the in-place view shows those packets;
// every action is in the audit log with its detail. Captures, firewall rules and kills of other users' processes go
// through the privileged helper (the privilege plugin is on; as root it runs them directly).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort, scaledTimeout, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'network-run-dashboard-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

const work = tempDir('vigil-network-run-');
let vigil: VigilProcess;
let base = '';
let dashboardPort = 0;
const children: ChildProcess[] = [];

interface Port {
  protocol: string; address: string; port: number; inode: number; visible: boolean; user: string; uid: number;
  pid: number | null; pids: number[]; name: string | null; command: string | null; start_ticks: number | null;
  own: string | null; can_signal: boolean; elevated_command: string | null;
}
interface Ports { ports: Port[]; total: number; matched: number; vigil: { pid: number; uid: number } }
interface Capture { name: string; status: string; stop_reason: string | null; packets: number | null; ended_at: string | null; started_at: string }
interface Packets { total: number; packets: { src: string; dst: string; src_port: number; dst_port: number; protocol: string; tcp_flags: string | null; length: number }[] }

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method, headers: { ...bearer, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/**
 * A real listener: `node -e` listening on `port` with `marker` in its command line. Writing `close` to its stdin
 * closes the server but keeps the process (a pid that no longer holds its socket).
 */
async function listener(port: number, marker: string, host = '127.0.0.1', uid?: number): Promise<ChildProcess> {
  const script = `const s=require('net').createServer(()=>{}).listen(${port},${JSON.stringify(host)},()=>console.log('ready'));` +
    `process.stdin.on('data',(d)=>{if(String(d).includes('close'))s.close(()=>console.log('closed'))});setInterval(()=>{},1000)`;
  const child = spawn(process.execPath, ['-e', script, marker], { stdio: ['pipe', 'pipe', 'inherit'], ...(uid === undefined ? {} : { uid, gid: uid }) });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  await waitFor(() => out.includes('ready'), { what: `listener ${marker}` });
  (child as ChildProcess & { output: () => string }).output = () => out;
  return child;
}
const output = (c: ChildProcess) => (c as ChildProcess & { output: () => string }).output();
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const exited = (c: ChildProcess) => new Promise<NodeJS.Signals | null>((resolve) => {
  if (c.exitCode !== null || c.signalCode !== null) resolve(c.signalCode);
  else c.once('exit', (_code, signal) => resolve(signal));
});

async function row(port: number): Promise<Port | undefined> {
  const { body } = await call<Ports>('GET', `/api/net?q=${port}`);
  return body.ports.find((p) => p.port === port && p.protocol === 'tcp');
}

/** `n` TCP connections to `port` on loopback, each opened and closed. */
async function connectTimes(port: number, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await new Promise<void>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => { s.end(); });
      s.on('close', () => resolve());
      s.on('error', reject);
    });
  }
}

async function captureDone(name: string): Promise<Capture> {
  const done = await waitFor(async () => {
    const { body } = await call<Capture>('GET', `/api/capture?name=${encodeURIComponent(name)}`);
    return body.status === 'done' ? body : undefined;
  }, { timeoutMs: 20_000, what: `capture ${name} to end` });
  return done!;
}

test.before(async () => {
  dashboardPort = await freePort();
  base = `http://127.0.0.1:${dashboardPort}`;
  const config = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${dashboardPort}, token: ${TOKEN} }
privilege: {}
network: { captures: { max_packets: 5000, max_seconds: 30, keep: 10 } }
`);
  vigil = await startVigil(config, base);
});

test.after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await vigil?.stop();
  work.cleanup();
});

test('a listener the test starts is listed with its pid, command line and user, loopback-only', async () => {
  const port = await freePort();
  const child = await listener(port, 'vigil-net-listed-marker');
  const r = await row(port);
  assert.ok(r, `port ${port} is listed`);
  assert.is(r!.pid, child.pid);
  assert.equal(r!.pids, [child.pid]);
  assert.match(r!.command ?? '', /vigil-net-listed-marker/);
  assert.is(r!.name, 'node');
  assert.is(r!.address, '127.0.0.1');
  assert.is(r!.visible, false);
  assert.is(r!.uid, process.getuid!());
  assert.is(r!.own, null);
  assert.is(r!.can_signal, true);
  assert.is(r!.elevated_command, null);
  // The network-visible toggle leaves a loopback listener out; the filter by command finds it.
  const visible = await call<Ports>('GET', `/api/net?visible=1&q=${port}`);
  assert.is(visible.body.ports.length, 0);
  const byCommand = await call<Ports>('GET', '/api/net?q=vigil-net-listed-marker');
  assert.equal(byCommand.body.ports.map((p) => p.port), [port]);
});

test('a listener on every address is network-visible', async () => {
  const port = await freePort();
  await listener(port, 'vigil-net-wildcard', '0.0.0.0');
  const { body } = await call<Ports>('GET', `/api/net?visible=1&q=${port}`);
  assert.is(body.ports.length, 1);
  assert.is(body.ports[0].address, '0.0.0.0');
  assert.is(body.ports[0].visible, true);
});

test('the security overview sees the same reachable listener and the firewall through the hostNetwork service', async () => {
  const port = await freePort();
  await listener(port, 'vigil-net-security', '0.0.0.0');
  const { status, body } = await call<{ reachable_ports: { port: number; address: string; process: string | null }[] | null; firewall: { tool: string; active: boolean } | null; unchecked: string[] }>('GET', '/api/security');
  assert.is(status, 200);
  assert.ok(body.reachable_ports?.some((p) => p.port === port && p.address === '0.0.0.0' && p.process === 'node'), 'the listener is reachable');
  assert.not.ok(body.reachable_ports?.some((p) => p.port === dashboardPort), 'the loopback-only dashboard is not');
  assert.not.ok(body.unchecked.some((u) => /reachable ports/.test(u)), 'exposure is checked');
  const fw = await call<{ verdict: string; tool: string | null }>('GET', '/api/firewall');
  assert.equal(body.firewall, fw.body.tool === null ? null : { tool: fw.body.tool, active: fw.body.verdict === 'on' });
});

test('Stop ends exactly the process shown, and no other', async () => {
  const [pa, pb] = [await freePort(), await freePort()];
  const a = await listener(pa, 'vigil-net-stop-a');
  const b = await listener(pb, 'vigil-net-stop-b');
  const ra = (await row(pa))!;
  const ended = exited(a);
  const { status, body } = await call<{ pid: number; port: number; signal: string; exited: boolean; via: string }>('POST', '/api/killport', { pid: ra.pid, inode: ra.inode, start_ticks: ra.start_ticks });
  assert.is(status, 200, JSON.stringify(body));
  assert.is(body.pid, a.pid);
  assert.is(body.port, pa);
  assert.is(body.signal, 'SIGTERM');
  assert.is(body.via, 'direct');
  assert.is(await ended, 'SIGTERM', 'the listener ended by SIGTERM');
  assert.ok(alive(b.pid!), 'the other listener is untouched');
  assert.ok(await row(pb), 'and still listed');
  await waitFor(async () => (await row(pa)) === undefined, { what: `port ${pa} to be gone from the list` });
});

test('another user\'s listener is stopped through the privileged helper\'s kill verb, which checks the start time again', async () => {
  const port = await freePort();
  const child = await listener(port, 'vigil-net-other-user', '127.0.0.1', 65534);
  const r = (await row(port))!;
  assert.equal([r.user, r.pid, r.can_signal], ['nobody', child.pid, true], 'Vigil is root: it may, through the helper');
  const ended = exited(child);
  const { status, body } = await call<{ exited: boolean; via: string }>('POST', '/api/killport', { pid: r.pid, inode: r.inode, start_ticks: r.start_ticks });
  assert.is(status, 200, JSON.stringify(body));
  assert.is(await ended, 'SIGTERM');
  const audit = await call<{ entries: { action: string; target: string; status: number }[] }>('GET', '/api/audit?action=host%20kill&limit=10');
  assert.ok(audit.body.entries.some((e) => e.target === `${child.pid} TERM ${r.start_ticks}` && e.status === 200), JSON.stringify(audit.body.entries));
});

test('Force sends SIGKILL', async () => {
  const port = await freePort();
  const child = await listener(port, 'vigil-net-force');
  const r = (await row(port))!;
  const ended = exited(child);
  const { status, body } = await call<{ signal: string; exited: boolean }>('POST', '/api/killport', { pid: r.pid, inode: r.inode, start_ticks: r.start_ticks, force: true });
  assert.is(status, 200);
  assert.is(body.signal, 'SIGKILL');
  assert.is(await ended, 'SIGKILL');
});

test('a pid that no longer holds the socket is refused, and nothing is signalled', async () => {
  const [pc, pd] = [await freePort(), await freePort()];
  const c = await listener(pc, 'vigil-net-moved-c');
  const d = await listener(pd, 'vigil-net-moved-d');
  const rc = (await row(pc))!;
  const rd = (await row(pd))!;
  // D's socket, still listening, named with C's pid (C holds no such socket).
  const swapped = await call<{ error: { code: string; message: string } }>('POST', '/api/killport', { pid: rc.pid, inode: rd.inode });
  assert.is(swapped.status, 409);
  assert.is(swapped.body.error.code, 'VIGIL_ERR_NETWORK_SOCKET_MOVED');
  assert.match(swapped.body.error.message, /no longer holds/);
  // The pid with another start time: the process listed is not the one this pid names now (a reused pid).
  const reused = await call<{ error: { code: string; message: string } }>('POST', '/api/killport', { pid: rc.pid, inode: rc.inode, start_ticks: rc.start_ticks! + 1 });
  assert.is(reused.status, 409);
  assert.is(reused.body.error.code, 'VIGIL_ERR_NETWORK_SOCKET_MOVED');
  assert.match(reused.body.error.message, /reused/);
  // C closes its server but lives on: its pid and the old inode are refused.
  c.stdin!.write('close\n');
  await waitFor(() => output(c).includes('closed'), { what: 'the listener to close its server' });
  const closed = await call<{ error: { code: string } }>('POST', '/api/killport', { pid: rc.pid, inode: rc.inode, start_ticks: rc.start_ticks });
  assert.is(closed.status, 409);
  assert.is(closed.body.error.code, 'VIGIL_ERR_NETWORK_SOCKET_MOVED');
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(alive(c.pid!) && alive(d.pid!), 'neither process was signalled');
  // An exited process is refused with its own code.
  d.kill('SIGKILL');
  await exited(d);
  const gone = await call<{ error: { code: string } }>('POST', '/api/killport', { pid: rd.pid, inode: rd.inode, start_ticks: rd.start_ticks });
  assert.is(gone.status, 409);
  assert.is(gone.body.error.code, 'VIGIL_ERR_NETWORK_PROCESS_GONE');
});

test('the dashboard\'s own port is labelled, has no buttons, and is refused', async () => {
  const r = await row(dashboardPort);
  assert.ok(r, 'the control plane\'s port is listed');
  assert.is(r!.own, 'Vigil: this dashboard');
  assert.is(r!.can_signal, false);
  assert.is(r!.elevated_command, null);
  assert.is(r!.pid, vigil.proc.pid);
  const refused = await call<{ error: { code: string } }>('POST', '/api/killport', { pid: r!.pid, inode: r!.inode, start_ticks: r!.start_ticks });
  assert.is(refused.status, 403);
  assert.is(refused.body.error.code, 'VIGIL_ERR_NETWORK_OWN_SOCKET');
  assert.is((await fetch(`${base}/api/health`)).status, 200, 'Vigil still runs');
});

test('killport: bad input gets a clear 400', async () => {
  for (const body of [{}, { pid: 'x', inode: 1 }, { pid: 1, inode: 1, signal: 'HUP' }, { pid: -4, inode: 1 }]) {
    const { status } = await call('POST', '/api/killport', body);
    assert.is(status, 400, JSON.stringify(body));
  }
});

test('a capture of loopback traffic ends at its packet count, and the in-place view shows those packets', async () => {
  const port = await freePort();
  await listener(port, 'vigil-net-capture-count');
  const started = await call<Capture>('POST', '/api/capture', { interface: 'lo', packets: 6, seconds: 25, filter: `tcp port ${port}` });
  assert.is(started.status, 200, JSON.stringify(started.body));
  assert.is(started.body.status, 'running');
  // tcpdump needs a moment to open the interface; connections go on until the capture has its packets.
  await waitFor(async () => {
    await connectTimes(port, 1);
    const { body } = await call<Capture>('GET', `/api/capture?name=${started.body.name}`);
    return body.status === 'done';
  }, { timeoutMs: 20_000, intervalMs: 200, what: 'the capture to reach 6 packets' });
  const done = await captureDone(started.body.name);
  assert.is(done.stop_reason, 'packets');
  assert.is(done.packets, 6);
  const view = await call<Packets>('GET', `/api/capturepackets?name=${done.name}`);
  assert.is(view.status, 200);
  assert.is(view.body.total, 6);
  assert.is(view.body.packets.length, 6);
  for (const p of view.body.packets) {
    assert.is(p.protocol, 'TCP');
    assert.ok(p.src_port === port || p.dst_port === port, `packet ${JSON.stringify(p)} is to or from ${port}`);
    assert.is(p.src, '127.0.0.1');
  }
  assert.ok(view.body.packets.some((p) => p.tcp_flags === 'SYN'), 'a handshake opens it');
  // The download is the pcap itself.
  const file = await fetch(`${base}/api/capturefile?name=${done.name}`, { headers: bearer });
  assert.is(file.status, 200);
  const bytes = Buffer.from(await file.arrayBuffer());
  assert.is(bytes.readUInt32LE(0), 0xa1b2c3d4, 'pcap magic');
});

test('a capture ends at its time limit when the packets are fewer, with what it saw', async () => {
  const port = await freePort();
  await listener(port, 'vigil-net-capture-time');
  const t0 = Date.now();
  const started = await call<Capture>('POST', '/api/capture', { interface: 'lo', packets: 5000, seconds: 3, filter: `tcp port ${port}` });
  assert.is(started.status, 200, JSON.stringify(started.body));
  // One at a time.
  const second = await call<{ error: { code: string } }>('POST', '/api/capture', { interface: 'lo', packets: 5, seconds: 3 });
  assert.is(second.status, 409);
  assert.is(second.body.error.code, 'VIGIL_ERR_NETWORK_CAPTURE_RUNNING');
  await new Promise((r) => setTimeout(r, 1000));
  await connectTimes(port, 2);
  const done = await captureDone(started.body.name);
  assert.is(done.stop_reason, 'time');
  assert.ok(Date.now() - t0 >= 3000, 'not before its time limit');
  assert.ok(Date.now() - t0 < scaledTimeout(15_000), 'ended soon after its time limit');
  assert.ok(done.packets! > 0 && done.packets! < 5000, `${done.packets} packets`);
  const view = await call<Packets>('GET', `/api/capturepackets?name=${done.name}&limit=500`);
  assert.is(view.body.total, done.packets);
  assert.ok(view.body.packets.every((p) => p.src_port === port || p.dst_port === port));
});

test('captures: bad input is refused, the list and delete work, and every action is in the audit log', async () => {
  const bad = [
    { interface: 'lo', packets: 5, seconds: 2, filter: 'tcp; rm -rf /' },
    { interface: 'no-such-if0', packets: 5, seconds: 2 },
    { interface: 'lo', packets: 50_000, seconds: 2 },
    { interface: '-w/etc/x', packets: 5, seconds: 2 },
  ];
  for (const body of bad) {
    const { status, body: answer } = await call<{ error: { code: string } }>('POST', '/api/capture', body);
    assert.is(status, 400, JSON.stringify(body));
    assert.is(answer.error.code, 'VIGIL_ERR_NETWORK_CAPTURE_INPUT');
  }
  for (const name of ['../../etc/passwd', 'capture-x.pcap', '/etc/shadow']) {
    const view = await call('GET', `/api/capturepackets?name=${encodeURIComponent(name)}`);
    assert.is(view.status, 404, name);
    const del = await call('POST', '/api/capturedelete', { name });
    assert.is(del.status, 404, name);
  }
  const list = await call<{ captures: Capture[] }>('GET', '/api/captures');
  assert.is(list.body.captures.length, 2);
  const gone = list.body.captures[0].name;
  const del = await call<{ deleted: string }>('POST', '/api/capturedelete', { name: gone });
  assert.is(del.status, 200);
  assert.equal((await call<{ captures: Capture[] }>('GET', '/api/captures')).body.captures.map((c) => c.name), [list.body.captures[1].name]);

  const audit = await call<{ entries: { action: string; status: number; detail: string | null }[] }>('GET', '/api/audit?limit=200');
  const entries = audit.body.entries;
  assert.ok(entries.some((e) => e.action === 'POST /api/killport' && e.status === 200 && /SIGTERM pid \d+ on port \d+ via direct: ended/.test(e.detail ?? '')), 'the Stop');
  assert.ok(entries.some((e) => e.action === 'POST /api/killport' && e.status === 409), 'a refused Stop');
  assert.ok(entries.some((e) => e.action === 'POST /api/killport' && e.status === 403), 'the refused own port');
  assert.ok(entries.some((e) => e.action === 'POST /api/capture' && e.status === 200 && /capture on lo: 6 packets/.test(e.detail ?? '')), 'a capture');
  assert.ok(entries.some((e) => e.action === 'POST /api/capturedelete' && e.detail === `delete capture ${gone}`), 'the delete');
  // The captures ran through the privileged helper (the privilege plugin is on), which audits each run itself.
  assert.ok(entries.some((e) => e.action === 'host tcpdump-capture' && e.status === 200), 'the helper\'s capture runs');
});

test('connections: the test\'s own connection with its process; grouped by state; filter', async () => {
  const port = await freePort();
  const server = await listener(port, 'vigil-net-conn-server');
  const sock = connect(port, '127.0.0.1');
  await new Promise((r) => sock.once('connect', r));
  try {
    const { status, body } = await call<{
      connections: { local_port: number; remote_port: number; state: string; pid: number | null }[]; states: { state: string; count: number }[];
      busiest: { address: string; connections: number }[]; matched: number;
    }>('GET', `/api/connections?q=${port}&resolve=1`);
    assert.is(status, 200);
    const mine = body.connections.find((c) => c.remote_port === port && c.local_port === sock.localPort);
    assert.ok(mine, 'the test\'s connection');
    assert.is(mine!.pid, process.pid);
    assert.is(mine!.state, 'ESTABLISHED');
    assert.ok(body.states.some((s) => s.state === 'ESTABLISHED' && s.count >= 1));
    assert.is(body.busiest[0]?.address, '127.0.0.1');
    const tw = await call<{ connections: { state: string }[] }>('GET', '/api/connections?state=ESTABLISHED&limit=50');
    assert.ok(tw.body.connections.every((c) => c.state === 'ESTABLISHED'));
  } finally {
    sock.destroy();
    server.kill('SIGKILL');
  }
});

test('netio: every interface of /proc/net/dev, with rates; firewall state is read and said', async () => {
  const { body } = await call<{ interfaces: { name: string; rx_bps: number | null; rx_errors: number }[]; interval_ms: number }>('GET', '/api/netio');
  const { readFileSync } = await import('node:fs');
  const names = readFileSync('/proc/net/dev', 'utf8').split('\n').slice(2).map((l) => l.split(':')[0].trim()).filter(Boolean);
  assert.equal(body.interfaces.map((i) => i.name).sort(), names.sort());
  assert.ok(body.interval_ms >= 500);
  assert.ok(body.interfaces.every((i) => i.rx_bps === null || i.rx_bps >= 0));
  const fw = await call<{ verdict: string; tools: { installed: boolean; tool: string }[]; message: string }>('GET', '/api/firewall');
  assert.is(fw.status, 200);
  const installed = fw.body.tools.filter((t) => t.installed);
  if (installed.length === 0) assert.is(fw.body.verdict, 'none');
  else assert.ok(fw.body.verdict === 'on' || /installed but not enabled|service is/.test(fw.body.message), fw.body.message);
  const rules = await call<{ command: string; output: string; error?: { code: string } }>('POST', '/api/firewallrules', {});
  if (installed.length === 0) assert.is(rules.status, 503);
  else {
    assert.is(rules.status, 200, JSON.stringify(rules.body));
    assert.match(rules.body.command, /^(ufw|firewall-cmd|nft) /);
  }
});

test.run();
