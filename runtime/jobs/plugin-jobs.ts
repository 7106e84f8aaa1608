import type { Jobs } from '@vigil/plugin-sdk';
import type { JobQueues } from './job-queues.js';
import type { Scheduler } from './scheduler.js';

/**
 * The `Jobs` a plugin gets: interval ids stay global (the SDK promises one run per id across processes), queue
 * names become `<plugin>.<name>`, and failures are attributed to the plugin.
 */
export function createPluginJobs(plugin: string, scheduler: Scheduler, queues: JobQueues): Jobs {
  return {
    every(id, intervalMs, fn, options) {
      scheduler.every(id, intervalMs, fn, { ...options, plugin });
    },
    queue(name, handler, options) {
      return queues.queue(`${plugin}.${name}`, handler, { ...options, plugin });
    },
  };
}
