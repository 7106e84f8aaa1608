import type { JsonSchema } from '@vigil/plugin-sdk';

const duration = { type: ['string', 'integer'], format: 'duration', formatMinimum: 0 };

/** The `capture:` section. Every key is optional. */
export const captureConfigSchema: JsonSchema = {
  type: 'object',
  description: 'The telemetry lane: bounded copies of traffic, governed in worker threads, stored and exported.',
  properties: {
    max_body_bytes: { type: ['string', 'integer'], format: 'byte-size', default: '1mb', description: 'Bytes of each body copied for capture; longer bodies are marked truncated.' },
    queue: { type: 'integer', minimum: 1, default: 10000, description: 'Exchanges waiting for a worker before new ones are dropped (and counted).' },
    // Bounded by count alone, the lane could hold queue × 2 × max_body_bytes: 20 GB at the defaults. 64 MiB holds the
    // whole count bound of typical API bodies (a few KiB each), so it only binds when bodies are large.
    queue_bytes: { type: ['string', 'integer'], format: 'byte-size', default: '64mb', description: 'Bytes of body copies the lane may hold at once, from the proxy copying them to the worker done with them; a copy that would pass it is not made (the record says so, and it is counted).' },
    batch: { type: 'integer', minimum: 1, maximum: 10000, default: 512, description: 'Most exchanges per worker task and per store transaction; a batch is sent when full or batch_delay after its first exchange.' },
    // A batch has a fixed cost (waking a worker, its store transaction's round trips to SQLite's threads, the WAL
    // commit rewriting each B-tree's last page), so small batches cost several times the CPU per record of large ones
    // (bench/capture-batch-delay.ts, bench/gateway-cpu.ts). 200 ms fills batches of a few hundred at a thousand
    // requests per second and keeps records a fraction of a second from the inspector. Past a minute, a crash would
    // lose more than the lane is meant to hold.
    batch_delay: { ...duration, formatMinimum: '1ms', formatMaximum: '1m', default: '200ms', description: 'Longest an exchange waits for its batch to fill (1ms to 1m). Longer delays make bigger batches, which cost less CPU per record, but hold a worker longer at a time; records reach the store and the exporters that much later.' },
    workers: { type: 'integer', minimum: 1, maximum: 64, default: 2, description: 'Worker threads (piscina) that govern and store batches, each with its own store connection.' },
    retention: { ...duration, default: '7d', description: 'Records older than this are deleted.' },
    retention_interval: { ...duration, formatMinimum: '1ms', default: '10m', description: 'How often expired records and rollups are deleted.' },
    rollup_retention: { ...duration, default: '90d', description: 'Per-minute usage and latency rollups older than this are deleted.' },
    // `true` samples: walking every value of every body doubles governance's CPU (bench/field-recording.ts).
    record_fields: { enum: [true, false, 'full'], default: true, description: 'Observe the fields each route uses (query parameters, headers, JSON paths: names, types and formats, never values) for vigil check and spec. true: every exchange of a route while it warms up (its first 1,000 per worker thread, and 1,000 more after anything new), then one in 16, counted 16 times: counts are estimates. full: every exchange, exact counts, at about 2.3 times the governance CPU (bench/README.md). false: none.' },
    fields_flush: { ...duration, formatMinimum: '1s', formatMaximum: '1h', default: '30s', description: 'How often the observed fields are added to the store (and at stop).' },
    // A credential of its own (not the dashboard token): an app holding it can add records, and do nothing else.
    ingest_token: { type: 'string', minLength: 16, description: 'Bearer token of POST /api/gateway/records, where @vigil/express and @vigil/koa send the records they governed in-process; without it the route refuses everything (403). Write it as ${VIGIL_INGEST_TOKEN} to keep it out of the file.' },
    tenant_label: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$', default: 'tenant', description: 'The label that names the tenant for usage and billing.' },
    pricing: {
      type: 'object',
      default: {},
      description: 'Prices for the usage API and the billing export: cost = tokens / 1000 × per_1k_tokens + requests × per_request.',
      properties: {
        per_1k_tokens: { type: 'number', minimum: 0, default: 0, description: 'Price of 1,000 metered tokens (meter.tokens).' },
        per_request: { type: 'number', minimum: 0, default: 0, description: 'Price of one captured request.' },
        currency: { type: 'string', minLength: 1, default: 'USD', description: 'Shown beside every cost; no conversion is done.' },
      },
    },
  },
};
