// vigil_channels_deliveries_pending on /metrics: the store's count of deliveries waiting to be sent or retried.
// A receiver that answers 503 keeps its deliveries pending (the next attempt is an hour away): the gauge shows them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, type ChannelsService } from '@vigil/plugin-sdk';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { startReceivers, type Receivers } from '../../../support/channel-receivers.js';
import { waitFor } from '../../../support/net.js';

let rt: TestRuntime;
let rx: Receivers;
let channels: ChannelsService;

const caller = definePlugin({
  name: 'caller', version: '0.0.0', needs: ['channels'],
  setup(ctx) { channels = ctx.services.get('channels'); },
});

test.before(async () => {
  rx = await startReceivers();
  rt = await startTestRuntime({
    plugins: [caller],
    config: { channels: { max_attempts: 5, backoff: '1h', targets: [{ id: 'down', type: 'webhook', url: rx.url('/down') }] } },
  });
});
test.after(async () => {
  await rt?.stop();
  await rx?.close();
});

const pending = async (): Promise<number | undefined> => {
  const m = /^vigil_channels_deliveries_pending (\d+)$/m.exec(await rt.metrics());
  return m ? Number(m[1]) : undefined;
};

test('the gauge counts deliveries waiting for a retry (refreshed every 10 s)', async () => {
  assert.is(await pending(), 0, 'the gauge is on /metrics from the start');
  rx.script('/down', [{ status: 503 }]);
  const message = { title: 'Errors above 5 %', text: 'gateway errors at 7 %', severity: 'warning' as const };
  for (const id of ['ev-1', 'ev-2', 'ev-3']) await channels.deliver({ eventId: id, channels: ['down'], message });
  await waitFor(() => rx.received('/down').length >= 3, { timeoutMs: 10_000, what: 'three failed first attempts' });
  const rows = await channels.deliveries(['ev-1', 'ev-2', 'ev-3']);
  assert.equal(rows.map((r) => [r.state, r.attempts]), [['pending', 1], ['pending', 1], ['pending', 1]]);
  await waitFor(async () => (await pending()) === 3, { timeoutMs: 15_000, intervalMs: 250, what: 'the gauge at 3' });
});

test.run();
