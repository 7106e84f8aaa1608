// The live stream (GET /api/ui/stream): who may open it, what it relays from the bus, and what the server does
// with pages that come and go. The server never knows whether a tab is visible: the page closes its stream when
// hidden, and the server only sees streams open and close.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openSse } from '../../../support/sse-client.js';
import { waitFor } from '../../../support/net.js';
import { startUi } from './ui-harness.js';

const metric = (text: string, name: string): number => {
  const m = new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
};

test('only the dashboard\'s session or the token opens it; another site cannot, even with the cookie', async () => {
  const h = await startUi();
  try {
    const url = new URL('/api/ui/stream?topics=gateway.record', h.rt.url).href;
    const none = await openSse(url);
    assert.is(none.status, 401);
    const crossSite = await openSse(url, { cookie: h.cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' });
    assert.is(crossSite.status, 403);
    const forged = await openSse(url, { cookie: 'vigil_session=forged.value' });
    assert.is(forged.status, 401);
    const page = await openSse(url, { cookie: h.cookie, 'sec-fetch-site': 'same-origin' });
    assert.is(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.is(page.headers.get('cache-control'), 'no-store');
    assert.is((await page.next((f) => f.event === 'retry')).data, '3000');
    page.close();
    const script = await openSse(url, { authorization: `Bearer ${h.rt.token}` });
    assert.is(script.status, 200);
    script.close();
    for (const bad of ['', 'Gateway', 'a,,b', 'a b', `${'x'.repeat(70)}`]) {
      const res = await h.page(`/api/ui/stream?topics=${encodeURIComponent(bad)}`);
      assert.is(res.status, 400, bad);
    }
  } finally {
    await h.stop();
  }
});

test('ui.event is relayed to the pages subscribed to its topic, as typed events with JSON data', async () => {
  const h = await startUi();
  try {
    const base = new URL('/api/ui/stream', h.rt.url).href;
    const a = await openSse(`${base}?topics=gateway.record,llm.trace`, { cookie: h.cookie });
    const b = await openSse(`${base}?topics=llm.trace`, { cookie: h.cookie });
    await a.next((f) => f.event === 'retry');
    await b.next((f) => f.event === 'retry');
    h.rt.publish('ui.event', { topic: 'gateway.record', data: { stored: 3, time: 1 } });
    h.rt.publish('ui.event', { topic: 'llm.trace', data: { id: 't1', text: 'line one\nline two' } });
    assert.equal(JSON.parse((await a.next((f) => f.event === 'gateway.record')).data), { stored: 3, time: 1 });
    assert.equal(JSON.parse((await a.next((f) => f.event === 'llm.trace')).data), { id: 't1', text: 'line one\nline two' });
    assert.equal(JSON.parse((await b.next((f) => f.event === 'llm.trace')).data), { id: 't1', text: 'line one\nline two' });
    assert.not.ok(b.frames.some((f) => f.event === 'gateway.record'), 'b did not ask for gateway.record');
    // A topic that could break the framing, and data that is not JSON, are dropped and counted.
    h.rt.publish('ui.event', { topic: 'evil\nevent: x', data: 1 });
    h.rt.publish('ui.event', { topic: 'llm.trace', data: { n: 1n } });
    h.rt.publish('ui.event', { topic: 'llm.trace', data: 'after' });
    assert.is(JSON.parse((await b.next((f) => f.event === 'llm.trace')).data), 'after');
    assert.is(metric(await h.rt.metrics(), 'vigil_ui_stream_events_total{outcome="invalid"}'), 2);
    a.close();
    b.close();
  } finally {
    await h.stop();
  }
});

test('the relay listens on the bus only while a page is connected: publishers skip their work otherwise', async () => {
  const h = await startUi();
  try {
    const event = { topic: 'gateway.record', data: {} };
    assert.is(h.rt.publish('ui.event', event), 0, 'no page, no subscriber');
    const page = await openSse(new URL('/api/ui/stream?topics=gateway.record', h.rt.url).href, { cookie: h.cookie });
    await page.next((f) => f.event === 'retry');
    assert.is(h.rt.publish('ui.event', event), 1);
    assert.is(metric(await h.rt.metrics(), 'vigil_ui_streams_open'), 1);
    page.close();
    // The page goes (its tab hidden or closed): the server sees the connection close and stops relaying.
    await waitFor(() => h.rt.publish('ui.event', event) === 0, { what: 'the relay to unsubscribe' });
    assert.is(metric(await h.rt.metrics(), 'vigil_ui_streams_open'), 0);
    const again = await openSse(new URL('/api/ui/stream?topics=gateway.record', h.rt.url).href, { cookie: h.cookie });
    await again.next((f) => f.event === 'retry');
    assert.is(h.rt.publish('ui.event', event), 1, 'a page that comes back is relayed to again');
    again.close();
  } finally {
    await h.stop();
  }
});

test('a settings change reaches the other open pages on ui.settings', async () => {
  const h = await startUi();
  try {
    const other = await openSse(new URL('/api/ui/stream?topics=ui.settings', h.rt.url).href, { cookie: h.cookie });
    await other.next((f) => f.event === 'retry');
    const next = { theme: 'dark', simple_mode: false, reduce_effects: true };
    assert.is((await h.page('/api/ui/settings', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(next) })).status, 200);
    assert.equal(JSON.parse((await other.next((f) => f.event === 'ui.settings')).data), next);
    other.close();
  } finally {
    await h.stop();
  }
});

test('heartbeats keep an idle stream open; max_streams bounds them; stopping the runtime ends them', async () => {
  const h = await startUi({ config: { ui: { heartbeat: '1s', max_streams: 2 } } });
  let stopped = false;
  try {
    const url = new URL('/api/ui/stream?topics=gateway.record', h.rt.url).href;
    const one = await openSse(url, { cookie: h.cookie });
    const two = await openSse(url, { cookie: h.cookie });
    assert.is((await one.next((f) => f.event === 'comment' && f.data === 'ping', 5000)).data, 'ping');
    const three = await h.page('/api/ui/stream?topics=gateway.record');
    assert.is(three.status, 503);
    assert.is(((await three.json()) as { error: { code: string } }).error.code, 'VIGIL_ERR_UI_STREAMS_FULL');
    two.close();
    await waitFor(async () => {
      const r = await h.page('/api/ui/stream?topics=gateway.record');
      await r.body?.cancel();
      return r.status === 200;
    }, { what: 'a free slot after a page left' });
    await h.stop();
    stopped = true;
    await one.ended;
  } finally {
    if (!stopped) await h.stop();
  }
});

test.run();
