// The host monitor in a real `vigil run`, reading the test machine's real /proc and /sys: each route's answer agrees
// with what the test reads from the same files, every answer matches its declared schema (the test runs check each
// one, VIGIL_VALIDATE_RESPONSES=1), the CSV downloads with the session cookie and is refused without it, the minute
// sample is stored at once, and the 1 s live sample is taken only while a page watches host.live.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { constants, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { hostname } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort, waitFor } from '../support/net.js';
import { openSse, type SseConnection } from '../support/sse-client.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'probes-run-dashboard-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

const work = tempDir('vigil-probes-run-');
let vigil: VigilProcess;
let base = '';
let marker: ChildProcess | undefined;

const get = async <T>(path: string, headers: Record<string, string> = bearer): Promise<{ status: number; body: T; res: Response }> => {
  const res = await fetch(`${base}${path}`, { headers, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* CSV or an empty answer */ }
  return { status: res.status, body: body as T, res };
};

/** Logs in as a script does (a form post) and returns the `vigil_session=…` pair. */
async function logIn(): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: TOKEN }).toString(),
  });
  await res.arrayBuffer();
  const set = res.headers.getSetCookie().find((c) => c.startsWith('vigil_session='));
  assert.ok(set, 'the login sets the session cookie');
  return set!.split(';')[0];
}

/** The value of `vigil_probes_live_samples_total` on /metrics. */
async function liveSamples(): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: bearer })).text();
  const m = /^vigil_probes_live_samples_total(?:\{[^}]*\})? (\S+)$/m.exec(text);
  assert.ok(m, `/metrics has vigil_probes_live_samples_total:\n${text.split('\n').filter((l) => l.includes('probes')).join('\n')}`);
  return Number(m![1]);
}

const meminfoBytes = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(readFileSync('/proc/meminfo', 'utf8'))![1]) * 1024;

test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
ui: {}
probes: { live_interval: 1s }
`);
  vigil = await startVigil(config, base);
});

test.after(async () => {
  marker?.kill('SIGKILL');
  await vigil?.stop();
  work.cleanup();
});

interface Overview {
  hostname: string; os: string; uptime_s: number;
  cpu: { percent: number | null; cores: number; load: number[] };
  memory: { total_bytes: number; used_bytes: number; percent: number };
  disk_percent: number | null;
}

test('GET /api/overview: this machine, as /proc says', async () => {
  const { status, body } = await get<Overview>('/api/overview');
  assert.is(status, 200);
  assert.is(body.hostname, hostname());
  assert.is(body.memory.total_bytes, meminfoBytes('MemTotal'));
  const cores = readFileSync('/proc/stat', 'utf8').split('\n').filter((l) => /^cpu\d+ /.test(l)).length;
  assert.is(body.cpu.cores, cores);
  const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  assert.ok(Math.abs(body.uptime_s - uptime) < 30, `uptime ${body.uptime_s} against ${uptime}`);
  // Primed at start, so the first page has a CPU figure at once.
  assert.type(body.cpu.percent, 'number');
  assert.ok(body.disk_percent !== null && body.disk_percent > 0, 'the root partition is found and measured');
});

interface Live {
  taken_at: string;
  interval_ms: number | null;
  cpu: { total: { busy: number } | null; cores: number[] };
  memory: { total_bytes: number } | null;
  disks: { mount: string; percent: number | null }[];
  network: { name: string; rx_bytes: number }[];
  temperatures: unknown[];
}

test('GET /api/host/live: per core, every interface but loopback, the mounts of /proc/self/mounts', async () => {
  // Readings less than half a second after the one before are measured against an older one.
  await new Promise((r) => setTimeout(r, 600));
  const { status, body } = await get<Live>('/api/host/live');
  assert.is(status, 200);
  assert.is(body.memory?.total_bytes, meminfoBytes('MemTotal'));
  const cores = readFileSync('/proc/stat', 'utf8').split('\n').filter((l) => /^cpu\d+ /.test(l)).length;
  assert.is(body.cpu.cores.length, cores, 'one figure per core');
  assert.ok(body.interval_ms !== null && body.interval_ms >= 500, `rates over at least half a second (${body.interval_ms} ms)`);
  const interfaces = readFileSync('/proc/net/dev', 'utf8').split('\n').slice(2).map((l) => l.split(':')[0].trim()).filter((n) => n && n !== 'lo');
  assert.equal(body.network.map((i) => i.name).sort(), interfaces.sort());
  const mounted = new Set(readFileSync('/proc/self/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1]));
  assert.ok(body.disks.length > 0, 'at least one real partition');
  for (const d of body.disks) assert.ok(mounted.has(d.mount.replaceAll(' ', '\\040')), `${d.mount} is mounted`);
});

test('GET /api/caps: the package manager on PATH, systemd as /run says', async () => {
  const { status, body } = await get<{ os: string; package_manager: string | null; systemd: boolean; containers: string[] }>('/api/caps');
  assert.is(status, 200);
  assert.is(body.os, 'linux');
  const onPath = async (name: string) => {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (await access(join(dir, name), constants.X_OK).then(() => true, () => false)) return true;
    }
    return false;
  };
  let expected: string | null = null;
  for (const m of ['apt', 'dnf', 'pacman', 'zypper']) if (await onPath(m)) { expected = m; break; }
  assert.is(body.package_manager, expected);
  assert.is(body.systemd, await access('/run/systemd/system').then(() => true, () => false));
  assert.is(body.containers.includes('docker'), await onPath('docker'));
});

test('the minute sample is stored at start: GET /api/trend?range=24h has it, 7d answers hourly rows', async () => {
  const row = await waitFor(async () => {
    const { body } = await get<{ resolution: string; samples: { t: number; mem: number | null; cpu: number | null }[] }>('/api/trend?range=24h');
    assert.is(body.resolution, 'minute');
    return body.samples[0];
  }, { timeoutMs: 10_000, what: 'the first minute sample' });
  assert.is(row.t % 60_000, 0, 'stamped with its minute');
  assert.ok(row.mem !== null && row.mem > 0 && row.mem < 100);
  assert.type(row.cpu, 'number', 'the first sample has a CPU share: its counters were read at start');
  const week = await get<{ resolution: string; from: number; until: number; samples: unknown[] }>('/api/trend?range=7d');
  assert.is(week.body.resolution, 'hour');
  assert.is(week.body.until - week.body.from, 7 * 86_400_000);
  // No history but this run's: none while the first sample's hour is still open; its rollup once that hour has closed
  // (a run that starts a moment before the hour turns).
  const closed = Math.floor(row.t / 3_600_000) < Math.floor(Date.now() / 3_600_000);
  assert.ok(week.body.samples.length <= (closed ? 1 : 0), `${week.body.samples.length} hourly rows`);
});

test('bad query parameters are refused with the field named', async () => {
  for (const path of ['/api/trend?range=1y', '/api/processes?limit=101', '/api/processes?sort=name', '/api/kernel?limit=0', '/api/trend?token=x']) {
    const { status, body } = await get<{ error: { code: string; message: string } }>(path);
    assert.is(status, 400, `${path}: ${JSON.stringify(body)}`);
  }
});

test('GET /api/trendcsv: a download with the session cookie; refused without, and a token in the link does not work', async () => {
  const cookie = await logIn();
  const { status, body, res } = await get<string>('/api/trendcsv?range=24h', { cookie });
  assert.is(status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
  assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="host-24h-\d{4}-\d{2}-\d{2}\.csv"$/);
  const lines = body.trimEnd().split('\r\n');
  assert.is(lines[0], 'time,cpu,mem,swap,load1,temp,disk,battery,net_rx,net_tx,io_read,io_write');
  assert.ok(lines.length >= 2, 'the sample taken at start is a row');
  assert.match(lines[1], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z,/);

  const hourly = await get<string>('/api/trendcsv?range=90d', { cookie });
  assert.is(hourly.status, 200);
  assert.ok(hourly.body.startsWith('hour,samples,cpu_avg,cpu_max,'));

  assert.is((await get('/api/trendcsv?range=24h', {})).status, 401, 'no credentials');
  assert.is((await get('/api/trendcsv?range=24h', { cookie: 'vigil_session=forged' })).status, 401, 'a forged cookie');
  const link = await get(`/api/trendcsv?range=24h&token=${TOKEN}`, {});
  assert.ok(link.status === 400 || link.status === 401, `a token in the link is no credential (${link.status})`);
});

interface Processes { sort: string; total: number; processes: { pid: number; cpu_percent: number; rss_bytes: number; command: string }[] }

test('GET /api/processes: sorted by memory or CPU, search by command line, bounded', async () => {
  marker = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'probes-run-marker-7f3a'], { stdio: 'ignore' });
  const byMem = await get<Processes>('/api/processes?sort=mem&limit=10');
  assert.is(byMem.status, 200);
  assert.is(byMem.body.processes.length, 10);
  assert.ok(byMem.body.total > 10);
  const rss = byMem.body.processes.map((p) => p.rss_bytes);
  assert.equal(rss, [...rss].sort((a, b) => b - a), 'largest resident memory first');
  const byCpu = await get<Processes>('/api/processes?sort=cpu&limit=100');
  const cpu = byCpu.body.processes.map((p) => p.cpu_percent);
  assert.equal(cpu, [...cpu].sort((a, b) => b - a), 'busiest first');
  // The table reuses a reading of /proc for a moment (and the marker's exec may not have happened yet), so the first
  // answers can predate the marker: poll until it is in one, then check that it is the only one.
  const found = await waitFor(async () => {
    const body = (await get<Processes>('/api/processes?q=PROBES-RUN-MARKER')).body;
    return body.total >= 1 && body.processes.some((p) => p.pid === marker!.pid) ? body : undefined;
  }, { intervalMs: 250, what: 'the marker process' }) as Processes;
  assert.is(found.total, 1, 'the search ignores case and finds exactly the marker');
  assert.is(found.processes[0].pid, marker.pid);
});

test('GET /api/kernel: read-only sysctl values with search', async () => {
  const { status, body } = await get<{ total: number; tunables: { key: string; value: string }[] }>('/api/kernel?q=vm.swappiness');
  assert.is(status, 200);
  const hit = body.tunables.find((t) => t.key === 'vm.swappiness');
  assert.is(hit?.value, readFileSync('/proc/sys/vm/swappiness', 'utf8').trim());
  const some = await get<{ total: number; tunables: unknown[] }>('/api/kernel?limit=5');
  assert.is(some.body.tunables.length, 5);
  assert.ok(some.body.total > 100, `the total counts every readable tunable (${some.body.total})`);
});

test('the live sample: streamed on host.live while a page watches, not taken once it leaves', async () => {
  const cookie = await logIn();
  const idleBefore = await liveSamples();
  await new Promise((r) => setTimeout(r, 1500));
  assert.is(await liveSamples(), idleBefore, 'nothing is taken while nobody watches');

  // A page watching something else does not start it either.
  const other = await openSse(`${base}/api/ui/stream?topics=ui.settings`, { cookie });
  await new Promise((r) => setTimeout(r, 1500));
  assert.is(await liveSamples(), idleBefore, 'a page on another topic does not start the live sample');
  other.close();

  let page: SseConnection | undefined;
  try {
    page = await openSse(`${base}/api/ui/stream?topics=host.live`, { cookie });
    assert.is(page.status, 200);
    const first = await page.next((f) => f.event === 'host.live', 5000);
    const live = JSON.parse(first.data) as Live;
    assert.is(live.memory?.total_bytes, meminfoBytes('MemTotal'));
    const second = await page.next((f) => f.event === 'host.live', 5000);
    const gap = Date.parse((JSON.parse(second.data) as Live).taken_at) - Date.parse(live.taken_at);
    assert.ok(gap >= 800 && gap <= 2500, `one sample a second (${gap} ms apart)`);
  } finally {
    page?.close();
  }
  await waitFor(async () => {
    const a = await liveSamples();
    await new Promise((r) => setTimeout(r, 1500));
    return (await liveSamples()) === a;
  }, { timeoutMs: 10_000, what: 'the live sample to stop after the page left' });
});

test.run();
