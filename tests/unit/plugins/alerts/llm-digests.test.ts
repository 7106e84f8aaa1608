// The weekly LLM digest's schedule in a real runtime (SDK harness, SQLite) with the llm and channels plugins: with
// digest channels set, the hourly check runs at start and last week's digest of each project reaches the webhook
// once, keyed by the project and the week; a project without channels set gets none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { lastWeek } from '../../../../plugins/alerts/digest/llm-digest-data.js';
import { startReceivers, type Receivers } from '../../../support/channel-receivers.js';
import { waitFor } from '../../../support/net.js';

let rt: TestRuntime;
let rx: Receivers;

test.before(async () => {
  rx = await startReceivers();
  rt = await startTestRuntime({
    plugins: [],
    config: {
      llm: { projects: [{ name: 'shop', key: 'digest-shop-key-0123456789' }, { name: 'lab', key: 'digest-lab-key-0123456789' }] },
      channels: { backoff: '100ms', targets: [{ id: 'hook', type: 'webhook', url: rx.url('/hook') }] },
      alerts: { digests: { channels: ['hook'] } },
    },
  });
});
test.after(async () => {
  await rt?.stop();
  await rx?.close();
});

const digests = () => rx.received('/hook').map((r) => JSON.parse(r.raw.toString()) as Record<string, string>);

test('at start, last week\'s digest of each project reaches the digest channel once', async () => {
  await waitFor(() => digests().length >= 2 || null, { timeoutMs: 10_000, what: 'both projects\' digests' });
  await new Promise((r) => setTimeout(r, 1500));
  const monday = new Date(lastWeek(Date.now()).from).toISOString().slice(0, 10);
  assert.equal(digests().map((d) => d.event_id).sort(), [`llm:digest:lab:${monday}`, `llm:digest:shop:${monday}`]);
  const shop = digests().find((d) => d.event_id.includes(':shop:'))!;
  assert.match(shop.title, /^Weekly LLM digest: shop, /);
  assert.match(shop.text, /Requests: 0\n- Cost: \$0\.00\n/);
  assert.is(shop.severity, 'info');
});

test.run();
