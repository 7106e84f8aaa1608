// The app's one live stream, driven with a fake EventSource and a fake document: what it opens, when, and what it
// hands to pages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LiveStream, streamUrl, whileVisible, type EventSourceLike, type StreamStatus } from '../../../../ui/src/data/live-stream.js';

class FakeSource implements EventSourceLike {
  readyState = 0;
  onopen: ((ev: Event) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  closed = false;
  readonly listeners = new Map<string, ((e: MessageEvent) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (e: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void { this.closed = true; this.readyState = 2; }
  emit(type: string, data: string): void { for (const l of this.listeners.get(type) ?? []) l({ data } as MessageEvent); }
  open(): void { this.readyState = 1; this.onopen?.call(this as never, new Event('open')); }
  fail(permanently: boolean): void { this.readyState = permanently ? 2 : 0; this.onerror?.call(this as never, new Event('error')); }
}

class FakeDocument {
  hidden = false;
  private readonly listeners: (() => void)[] = [];
  addEventListener(_type: 'visibilitychange', l: () => void): void { this.listeners.push(l); }
  removeEventListener(_type: 'visibilitychange', l: () => void): void { this.listeners.splice(this.listeners.indexOf(l), 1); }
  set(hidden: boolean): void { this.hidden = hidden; for (const l of [...this.listeners]) l(); }
  get listening(): number { return this.listeners.length; }
}

function setup() {
  const sources: FakeSource[] = [];
  const doc = new FakeDocument();
  const statuses: StreamStatus[] = [];
  const scheduled: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  let refused = 0;
  const stream = new LiveStream({
    createSource: (url) => { const s = new FakeSource(url); sources.push(s); return s; },
    visibility: doc,
    schedule: (fn, ms) => { const t = { fn, ms, cancelled: false }; scheduled.push(t); return () => { t.cancelled = true; }; },
    onStatus: (s) => statuses.push(s),
    onRefused: () => { refused++; },
  });
  const open = () => sources.filter((s) => !s.closed);
  return { stream, sources, open, doc, statuses, scheduled, refused: () => refused };
}

const tick = () => new Promise<void>((r) => queueMicrotask(r));

test('no subscription, no stream; subscriptions made together open one stream with the union of topics', async () => {
  const t = setup();
  await tick();
  assert.is(t.sources.length, 0);
  const off1 = t.stream.subscribe('gateway.record', () => {});
  t.stream.subscribe('ui.settings', () => {});
  await tick();
  assert.is(t.sources.length, 1);
  assert.is(t.sources[0].url, '/api/ui/stream?topics=gateway.record,ui.settings');
  off1();
  await tick();
  assert.equal(t.open().map((s) => s.url), ['/api/ui/stream?topics=ui.settings'], 'reopened with what is still wanted');
});

test('events reach the handlers of their topic as parsed JSON; a throwing handler does not starve the others', async () => {
  const t = setup();
  const got: unknown[] = [];
  t.stream.subscribe('gateway.record', () => { throw new Error('page bug'); });
  t.stream.subscribe('gateway.record', (d) => got.push(d));
  t.stream.subscribe('ui.settings', () => got.push('wrong topic'));
  await tick();
  const errors: unknown[] = [];
  const onError = (e: unknown) => errors.push(e);
  process.on('uncaughtException', onError);
  t.sources[0].emit('gateway.record', '{"stored":3}');
  t.sources[0].emit('gateway.record', 'not json');
  await tick();
  await tick();
  process.off('uncaughtException', onError);
  assert.equal(got, [{ stored: 3 }]);
  assert.is(errors.length, 1, 'the page bug is reported, not swallowed');
});

test('hidden tab: the stream closes; shown again: it reopens; nothing is open while hidden', async () => {
  const t = setup();
  t.stream.subscribe('gateway.record', () => {});
  await tick();
  t.sources[0].open();
  assert.is(t.stream.status, 'live');
  t.doc.set(true);
  assert.is(t.open().length, 0);
  assert.is(t.stream.status, 'paused');
  t.stream.subscribe('ui.settings', () => {});
  await tick();
  assert.is(t.open().length, 0, 'a subscription while hidden opens nothing');
  t.doc.set(false);
  assert.equal(t.open().map((s) => s.url), ['/api/ui/stream?topics=gateway.record,ui.settings']);
  assert.is(t.stream.status, 'connecting');
});

test('a refused stream (401, server gone) tells the app, then retries with growing delays', async () => {
  const t = setup();
  t.stream.subscribe('gateway.record', () => {});
  await tick();
  t.sources[0].fail(false);
  assert.is(t.stream.status, 'connecting', 'a dropped connection is retried by the browser itself');
  assert.is(t.scheduled.length, 0);
  t.sources[0].fail(true);
  assert.is(t.stream.status, 'retrying');
  assert.is(t.refused(), 1);
  assert.is(t.open().length, 0);
  assert.is(t.scheduled[0].ms, 2000);
  t.scheduled[0].fn();
  assert.is(t.open().length, 1, 'reopened after the delay');
  t.sources[1].fail(true);
  assert.is(t.scheduled[1].ms, 4000);
  t.scheduled[1].fn();
  t.sources[2].open();
  t.sources[2].fail(true);
  assert.is(t.scheduled[2].ms, 2000, 'a stream that opened resets the delay');
});

test('hiding the tab cancels a pending retry', async () => {
  const t = setup();
  t.stream.subscribe('x.y', () => {});
  await tick();
  t.sources[0].fail(true);
  t.doc.set(true);
  assert.ok(t.scheduled[0].cancelled);
  t.doc.set(false);
  assert.is(t.open().length, 1);
});

test('streamUrl sorts topics', () => {
  assert.is(streamUrl(['b', 'a']), '/api/ui/stream?topics=a,b');
});

test('whileVisible polls only while visible, and catches up at once when shown after a missed run', () => {
  const doc = new FakeDocument();
  let now = 0;
  const intervals = new Map<number, () => void>();
  let nextId = 1;
  const timers = {
    setInterval: (fn: () => void) => { const id = nextId++; intervals.set(id, fn); return id; },
    clearInterval: (id: unknown) => { intervals.delete(id as number); },
    now: () => now,
  };
  let runs = 0;
  const stop = whileVisible(doc, () => runs++, 1000, timers);
  assert.is(intervals.size, 1);
  now = 1000;
  [...intervals.values()][0]();
  assert.is(runs, 1);
  doc.set(true);
  assert.is(intervals.size, 0, 'no timer while hidden');
  now = 1500;
  doc.set(false);
  assert.is(runs, 1, 'shown before a run was due: no extra run');
  doc.set(true);
  now = 5000;
  doc.set(false);
  assert.is(runs, 2, 'a run was missed while hidden: it runs at once');
  assert.is(intervals.size, 1);
  stop();
  assert.is(intervals.size, 0);
  assert.is(doc.listening, 0);
});

test.run();
