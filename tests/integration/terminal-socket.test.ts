// plugins/terminal through a real `vigil run` and a real websocket client: the handshake's checks, the shell's
// round trip, resize, flow control against a reader that does not keep up, the end of every process of the session
// when the socket closes, the input bound and the idle timeout.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, waitFor } from '../support/net.js';
import { handshakeStatus, openTerminal, sessionCookie, type TerminalClient } from '../support/terminal-client.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'terminal-token-0123456789abcdef';

interface Running { base: string; vigil: VigilProcess; cookie: string; stop(): Promise<void> }

async function start(section: string): Promise<Running> {
  const dir = tempDir('vigil-terminal-');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const file = writeConfig(dir.path, `data_dir: ${join(dir.path, 'data')}
log: { level: info }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
ui: {}
${section}
`);
  // A home of its own: the login shells read no dotfiles of the machine's user (slow, and a shell ended in the middle
  // of one can leave a lock behind, such as pyenv's rehash lock).
  const vigil = await startVigil(file, base, { env: { HOME: dir.path } });
  const cookie = await sessionCookie(base, TOKEN);
  return { base, vigil, cookie, async stop() { await vigil.stop(); dir.cleanup(); } };
}

/** Resident memory of a process, in bytes. */
const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const alive = (pid: number): boolean => {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  // A zombie waiting for its parent is gone for this purpose.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
};

const on = suite<{ r: Running }>('terminal on');
on.before(async (ctx) => { ctx.r = await start('terminal: { enabled: true, idle_timeout: 10m }'); });
on.after(async (ctx) => { await ctx.r?.stop(); });

on('the handshake is refused without the page\'s Origin or without a session', async ({ r }) => {
  assert.is(await handshakeStatus(r.base, { cookie: r.cookie, origin: 'http://evil.example' }), 403, 'a foreign Origin');
  assert.is(await handshakeStatus(r.base, { cookie: r.cookie, origin: null }), 403, 'no Origin');
  assert.is(await handshakeStatus(r.base, {}), 401, 'no session');
  assert.is(await handshakeStatus(r.base, { cookie: 'vigil_session=forged-value' }), 401, 'a forged session');
  assert.is(await handshakeStatus(r.base, { cookie: r.cookie }), 101, 'the page with its session');
});

on('keystrokes reach the shell and its output comes back; the open is in the log', async ({ r }) => {
  const t = await openTerminal(r.base, { cookie: r.cookie });
  try {
    t.type('echo "round-$((6 * 7))-trip"\r');
    await t.waitFor(/round-42-trip/);
    t.type('echo "TERM=$TERM"\r');
    await t.waitFor(/TERM=xterm-256color\r?\n/);
  } finally { t.ws.close(); }
  await waitFor(() => /terminal opened/.test(r.vigil.stdout() + r.vigil.stderr()), { what: 'the audit line' });
  const line = (r.vigil.stdout() + r.vigil.stderr()).split('\n').find((l) => l.includes('terminal opened'))!;
  assert.match(line, /dashboard session:/, 'the audit line names the session');
  assert.match(line, /terminal\.open/);
});

on('a resize changes what `stty size` reports', async ({ r }) => {
  const t = await openTerminal(r.base, { cookie: r.cookie, query: { cols: '100', rows: '30' } });
  try {
    t.type('stty size\r');
    await t.waitFor(/[\r\n]30 100\r?\n/);
    t.resize(123, 45);
    const from = t.mark();
    t.type('stty size\r');
    await t.waitFor(/[\r\n]45 123\r?\n/, 10_000, from);
  } finally { t.ws.close(); }
});

on('the folder and first command of the query are used; a missing folder is refused', async ({ r }) => {
  const cmd = Buffer.from('echo "cmd-$((2 + 3))"; pwd').toString('base64');
  const t = await openTerminal(r.base, { cookie: r.cookie, query: { cwd: '/tmp', cmd } });
  try {
    await t.waitFor(/cmd-5\r?\n\/tmp\r?\n/);
  } finally { t.ws.close(); }
  const bad = await openTerminal(r.base, { cookie: r.cookie, query: { cwd: '/no/such/folder' } });
  const closed = await bad.closed;
  assert.is(closed.code, 4001);
  assert.match(closed.reason, /VIGIL_ERR_TERMINAL_FOLDER: folder \/no\/such\/folder does not exist/);
  const file = await openTerminal(r.base, { cookie: r.cookie, query: { cwd: '/etc/hostname' } });
  assert.is((await file.closed).code, 4001, 'a file is not a folder');
});

on('closing the socket ends every process of the session, also one that ignores SIGHUP', async ({ r }) => {
  const t = await openTerminal(r.base, { cookie: r.cookie });
  t.type('echo "SH=$$"; sleep 1000 & echo "BG=$!"; nohup sleep 1001 >/dev/null 2>&1 & echo "NOHUP=$!"\r');
  const m = await t.waitFor(/SH=(\d+)[\s\S]*BG=(\d+)[\s\S]*NOHUP=(\d+)/);
  const pids = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (const pid of pids) assert.ok(alive(pid), `${pid} runs before the close`);
  t.ws.close();
  // SIGHUP at once; SIGKILL after the 2 s grace for the one that ignores it.
  await waitFor(() => pids.every((pid) => !alive(pid)), { timeoutMs: 6_000, what: `${pids.join(', ')} to end` });
});

on('a message over 64 KiB closes the socket with 1009; a malformed one with 1008', async ({ r }) => {
  const big = await openTerminal(r.base, { cookie: r.cookie });
  big.send(`i${'x'.repeat(70 * 1024)}`);
  assert.is((await big.closed).code, 1009);
  const odd = await openTerminal(r.base, { cookie: r.cookie });
  odd.send('xhello');
  const closed = await odd.closed;
  assert.is(closed.code, 1008);
  assert.match(closed.reason, /VIGIL_ERR_TERMINAL_FRAME/);
  const ok = await openTerminal(r.base, { cookie: r.cookie });
  ok.type(`${'#'.repeat(60 * 1024)}\r`);
  ok.type('echo "still-$((1 + 1))"\r');
  await ok.waitFor(/still-2/);
  ok.ws.close();
});

on('50 MB of output through a reader that stops acknowledging stays bounded in the server', async ({ r }) => {
  const pid = r.vigil.proc.pid!;
  const t: TerminalClient = await openTerminal(r.base, { cookie: r.cookie, autoAck: false });
  try {
    t.type('stty -echo; yes | head -c 50000000; echo; echo "END-$((40 + 2))"\r');
    await sleep(300);
    const before = rssOf(pid);
    // Not acknowledging: the server must stop at the high-water mark (100,000 bytes) plus one read in flight.
    await sleep(2_000);
    const stalled = t.received();
    await sleep(1_000);
    assert.ok(stalled < 100_000 + 200_000, `${stalled} bytes sent without acknowledgement`);
    assert.is(t.received(), stalled, 'nothing more is sent while nothing is acknowledged');
    // A slow reader: acknowledges each frame a little later. The output flows again, in steps of the window, and the
    // server's memory stays flat; on a busy machine the 75 MB may take longer than the test waits, which is fine.
    let peak = rssOf(pid);
    t.ws.on('message', (data: Buffer) => { setTimeout(() => t.ack(data.length), 1); });
    t.ack(stalled);
    const sampler = setInterval(() => { peak = Math.max(peak, rssOf(pid)); }, 100);
    const started = Date.now();
    let finished = false;
    try {
      finished = await t.waitFor(/END-42/, 20_000).then(() => true, () => false);
    } finally { clearInterval(sampler); }
    const through = t.received() - stalled;
    // "y\n" becomes "y\r\n" on the pty: 75,000,000 bytes in all.
    if (finished) assert.ok(t.received() >= 75_000_000, `${t.received()} bytes arrived`);
    assert.ok(through > 2_000_000, `only ${through} bytes flowed once acknowledged`);
    const growth = peak - before;
    console.log(`terminal flow control: ${stalled} bytes sent unacknowledged, then ${(through / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s${finished ? ' (all of it)' : ''}, server RSS growth ${(growth / 1048576).toFixed(1)} MiB`);
    assert.ok(growth < 64 * 1024 * 1024, `the server grew by ${growth} bytes`);
  } finally { t.ws.close(); }
});

on('a client that acknowledges without reading is held by the socket\'s send buffer', async ({ r }) => {
  const pid = r.vigil.proc.pid!;
  const t = await openTerminal(r.base, { cookie: r.cookie, autoAck: false });
  try {
    t.type('stty -echo; yes | head -c 50000000; echo\r');
    await sleep(200);
    const before = rssOf(pid);
    // Stop reading the TCP socket, and claim to have rendered far more than was sent.
    (t.ws as unknown as { _socket: import('node:net').Socket })._socket.pause();
    const liar = setInterval(() => t.ack(999_999_999), 20);
    await sleep(3_000);
    clearInterval(liar);
    const growth = rssOf(pid) - before;
    assert.ok(growth < 48 * 1024 * 1024, `the server grew by ${growth} bytes`);
  } finally { t.ws.terminate(); }
});

on('GET /api/terminal says it is on', async ({ r }) => {
  const res = await fetch(`${r.base}/api/terminal`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = await res.json() as { enabled: boolean; max_input_bytes: number; high_water_bytes: number };
  assert.is(body.enabled, true);
  assert.is(body.max_input_bytes, 65536);
  assert.is(body.high_water_bytes, 100_000);
});

on.run();

const off = suite('terminal off');

off('without terminal.enabled there is no terminal socket, also with the section present', async () => {
  for (const section of ['', 'terminal: {}']) {
    const r = await start(section);
    try {
      const cookie = r.cookie;
      assert.is(await handshakeStatus(r.base, { cookie }), 404, `/ws/term with ${JSON.stringify(section)}`);
      const res = await fetch(`${r.base}/api/terminal`, { headers: { authorization: `Bearer ${TOKEN}` } });
      if (section === '') assert.is(res.status, 404, 'no plugin, no route');
      else assert.is((await res.json() as { enabled: boolean }).enabled, false);
    } finally { await r.stop(); }
  }
});

off('a terminal nobody uses is closed after the idle timeout', async () => {
  const r = await start('terminal: { enabled: true, idle_timeout: 2s }');
  try {
    const t = await openTerminal(r.base, { cookie: r.cookie });
    t.type('echo "SH=$$"\r');
    const shell = Number((await t.waitFor(/SH=(\d+)/))[1]);
    const opened = Date.now();
    const closed = await t.closed;
    assert.is(closed.code, 4000);
    assert.match(closed.reason, /VIGIL_ERR_TERMINAL_IDLE/);
    assert.ok(Date.now() - opened < 5_000, 'closed within the timeout and a margin');
    await waitFor(() => !alive(shell), { timeoutMs: 4_000, what: 'the idle shell to end' });
  } finally { await r.stop(); }
});

off('a logout closes the terminals of that session only; stopping vigil ends the rest', async () => {
  const r = await start('terminal: { enabled: true }');
  let kept: number[] = [];
  try {
    const shellOf = async (t: TerminalClient): Promise<number[]> => {
      t.type('echo "SH=$$"; sleep 1002 & echo "BG=$!"\r');
      const m = await t.waitFor(/SH=(\d+)[\s\S]*BG=(\d+)/);
      return [Number(m[1]), Number(m[2])];
    };
    const mine = await openTerminal(r.base, { cookie: r.cookie });
    const minePids = await shellOf(mine);
    const otherCookie = await sessionCookie(r.base, TOKEN);
    const other = await openTerminal(r.base, { cookie: otherCookie });
    kept = await shellOf(other);
    const out = await fetch(`${r.base}/logout`, { method: 'POST', redirect: 'manual', headers: { cookie: r.cookie, origin: r.base, 'sec-fetch-site': 'same-origin' } });
    await out.arrayBuffer();
    assert.is((await mine.closed).code, 1008, 'the logout closed the session\'s terminal');
    await waitFor(() => minePids.every((pid) => !alive(pid)), { timeoutMs: 5_000, what: 'the logged-out shell and its job to end' });
    assert.ok(kept.every(alive), 'the other session\'s terminal runs on');
  } finally { await r.stop(); }
  assert.equal(kept.filter(alive), [], 'no shell outlives the server');
});

off('the session limit refuses one terminal more', async () => {
  const r = await start('terminal: { enabled: true, max_sessions: 1 }');
  try {
    const first = await openTerminal(r.base, { cookie: r.cookie });
    const second = await openTerminal(r.base, { cookie: r.cookie });
    const closed = await second.closed;
    assert.is(closed.code, 1013);
    assert.match(closed.reason, /VIGIL_ERR_TERMINAL_LIMIT/);
    first.ws.close();
  } finally { await r.stop(); }
});

off.run();
