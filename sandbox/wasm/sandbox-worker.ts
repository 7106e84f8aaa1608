// Entry of a sandbox worker thread: owns one guest instance and runs the calls the host sends, one at a time.
// A trapped or exhausted instance is replaced before the next call; the host kills the thread on overrun.
import { parentPort, workerData } from 'node:worker_threads';
import { GuestInstance } from './guest-instance.js';
import type { CallRequest, WorkerInit, WorkerMessage } from './worker-protocol.js';

const init = workerData as WorkerInit;
const port = parentPort!;
const send = (message: WorkerMessage, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);
const log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => send({ type: 'log', level, message });

let guest: GuestInstance | undefined;

async function replaceGuest(): Promise<void> {
  const old = guest;
  guest = undefined;
  await old?.close().catch(() => {});
  guest = await GuestInstance.create(init, log);
}

async function run(request: CallRequest): Promise<void> {
  if (!guest) {
    try {
      await replaceGuest();
    } catch (err) {
      send({ type: 'failure', id: request.id, reason: 'crash', message: `cannot start the guest: ${String(err)}` });
      return;
    }
  }
  const result = await guest!.call(request.fn, request.input);
  if (result.ok) {
    const { output } = result;
    const whole = output.byteOffset === 0 && output.byteLength === output.buffer.byteLength;
    send({ type: 'result', id: request.id, output }, whole && output.buffer instanceof ArrayBuffer ? [output.buffer] : undefined);
    if (result.replace) await replaceGuest().catch(() => { guest = undefined; });
    return;
  }
  send({ type: 'failure', id: request.id, reason: result.reason, message: result.message });
  // A trap can leave the guest's heap half-updated: never run another call on it. The replacement is made now,
  // before the next queued call, so that call does not pay for it inside its time limit.
  await replaceGuest().catch(() => { guest = undefined; });
}

let queue = Promise.resolve();
port.on('message', (request: CallRequest) => {
  queue = queue.then(() => run(request));
});

GuestInstance.create(init, log).then(
  (created) => { guest = created; send({ type: 'ready' }); },
  (err: unknown) => { send({ type: 'init_failed', message: err instanceof Error ? err.message : String(err) }); },
);
