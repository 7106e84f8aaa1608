import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { ConfigValueError, type Bus, type DeliveryQueueOptions, type PluginContext } from '@vigil/plugin-sdk';
import { createExportPipeline } from '../../../../plugins/exporters/pipeline.js';
import { checkConsistency } from '../../../../plugins/exporters/check-config.js';
import { createDeliveryQueue } from '../../../../runtime/delivery/delivery-queue.js';
import { tempDir } from '../../../support/tmp.js';
import { RecordingMetrics } from '../../runtime/delivery/support/recording-metrics.js';
import { recordingLogger } from '../../runtime/delivery/support/recording-logger.js';
import type { ExporterConfig } from '../../../../plugins/exporters/config-schema.js';

const file = (name: string): ExporterConfig => ({ name, type: 'file', path: `${name}.jsonl` });
const wasm = (name: string, next: string): ExporterConfig => ({ name, type: 'wasm', module: 'm.wasm', next });

function refused(configs: ExporterConfig[], keyPath: (string | number)[], message: string | RegExp): void {
  try {
    checkConsistency(configs);
    assert.unreachable('accepted');
  } catch (err) {
    assert.instance(err, ConfigValueError);
    assert.equal((err as ConfigValueError).keyPath, keyPath);
    assert.match((err as Error).message, message);
  }
}

test('a consistent list passes, including a chain of wasm stages', () => {
  checkConsistency([]);
  checkConsistency([file('a'), wasm('w1', 'w2'), wasm('w2', 'a')]);
});

test('duplicate names are refused at the second, naming the first', () => {
  refused([file('a'), file('b'), file('a')], [2, 'name'], '"a" is already the name of exporters[0]');
});

test('a topic outside the exportable list is refused even if the schema were bypassed', () => {
  refused([{ ...file('a'), topics: ['gateway.record', 'gateway.exchange' as 'gateway.record'] }], [0, 'topics', 1], '"gateway.exchange" is not exportable');
});

test('wasm next must name another existing exporter, one wasm per next, and no loops', () => {
  refused([wasm('w', 'w')], [0, 'next'], 'a wasm exporter cannot feed itself');
  refused([file('a'), wasm('w', 'zz')], [1, 'next'], 'no exporter is named "zz"; exporters: a, w');
  refused([file('a'), wasm('w1', 'a'), wasm('w2', 'a')], [2, 'next'], '"a" is already the next of wasm exporter "w1"');
  refused([wasm('w1', 'w2'), wasm('w2', 'w1')], [0, 'next'], /loop \(w1 -> w2 -> w1\)/);
});

test('stop is safe without start and when called twice; it unsubscribes before draining', async () => {
  const dir = tempDir();
  const metrics = new RecordingMetrics();
  const log = recordingLogger();
  const subscribed: string[] = [];
  const unsubscribed: string[] = [];
  const bus = {
    subscribe: (topic: string, _handler: unknown, options?: { subscriber?: string }) => {
      subscribed.push(`${topic}:${options?.subscriber}`);
      return () => { unsubscribed.push(`${topic}:${options?.subscriber}`); };
    },
  } as unknown as Bus;
  const ctx = {
    name: 'exporters', log, metrics, bus,
    runtime: { version: 'test', configDir: dir.path, controlPlaneUrl: () => '', dataDir: dir.path, startedAt: 0, installMethod: 'source tree', storage: () => ({ backend: 'none' }), plugins: () => [] },
    resolvePath: (p: string) => resolve(dir.path, p),
    deliveryQueue: <T>(o: DeliveryQueueOptions<T>) => createDeliveryQueue(o, { metrics, log }),
  } as unknown as PluginContext;
  const configs: ExporterConfig[] = [
    { ...file('a'), topics: ['gateway.record'] },
    { name: 'p', type: 'exec', command: process.execPath, args: ['-e', 'process.stdin.resume()'] },
  ];
  const never = await createExportPipeline(ctx, configs);
  await never.stop!();
  await never.stop!();
  assert.equal(subscribed, []);
  assert.not.ok(existsSync(join(dir.path, 'a.jsonl')), 'nothing was opened');

  const started = await createExportPipeline(ctx, configs);
  await started.start!();
  assert.equal(subscribed, ['gateway.record:exporters.a', 'gateway.record:exporters.p']);
  await Promise.all([started.stop!(), started.stop!()]);
  assert.equal(unsubscribed, subscribed);
  dir.cleanup();
});

test.run();
