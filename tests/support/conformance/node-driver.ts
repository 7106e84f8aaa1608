// The Node client's conformance driver (docs/llm-wire-contract.md, "Conformance"): reads one JSON object from stdin,
// `{ items, options }`, creates @vigil/llm-client with those options against VIGIL_BASE_URL and VIGIL_PROJECT_KEY,
// records every item through `client.trace()`, shuts the client down (which flushes), and prints
// `{"sent": n, "dropped": n}` on one line.
import { createClient } from '@vigil/llm-client';

interface DriverInput {
  items: Record<string, unknown>[];
  options: {
    max_batch_items: number;
    max_buffer_items: number;
    flush_interval_ms: number;
    max_retries: number;
    retry_base_ms: number;
    timeout_ms: number;
  };
}

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const { items, options } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as DriverInput;

const client = createClient({
  url: process.env.VIGIL_BASE_URL,
  projectKey: process.env.VIGIL_PROJECT_KEY,
  batchSize: options.max_batch_items,
  maxBufferItems: options.max_buffer_items,
  flushIntervalMs: options.flush_interval_ms,
  maxRetries: options.max_retries,
  retryBaseMs: options.retry_base_ms,
  timeoutMs: options.timeout_ms,
  // Losses are the suite's to count, not warnings on stderr.
  onError: () => {},
});
for (const item of items) client.trace(item as unknown as Parameters<typeof client.trace>[0]);
await client.shutdown();
const stats = client.stats();
process.stdout.write(`${JSON.stringify({ sent: stats.sent, dropped: stats.dropped })}\n`);
