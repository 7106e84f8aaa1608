import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPermanent } from '@vigil/plugin-sdk';
import { createExecExporter, type ExecExporterOptions } from '../../../../plugins/exporters/exec-exporter.js';
import { ExporterErrors } from '../../../../plugins/exporters/errors.js';
import { createDeliveryQueue } from '../../../../runtime/delivery/delivery-queue.js';
import { fixture } from '../../../support/paths.js';
import { waitFor } from '../../../support/net.js';
import { tempDir } from '../../../support/tmp.js';
import { RecordingMetrics } from '../../runtime/delivery/support/recording-metrics.js';
import { recordingLogger } from '../../runtime/delivery/support/recording-logger.js';
import { governedRecords, textsOf } from './support/governed-records.js';

// Restart and retry timers are unref'd by design (in the runtime the control plane keeps the process alive).
let keepAlive: NodeJS.Timeout;
test.before(() => { keepAlive = setInterval(() => {}, 1_000); });
test.after(() => clearInterval(keepAlive));

const script = fixture('exporters', 'append-lines.mjs');
const signal = () => new AbortController().signal;
const idsIn = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).id) : []);
const pidsStarted = (log: ReturnType<typeof recordingLogger>) => log.entries.filter((e) => e.msg === 'exporter process started').map((e) => e.fields.pid as number);

function setup(flags: string[], options: Partial<ExecExporterOptions> = {}) {
  const dir = tempDir();
  const out = join(dir.path, 'received.jsonl');
  const log = recordingLogger().child({ exporter: 'sink' }) as ReturnType<typeof recordingLogger>;
  const exporter = createExecExporter({
    name: 'sink', command: process.execPath, args: [script, out, ...flags], restartBackoffMs: 20, maxRestartBackoffMs: 100, stopGraceMs: 2_000, ...options,
  }, { log });
  return { dir, out, log, exporter };
}

test('writes each record\'s JSON text as a line to the process, as it is and in order, and logs its stderr tagged with the exporter', async () => {
  const { dir, out, log, exporter } = setup([]);
  exporter.start!();
  await exporter.send(governedRecords(3), signal());
  await exporter.send([...governedRecords(1, 3), { json: '{"id":"rec-4", "amount": 1.50}' }], signal());
  await exporter.shutdown();
  assert.equal(readFileSync(out, 'utf8').split('\n').filter(Boolean), [...textsOf(governedRecords(4)), '{"id":"rec-4", "amount": 1.50}']);
  // stderr is a pipe of its own, read line by line apart from the exit the shutdown waits for: wait for its line.
  const stderr = await waitFor(() => log.entries.find((e) => e.msg === 'exporter process stderr'), { timeoutMs: 5_000, what: 'a stderr line logged' }).catch(() => undefined);
  assert.ok(stderr, 'a stderr line was logged');
  assert.is(stderr!.fields.exporter, 'sink');
  assert.match(String(stderr!.fields.line), 'append-lines started');
  dir.cleanup();
});

test('send before start, or while the process is down, fails with a retryable error', async () => {
  const { dir, exporter } = setup([]);
  try { await exporter.send(governedRecords(1), signal()); assert.unreachable(); } catch (err) {
    assert.not.ok(isPermanent(err));
    assert.is((err as { code?: string }).code, ExporterErrors.PROCESS_DOWN);
  }
  await exporter.shutdown();
  dir.cleanup();
});

test('a killed process is restarted with backoff, and records sent through a queue meanwhile are all delivered', async () => {
  const { dir, out, log, exporter } = setup([]);
  exporter.start!();
  const metrics = new RecordingMetrics();
  const queue = createDeliveryQueue({ name: 'sink', send: exporter.send, maxBatch: 5, maxDelayMs: 1, backoffMs: 5, maxBackoffMs: 20 }, { metrics, log: recordingLogger() });
  queue.pushMany(governedRecords(10));
  await queue.flush(5_000);
  await waitFor(() => idsIn(out).length === 10, { what: 'the first 10 records' });
  const [firstPid] = pidsStarted(log);
  process.kill(firstPid, 'SIGKILL');
  await waitFor(() => log.entries.some((e) => e.msg === 'exporter process ended; restarting'), { what: 'the exit to be noticed' });
  queue.pushMany(governedRecords(10, 10));
  await queue.flush(5_000);
  await waitFor(() => idsIn(out).length >= 20, { what: 'the next 10 records' });
  await queue.shutdown();
  await exporter.shutdown();
  assert.equal(idsIn(out), governedRecords(20).map((r) => r.id));
  const pids = pidsStarted(log);
  assert.is(pids.length, 2);
  assert.is.not(pids[1], firstPid);
  assert.is(log.entries.find((e) => e.msg === 'exporter process ended; restarting')!.fields.why, 'killed by SIGKILL');
  dir.cleanup();
});

test('ack mode: a process killed mid-stream loses nothing, and acknowledged records are not sent again', async () => {
  const { dir, out, log, exporter } = setup(['--ack', '--line-delay-ms', '2'], { ack: true });
  exporter.start!();
  const metrics = new RecordingMetrics();
  const queue = createDeliveryQueue({ name: 'sink', send: exporter.send, maxBatch: 50, maxDelayMs: 1, backoffMs: 5, maxBackoffMs: 20 }, { metrics, log: recordingLogger() });
  const all = governedRecords(300);
  queue.pushMany(all);
  await waitFor(() => idsIn(out).length >= 70, { what: 'the process to be mid-stream' });
  process.kill(pidsStarted(log)[0], 'SIGKILL');
  await queue.flush(20_000);
  await queue.shutdown();
  await exporter.shutdown();
  const received = idsIn(out);
  const missing = all.map((r) => r.id as string).filter((id) => !received.includes(id));
  assert.equal(missing, []);
  assert.ok(received.length - all.length <= 1, `at most the record in hand at the kill is repeated, got ${received.length - all.length} extra`);
  assert.is(pidsStarted(log).length, 2, 'the process was restarted');
  assert.is(metrics.value('vigil_export_sent_total', 'sink'), 300);
  dir.cleanup();
});

test('ack mode: JSON text with raw line breaks is one line and one acknowledgement, so later records are not taken as delivered', async () => {
  const { dir, out, exporter } = setup(['--ack'], { ack: true });
  exporter.start!();
  const formatted = { json: '{\n  "id": "pretty",\r\n  "n": 1\n}' };
  await exporter.send([formatted, ...governedRecords(2)], signal());
  await exporter.send(governedRecords(1, 2), signal());
  await exporter.shutdown();
  assert.equal(idsIn(out), ['pretty', 'rec-0', 'rec-1', 'rec-2']);
  dir.cleanup();
});

test('backpressure: a batch larger than the pipe is delivered only once the process has started reading', async () => {
  const { dir, out, log, exporter } = setup(['--start-delay-ms', '300']);
  exporter.start!();
  const batch = governedRecords(3_000);
  await exporter.send(batch, signal());
  const sentAt = Date.now();
  // "resumed" comes on stderr, a pipe apart from stdin's drain (which resolved the send): wait for its line.
  const resumed = await waitFor(() => log.entries.find((e) => /^resumed \d+$/.test(String(e.fields.line))), { timeoutMs: 5_000, what: 'the "resumed" stderr line' }).catch(() => undefined);
  assert.ok(resumed, 'the process reported when it started reading');
  assert.ok(sentAt >= Number(String(resumed!.fields.line).split(' ')[1]), 'send resolved after the reader resumed');
  await exporter.shutdown();
  assert.equal(idsIn(out), batch.map((r) => r.id));
  dir.cleanup();
});

test('shutdown closes stdin and waits for the exit; it is idempotent and nothing restarts afterwards', async () => {
  const { dir, log, exporter } = setup([]);
  exporter.start!();
  await exporter.send(governedRecords(1), signal());
  await Promise.all([exporter.shutdown(), exporter.shutdown()]);
  await new Promise((r) => setTimeout(r, 100));
  assert.is(pidsStarted(log).length, 1);
  assert.not.ok(log.entries.some((e) => e.msg === 'exporter process ended; restarting'));
  try { await exporter.send(governedRecords(1), signal()); assert.unreachable(); } catch (err) { assert.ok(isPermanent(err)); }
  dir.cleanup();
});

test('shutdown stops a process that ignores the end of stdin with SIGTERM', async () => {
  const { dir, log, exporter } = setup(['--ignore-eof'], { stopGraceMs: 100 });
  exporter.start!();
  await exporter.send(governedRecords(1), signal());
  const [pid] = pidsStarted(log);
  await exporter.shutdown();
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
  dir.cleanup();
});

test('a command that cannot start is retried with backoff and reported; sends fail as retryable meanwhile', async () => {
  const log = recordingLogger();
  const exporter = createExecExporter({ name: 'sink', command: 'vigil-no-such-command-here', restartBackoffMs: 20, maxRestartBackoffMs: 40 }, { log });
  exporter.start!();
  await waitFor(() => log.entries.filter((e) => e.msg === 'exporter process ended; restarting').length >= 2, { what: 'two failed starts' });
  assert.match(String(log.entries.find((e) => e.msg === 'exporter process ended; restarting')!.fields.why), 'ENOENT');
  try { await exporter.send(governedRecords(1), signal()); assert.unreachable(); } catch (err) {
    assert.not.ok(isPermanent(err));
  }
  await exporter.shutdown();
});

test.run();
