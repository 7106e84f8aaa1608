// Test support for the capture suites: a real runtime (SDK harness) with capture enabled through its config key, a
// probe plugin that hands capture the policy and collects `gateway.record`, and builders for raw exchanges.
import { join } from 'node:path';
import { definePlugin, type PluginDefinition } from '@vigil/plugin-sdk';
import type { GovernedRecordJson } from '../../../../gateway/records/governed-record.js';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { compilePolicy } from '../../../../policies/compile.js';
import type { PolicyConfig } from '../../../../policies/schema.js';
import type { GovernedRecord, RawExchange } from '../../../../gateway/govern/types.js';
import '../../../../gateway/records/lane-tasks.js';
import { openStore } from '../../../../runtime/store/index.js';
import { freshPostgresSchema, postgresAvailable } from '../../../support/postgres.js';
import { waitFor } from '../../../support/net.js';

export interface Backend {
  readonly name: string;
  /** False for a database that ends with its runtime (`sqlite::memory:`). */
  readonly persistent: boolean;
  /** The `storage` config section; undefined for the default SQLite file in the data directory. */
  storage(): Promise<{ url: string } | undefined>;
  cleanup(): Promise<void>;
}

/** SQLite always; PostgreSQL when reachable (required in CI). `file` names the test file in schema names. */
export async function captureBackends(file: string): Promise<Backend[]> {
  const backends: Backend[] = [
    { name: 'sqlite', persistent: true, storage: async () => undefined, cleanup: async () => {} },
    // In memory the database exists in the main thread only: workers hand their rows back to be written there.
    { name: 'sqlite in memory', persistent: false, storage: async () => ({ url: 'sqlite::memory:' }), cleanup: async () => {} },
  ];
  if (await postgresAvailable(file)) {
    const schemas: { drop(): Promise<void> }[] = [];
    let n = 0;
    backends.push({
      name: 'postgres',
      persistent: true,
      async storage() {
        const schema = await freshPostgresSchema(`cap_${file}_${++n}`);
        schemas.push(schema);
        return { url: schema.url };
      },
      async cleanup() { await Promise.all(schemas.map((s) => s.drop().catch(() => {}))); },
    });
  }
  return backends;
}

const encoder = new TextEncoder();
export const jsonBytes = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));

/** Node-style raw headers from pairs. */
export const rawHeaders = (headers: Record<string, string>): string[] => Object.entries(headers).flat();

let sequence = 0;

export interface ExchangeInput extends Partial<Omit<RawExchange, 'requestBody' | 'responseBody'>> {
  /** JSON-serialised into the body bytes; a Uint8Array is used as is. */
  requestBody?: unknown;
  responseBody?: unknown;
}

/**
 * A raw exchange as the proxy publishes it. `ruleIndexes` come from the policy's own decision for the method and
 * target, so the worker sees exactly what the traffic lane would send.
 */
export function exchange(policy: PolicyConfig, input: ExchangeInput = {}): RawExchange {
  const method = input.method ?? 'POST';
  const target = input.target ?? '/api/items';
  const decision = compilePolicy({ rules: policy.rules ?? [] }).decide(method, target);
  const body = (v: unknown): Uint8Array | null => (v === undefined ? null : v instanceof Uint8Array ? v : v === null ? null : jsonBytes(v));
  const jsonHead = ['Content-Type', 'application/json'];
  const { requestBody, responseBody, ...rest } = input;
  sequence++;
  return {
    id: `ex-${process.pid}-${sequence}`,
    time: Date.now(),
    method,
    target,
    path: target.split('?')[0],
    ruleIndexes: decision.ruleIndexes as number[],
    labels: {},
    requestHeaders: jsonHead.slice(),
    responseHeaders: jsonHead.slice(),
    status: 200,
    durationMs: 12,
    requestBody: body(requestBody),
    requestTruncated: false,
    responseBody: body(responseBody),
    responseTruncated: false,
    ...rest,
  };
}

export interface CaptureHarness {
  readonly rt: TestRuntime;
  /** Every record published on `gateway.record`, in arrival order, parsed from its text. */
  readonly received: GovernedRecord[];
  /** The same, as published: the stored JSON text and the key fields. */
  readonly published: GovernedRecordJson[];
  /** Publishes each exchange on `gateway.exchange` and waits until capture has published a record for each. */
  feed(exchanges: RawExchange[]): Promise<GovernedRecord[]>;
  /**
   * The `record` column of every stored record, by id, read from the database itself (the API parses and serialises
   * it again); undefined for `sqlite::memory:`, which only the runtime's thread can open.
   */
  storedTexts(): Promise<Map<string, string> | undefined>;
  /** GET on the control plane, JSON-decoded when the answer is JSON. */
  get<T = any>(path: string): Promise<{ status: number; body: T; headers: Headers }>;
  stop(): Promise<void>;
}

export interface CaptureOptions {
  policy?: PolicyConfig;
  /** The `capture:` section. */
  capture?: Record<string, unknown>;
  storage?: { url: string };
  /** Extra plugins beside the probe. */
  plugins?: PluginDefinition<any>[];
}

/** Starts a runtime with capture enabled, the policy's rules in its config (the governance plugin's), and a record collector. */
export async function startCapture(options: CaptureOptions = {}): Promise<CaptureHarness> {
  const policy = options.policy ?? { rules: [] };
  const received: GovernedRecord[] = [];
  const published: GovernedRecordJson[] = [];
  const probe = definePlugin({
    name: 'capture-probe',
    version: '0.0.0',
    needs: ['capture'],
    setup(ctx) {
      let unsubscribe: (() => Promise<void>) | undefined;
      return {
        start() {
          unsubscribe = ctx.bus.subscribe('gateway.record', (batch) => {
            published.push(...batch);
            for (const r of batch) received.push(JSON.parse(r.json) as GovernedRecord);
          });
        },
        async stop() { await unsubscribe?.(); },
      };
    },
  });
  const rt = await startTestRuntime({
    plugins: [probe, ...(options.plugins ?? [])],
    config: {
      capture: options.capture ?? {},
      rules: policy.rules ?? [],
      ...(options.storage ? { storage: options.storage } : {}),
    },
  });
  return {
    rt,
    received,
    published,
    async feed(exchanges) {
      const ids = new Set(exchanges.map((e) => e.id));
      for (const e of exchanges) rt.publish('gateway.exchange', e);
      await waitFor(() => received.filter((r) => ids.has(r.id)).length === ids.size,
        { what: `${ids.size} governed records`, timeoutMs: 60_000 });
      return exchanges.map((e) => received.find((r) => r.id === e.id)!);
    },
    async storedTexts() {
      const url = options.storage?.url ?? `sqlite:${join(rt.dataDir, 'vigil.db')}`;
      if (url === 'sqlite::memory:') return undefined;
      const store = await openStore(url);
      try {
        const rows = await store.forPlugin('capture').query<{ id: string; record: string }>('SELECT id, record FROM capture_records');
        return new Map(rows.map((r) => [r.id, r.record]));
      } finally {
        await store.close();
      }
    },
    async get<T>(path: string) {
      const res = await rt.fetch(path);
      const type = res.headers.get('content-type') ?? '';
      const body = (type.includes('json') ? await res.json() : await res.text()) as T;
      return { status: res.status, body, headers: res.headers };
    },
    stop: () => rt.stop(),
  };
}
