import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bus } from '@vigil/plugin-sdk';
import { announceStored } from '../../../../plugins/capture/live-events.js';
import { exchange, startCapture } from './capture-harness.js';
import { definePlugin } from '@vigil/plugin-sdk';
import { waitFor } from '../../../support/net.js';

function fakeBus(listening: boolean) {
  const published: unknown[] = [];
  const bus = {
    hasSubscribers: (topic: string) => listening && topic === 'ui.event',
    publish: (_topic: string, message: unknown) => { published.push(message); return 1; },
    subscribe: () => async () => {},
  } as unknown as Bus;
  return { bus, published };
}

test('one small event per stored batch, and none while no dashboard page listens or nothing was stored', () => {
  const on = fakeBus(true);
  announceStored(on.bus, 12, 1000);
  announceStored(on.bus, 0, 2000);
  assert.equal(on.published, [{ topic: 'gateway.record', data: { stored: 12, time: 1000 } }]);
  const off = fakeBus(false);
  announceStored(off.bus, 12);
  assert.equal(off.published, []);
});

test('capture announces stored batches on ui.event to a listener', async () => {
  const events: { topic: string; data: { stored: number } }[] = [];
  const listener = definePlugin({
    name: 'ui-listener', version: '0.0.0',
    setup(ctx) {
      let off: (() => Promise<void>) | undefined;
      return {
        start() { off = ctx.bus.subscribe('ui.event', (batch) => { events.push(...(batch as typeof events)); }); },
        async stop() { await off?.(); },
      };
    },
  });
  const policy = { rules: [{ name: 'all', match: { path: '/**' } }] };
  const h = await startCapture({ policy, plugins: [listener] });
  try {
    await h.feed([exchange(policy), exchange(policy), exchange(policy)]);
    await waitFor(() => events.reduce((n, e) => n + e.data.stored, 0) === 3, { what: 'three stored records announced' });
    assert.ok(events.every((e) => e.topic === 'gateway.record'));
  } finally {
    await h.stop();
  }
});

test.run();
