// `vigil run` ends cleanly even when it cannot drain: a capture worker thread is in the middle of a SQLite statement
// (held here by another connection's write lock), and the operator sends a second signal, or the shutdown timeout
// passes. Ending that thread mid-statement would abort the whole process (node-sqlite3 calls back into a thread that
// can no longer run JavaScript), so the process ends by the signal instead, with the code a shell expects.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { setTimeout as sleep } from 'node:timers/promises';
import sqlite3 from 'sqlite3';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { sendThrough } from '../support/gateway-client.js';

const test = suite('vigil run shutdown');
const work = tempDir('vigil-shutdown-');
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;
const running: VigilProcess[] = [];

test.before(async () => {
  upstream = await startRecordingUpstream({}, (_q, r) => { r.setHeader('content-type', 'application/json'); r.end('{"ok":true}'); });
});

test.after(async () => {
  await Promise.all(running.map((v) => v.stop('SIGKILL')));
  upstream?.close();
  work.cleanup();
});

/** A connection holding the database's write lock (BEGIN IMMEDIATE) until `release`. */
async function holdWriteLock(file: string): Promise<{ release(): Promise<void> }> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  await exec('BEGIN IMMEDIATE');
  return { async release() { await exec('ROLLBACK'); await new Promise<void>((r) => db.close(() => r())); } };
}

/**
 * Starts the gateway, takes the write lock, and sends one captured request: its batch's transaction then waits in
 * a capture worker thread (busy timeout 5 s) when the test signals.
 */
async function gatewayWithStatementInFlight(extraYaml = ''): Promise<{ vigil: VigilProcess; lock: { release(): Promise<void> } }> {
  const proxyPort = await freePort();
  const cpPort = await freePort();
  const dataDir = `${work.path}/data-${proxyPort}`;
  const file = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${proxyPort}
rules:
  - name: all
    match: { path: /** }
    redact: { json_fields: [$.card] }
control_plane: { listen: 127.0.0.1:${cpPort}, token: t0k }
data_dir: ${dataDir}
${extraYaml}`, `vigil-${proxyPort}.yaml`);
  const vigil = await startVigil(file, `http://127.0.0.1:${cpPort}`);
  running.push(vigil);
  const lock = await holdWriteLock(`${dataDir}/vigil.db`);
  const res = await sendThrough(proxyPort, 'POST', '/api/pay', ['content-type', 'application/json'], '{"card":"4111111111111111"}');
  assert.is(res.status, 200);
  // The batch leaves after 20 ms and its worker thread then waits for the lock.
  await sleep(400);
  return { vigil, lock };
}

const output = (v: VigilProcess) => v.stdout() + v.stderr();

test('a second SIGINT while a worker thread waits in a statement ends the process by SIGINT (exit 130), not by an abort', async () => {
  const { vigil, lock } = await gatewayWithStatementInFlight();
  try {
    vigil.proc.kill('SIGINT');
    await sleep(200);
    vigil.proc.kill('SIGINT');
    const { code, signal } = await vigil.exited;
    assert.not.match(output(vigil), /FATAL ERROR/);
    // Ended by the signal itself: a shell reports it as exit 130.
    assert.equal({ code, signal }, { code: null, signal: 'SIGINT' }, output(vigil));
    assert.match(vigil.stderr(), /second signal: exiting without draining/);
  } finally {
    await lock.release();
  }
});

test('a shutdown timeout while a worker thread waits in a statement names the pool and ends the process by SIGTERM (exit 143)', async () => {
  const { vigil, lock } = await gatewayWithStatementInFlight('shutdown_timeout: 1s\n');
  try {
    vigil.proc.kill('SIGTERM');
    const { code, signal } = await vigil.exited;
    assert.not.match(output(vigil), /FATAL ERROR/);
    // Ended by the signal itself: a shell reports it as exit 143.
    assert.equal({ code, signal }, { code: null, signal: 'SIGTERM' }, output(vigil));
    const line = vigil.stderr().split('\n').find((l) => l.includes('worker pools still running tasks at the shutdown timeout'));
    assert.ok(line, vigil.stderr());
    assert.match(line!, /capture/);
    assert.not.match(vigil.stderr(), /"msg":"stopped"/);
  } finally {
    await lock.release();
  }
});

test.run();
