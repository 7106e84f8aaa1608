// The capture plugin in a real runtime (SDK harness): exchanges published on the bus come out as governed records
// in the store, on the API and on `gateway.record`; metering, dropping, retention and config errors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { definePlugin } from '@vigil/plugin-sdk';
import type { GovernedRecordJson } from '../../../../gateway/records/governed-record.js';
import type { CaptureService } from '../../../../gateway/exchange/capture-service.js';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';
import type { PolicyConfig } from '../../../../policies/schema.js';
import { waitFor } from '../../../support/net.js';
import { tempDir } from '../../../support/tmp.js';
import { captureBackends, exchange, rawHeaders, startCapture } from './capture-harness.js';

const encoder = new TextEncoder();

const backends = await captureBackends('capture_index');

const policy: PolicyConfig = {
  rules: [
    {
      name: 'api',
      match: { path: '/api/**' },
      redact: { headers: ['Authorization', 'x-api-key'], query_params: ['token'], json_fields: ['$.card.number', '$.*.ssn', '$.**.password'] },
      labels: { tenant: 'header:X-Tenant' },
      meter: { tokens: '$.usage.total_tokens' },
    },
    { name: 'private', match: { path: '/api/private/**' }, restrict: ['request_body', 'response_body'] },
    { name: 'sampled', match: { path: '/api/sampled/**' }, sample: 0, keep_errors: true },
  ],
};

const SECRETS = ['4111111111111111', '123-45-6789', 'hunter2', 'sk-live-abc', 'Bearer top-secret', 's3cret-token', 'deep-pw'];

const metric = (text: string, line: RegExp) => Number(line.exec(text)?.[1] ?? NaN);

for (const backend of backends) {
  const capture = suite(`capture plugin (${backend.name})`);
  capture.after(() => backend.cleanup());

  capture('exchanges in, governed records out: stored, served and published, with every redaction applied', async () => {
    const h = await startCapture({ policy, storage: await backend.storage() });
    try {
      const full = exchange(policy, {
        method: 'POST',
        target: '/api/orders/7?token=s3cret-token&Token=s3cret-token&page=2',
        labels: { tenant: 'acme' },
        requestHeaders: rawHeaders({ 'content-type': 'application/json', authorization: 'Bearer top-secret', 'X-API-KEY': 'sk-live-abc', 'x-tenant': 'acme' }),
        requestBody: {
          card: { number: '4111111111111111', expiry: '12/29' },
          customer: { ssn: '123-45-6789', name: 'Ada' },
          account: { settings: [{ password: 'hunter2' }, { nested: { password: 'deep-pw' } }] },
          note: 'kept',
        },
        responseBody: { id: 'ord_7', usage: { total_tokens: 1234 } },
      });
      const restricted = exchange(policy, { target: '/api/private/keys', labels: { tenant: 'acme' }, requestBody: null, responseBody: null });
      const sampledOut = exchange(policy, { target: '/api/sampled/a', status: 200, requestBody: { a: 1 }, responseBody: { b: 2 } });
      const keptError = exchange(policy, { target: '/api/sampled/b', status: 502, requestBody: { a: 1 }, responseBody: { error: 'bad gateway' } });

      const timedOut = exchange(policy, { target: '/api/sampled/c', status: 504, error: 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT', responseBody: null });

      const [r, p, s, e, t] = await h.feed([full, restricted, sampledOut, keptError, timedOut]);

      assert.equal(r.request_body, {
        card: { number: '[REDACTED]', expiry: '12/29' },
        customer: { ssn: '[REDACTED]', name: 'Ada' },
        account: { settings: [{ password: '[REDACTED]' }, { nested: { password: '[REDACTED]' } }] },
        note: 'kept',
      });
      assert.is(r.headers!.Authorization, '[REDACTED]');
      assert.is(r.headers!['X-Api-Key'], '[REDACTED]');
      assert.is(r.headers!['X-Tenant'], 'acme');
      assert.equal(r.query, { token: '[REDACTED]', Token: '[REDACTED]', page: '2' });
      assert.equal(r.labels, { tenant: 'acme' });
      assert.equal(r.matched_rules, ['api']);
      assert.equal(r.route, ['/api/**']);
      assert.is(r.tokens, 1234);
      assert.equal(r.response_body, { id: 'ord_7', usage: { total_tokens: 1234 } });

      assert.equal(p.matched_rules, ['api', 'private']);
      assert.is(p.request_body, null);
      assert.is(p.response_body, null);
      assert.is(s.sampled, false);
      assert.is(s.request_body, null, 'sample: 0 keeps no body of a success');
      assert.is(e.sampled, true);
      assert.equal(e.response_body, { error: 'bad gateway' }, 'keep_errors keeps 5xx bodies');
      assert.is(e.error, null, 'a 502 the upstream sent');
      assert.is(t.error, 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT', 'a 504 the gateway made says so');
      assert.is(r.error, null);

      // The API serves exactly what was published, and nothing unredacted anywhere.
      const one = await h.get(`/api/gateway/records/${full.id}`);
      assert.is(one.status, 200);
      assert.equal(one.body, r);
      const list = await h.get<{ data: unknown[] }>('/api/gateway/records?limit=200');
      assert.is(list.body.data.length, 5);
      const everything = JSON.stringify([list.body, h.received]);
      for (const secret of SECRETS) assert.not.ok(everything.includes(secret), `${secret} leaked`);

      const metrics = await h.rt.metrics();
      assert.is(metric(metrics, /^vigil_tokens_total\{route="\/api\/\*\*",tenant="acme"\} (\S+)$/m), 1234);
      assert.is(metric(metrics, /^vigil_capture_records_total\{outcome="stored"\} (\S+)$/m), 5);
      // Records and their rollups go in as one transaction per batch, from the worker threads where they can open
      // the store: counted here all the same (reported over a channel, so perhaps a moment after the outcome).
      await waitFor(async () => metric(await h.rt.metrics(), /^vigil_store_queries_total\{op="transaction"\} (\S+)$/m) >= 1,
        { what: 'the records\' transaction in vigil_store_queries_total' });
    } finally {
      await h.stop();
    }
  });

  capture('governance fails closed: a body it cannot parse where json_fields applies is not stored, and the record says why', async () => {
    const h = await startCapture({ policy, storage: await backend.storage() });
    try {
      const cut = new TextEncoder().encode('{"card":{"number":"4111111111111111","expiry":"12/29"');
      const [malformed, truncated] = await h.feed([
        exchange(policy, { target: '/api/orders/1', requestBody: cut }),
        exchange(policy, { target: '/api/orders/2', requestBody: cut, requestTruncated: true }),
      ]);
      for (const r of [malformed, truncated]) {
        assert.is(r.request_body, null);
        assert.match(r.dropped_reason ?? '', /^request_body: /);
      }
      assert.match(malformed.dropped_reason!, /malformed JSON/);
      assert.match(truncated.dropped_reason!, /truncated/);
      assert.is(truncated.truncated, true);
      const stored = await h.get('/api/gateway/records?limit=200');
      assert.not.ok(JSON.stringify(stored.body).includes('4111111111111111'));
      assert.match(JSON.stringify(stored.body), /malformed JSON/);
    } finally {
      await h.stop();
    }
  });

  capture('a store that refuses the batch is counted and logged; the records still reach the exporters', async () => {
    let breakStore: (() => Promise<unknown>) | undefined;
    const saboteur = definePlugin({
      name: 'store-saboteur', version: '0.0.0', needs: ['store'],
      setup(ctx) { breakStore = () => ctx.store.run('ALTER TABLE capture_records RENAME TO capture_records_gone'); },
    });
    const h = await startCapture({ policy, storage: await backend.storage(), plugins: [saboteur] });
    try {
      await h.feed([exchange(policy)]);
      await breakStore!();
      const [r] = await h.feed([exchange(policy, { requestBody: { card: { number: '4111111111111111' } } })]);
      assert.equal(r.request_body, { card: { number: '[REDACTED]' } });
      const m = await h.rt.metrics();
      assert.is(metric(m, /^vigil_capture_records_total\{outcome="stored"\} (\S+)$/m), 1);
      assert.is(metric(m, /^vigil_capture_records_total\{outcome="store_failed"\} (\S+)$/m), 1);
    } finally {
      await h.stop();
    }
  });

  capture('records reach a gateway.record subscriber as they are stored: the stored JSON text on one line, and its key fields', async () => {
    const seen: GovernedRecordJson[] = [];
    const exporter = definePlugin({
      name: 'record-listener',
      version: '0.0.0',
      needs: ['capture'],
      setup(ctx) {
        let off: (() => Promise<void>) | undefined;
        return {
          start() { off = ctx.bus.subscribe('gateway.record', (batch) => { seen.push(...batch); }); },
          async stop() { await off?.(); },
        };
      },
    });
    const storage = await backend.storage();
    const h = await startCapture({ policy, storage, plugins: [exporter] });
    try {
      const batch = Array.from({ length: 30 }, (_, i) => exchange(policy, {
        target: `/api/items/${i}`, labels: { tenant: `t-${i % 3}` }, status: i % 10 === 0 ? 502 : 200,
        ...(i % 10 === 0 ? { error: 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE' } : {}),
        // As a client may format it: over several lines, `.50`, an escaped `é`; a parse and a stringify would change all three.
        requestBody: encoder.encode(`{\n  "card": { "number": "4111111111111111" },\r\n  "amount": ${i}.50, "note": "caf\\u00e9"\n}`),
      }));
      await h.feed(batch);
      await waitFor(() => seen.length === 30, { what: '30 records at the second subscriber' });
      assert.equal(new Set(seen.map((r) => r.id)), new Set(batch.map((e) => e.id)));
      assert.not.ok(JSON.stringify(seen).includes('4111111111111111'));
      const stored = await h.storedTexts();
      for (const r of seen) {
        if (stored) assert.is(r.json, stored.get(r.id), 'the text published is the text stored');
        assert.equal(JSON.parse(r.json), (await h.get(`/api/gateway/records/${r.id}`)).body);
        assert.not.ok(/[\r\n]/.test(r.json), 'one line');
        assert.match(r.json, /"amount": \d+\.50, "note": "caf\\u00e9"/);
        const parsed = JSON.parse(r.json);
        assert.equal({ ...r, json: undefined }, {
          json: undefined, id: parsed.id, time: parsed.time, method: parsed.method, path: parsed.path, route: parsed.route,
          status: parsed.status, labels: parsed.labels, error: parsed.error,
        });
      }
      const failed = seen.find((r) => r.status === 502)!;
      assert.is(failed.error, 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE');
      assert.equal(failed.route, ['/api/**']);
    } finally {
      await h.stop();
    }
  });

  capture('a full lane drops and counts; the publisher is never blocked and nothing is lost uncounted', async () => {
    // batch larger than the queue: nothing is sent before the batch_delay timer, so the queue fills deterministically.
    const h = await startCapture({ policy, storage: await backend.storage(), capture: { queue: 5, batch: 1000 } });
    try {
      const first = Array.from({ length: 50 }, (_, i) => exchange(policy, { target: `/api/a/${i}` }));
      const accepted = first.map((e) => h.rt.publish('gateway.exchange', e));
      // Publishing is synchronous: all 50 calls returned before any delivery could run.
      assert.is(accepted.filter((n) => n === 1).length, 5, 'the subscriber queue took 5');
      assert.is(accepted.filter((n) => n === 0).length, 45, 'and refused the rest at once');
      // A second wave, once the first five sit in the batcher, meets a full batcher instead.
      await new Promise((r) => setImmediate(r));
      const second = Array.from({ length: 5 }, (_, i) => exchange(policy, { target: `/api/b/${i}` }));
      for (const e of second) h.rt.publish('gateway.exchange', e);

      const counts = async () => {
        const m = await h.rt.metrics();
        return {
          stored: metric(m, /^vigil_capture_records_total\{outcome="stored"\} (\S+)$/m),
          laneDropped: metric(m, /^vigil_capture_records_total\{outcome="dropped"\} (\S+)$/m),
          busDropped: metric(m, /^vigil_bus_dropped_total\{topic="gateway\.exchange",subscriber="capture"\} (\S+)$/m),
        };
      };
      const total = 55;
      const settled = await waitFor(async () => {
        const c = await counts();
        return c.stored + c.laneDropped + c.busDropped === total ? c : null;
      }, { what: 'every exchange stored or counted as dropped' }) as NonNullable<Awaited<ReturnType<typeof counts>>>;
      assert.ok(settled.busDropped >= 45);
      assert.ok(settled.stored >= 5, 'the first five are stored');
      const stored = await h.get<{ data: { id: string }[] }>('/api/gateway/records?limit=200');
      assert.is(stored.body.data.length, settled.stored);
    } finally {
      await h.stop();
    }
  });

  capture('an exchange waits batch_delay for its batch to fill, then is stored', async () => {
    const h = await startCapture({ policy, storage: await backend.storage(), capture: { batch_delay: '1500ms' } });
    try {
      const e = exchange(policy, { target: '/api/lingering/1' });
      const sent = performance.now();
      h.rt.publish('gateway.exchange', e);
      const stored = async () => (await h.get<{ data: { id: string }[] }>('/api/gateway/records?limit=200')).body.data.some((r) => r.id === e.id);
      await new Promise((r) => setTimeout(r, 500));
      assert.not.ok(await stored(), 'a batch of one is not sent before its delay');
      await waitFor(stored, { what: 'the record, once the delay is over' });
      assert.ok(performance.now() - sent >= 1500, 'not before 1500 ms');
    } finally {
      await h.stop();
    }
  });

  capture('a burst of many more batches than worker threads is stored completely, none refused by the pool', async () => {
    const h = await startCapture({ policy, storage: await backend.storage(), capture: { batch: 5, workers: 1 } });
    try {
      const burst = Array.from({ length: 600 }, (_, i) => exchange(policy, { target: `/api/burst/${i}`, labels: { tenant: `t${i % 3}` } }));
      await h.feed(burst);
      const m = await h.rt.metrics();
      assert.is(metric(m, /^vigil_capture_records_total\{outcome="stored"\} (\S+)$/m), 600);
      assert.is(metric(m, /^vigil_workers_failed_total\{pool="capture"\} (\S+)$/m), 0);
      const usage = await h.get<{ data: { requests: number }[] }>('/api/gateway/usage?range=1h');
      assert.is(usage.body.data.reduce((n, t) => n + t.requests, 0), 600);
    } finally {
      await h.stop();
    }
  });

  capture('retention deletes records and rollups past their age, and keeps the rest', async () => {
    const h = await startCapture({
      policy,
      storage: await backend.storage(),
      capture: { retention: '1h', rollup_retention: '2h', retention_interval: '100ms' },
    });
    try {
      const now = Date.now();
      const old = exchange(policy, { time: now - 3 * 3_600_000 });
      const recent = exchange(policy, { time: now - 90 * 60_000 });
      const fresh = exchange(policy, { time: now });
      await h.feed([old, recent, fresh]);
      await waitFor(async () => (await h.get(`/api/gateway/records/${recent.id}`)).status === 404, { what: 'the 90-minute-old record to expire' });
      assert.is((await h.get(`/api/gateway/records/${old.id}`)).status, 404);
      assert.is((await h.get(`/api/gateway/records/${fresh.id}`)).status, 200);
      // Rollups keep 2 h: the 90-minute-old exchange still counts in the overview, the 3-hour-old one does not.
      await waitFor(async () => (await h.get<{ requests: number }>('/api/gateway/overview?range=7d')).body.requests === 2,
        { what: 'the 3-hour-old rollup to expire' });
    } finally {
      await h.stop();
    }
  });

  // Read back by a second runtime, so only where the database outlives the first.
  if (backend.persistent) capture('stop drains: exchanges published just before stop are stored', async () => {
    const dir = tempDir('vigil-capture-drain-');
    const storage = (await backend.storage()) ?? { url: `sqlite:${join(dir.path, 'vigil.db')}` };
    try {
      const first = await startCapture({ policy, storage });
      const batch = Array.from({ length: 40 }, (_, i) => exchange(policy, { target: `/api/drain/${i}` }));
      for (const e of batch) first.rt.publish('gateway.exchange', e);
      await first.stop();
      const second = await startCapture({ policy, storage });
      try {
        const list = await second.get<{ data: { id: string }[] }>('/api/gateway/records?limit=200');
        assert.equal(new Set(list.body.data.map((r) => r.id)), new Set(batch.map((e) => e.id)));
      } finally {
        await second.stop();
      }
    } finally {
      dir.cleanup();
    }
  });

  capture.run();
}

const setup = suite('capture setup');

setup('capture governs by the governance plugin\'s rules, which the runtime checks before anything starts', async () => {
  try {
    await startTestRuntime({ plugins: [], config: { capture: {}, rules: [{ name: 'x', match: { path: '/**' } }, { name: 'x', match: { path: '/a' } }] } });
    assert.unreachable('the runtime should not start');
  } catch (err) {
    assert.match(String((err as Error).message), /rules\[1\]\.name/);
    assert.match(String((err as Error).message), /already used by rules\[0\]/);
  }
});

setup('the service tells the proxy how many body bytes to copy', async () => {
  let seen: number | undefined;
  const reader = definePlugin({
    name: 'limit-reader', version: '0.0.0', needs: ['capture'],
    setup(ctx) { seen = ctx.services.get('capture').maxBodyBytes; },
  });
  const rt = await startTestRuntime({ plugins: [reader], config: { capture: { max_body_bytes: '64kb' } } });
  await rt.stop();
  assert.is(seen, 65536);
  const defaults = await startTestRuntime({ plugins: [reader], config: { capture: {} } });
  await defaults.stop();
  assert.is(seen, 1024 * 1024);
});

setup('bad config is refused before anything starts: unknown key, bad tenant label, zero workers, no sweep interval', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ batchsize: 10 }, /capture\.batchsize/],
    [{ tenant_label: 'tenant-id' }, /capture\.tenant_label/],
    [{ workers: 0 }, /capture\.workers/],
    [{ retention: 'forever' }, /capture\.retention/],
    [{ pricing: { per_1k_tokens: -1 } }, /capture\.pricing\.per_1k_tokens/],
    [{ pricing: { per_token: 1 } }, /capture\.pricing\.per_token/],
    [{ retention_interval: '0' }, /capture\.retention_interval must be ≥ 1ms/],
    [{ retention: -5 }, /capture\.retention must be ≥ 0/],
    [{ batch_delay: '0' }, /capture\.batch_delay must be ≥ 1ms/],
    [{ batch_delay: '2m' }, /capture\.batch_delay must be ≤ 1m/],
  ];
  for (const [config, message] of cases) {
    try {
      const rt = await startTestRuntime({ plugins: [], config: { capture: config } });
      await rt.stop();
      assert.unreachable(`${JSON.stringify(config)} should be refused`);
    } catch (err) {
      assert.match(String((err as Error).message), message, JSON.stringify(config));
    }
  }
});

/** A plugin holding the capture service, so a test can take from the lane's budget as the proxy does. */
function serviceHolder(into: { capture?: CaptureService }) {
  return definePlugin({
    name: 'budget-holder', version: '0.0.0', needs: ['capture'],
    setup(ctx) { into.capture = ctx.services.get('capture'); },
  });
}

setup('the lane\'s byte budget: takes refuse past queue_bytes; bytes published with an exchange come back once a worker is done with it', async () => {
  const held: { capture?: CaptureService } = {};
  const rt = await startTestRuntime({ plugins: [serviceHolder(held)], config: { capture: { queue_bytes: 1000, batch_delay: '1ms' } } });
  try {
    const capture = held.capture!;
    const queued = async () => metric(await rt.metrics(), /^vigil_capture_queue_bytes (\S+)$/m);
    assert.ok(capture.takeBodyBytes(600));
    assert.not.ok(capture.takeBodyBytes(401), 'past the budget');
    assert.ok(capture.takeBodyBytes(400));
    assert.is(await queued(), 1000);
    capture.giveBodyBytes(400);
    const e = exchange({ rules: [] }, { requestBody: { a: 1 }, heldBytes: 600 });
    rt.publish('gateway.exchange', e);
    await waitFor(async () => (await queued()) === 0, { what: 'the bytes given back' });
    assert.is(e.heldBytes, 0, 'given back once: zeroed on the exchange');
    assert.ok(capture.takeBodyBytes(1000));
  } finally {
    await rt.stop();
  }
});

setup('exchanges the lane drops (its queue full) give their bytes back', async () => {
  const held: { capture?: CaptureService } = {};
  const rt = await startTestRuntime({ plugins: [serviceHolder(held)], config: { capture: { queue: 1, queue_bytes: 1000, batch_delay: '1ms' } } });
  try {
    const capture = held.capture!;
    const sent = [];
    for (let i = 0; i < 5; i++) {
      assert.ok(capture.takeBodyBytes(100));
      const e = exchange({ rules: [] }, { requestBody: { i }, heldBytes: 100 });
      sent.push(e);
      rt.publish('gateway.exchange', e);
    }
    await waitFor(async () => metric(await rt.metrics(), /^vigil_capture_queue_bytes (\S+)$/m) === 0, { what: 'every byte given back' });
    assert.ok(sent.every((e) => e.heldBytes === 0));
  } finally {
    await rt.stop();
  }
});

setup('a body the proxy could not copy (budget spent) is counted, and its record says so instead of claiming a body', async () => {
  const h = await startCapture({ capture: { batch_delay: '1ms' } });
  try {
    const [r] = await h.feed([exchange({ rules: [] }, { requestBody: { kept: true }, responseBody: new Uint8Array(0), responseBodyDropped: true })]);
    assert.equal(r.request_body, { kept: true });
    assert.is(r.response_body, null);
    assert.match(r.dropped_reason ?? '', /^response_body: not copied: .*capture\.queue_bytes/);
    const text = await h.rt.metrics();
    assert.is(metric(text, /^vigil_capture_bodies_dropped_total\{part="response_body"\} (\S+)$/m), 1);
  } finally {
    await h.stop();
  }
});

setup.run();
