// The HTTP channels against local receivers that answer as each service does: what arrives (payload, headers,
// escaping, the signature, checked here by an independent HMAC), and which answers are retried and which are final.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPermanent, retryAfterOf, type ChannelMessage } from '@vigil/plugin-sdk';
import { Agent } from 'undici';
import { sendDiscord } from '../../../../plugins/channels/senders/discord.js';
import { sendNtfy } from '../../../../plugins/channels/senders/ntfy.js';
import type { SendContext } from '../../../../plugins/channels/senders/send-context.js';
import { sendSlack } from '../../../../plugins/channels/senders/slack.js';
import { sendWebhook } from '../../../../plugins/channels/senders/webhook.js';
import type { Channel } from '../../../../plugins/channels/types.js';
import { ChannelsErrors } from '../../../../plugins/channels/errors.js';
import { discordLimited, discordOk, ntfyOk, slackInvalidPayload, slackOk, startReceivers, type Receivers } from '../../../support/channel-receivers.js';
import { freePort } from '../../../support/net.js';

let rx: Receivers;
const dispatcher = new Agent({ connections: 4 });
const context: SendContext = { eventId: 'ev-1', idempotencyKey: 'key-0123456789abcdef', timeoutMs: 2000, dispatcher, test: false, env: {} };
const message: ChannelMessage = {
  title: 'Eval score <below> 0.7 & falling', text: 'helpfulness averaged 0.61 over 1h <!everyone> @everyone', severity: 'critical',
  url: 'http://127.0.0.1:9095/alerts?e=1', fields: { rule: 'helpfulness < 0.7', value: 0.61, samples: 48 },
};
const channel = (type: Channel['type'], path: string, extra: Partial<Channel> = {}): Channel =>
  ({ id: `${type}-1`, name: type, type, enabled: true, source: 'config', url: rx.url(path), ...extra });

const failure = async (p: Promise<void>): Promise<Error & { code?: string }> => {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected the send to fail');
};

test.before(async () => { rx = await startReceivers(); });
test.after(async () => { await rx.close(); await dispatcher.close(); });

test('slack: { text, blocks } with & < > escaped, and `ok` is success', async () => {
  rx.script('/slack/ok', [slackOk]);
  await sendSlack(channel('slack', '/slack/ok'), message, context);
  const [got] = rx.received('/slack/ok');
  assert.is(got.headers['content-type'], 'application/json');
  const body = JSON.parse(got.raw.toString('utf8'));
  assert.type(body.text, 'string');
  assert.ok(Array.isArray(body.blocks) && body.blocks.length >= 2);
  const all = JSON.stringify(body);
  assert.not.match(all, /<below>|<!everyone>/, 'no raw < > reaches Slack');
  assert.match(body.blocks[0].text.text, 'Eval score &lt;below&gt; 0.7 &amp; falling');
  assert.match(body.blocks[0].text.text, '&lt;!everyone&gt;');
  assert.match(all, 'Open in Vigil');
});

test('slack: 400 invalid_payload is permanent and says so; 500 is retried', async () => {
  rx.script('/slack/bad', [slackInvalidPayload]);
  const bad = await failure(sendSlack(channel('slack', '/slack/bad'), message, context));
  assert.ok(isPermanent(bad));
  assert.is(bad.code, ChannelsErrors.REJECTED);
  assert.match(bad.message, 'answered 400: invalid_payload');
  assert.not.match(bad.message, rx.url('/slack/bad'), 'the URL (a secret) is not in the message');
  rx.script('/slack/down', [{ status: 500, body: 'rollup_error' }]);
  const down = await failure(sendSlack(channel('slack', '/slack/down'), message, context));
  assert.not.ok(isPermanent(down));
  assert.is(down.code, ChannelsErrors.UNAVAILABLE);
});

test('discord: an embed with allowed_mentions { parse: [] }; 204 is success', async () => {
  rx.script('/discord/ok', [discordOk]);
  await sendDiscord(channel('discord', '/discord/ok', { username: 'Vigil' }), message, context);
  const body = JSON.parse(rx.received('/discord/ok')[0].raw.toString('utf8'));
  assert.equal(body.allowed_mentions, { parse: [] });
  assert.is(body.username, 'Vigil');
  assert.is(body.embeds.length, 1);
  assert.is(body.embeds[0].title, message.title);
  assert.is(body.embeds[0].url, message.url);
  assert.equal(body.embeds[0].fields.map((f: { name: string }) => f.name), ['rule', 'value', 'samples']);
});

test('discord: 429 is retried no sooner than retry_after (seconds, a float; a large value is milliseconds)', async () => {
  rx.script('/discord/limited', [discordLimited(1.5)]);
  const limited = await failure(sendDiscord(channel('discord', '/discord/limited'), message, context));
  assert.not.ok(isPermanent(limited));
  assert.is(retryAfterOf(limited), 1500);
  rx.script('/discord/limited-ms', [{ status: 429, body: JSON.stringify({ retry_after: 2500, global: false }) }]);
  assert.is(retryAfterOf(await failure(sendDiscord(channel('discord', '/discord/limited-ms'), message, context))), 2500);
  rx.script('/discord/gone', [{ status: 404, body: JSON.stringify({ message: 'Unknown Webhook', code: 10015 }) }]);
  assert.ok(isPermanent(await failure(sendDiscord(channel('discord', '/discord/gone'), message, context))));
});

test('ntfy: the text as body, Title, Priority, Tags and Click headers, the token as Bearer; a non-ASCII title is RFC 2047', async () => {
  rx.script('/alerts-topic', [ntfyOk('alerts-topic')]);
  await sendNtfy(channel('ntfy', '/alerts-topic', { token: 'tk_secret', tags: ['robot'] }), { ...message, title: 'CPU at 97% — threshold 90%' }, context);
  const [got] = rx.received('/alerts-topic');
  assert.match(got.raw.toString('utf8'), /^helpfulness averaged 0\.61/);
  assert.match(got.raw.toString('utf8'), '\nrule: helpfulness < 0.7');
  assert.is(got.headers.priority, '5');
  assert.is(got.headers.tags, 'rotating_light,robot');
  assert.is(got.headers.click, message.url);
  assert.is(got.headers.authorization, 'Bearer tk_secret');
  const title = String(got.headers.title);
  const m = /^=\?UTF-8\?B\?(.+)\?=$/.exec(title);
  assert.ok(m, title);
  assert.is(Buffer.from(m![1], 'base64').toString('utf8'), 'CPU at 97% — threshold 90%');
  rx.script('/forbidden-topic', [{ status: 403, body: JSON.stringify({ code: 40301, http: 403, error: 'forbidden' }) }]);
  assert.ok(isPermanent(await failure(sendNtfy(channel('ntfy', '/forbidden-topic'), message, context))));
  rx.script('/busy-topic', [{ status: 429, body: JSON.stringify({ code: 42901, http: 429, error: 'limit reached' }), headers: { 'retry-after': '3' } }]);
  const busy = await failure(sendNtfy(channel('ntfy', '/busy-topic'), message, context));
  assert.not.ok(isPermanent(busy));
  assert.is(retryAfterOf(busy), 3000);
});

/** The receiver's side, written from the README and not from Vigil's code: HMAC-SHA256 of "<timestamp>.<raw body>". */
function verify(secret: string, raw: Buffer, signature: string | undefined, timestamp: string | undefined, nowSeconds: number): boolean {
  if (!signature?.startsWith('sha256=') || !timestamp || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${timestamp}.`), raw])).digest();
  const given = Buffer.from(signature.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

test('webhook: the documented payload, signed; an independent HMAC verifies it and refuses a replay or a changed body', async () => {
  rx.script('/hook', [{ status: 202 }]);
  const secret = 'whsec-0123456789abcdef';
  await sendWebhook(channel('webhook', '/hook', { secret, headers: { 'X-Api-Key': 'k1', 'X-Vigil-Signature': 'forged' } }), message, context);
  const [got] = rx.received('/hook');
  const body = JSON.parse(got.raw.toString('utf8'));
  assert.equal(Object.keys(body).sort(), ['channel_id', 'event_id', 'fields', 'idempotency_key', 'sent_at', 'severity', 'test', 'text', 'title', 'type', 'url', 'version']);
  assert.is(body.type, 'vigil.notification');
  assert.is(body.version, 1);
  assert.is(body.event_id, 'ev-1');
  assert.is(body.idempotency_key, context.idempotencyKey);
  assert.is(got.headers['idempotency-key'], context.idempotencyKey);
  assert.is(got.headers['x-api-key'], 'k1');
  assert.equal(body.fields, [{ name: 'rule', value: 'helpfulness < 0.7' }, { name: 'value', value: '0.61' }, { name: 'samples', value: '48' }]);
  const signature = got.headers['x-vigil-signature'] as string;
  const timestamp = got.headers['x-vigil-timestamp'] as string;
  assert.is.not(signature, 'forged', 'a configured header cannot replace the signature');
  const now = Math.floor(Date.now() / 1000);
  assert.ok(verify(secret, got.raw, signature, timestamp, now));
  assert.not.ok(verify('another-secret-0123', got.raw, signature, timestamp, now), 'another key');
  assert.not.ok(verify(secret, Buffer.concat([got.raw, Buffer.from(' ')]), signature, timestamp, now), 'a changed body');
  assert.not.ok(verify(secret, got.raw, signature, timestamp, Number(timestamp) + 301), 'a replay after the tolerance');
  assert.not.ok(verify(secret, got.raw, signature, String(Number(timestamp) + 60), Number(timestamp) + 60), 'a fresh timestamp on an old body');
});

test('webhook: without a secret no signature; a 3xx is permanent (redirects are not followed)', async () => {
  rx.script('/hook-plain', [{ status: 200 }]);
  await sendWebhook(channel('webhook', '/hook-plain'), message, context);
  assert.is(rx.received('/hook-plain')[0].headers['x-vigil-signature'], undefined);
  rx.script('/hook-moved', [{ status: 301, headers: { location: '/elsewhere' } }]);
  const moved = await failure(sendWebhook(channel('webhook', '/hook-moved'), message, context));
  assert.ok(isPermanent(moved));
  assert.match(moved.message, 'redirects are not followed');
  assert.is(rx.received('/elsewhere').length, 0);
});

test('an invalid URL is permanent; an unreachable receiver and a receiver that never answers are retried', async () => {
  const invalid = await failure(sendWebhook({ ...channel('webhook', '/x'), url: 'not a url' }, message, context));
  assert.ok(isPermanent(invalid));
  assert.is(invalid.code, ChannelsErrors.SETTINGS);
  const port = await freePort();
  const refused = await failure(sendSlack({ ...channel('slack', '/x'), url: `http://127.0.0.1:${port}/services/T0/B0/secret-token` }, message, context));
  assert.not.ok(isPermanent(refused));
  assert.match(refused.message, 'ECONNREFUSED');
  assert.not.match(refused.message, 'secret-token');
  rx.script('/slow', [{ status: 200 }]);
  const silent = await startSilentServer();
  const timedOut = await failure(sendNtfy({ ...channel('ntfy', '/x'), url: silent.url }, message, { ...context, timeoutMs: 300 }));
  assert.not.ok(isPermanent(timedOut));
  assert.match(timedOut.message, 'no answer within 300 ms');
  await silent.close();
});

/** A server that takes requests and never answers. */
async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer(() => { /* never answers */ });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/topic`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

test.run();
