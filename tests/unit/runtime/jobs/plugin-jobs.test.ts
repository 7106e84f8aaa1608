import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPluginJobs } from '../../../../runtime/jobs/plugin-jobs.js';
import type { JobQueues, Scheduler } from '../../../../runtime/jobs/index.js';

test('interval ids stay global, queue names get the plugin prefix, and both carry the plugin', () => {
  const calls: unknown[][] = [];
  const scheduler = { every: (...args: unknown[]) => { calls.push(['every', ...args]); } } as unknown as Scheduler;
  const queues = { queue: (...args: unknown[]) => { calls.push(['queue', ...args]); return { marker: true }; } } as unknown as JobQueues;
  const jobs = createPluginJobs('llm', scheduler, queues);
  const fn = () => {};
  const handler = async () => {};
  jobs.every('llm.alerts', 60_000, fn, { immediate: true });
  const q = jobs.queue('persist', handler, { concurrency: 2 });
  assert.equal(q as unknown, { marker: true });
  assert.equal(calls, [
    ['every', 'llm.alerts', 60_000, fn, { immediate: true, plugin: 'llm' }],
    ['queue', 'llm.persist', handler, { concurrency: 2, plugin: 'llm' }],
  ]);
});

test.run();
