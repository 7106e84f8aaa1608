// piscina task module of `background: true` pools: lowers this thread's CPU priority, then serves the pool's own task
// module (its URL under BACKGROUND_TASK_KEY in workerData) as if piscina had loaded it.
//
// No top-level await here: piscina loads a task module with require() first and falls back to import() when that
// throws. A module with top-level await makes require() throw, and a second task's require() of the same module
// while the first task's import() is still instantiating it aborts Node 20.19+ (v8::Module::IsGraphAsync). So the
// pool's own module is imported on the first task instead, once, whatever the number of tasks waiting.
import { workerData } from 'node:worker_threads';
import { BACKGROUND_TASK_KEY, lowerThreadPriority } from './thread-priority.js';

type Task = (input: unknown) => unknown;

lowerThreadPriority();
const url = (workerData as Record<string, string>)[BACKGROUND_TASK_KEY];
let loaded: Promise<Task> | undefined;

function load(): Promise<Task> {
  return import(url).then((module: { default?: unknown }) => {
    // piscina would name this module in its error; the plugin author needs to hear about theirs.
    if (typeof module.default !== 'function') throw new TypeError(`worker pool task module ${url} has no default export function`);
    return module.default as Task;
  });
}

export default async function backgroundTask(input: unknown): Promise<unknown> {
  loaded ??= load();
  return (await loaded)(input);
}
