// The stream's watch: a publisher learns when the first page subscribes to its topic and when the last one leaves,
// so it collects only while someone watches (the host's 2 s live sample).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Counter, Gauge } from '@vigil/plugin-sdk';
import { EventStream } from '../../../../plugins/ui/event-stream.js';

const gauge = { set() {}, inc() {}, dec() {} } as unknown as Gauge;
const counter = { inc() {}, labels: () => ({ inc() {} }) } as unknown as Counter;

function stream(): EventStream {
  return new EventStream({ heartbeatMs: 60_000, maxStreams: 10, onFirst() {}, onLast() {}, open: gauge, events: counter });
}

/** Opens a page on `topics`; returns the function that makes it go (its request closed). */
function page(s: EventStream, ...topics: string[]): () => void {
  let gone: () => void = () => {};
  s.open(new Set(topics), (listener) => { gone = listener; });
  return () => gone();
}

test('told at once, then only on the edges: the first page on the topic and the last one leaving', () => {
  const s = stream();
  const seen: boolean[] = [];
  const stop = s.watch('host.live', (w) => seen.push(w));
  assert.equal(seen, [false], 'the current state at once');
  const other = page(s, 'gateway.record');
  assert.equal(seen, [false], 'a page on another topic changes nothing');
  const a = page(s, 'host.live', 'ui.settings');
  const b = page(s, 'host.live');
  assert.equal(seen, [false, true], 'the first page starts it; the second is no edge');
  assert.is(s.watching('host.live'), 2);
  a();
  assert.equal(seen, [false, true], 'one page still watches');
  b();
  assert.equal(seen, [false, true, false], 'the last page leaving stops it');
  assert.is(s.watching('host.live'), 0);
  b();
  assert.is(s.watching('host.live'), 0, 'a page that goes twice is counted once');
  stop();
  page(s, 'host.live');
  assert.equal(seen, [false, true, false], 'no calls after the watch stopped');
  other();
  s.close();
});

test('a watch that starts while a page already watches is told true at once; close() tells false', () => {
  const s = stream();
  page(s, 'host.live');
  const seen: boolean[] = [];
  s.watch('host.live', (w) => seen.push(w));
  assert.equal(seen, [true]);
  s.close();
  assert.equal(seen, [true, false], 'the plugin stopping ends every stream, so nobody watches');
});

test.run();
