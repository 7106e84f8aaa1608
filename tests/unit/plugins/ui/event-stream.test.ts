import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Counter, Gauge } from '@vigil/plugin-sdk';
import { EventStream } from '../../../../plugins/ui/event-stream.js';

function metrics() {
  const counts: Record<string, number> = {};
  let open = 0;
  const events = { labels: (o: string) => ({ inc: (n = 1) => { counts[o] = (counts[o] ?? 0) + n; } }) } as unknown as Counter;
  const gauge = { set: (v: number) => { open = v; } } as unknown as Gauge;
  return { events, gauge, counts, open: () => open };
}

function setup(maxStreams = 2) {
  const m = metrics();
  const calls: string[] = [];
  const stream = new EventStream({
    heartbeatMs: 60_000, maxStreams, open: m.gauge, events: m.events,
    onFirst: () => calls.push('first'), onLast: () => calls.push('last'),
  });
  const gone: (() => void)[] = [];
  const open = (topics: string[]) => stream.open(new Set(topics), (l) => gone.push(l));
  return { stream, m, calls, gone, open };
}

const readAll = (body: import('node:stream').Readable): string => {
  let text = '';
  let chunk: Buffer | string | null;
  while ((chunk = body.read()) !== null) text += chunk.toString();
  return text;
};

test('frames go only to streams of their topic; the first and last stream start and stop the relay', () => {
  const t = setup();
  const a = t.open(['gateway.record']);
  const b = t.open(['llm.trace']);
  assert.equal(t.calls, ['first']);
  assert.is(t.m.open(), 2);
  t.stream.publish('gateway.record', { stored: 1 });
  assert.match(readAll(a), /retry: 3000\n: ok\n\nevent: gateway.record\ndata: \{"stored":1\}\n\n$/);
  assert.not.match(readAll(b), /gateway\.record/);
  t.gone[0]();
  t.gone[0]();
  assert.equal(t.calls, ['first'], 'a page leaving twice counts once');
  t.gone[1]();
  assert.equal(t.calls, ['first', 'last']);
  assert.is(t.m.open(), 0);
});

test('a page that does not read loses events past its bound, counted; others still get theirs', () => {
  const t = setup();
  const slow = t.open(['x']);
  const fast = t.open(['x']);
  const big = 'y'.repeat(64 * 1024);
  for (let i = 0; i < 6; i++) {
    t.stream.publish('x', big);
    readAll(fast);
  }
  assert.ok((t.m.counts.dropped ?? 0) >= 1, 'the slow page dropped some');
  assert.is(t.m.counts.sent, 6 + (6 - (t.m.counts.dropped ?? 0)));
  assert.ok(slow.readableLength <= 256 * 1024 + big.length + 64);
});

test('bad topics and data that is not JSON are refused and counted; the framing cannot be broken', () => {
  const t = setup();
  const a = t.open(['x']);
  readAll(a);
  t.stream.publish('x\nevent: y', 1);
  t.stream.publish('X', 1);
  t.stream.publish('x', { n: 1n });
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  t.stream.publish('x', cyclic);
  t.stream.publish('x', 'line\nbreak');
  assert.is(t.m.counts.invalid, 4);
  assert.is(readAll(a), 'event: x\ndata: "line\\nbreak"\n\n');
});

test('the bound on open streams, and new limits from a reload', () => {
  const t = setup(1);
  t.open(['x']);
  assert.ok(t.stream.full);
  t.stream.setLimits({ heartbeatMs: 1000, maxStreams: 2 });
  assert.not.ok(t.stream.full);
  assert.is(t.stream.max, 2);
});

test('close ends every stream and refuses new ones', async () => {
  const t = setup();
  const a = t.open(['x']);
  t.stream.close();
  t.stream.close();
  readAll(a);
  await new Promise((r) => a.once('end', r));
  const late = t.open(['x']);
  assert.is(readAll(late), '');
  assert.ok(late.readableEnded || late.destroyed || late.readableLength === 0);
});

test.run();
