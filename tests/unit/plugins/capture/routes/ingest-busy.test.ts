// The ingest route's bound on bodies handed to the capture pool: while MAX_INGEST_IN_FLIGHT bodies are being governed,
// one more POST is answered 503 with Retry-After (nothing stored, the middleware retries), and once one of them is
// done the next is taken. The route runs on a real control plane; the pool's task is held open by the test, so the
// bound is reached deterministically, without timing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin } from '@vigil/plugin-sdk';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';
import { registerIngestAuth } from '../../../../../plugins/capture/ingest-auth.js';
import { RecordWriter } from '../../../../../gateway/records/record-writer.js';
import { MAX_INGEST_IN_FLIGHT, registerIngestRoute } from '../../../../../plugins/capture/routes/ingest.js';
import type { IngestedRecords } from '../../../../../gateway/records/lane-tasks.js';
import { waitFor } from '../../../../support/net.js';

const INGEST = 'ingest-busy-test-token-0123456789';

test('past MAX_INGEST_IN_FLIGHT bodies in the pool: 503 INGEST_BUSY with Retry-After; taken again once one is done', async () => {
  const held: { body: Uint8Array; done(r: IngestedRecords): void }[] = [];
  const done: IngestedRecords = {
    restricted: 0, duplicates: 0, regoverned: 0, reasons: {}, tokens: [], stored: 0, storeFailed: 0, storeError: null,
  };
  const probe = definePlugin({
    name: 'ingest-route-probe',
    version: '0.0.0',
    needs: ['http', 'store'],
    setup(ctx) {
      registerIngestAuth(ctx.http, INGEST);
      registerIngestRoute(ctx.http, {
        store: ctx.store, writer: new RecordWriter(ctx.store), tenantLabel: 'tenant',
        run: (body) => new Promise((resolve) => held.push({ body, done: resolve })),
        stored: () => {},
      });
      return {};
    },
  });
  const rt = await startTestRuntime({ plugins: [probe] });
  try {
    const post = () => rt.fetch('/api/gateway/records', {
      method: 'POST', auth: false, body: '{"records":[]}', headers: { 'content-type': 'application/json', authorization: `Bearer ${INGEST}` },
    });
    const first = Array.from({ length: MAX_INGEST_IN_FLIGHT }, post);
    await waitFor(() => held.length === MAX_INGEST_IN_FLIGHT, { what: `${MAX_INGEST_IN_FLIGHT} bodies in the pool` });
    assert.is(new TextDecoder().decode(held[0].body), '{"records":[]}', 'the body\'s bytes reach the task as sent');
    // Either the answer comes, or the body reaches the pool (a bound that does not hold): never a hang.
    const raced = await Promise.race([
      post().then((res) => ({ res })),
      waitFor(() => held.length > MAX_INGEST_IN_FLIGHT, { what: 'a body past the bound', timeoutMs: 30_000 }).then(() => ({ res: null })),
    ]);
    assert.ok(raced.res, `body ${MAX_INGEST_IN_FLIGHT + 1} was handed to the pool`);
    const busy = raced.res;
    assert.is(busy.status, 503);
    assert.is(busy.headers.get('retry-after'), '1');
    assert.is(((await busy.json()) as { error: { code: string } }).error.code, 'VIGIL_ERR_CAPTURE_INGEST_BUSY');
    assert.is(held.length, MAX_INGEST_IN_FLIGHT, 'the refused body never reached the pool');
    held[0].done(done);
    assert.is((await first[0]).status, 200);
    const next = post();
    await waitFor(() => held.length === MAX_INGEST_IN_FLIGHT + 1, { what: 'the next body taken' });
    for (const h of held.slice(1)) h.done(done);
    for (const res of [...first.slice(1), next]) assert.is((await res).status, 200);
  } finally {
    for (const h of held) h.done(done);
    await rt.stop();
  }
});

test.run();
