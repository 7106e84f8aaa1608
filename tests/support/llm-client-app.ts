// A child process for tests/integration/llm-client-exit.test.ts: an application that records traces with
// @vigil/llm-client and then simply ends, calling neither flush() nor shutdown(). It prints the client's stats as
// the process exits, and each error code the client reports.
// Env: VIGIL_URL, COUNT (traces to record), SHUTDOWN_MS, MODE = end (default) | flush-then-idle, FLUSH_ON_EXIT = 0 | 1.
import { createClient } from '@vigil/llm-client';

const client = createClient({
  projectKey: 'test-key',
  batchSize: 1000,
  flushIntervalMs: 60_000,
  retryBaseMs: 50,
  maxRetries: 1000,
  shutdownTimeoutMs: Number(process.env.SHUTDOWN_MS ?? 5000),
  flushOnExit: process.env.FLUSH_ON_EXIT !== '0',
  onError: (e) => console.error(`onError ${e.code}`),
});
process.on('exit', () => console.log(`stats ${JSON.stringify(client.stats())}`));

const count = Number(process.env.COUNT ?? 0);
for (let i = 0; i < count; i++) client.trace({ model: 'gpt-4o-mini', input: `question ${i}`, output: `answer ${i}` });
if (process.env.MODE === 'flush-then-idle') console.log(`flushed ${await client.flush()}`);
