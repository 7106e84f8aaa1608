// Benchmark: `GET /api/monitor` (with the 24-hour history) and `GET /api/monitor?brief=1` (without it) in a real
// runtime (probes, alerts, channels on SQLite) holding a full day of minute samples (1,440), the 24 custom rules
// perch allows and the five built-ins: response time (median of the rounds) and bytes.
//
// Baseline, same runtime and run, alternated: `GET /api/health`, the smallest authenticated answer, for the cost of a
// request itself.
//
// Usage: node dist/bench/monitor-api.js [rounds, default 50]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';
import { SAMPLE_METRICS } from '../plugins/probes/history/metrics.js';
import { openStore } from '../runtime/store/index.js';
import { median } from './support/median.js';

const ROUNDS = Number(process.argv[2] ?? 50);
const MINUTE = 60_000;

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-monitor-'));
const rt = await startTestRuntime({ plugins: [], config: { data_dir: dir, probes: {}, alerts: {}, channels: {} } });
try {
  // A day of minute samples, written beside the running plugin as its minute job would.
  const backend = await openStore(`sqlite:${join(dir, 'vigil.db')}`);
  const store = backend.forPlugin('probes');
  const now = Math.floor(Date.now() / MINUTE) * MINUTE;
  const rows = Array.from({ length: 1440 }, (_, i) => {
    const s = Object.fromEntries(SAMPLE_METRICS.map((m) => [m, Math.round(Math.random() * 10_000) / 100])) as Record<string, number>;
    return [now - (1440 - i) * MINUTE, ...SAMPLE_METRICS.map((m) => s[m])] as (number | null)[];
  });
  await store.insertMany('probes_samples', ['t', ...SAMPLE_METRICS], rows, { onConflict: 'ON CONFLICT (t) DO NOTHING' });
  const rules = Array.from({ length: 24 }, (_, i) => ({ name: `Service port ${i}`, kind: 'port', target: String(20_000 + i) }));
  const saved = await rt.fetch('/api/customrules', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules }) });
  if (saved.status !== 200) throw new Error(`customrules: ${saved.status} ${await saved.text()}`);

  const timed = async (path: string) => {
    const t0 = performance.now();
    const res = await rt.fetch(path);
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    return { ms: performance.now() - t0, bytes: Buffer.byteLength(body) };
  };
  const times: Record<string, number[]> = { full: [], brief: [], health: [] };
  const bytes: Record<string, number> = {};
  for (let r = 0; r < ROUNDS + 5; r++) {
    for (const [name, path] of [['full', '/api/monitor'], ['brief', '/api/monitor?brief=1'], ['health', '/api/health']] as const) {
      const m = await timed(path);
      if (r >= 5) times[name].push(m.ms); // The first rounds warm the JIT and the store's statements.
      bytes[name] = m.bytes;
    }
  }
  const base = median(times.health);
  const samples = (await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM probes_samples'))[0].n;
  console.log(`monitor samples held: ${samples}`);
  for (const name of ['full', 'brief'] as const) {
    console.log(`monitor ${name} response: ${median(times[name]).toFixed(2)} ms (ratio ${(median(times[name]) / base).toFixed(2)} vs /api/health at ${base.toFixed(2)} ms)`);
    console.log(`monitor ${name} bytes: ${bytes[name]} B`);
  }
  await backend.close();
} finally {
  await rt.stop();
  rmSync(dir, { recursive: true, force: true });
}
