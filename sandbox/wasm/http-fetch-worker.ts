// Helper thread of http-bridge.ts: performs one fetch at a time and writes the answer into the shared buffer.
import { parentPort, workerData } from 'node:worker_threads';
import {
  HTTP_DATA_OFFSET, HTTP_DONE, HTTP_FAILED, HTTP_LENGTH, HTTP_STATE, HTTP_STATUS, type FetchRequest,
} from './http-bridge.js';

const { shared, timeoutMs } = workerData as { shared: SharedArrayBuffer; timeoutMs: number };
const state = new Int32Array(shared, 0, 4);
const data = new Uint8Array(shared, HTTP_DATA_OFFSET);
const encoder = new TextEncoder();

function finish(outcome: number, status: number, length: number): void {
  Atomics.store(state, HTTP_STATUS, status);
  Atomics.store(state, HTTP_LENGTH, length);
  Atomics.store(state, HTTP_STATE, outcome);
  Atomics.notify(state, HTTP_STATE);
}

function fail(message: string): void {
  const { written } = encoder.encodeInto(message, data);
  finish(HTTP_FAILED, 0, written);
}

async function perform(request: FetchRequest): Promise<void> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  let length = 0;
  if (response.body) {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      if (length + chunk.byteLength > data.byteLength) {
        fail(`response body larger than ${data.byteLength} bytes`);
        return;
      }
      data.set(chunk, length);
      length += chunk.byteLength;
    }
  }
  finish(HTTP_DONE, response.status, length);
}

parentPort!.on('message', (request: FetchRequest) => {
  perform(request).catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
});
