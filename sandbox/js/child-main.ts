/**
 * Entry of a sandbox child process (started with `--no-node-snapshot`, which isolated-vm needs on Node 20).
 * It keeps a few warm isolates and runs the tasks its parent sends, at most one per isolate at a time.
 * Kept lean: the CLI waits for this process to start before it can run a function.
 */
import { IsolateSlot, type FunctionEntry } from './isolate-slot.js';
import type { ChildMessage, ChildSettings, ParentMessage, TaskMessage, TaskOutcome } from './protocol.js';

const settings = JSON.parse(process.argv[2] ?? '{}') as ChildSettings;
const functions = new Map<string, FunctionEntry>();
let calls = 0;

function send(message: ChildMessage, then?: () => void): void {
  if (process.connected) process.send!(message, undefined, undefined, then);
}

function catastrophic(message: string): void {
  // isolated-vm has lost control of an isolate: nothing in this process can be trusted any more.
  const abort = (): never => process.abort();
  setTimeout(abort, 200).unref();
  send({ t: 'catastrophic', message }, abort);
}

const slots = Array.from({ length: Math.max(1, settings.isolates | 0) }, () => new IsolateSlot(settings.memoryLimitMb, catastrophic));

function crashOutcome(message: string): TaskOutcome {
  return { ok: false, reason: 'crash', message, durationMs: 0 };
}

async function runTask(task: TaskMessage): Promise<void> {
  let fn = functions.get(task.fn.id);
  if (!fn) {
    if (task.fn.source === undefined) {
      send({ t: 'result', seq: task.seq, outcome: crashOutcome(`the sandbox process does not know function ${task.fn.id}`) });
      return;
    }
    fn = { filename: task.fn.filename, source: task.fn.source };
    functions.set(task.fn.id, fn);
  }
  // Prefer an isolate whose next context is already made, so sequential calls skip context creation.
  const slot = slots.find((s) => !s.busy && s.warm) ?? slots.find((s) => !s.busy);
  if (!slot) {
    send({ t: 'result', seq: task.seq, outcome: crashOutcome('the sandbox process has no free isolate') });
    return;
  }
  slot.busy = true;
  try {
    const { outcome, retire } = await slot.execute(task, fn);
    calls++;
    send({ t: 'result', seq: task.seq, outcome, ...(retire ? { retire } : {}) });
  } finally {
    slot.busy = false;
  }
}

async function sendStats(seq: number): Promise<void> {
  const isolates = await Promise.all(slots.map((s) => s.heapStatistics()));
  send({ t: 'stats', seq, calls, isolates, hostHeapUsedBytes: process.memoryUsage().heapUsed });
}

process.on('message', (message: ParentMessage) => {
  if (message.t === 'task') void runTask(message);
  else if (message.t === 'stats') void sendStats(message.seq);
});
// The parent is gone: nobody can use what this process computes.
process.on('disconnect', () => process.exit(0));
send({ t: 'ready' });
