// The caps on stored alert rules (1,000) and dashboard channels (200) hold under a concurrent burst of creates, on
// SQLite and on PostgreSQL: the count and the insert run under one lock, so no two creates see the same room.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { freshPostgresSchema, postgresAvailable } from '../../../support/postgres.js';

const RULE_CAP = 1_000;
const CHANNEL_CAP = 200;

/** Runs `count` calls of `fn` with at most `inFlight` at once; resolves to their results in order. */
async function burst<T>(count: number, inFlight: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await fn(i);
    }
  }));
  return out;
}

function capSuite(name: string, storage: () => Promise<{ url?: string; drop?: () => Promise<void> }>) {
  const s = suite(`stored caps (${name})`);
  let rt: TestRuntime;
  let drop: (() => Promise<void>) | undefined;

  s.before(async () => {
    const store = await storage();
    drop = store.drop;
    rt = await startTestRuntime({
      plugins: [],
      config: {
        ...(store.url ? { storage: { url: store.url } } : {}),
        llm: { projects: [{ name: 'shop', key: 'stored-caps-project-key-0123456789' }] },
        channels: { targets: [{ id: 'from-file', type: 'webhook', url: 'http://127.0.0.1:9/hook' }] },
        alerts: { rules: [{ id: 'from-file', name: 'From the file', source: 'llm.error_rate', scope: { project: 'shop' }, condition: { type: 'gt', threshold: 0.5 } }] },
      },
    });
  });
  s.after(async () => {
    await rt?.stop();
    await drop?.();
  });

  const post = async (path: string, body: unknown) => {
    const res = await rt.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, code: res.status === 201 ? undefined : (JSON.parse(text) as { error: { code: string } }).error.code };
  };

  s('a burst of 1,050 rule creates, 64 at once: 999 stored beside the file\'s rule, the rest 409 RULES_FULL', async () => {
    const results = await burst(RULE_CAP + 50, 64, (i) => post('/api/alerts/rules', {
      id: `r${i}`, name: `Rule ${i}`, source: 'llm.error_rate', scope: { project: 'shop' }, condition: { type: 'gt', threshold: 0.5 },
    }));
    const created = results.filter((r) => r.status === 201).length;
    assert.is(created, RULE_CAP - 1, 'the config file\'s rule counts toward the cap');
    for (const r of results.filter((x) => x.status !== 201)) assert.equal(r, { status: 409, code: 'VIGIL_ERR_ALERTS_RULES_FULL' });
    const list = await (await rt.fetch('/api/alerts/rules')).json() as { data: unknown[] };
    assert.is(list.data.length, RULE_CAP);
    // Room again once one goes.
    assert.is((await rt.fetch('/api/alerts/rules/r0', { method: 'DELETE' })).status, 200);
    assert.is((await post('/api/alerts/rules', { id: 'again', name: 'Again', source: 'llm.error_rate', scope: { project: 'shop' }, condition: { type: 'gt', threshold: 1 } })).status, 201);
  });

  s('a burst of 230 channel creates, all at once: 200 stored (the file\'s channel is not counted), the rest 409 FULL', async () => {
    const results = await burst(CHANNEL_CAP + 30, CHANNEL_CAP + 30, (i) => post('/api/alerts/channels', {
      id: `c${i}`, type: 'webhook', url: `http://127.0.0.1:9/hook-${i}`,
    }));
    assert.is(results.filter((r) => r.status === 201).length, CHANNEL_CAP);
    for (const r of results.filter((x) => x.status !== 201)) assert.equal(r, { status: 409, code: 'VIGIL_ERR_CHANNELS_FULL' });
    const list = await (await rt.fetch('/api/alerts/channels')).json() as { data: { source: string }[] };
    assert.is(list.data.filter((c) => c.source === 'store').length, CHANNEL_CAP);
  });

  return s;
}

// Asked before any suite runs: uvu starts running the queued suites once the module's top level has settled.
const withPostgres = await postgresAvailable('stored-caps');
capSuite('SQLite', async () => ({})).run();
if (withPostgres) capSuite('PostgreSQL', () => freshPostgresSchema('stored_caps')).run();
