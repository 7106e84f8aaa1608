// The containers panel against a real Docker daemon (Debian's dockerd, started by the test with its own socket and
// data; an image made from busybox, nothing pulled): a container writing a line a second is listed running; stop and
// start change its state as the daemon reports it, each audited; its logs come through the Engine API's multiplexed
// stream, demultiplexed (stdout and stderr), and a TTY container's raw stream as it is; a followed log sees new lines;
// a shell through the web terminal runs inside the container (the Engine API's exec, its hijacked stream);
// a running container is removed only with force. The fakes (containers-run.test.ts) cover what cannot run here: a
// cluster and a hung daemon.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from '../support/net.js';
import { startRealDockerd, type RealDockerd } from '../support/real-dockerd.js';
import { openTerminal, sessionCookie } from '../support/terminal-client.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'containers-docker-dashboard-token-1';
const work = tempDir('vigil-ctr-docker-');
let dockerd: RealDockerd;
let vigil: VigilProcess;
let base = '';
let ticker = '';

const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  let body: any;
  try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
  return { status: res.status, text, body };
};
const act = (body: Record<string, unknown>) => api('/api/ctraction', { method: 'POST', body: JSON.stringify(body) });
const listed = async (name: string) => (await api('/api/containers')).body.containers.find((c: { name: string }) => c.name === name);

test.before(async () => {
  dockerd = await startRealDockerd(join(work.path, 'docker'));
  // A line a second on stdout, and every fifth one on stderr too.
  ticker = (await dockerd.cli(['run', '-d', '--network', 'none', '--name', 'ticker', 'mini:1', 'sh', '-c',
    'i=0; while true; do i=$((i+1)); echo "tick $i"; if [ $((i % 5)) -eq 0 ]; then echo "warn $i" >&2; fi; sleep 1; done'])).trim();
  await dockerd.cli(['run', '-d', '-t', '--network', 'none', '--name', 'tty-one', 'mini:1', 'sh', '-c', 'echo "from a tty"; sleep 100000']);
  await dockerd.cli(['create', '--network', 'none', '--name', 'idle', 'mini:1', 'sh', '-c', 'echo never started']);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  vigil = await startVigil(writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
terminal: { enabled: true }
containers:
  sockets: { docker: ${dockerd.socketPath}, podman: ${work.path}/none.sock, lxd: ${work.path}/none.sock, incus: ${work.path}/none.sock }
  kubeconfig: ${work.path}/no-kubeconfig
  nerdctl: ${work.path}/no-nerdctl
  timeout: 5s
  logs: { tail: 50, max_tail: 500, max_bytes: 65536, follow_for: 30s }
`), base, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  await dockerd?.stop();
  try { work.cleanup(); } catch { rmSync(work.path, { recursive: true, force: true }); }
});

test('the daemon\'s containers are listed with their real states and ids', async () => {
  const res = await api('/api/containers');
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.environments.map((e: { kind: string; state: string }) => [e.kind, e.state]), [['docker', 'ok']]);
  const byName = Object.fromEntries(res.body.containers.map((c: { name: string }) => [c.name, c]));
  assert.is(byName.ticker.id, ticker);
  assert.is(byName.ticker.state, 'running');
  assert.is(byName.ticker.image, 'mini:1');
  assert.match(byName.ticker.status, /^Up /);
  assert.is(byName['tty-one'].running, true);
  assert.is(byName.idle.state, 'created');
});

test('logs without a TTY: the multiplexed stream demultiplexed, stdout and stderr lines whole', async () => {
  const res = (await waitFor(async () => {
    const r = await api('/api/ctrlogs?env=docker&id=ticker&tail=20');
    return r.status === 200 && r.body.text.includes('warn 5') ? r : undefined;
  }, { timeoutMs: 20_000, what: 'five ticks' }))!;
  assert.is(res.status, 200, res.text);
  const lines = res.body.text.trim().split('\n');
  for (const line of lines) assert.match(line, /^(tick|warn) \d+$/, `a whole line, no frame header: ${JSON.stringify(line)}`);
  assert.ok(lines.includes('warn 5'), 'stderr is there');
  // The TTY container writes its line once it runs, which `docker run -d` does not wait for: wait for the line.
  const tty = (await waitFor(async () => {
    const r = await api('/api/ctrlogs?env=docker&id=tty-one&tail=5');
    return /^from a tty\r?\n$/.test(r.body?.text ?? '') ? r : undefined;
  }, { timeoutMs: 10_000, intervalMs: 250, what: 'the TTY container\'s line' }))!;
  assert.match(tty.body.text, /^from a tty\r?\n$/);
});

test('a followed log sees the lines written after it began', async () => {
  const ctl = new AbortController();
  const res = await fetch(`${base}/api/ctrlogs/follow?env=docker&id=ticker&tail=1`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: ctl.signal });
  assert.is(res.status, 200);
  const reader = res.body!.getReader();
  let text = '';
  const ticks = () => [...text.matchAll(/^tick (\d+)$/gm)].map((m) => Number(m[1]));
  // The one line of the tail, then the ticks written a second apart after the follow began.
  await waitFor(async () => {
    const { value, done } = await reader.read();
    if (value) text += Buffer.from(value).toString('utf8');
    if (done) throw new Error('the follow ended');
    return ticks().length >= 3 ? true : undefined;
  }, { timeoutMs: 20_000, intervalMs: 1, what: 'three ticks' }).catch((err) => { throw new Error(`${(err as Error).message}; the follow had: ${JSON.stringify(text)}`); });
  ctl.abort();
  const t = ticks();
  assert.is(t[2] - t[0], 2, `consecutive ticks as they came: ${JSON.stringify(text)}`);
  assert.not.match(text, /[\u0000-\u0002]\u0000\u0000\u0000/, 'no frame header in the text');
});

test('stop and start through the panel change the daemon\'s state; both are audited', async () => {
  const stopped = await act({ env: 'docker', id: 'ticker', action: 'stop' });
  assert.is(stopped.status, 200, stopped.text);
  assert.is(stopped.body.container.state, 'exited');
  assert.is((await dockerd.cli(['inspect', '-f', '{{.State.Running}}', 'ticker'])).trim(), 'false');
  const started = await act({ env: 'docker', id: 'idle', action: 'start' });
  assert.is(started.status, 200, started.text);
  assert.is(started.body.container.id.length, 64);
  const again = await act({ env: 'docker', id: 'ticker', action: 'start' });
  assert.is(again.status, 200, again.text);
  assert.is((await listed('ticker')).state, 'running');
  const audit = await waitFor(async () => {
    const a = await api('/api/audit?limit=50');
    const e = a.body.entries.filter((x: { action: string }) => x.action.startsWith('container '));
    return e.length >= 3 ? e : undefined;
  }, { what: 'three audit entries' });
  assert.ok(audit.some((e: { action: string; target: string; detail: string }) => e.action === 'container stop' && e.target === 'docker ticker' && e.detail === 'now exited'));
});

test('remove: a running container is refused without force and the daemon still has it; with force it is gone', async () => {
  const refused = await act({ env: 'docker', id: 'tty-one', action: 'remove' });
  assert.is(refused.status, 409, refused.text);
  assert.is((await dockerd.cli(['inspect', '-f', '{{.State.Running}}', 'tty-one'])).trim(), 'true');
  const removed = await act({ env: 'docker', id: 'tty-one', action: 'remove', force: true });
  assert.is(removed.status, 200, removed.text);
  assert.is(removed.body.container, null);
  assert.is(await listed('tty-one'), undefined);
  assert.not.match(await dockerd.cli(['ps', '-a', '--format', '{{.Names}}']), /tty-one/);
});

test('a shell in the container through the web terminal: the exec\'s hijacked stream, typed into and resized', async () => {
  const cookie = await sessionCookie(base, TOKEN);
  const t = await openTerminal(base, { cookie, query: { source: 'container', target: 'docker:ticker', cols: '90', rows: '20' } });
  t.type('echo "inside $(hostname) $((6 * 7))"\r');
  await t.waitFor(/inside [0-9a-f]{12} 42/, 15_000);
  // The new size reaches the exec by a request of its own to the engine (POST /exec/{id}/resize), beside the typed
  // stream: a `stty size` typed at once can run before it, as in any terminal. Ask again until the TTY has it.
  t.resize(120, 40);
  let sized = false;
  for (let attempt = 0; attempt < 15 && !sized; attempt++) {
    t.type('stty size\r');
    sized = await t.waitFor(/40 120/, 1_000).then(() => true, () => false);
  }
  assert.ok(sized, 'stty size never printed 40 120 after the resize');
  t.type('exit\r');
  const closed = await t.closed;
  assert.is(closed.code, 1000, closed.reason);
  const bad = await openTerminal(base, { cookie, query: { source: 'container', target: 'docker:no-such-container' } });
  const refused = await bad.closed;
  assert.is(refused.code, 1011);
  assert.match(refused.reason, /VIGIL_ERR_TERMINAL_SPAWN: creating the shell: No such container/);
  const malformed = await openTerminal(base, { cookie, query: { source: 'container', target: '../etc' } });
  assert.is((await malformed.closed).code, 1011);
});

test.run();
