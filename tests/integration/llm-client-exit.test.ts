// @vigil/llm-client and the process it lives in, driven in a child process (tests/support/llm-client-app.ts): an
// application that records traces and just ends still delivers them (the flush on `beforeExit`); the client never
// keeps an idle process alive (its timers and kept-alive socket are unref'd); and with Vigil unreachable, the flush
// at exit gives up after shutdownTimeoutMs instead of holding the process.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { fromRoot } from '../support/paths.js';
import { freePort } from '../support/net.js';
import { startTraceReceiver, type TraceReceiver } from '../support/trace-receiver.js';

const test = suite('llm-client at process exit');
let receiver: TraceReceiver;

interface Run { code: number | null; ms: number; stdout: string; stderr: string; stats: any }

function runApp(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [fromRoot('dist/tests/support/llm-client-app.js')], {
      env: { ...process.env, VIGIL_PROJECT_KEY: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      const line = /^stats (.*)$/m.exec(stdout);
      resolve({ code, ms: Date.now() - t0, stdout, stderr, stats: line ? JSON.parse(line[1]) : undefined });
    });
  });
}

test.before(async () => { receiver = await startTraceReceiver(); });
test.after(async () => { await receiver.close(); });
test.before.each(() => { receiver.stored().clear(); receiver.batches.length = 0; });

test('an application that just ends delivers its traces on beforeExit, without flush() or shutdown()', async () => {
  const run = await runApp({ VIGIL_URL: receiver.url, COUNT: '25' });
  assert.is(run.code, 0, run.stderr);
  assert.is(receiver.stored().size, 25);
  assert.equal(run.stats, { sent: 25, dropped: 0, rejected: 0, retries: 0, buffered: 0, bufferedBytes: 0 });
  assert.ok(run.ms < 10_000, `${run.ms} ms, not the 60 s interval`);
});

test('an idle client never keeps the process alive: after a flush, the kept-alive connection does not hold it', async () => {
  const run = await runApp({ VIGIL_URL: receiver.url, COUNT: '3', MODE: 'flush-then-idle' });
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /flushed true/);
  assert.is(receiver.stored().size, 3);
  assert.ok(run.ms < 5000, `exited after ${run.ms} ms`);
});

test('the interval timer does not hold the process either: with flushOnExit off, it ends at once, traces unsent', async () => {
  const run = await runApp({ VIGIL_URL: receiver.url, COUNT: '5', FLUSH_ON_EXIT: '0' });
  assert.is(run.code, 0, run.stderr);
  assert.is(receiver.batches.length, 0);
  assert.is(run.stats.buffered, 5);
  assert.ok(run.ms < 5000, `exited after ${run.ms} ms, not the 60 s interval`);
});

test('Vigil unreachable: the flush at exit gives up after shutdownTimeoutMs, counts the loss, and the process ends', async () => {
  const run = await runApp({ VIGIL_URL: `http://127.0.0.1:${await freePort()}`, COUNT: '8', SHUTDOWN_MS: '700' });
  assert.is(run.code, 0, run.stderr);
  assert.ok(run.ms >= 650 && run.ms < 8000, `exited after ${run.ms} ms`);
  assert.is(run.stats.dropped, 8);
  assert.is(run.stats.buffered, 0);
  assert.ok(run.stats.retries > 2, JSON.stringify(run.stats));
  assert.match(run.stderr, /onError VIGIL_ERR_CLIENT_NOT_DELIVERED/);
  assert.not.match(run.stderr, /Error:|at /, 'nothing thrown');
});

test.run();
