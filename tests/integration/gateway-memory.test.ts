// The telemetry lane is bounded in bytes, not only in exchanges: with the store stuck and 4 MB bodies streaming
// through, the gateway's resident memory stays under a ceiling derived from its config, the bodies beyond the budget
// are dropped and counted, and every record says what it lacks. `vigil run` as a child process, its RSS read from
// /proc/<pid>/status.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { Agent, request } from 'undici';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { parseExposition, samplesOf } from '../support/prometheus-text.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { RUN_V8_FLAGS } from '../../runtime/cli/v8-flags.js';

const TOKEN = 'memory-test-token';
const MiB = 1024 * 1024;
const BODY_BYTES = 4_000_000;
const EXCHANGES = 160;
const CONCURRENCY = 8;
/** capture.queue_bytes for this test. */
const QUEUE_BYTES = 32 * MiB;
/**
 * The ceiling is the warm gateway (after three exchanges of these bodies: its heaps and allocator arenas have grown
 * to what handling one such exchange takes) plus, on top:
 * - QUEUE_BYTES: every body copy on the lane, from the proxy to the worker done with it (the budget under test);
 * - IN_FLIGHT: bodies in flight that nothing copies or counts, at most both 4 MB bodies of each concurrent exchange
 *   (in fact only the sockets' and streams' buffers);
 * - WORKER_WORK: what a worker makes of a batch (at most QUEUE_BYTES of bodies) while it governs and stores it: the
 *   bodies as text, the governed text, the record's JSON and the driver's copy of it;
 * - SLACK: garbage the collectors have not reached yet.
 * Without the byte bound, this run peaked near 1.6 GB; with it, near 0.5 GB.
 */
const IN_FLIGHT = CONCURRENCY * 2 * BODY_BYTES;
const WORKER_WORK = 3 * QUEUE_BYTES;
const SLACK = 96 * MiB;

const test = suite('gateway memory');
const work = tempDir('vigil-memory-');
let vigil: VigilProcess | undefined;

test.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

/** Resident set size now and at its peak (VmHWM), in bytes. */
function rss(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { now: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Holds SQLite's write lock, so that every batch the workers try to store waits (busy_timeout) and fails. */
async function lockStore(file: string): Promise<{ release(): Promise<void> }> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  await exec('BEGIN IMMEDIATE');
  return { async release() { await exec('ROLLBACK'); await new Promise<void>((r) => db.close(() => r())); } };
}

test(`${EXCHANGES} exchanges of 4 MB bodies with the store stuck: RSS stays under idle + queue_bytes + in-flight + a worker's work + slack`, async () => {
  const json = (fill: string) => Buffer.from(`{"data":"${fill.repeat(BODY_BYTES - 11)}"}`);
  const requestBody = json('q');
  const responseBody = json('r');
  const upstream = await startRecordingUpstream({}, (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': responseBody.length });
    res.end(responseBody);
  });
  // The recording upstream keeps every request it saw; these are too big to keep.
  const received = upstream.received;
  const [listen, cpPort] = [await freePort(), await freePort()];
  const cp = `http://127.0.0.1:${cpPort}`;
  const file = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${listen}
rules:
  - name: all
    match: { path: /** }
capture:
  max_body_bytes: 4mb
  queue_bytes: ${QUEUE_BYTES}
  workers: 1
control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/data
`);
  const agent = new Agent({ connections: CONCURRENCY });
  try {
    // With vigil run's V8 flags given, it serves in this process instead of starting itself again: this pid is the gateway's.
    vigil = await startVigil(file, cp, { cwd: work.path, env: { NODE_OPTIONS: RUN_V8_FLAGS.join(' ') } });
    const pid = vigil.proc.pid!;
    const started = rss(pid).now;
    const send = async (path: string) => {
      const res = await request(`http://127.0.0.1:${listen}${path}`, {
        method: 'POST', body: requestBody, headers: { 'content-type': 'application/json' }, dispatcher: agent,
      });
      let n = 0;
      for await (const chunk of res.body) n += (chunk as Buffer).length;
      assert.is(n, responseBody.length);
      received.length = 0;
    };
    // Warm: the worker thread, the store, undici, a record stored.
    for (let i = 0; i < 3; i++) await send(`/warm/${i}`);
    // Counted by the overview: a records page holds at most 8 MB, and each of these records carries 8 MB of bodies.
    await waitFor(async () => {
      const res = await fetch(`${cp}/api/gateway/overview?range=1h`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return ((await res.json()) as { requests: number }).requests === 3;
    }, { what: 'the warm-up records', timeoutMs: 30_000 });
    const idle = rss(pid).now;

    const lock = await lockStore(join(work.path, 'data', 'vigil.db'));
    let next = 0;
    let peakSeen = 0;
    const sampler = setInterval(() => { peakSeen = Math.max(peakSeen, rss(pid).now); }, 50);
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (next < EXCHANGES) await send(`/load/${next++}`);
      }));
    } finally {
      clearInterval(sampler);
    }
    const { peak } = rss(pid);
    const ceiling = idle + QUEUE_BYTES + IN_FLIGHT + WORKER_WORK + SLACK;
    console.log(`rss: started ${(started / MiB).toFixed(0)} MiB, warm ${(idle / MiB).toFixed(0)} MiB, peak ${(peak / MiB).toFixed(0)} MiB (sampled ${(peakSeen / MiB).toFixed(0)}), ceiling ${(ceiling / MiB).toFixed(0)} MiB`);

    const text = await (await fetch(`${cp}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const parsed = parseExposition(text);
    const droppedBodies = samplesOf(parsed, 'vigil_capture_bodies_dropped_total').reduce((sum, s) => sum + s.value, 0);
    const queued = samplesOf(parsed, 'vigil_capture_queue_bytes')[0]?.value ?? NaN;
    await lock.release();
    const settled = await waitFor(async () => {
      const m = parseExposition(await (await fetch(`${cp}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text());
      return (samplesOf(m, 'vigil_capture_queue_bytes')[0]?.value ?? 1) === 0;
    }, { timeoutMs: 60_000, what: 'the lane to drain' }).then(() => true, () => false);
    await new Promise((r) => setTimeout(r, 3000));
    console.log(`rss after the lane drained: ${(rss(pid).now / MiB).toFixed(0)} MiB`);

    assert.ok(peak < ceiling, `peak RSS ${(peak / MiB).toFixed(0)} MiB, ceiling ${(ceiling / MiB).toFixed(0)} MiB`);
    assert.ok(droppedBodies > 0, 'no body was dropped although the lane was stuck');
    assert.ok(queued <= QUEUE_BYTES, `the lane held ${queued} bytes`);
    assert.ok(settled, 'the lane kept bytes after it drained');
  } finally {
    await agent.close();
    upstream.close();
  }
});

test.run();
