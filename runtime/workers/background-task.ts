// piscina task module of `background: true` pools: lowers this thread's CPU priority, then serves the pool's own task
// module (its URL under BACKGROUND_TASK_KEY in workerData) as if piscina had loaded it.
import { workerData } from 'node:worker_threads';
import { BACKGROUND_TASK_KEY, lowerThreadPriority } from './thread-priority.js';

lowerThreadPriority();
const url = (workerData as Record<string, string>)[BACKGROUND_TASK_KEY];
const task = ((await import(url)) as { default?: unknown }).default;
// piscina would name this module in its error; the plugin author needs to hear about theirs.
if (typeof task !== 'function') throw new TypeError(`worker pool task module ${url} has no default export function`);
export default task;
