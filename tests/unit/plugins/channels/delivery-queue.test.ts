// Deliveries through the durable queue in a real runtime (SDK harness, SQLite) to local receivers: each retry path
// (5xx, 429 with retry_after, out of attempts) and each permanent one (4xx, unknown channel), the states recorded per
// (event, channel) and published, the counters on /metrics, and no second send for a pair delivered once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, type ChannelDelivery, type ChannelsService } from '@vigil/plugin-sdk';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { discordLimited, discordOk, slackInvalidPayload, slackOk, startReceivers, type Receivers } from '../../../support/channel-receivers.js';
import { waitFor } from '../../../support/net.js';

let rt: TestRuntime;
let rx: Receivers;
let channels: ChannelsService;
const published: ChannelDelivery[] = [];

/** Stands for the alerts plugin: calls the service and records what the topic says. */
const caller = definePlugin({
  name: 'caller', version: '0.0.0', needs: ['channels'],
  setup(ctx) {
    channels = ctx.services.get('channels');
    let off: (() => Promise<void>) | undefined;
    return {
      start() { off = ctx.bus.subscribe('channels.delivery', (batch) => { published.push(...batch); }); },
      stop: () => off?.(),
    };
  },
});

const message = { title: 'p95 latency above 2 s', text: 'gateway p95 was 2.4 s over 5m', severity: 'warning' as const, fields: { route: 'GET /orders' } };

test.before(async () => {
  rx = await startReceivers();
  rt = await startTestRuntime({
    plugins: [caller],
    config: {
      channels: {
        max_attempts: 3, backoff: 50, max_backoff: 200,
        targets: [
          { id: 'hook', type: 'webhook', url: rx.url('/hook'), secret: 'whsec-0123456789abcdef' },
          { id: 'slack', type: 'slack', url: rx.url('/slack') },
          { id: 'discord', type: 'discord', url: rx.url('/discord') },
          { id: 'flaky', type: 'webhook', url: rx.url('/flaky') },
          { id: 'down', type: 'webhook', url: rx.url('/down') },
          { id: 'quiet', type: 'slack', enabled: false, url: rx.url('/quiet') },
        ],
      },
    },
  });
});
test.after(async () => {
  await rt?.stop();
  await rx?.close();
});

const settled = async (eventId: string, count: number): Promise<ChannelDelivery[]> => (await waitFor(async () => {
  const rows = await channels.deliveries([eventId]);
  return rows.length === count && rows.every((r) => r.state !== 'pending') && rows;
}, { timeoutMs: 15_000, what: `deliveries of ${eventId} settled` })) as ChannelDelivery[];

test('one job per channel; each is delivered once, and every change of state is published', async () => {
  rx.script('/hook', [{ status: 200 }]);
  rx.script('/slack', [slackOk]);
  const queued = await channels.deliver({ eventId: 'ev-ok', channels: ['hook', 'slack'], message });
  assert.equal(queued.map((d) => [d.channel_id, d.state]), [['hook', 'pending'], ['slack', 'pending']]);
  const rows = await settled('ev-ok', 2);
  for (const r of rows) {
    assert.is(r.state, 'delivered');
    assert.is(r.attempts, 1);
    assert.type(r.delivered_at, 'number');
  }
  assert.is(rx.received('/hook').length, 1);
  assert.is(rx.received('/slack').length, 1);
  const hookBody = JSON.parse(rx.received('/hook')[0].raw.toString('utf8'));
  assert.is(hookBody.event_id, 'ev-ok');
  await waitFor(() => published.filter((d) => d.event_id === 'ev-ok' && d.state === 'delivered').length === 2, { what: 'published' });
  assert.ok(published.some((d) => d.event_id === 'ev-ok' && d.state === 'pending'), 'the queued state is published too');
});

test('5xx is retried with backoff until it succeeds; the attempts are counted', async () => {
  rx.script('/flaky', [{ status: 500 }, { status: 503 }, { status: 200 }]);
  await channels.deliver({ eventId: 'ev-flaky', channels: ['flaky'], message });
  const [row] = await settled('ev-flaky', 1);
  assert.is(row.state, 'delivered');
  assert.is(row.attempts, 3);
  assert.is(rx.received('/flaky').length, 3);
  assert.ok(published.some((d) => d.event_id === 'ev-flaky' && d.state === 'pending' && d.last_error?.includes('answered 500')), 'each failed attempt is published with its error');
});

test('Discord\'s 429 is retried no sooner than its retry_after', async () => {
  rx.script('/discord', [discordLimited(0.8), discordOk]);
  await channels.deliver({ eventId: 'ev-discord', channels: ['discord'], message });
  const [row] = await settled('ev-discord', 1);
  assert.is(row.state, 'delivered');
  const [first, second] = rx.received('/discord');
  assert.ok(second.at - first.at >= 800, `retried after ${second.at - first.at} ms`);
});

test('a 4xx is final at once, with the receiver\'s reason; an unknown or disabled channel fails without a send', async () => {
  rx.script('/slack', [slackInvalidPayload]);
  const before = rx.received('/slack').length;
  const queued = await channels.deliver({ eventId: 'ev-bad', channels: ['slack', 'nope', 'quiet'], message });
  const refused = Object.fromEntries(queued.map((d) => [d.channel_id, d]));
  assert.is(refused.nope.state, 'failed');
  assert.match(refused.nope.last_error!, 'VIGIL_ERR_CHANNELS_UNKNOWN');
  assert.is(refused.quiet.state, 'failed');
  assert.match(refused.quiet.last_error!, 'disabled');
  const rows = await settled('ev-bad', 3);
  const slack = rows.find((r) => r.channel_id === 'slack')!;
  assert.is(slack.state, 'failed');
  assert.is(slack.attempts, 1);
  assert.match(slack.last_error!, 'invalid_payload');
  await new Promise((r) => setTimeout(r, 400));
  assert.is(rx.received('/slack').length - before, 1, 'never retried');
  assert.is(rx.received('/quiet').length, 0);
});

test('a receiver that stays down fails the delivery after max_attempts, saying so', async () => {
  rx.script('/down', [{ status: 502 }]);
  await channels.deliver({ eventId: 'ev-down', channels: ['down'], message });
  const [row] = await settled('ev-down', 1);
  assert.is(row.state, 'failed');
  assert.is(row.attempts, 3);
  assert.match(row.last_error!, 'gave up after 3 attempts');
  assert.is(rx.received('/down').length, 3);
});

test('all means every enabled channel; a pair delivered once is never sent again, however often deliver is called', async () => {
  rx.script('/slack', [slackOk]);
  rx.script('/hook', [{ status: 200 }]);
  rx.script('/discord', [discordOk]);
  rx.script('/flaky', [{ status: 200 }]);
  rx.script('/down', [{ status: 200 }]);
  const counts = () => ['/hook', '/slack', '/discord', '/flaky', '/down', '/quiet'].map((p) => rx.received(p).length);
  const before = counts();
  const queued = await channels.deliver({ eventId: 'ev-all', channels: 'all', message });
  assert.equal(queued.map((d) => d.channel_id).sort(), ['discord', 'down', 'flaky', 'hook', 'slack']);
  await settled('ev-all', 5);
  const once = counts();
  assert.equal(once.map((n, i) => n - before[i]), [1, 1, 1, 1, 1, 0]);
  const again = await channels.deliver({ eventId: 'ev-all', channels: 'all', message: { ...message, title: 'changed' } });
  assert.ok(again.every((d) => d.state === 'delivered'), 'the earlier deliveries are answered');
  await channels.deliver({ eventId: 'ev-ok', channels: ['hook', 'slack'], message });
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(counts(), once, 'nothing was sent again');
});

test('bad requests are refused with a clear error', async () => {
  for (const [request, text] of [
    [{ eventId: '', channels: 'all', message }, /eventId/],
    [{ eventId: 'x'.repeat(201), channels: 'all', message }, /eventId/],
    [{ eventId: 'e', channels: 'all', message: { ...message, title: '' } }, /title/],
    [{ eventId: 'e', channels: 'all', message: { ...message, severity: 'loud' } }, /severity/],
    [{ eventId: 'e', channels: 'hook', message }, /channels/],
  ] as const) {
    try {
      await channels.deliver(request as never);
      assert.unreachable(JSON.stringify(request));
    } catch (err) {
      assert.is((err as { code?: string }).code, 'VIGIL_ERR_CHANNELS_REQUEST');
      assert.match((err as Error).message, text);
    }
  }
});

test('/metrics counts deliveries per channel and outcome', async () => {
  const text = await rt.metrics();
  const value = (channel: string, outcome: string) => Number(new RegExp(`vigil_channels_deliveries_total\\{channel="${channel}",outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  assert.is(value('flaky', 'retried'), 2);
  assert.is(value('flaky', 'delivered'), 2);
  assert.is(value('down', 'failed'), 1);
  assert.is(value('down', 'retried'), 2);
  assert.is(value('slack', 'failed'), 1);
  assert.is(value('\\(unknown\\)', 'failed'), 1, 'ids that name no channel share one series');
  assert.not.match(text, 'channel="nope"');
  assert.is(value('hook', 'delivered'), 2);
});

test.run();
