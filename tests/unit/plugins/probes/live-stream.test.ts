// The 2 s live sample's switch: the ui plugin's stream says when the first page watches host.live and when the last
// leaves; samples are read and published on the real bus only in between, and a slow reading is never stacked.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Counter, Gauge, UiEvent } from '@vigil/plugin-sdk';
import { LIVE_TOPIC, LiveStream } from '../../../../plugins/probes/live-stream.js';
import type { HostLive } from '../../../../plugins/probes/live-types.js';
import { EventStream } from '../../../../plugins/ui/event-stream.js';
import { MessageBus } from '../../../../runtime/bus/message-bus.js';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';
import { waitFor } from '../../../support/net.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function setup(readMs = 0) {
  const registry = new MetricsRegistry();
  const bus = new MessageBus(registry.core, () => {}).forPlugin('probes');
  const gauge = { set() {}, inc() {}, dec() {} } as unknown as Gauge;
  const counter = { inc() {}, labels: () => ({ inc() {} }) } as unknown as Counter;
  const pages = new EventStream({ heartbeatMs: 60_000, maxStreams: 10, onFirst() {}, onLast() {}, open: gauge, events: counter });
  const published: UiEvent[] = [];
  bus.subscribe('ui.event', (batch) => { published.push(...batch); });
  let reads = 0;
  let taken = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  const live = new LiveStream({
    ui: { watch: (topic, listener) => pages.watch(topic, listener) }, bus, intervalMs: 50,
    async read() {
      reads++;
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await sleep(readMs);
      inFlight--;
      return { taken_at: new Date().toISOString() } as unknown as HostLive;
    },
    contain: (_what, fn) => () => { void fn(); },
    taken: { inc: () => { taken++; } },
  });
  const open = (...topics: string[]) => {
    let gone = () => {};
    pages.open(new Set(topics), (l) => { gone = l; });
    return () => gone();
  };
  return { live, open, published, counts: () => ({ reads, taken, mostInFlight }) };
}

test('nothing read before a page watches host.live, samples while one does, none after it left', async () => {
  const s = setup();
  s.live.start();
  const other = s.open('gateway.record');
  await sleep(200);
  assert.is(s.counts().reads, 0, 'no page on host.live: nothing read');
  assert.not.ok(s.live.running);
  const leave = s.open(LIVE_TOPIC);
  assert.ok(s.live.running);
  await sleep(230);
  const during = s.counts().reads;
  assert.ok(during >= 3, `a sample at once, then one every 50 ms (${during})`);
  leave();
  assert.not.ok(s.live.running);
  // A reading is counted when it is taken; the bus delivers it to ui.event a turn later (setImmediate): wait for the
  // samples taken while the page watched to be published (leaving first, so no later reading adds to them).
  await waitFor(() => s.published.length >= 3, { timeoutMs: 2_000, intervalMs: 5, what: 'three samples published' }).catch(() => undefined);
  assert.ok(s.published.length >= 3 && s.published.every((e) => e.topic === LIVE_TOPIC), 'published on ui.event as host.live');
  await sleep(200);
  assert.ok(s.counts().reads <= during + 1, 'at most the reading under way finishes');
  other();
  s.live.stop();
  s.live.stop();
});

test('a reading slower than the interval is not stacked: one at a time', async () => {
  const s = setup(180);
  s.live.start();
  const leave = s.open(LIVE_TOPIC);
  await sleep(500);
  leave();
  s.live.stop();
  assert.is(s.counts().mostInFlight, 1);
  assert.ok(s.counts().reads <= 4, `readings of 180 ms in 500 ms (${s.counts().reads})`);
});

test('without the ui plugin there are no pages, so nothing runs; stop without start is safe', () => {
  const registry = new MetricsRegistry();
  const live = new LiveStream({
    ui: undefined, bus: new MessageBus(registry.core, () => {}).forPlugin('probes'), intervalMs: 10,
    read: async () => { throw new Error('must not read'); }, contain: (_w, fn) => () => { void fn(); }, taken: { inc() {} },
  });
  live.stop();
  live.start();
  assert.not.ok(live.running);
  live.stop();
});

test.run();
