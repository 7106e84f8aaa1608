import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MessageBus } from '../../../../runtime/bus/message-bus.js';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';

function makeBus() {
  const registry = new MetricsRegistry();
  const errors: [string, unknown][] = [];
  const bus = new MessageBus(registry.core, (plugin, err) => errors.push([plugin, err]));
  return { bus, registry, errors };
}

test('delivers messages in order, in batches, to every subscriber', async () => {
  const { bus } = makeBus();
  const a: number[] = [];
  const batches: number[] = [];
  const b: number[] = [];
  bus.subscribe('p1', 'test.numbers', (batch) => { batches.push(batch.length); a.push(...(batch as number[])); }, { batch: 4 });
  bus.subscribe('p2', 'test.numbers', (batch) => { b.push(...(batch as number[])); });
  for (let i = 0; i < 10; i++) assert.is(bus.publish('test.numbers', i), 2);
  await bus.drain(1000);
  assert.equal(a, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(b, a);
  assert.equal(batches, [4, 4, 2]);
});

test('publish never waits for a slow subscriber: a full queue drops and counts', async () => {
  const { bus, registry } = makeBus();
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const seen: number[] = [];
  bus.subscribe('slow', 'test.flood', async (batch) => { await gate; seen.push(...(batch as number[])); }, { queue: 5, batch: 1 });
  let accepted = 0;
  for (let i = 0; i < 100; i++) accepted += bus.publish('test.flood', i);
  // The first message may already be in the handler; the queue holds at most 5 more.
  assert.ok(accepted <= 6, `accepted ${accepted}`);
  assert.ok(accepted >= 5);
  release();
  await bus.drain(1000);
  assert.is(seen.length, accepted);
  const text = registry.expose();
  const dropped = Number(/vigil_bus_dropped_total\{topic="test.flood",subscriber="slow"\} (\d+)/.exec(text)?.[1]);
  assert.is(dropped, 100 - accepted);
});

test('a subscriber is told of each message its queue drops, full or closed, and a throwing onDrop is contained', async () => {
  const { bus, errors } = makeBus();
  const dropped: number[] = [];
  const unsubscribe = bus.subscribe('p', 'test.owned', () => new Promise<void>(() => {}), { queue: 2, onDrop: (m) => dropped.push(m as number) });
  // Publishing is synchronous and delivery waits for the next turn: two fit, three are dropped.
  for (let i = 0; i < 5; i++) bus.publish('test.owned', i);
  assert.equal(dropped, [2, 3, 4]);
  await new Promise((r) => setImmediate(r));
  // The first batch is in the (never-ending) handler: the queue takes two more, then drops.
  for (let i = 5; i < 8; i++) bus.publish('test.owned', i);
  assert.equal(dropped, [2, 3, 4, 7]);
  void unsubscribe();
  assert.is(bus.publish('test.owned', 99), 0);
  assert.equal(dropped, [2, 3, 4, 7], 'an unsubscribed queue is no longer offered messages');
  const off = bus.subscribe('r', 'test.late', () => {}, { queue: 1, onDrop: () => { throw new Error('onDrop bug'); } });
  bus.publish('test.late', 1);
  bus.publish('test.late', 2);
  assert.is(errors.length, 1);
  assert.is(errors[0][0], 'r');
  await off();
});

test('a throwing handler is contained and attributed to its plugin; later batches still flow', async () => {
  const { bus, errors } = makeBus();
  const got: unknown[] = [];
  bus.subscribe('boom', 'test.x', (batch) => { if (batch.includes('bad')) throw new Error('kaput'); got.push(...batch); }, { batch: 1 });
  bus.publish('test.x', 'ok1');
  bus.publish('test.x', 'bad');
  bus.publish('test.x', 'ok2');
  await bus.drain(1000);
  assert.equal(got, ['ok1', 'ok2']);
  assert.is(errors.length, 1);
  assert.is(errors[0][0], 'boom');
  assert.match(String(errors[0][1]), /kaput/);
});

test('an async handler takes one batch at a time, in order; a rejected one is contained and not counted delivered', async () => {
  const { bus, registry, errors } = makeBus();
  const got: unknown[] = [];
  let inHandler = 0;
  let overlapped = false;
  bus.subscribe('slow', 'test.async', async (batch) => {
    if (++inHandler > 1) overlapped = true;
    await new Promise((r) => setTimeout(r, 5));
    inHandler--;
    if (batch.includes('bad')) throw new Error('async kaput');
    got.push(...batch);
  }, { batch: 1 });
  for (const m of ['a', 'bad', 'b', 'c']) bus.publish('test.async', m);
  await bus.drain(1000);
  assert.equal(got, ['a', 'b', 'c']);
  assert.not.ok(overlapped, 'the next batch waited for the previous promise');
  assert.is(errors.length, 1);
  assert.match(String(errors[0][1]), /async kaput/);
  assert.match(registry.expose(), /vigil_bus_delivered_total\{topic="test.async",subscriber="slow"\} 3/);
});

test('unsubscribe stops delivery and hasSubscribers reflects it', async () => {
  const { bus } = makeBus();
  const got: unknown[] = [];
  assert.is(bus.hasSubscribers('test.y'), false);
  assert.is(bus.publish('test.y', 1), 0);
  const off = bus.subscribe('p', 'test.y', (b) => { got.push(...b); });
  assert.is(bus.hasSubscribers('test.y'), true);
  bus.publish('test.y', 2);
  await bus.drain(1000);
  off();
  assert.is(bus.hasSubscribers('test.y'), false);
  assert.is(bus.publish('test.y', 3), 0);
  await bus.drain(1000);
  assert.equal(got, [2]);
});

test('the plugin view names the subscriber after the plugin in metrics', async () => {
  const { bus, registry } = makeBus();
  const view = bus.forPlugin('exporters');
  view.subscribe('test.z', () => {});
  view.publish('test.z', 1);
  await bus.drain(1000);
  assert.match(registry.expose(), /vigil_bus_delivered_total\{topic="test.z",subscriber="exporters"\} 1/);
});

test.run();
