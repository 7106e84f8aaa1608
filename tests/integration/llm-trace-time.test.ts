// A trace's time is its call's own start_time, as Langfuse takes its clients' timestamps, when it started within the
// last week: a client that sends late (buffered, retried, a day of history) has its calls charted where they
// happened. Older, or ahead of the clock, the trace takes the time it arrived and keeps start_time as sent. The
// month a call counts in for limits is the month it arrived. Through a real `vigil run`, SQLite and PostgreSQL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { freePort } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEY = 'trace-time-key-0123456789';
const TOKEN = 'trace-time-token';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

interface Ctx { vigil: VigilProcess; api: ReturnType<typeof llmClient> }

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`llm trace time (${backend})`);
  const work = tempDir('vigil-llm-time-');
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;

  test.before(async (ctx) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    if (backend === 'postgres') schema = await freshPostgresSchema('llm_trace_time');
    const file = writeConfig(work.path, `data_dir: ${work.path}/data
${schema ? `storage: { url: "${schema.url}" }\n` : ''}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  projects:
    - { name: timed, key: ${KEY} }
`);
    ctx.vigil = await startVigil(file, base, { cwd: work.path });
    ctx.api = llmClient(base);
  });

  test.after(async (ctx) => {
    await ctx.vigil?.stop('SIGKILL');
    await schema?.drop();
    work.cleanup();
  });

  test('a call started within the week is dated by its start_time; older, ahead or without one, by its arrival', async ({ api }) => {
    const sent = Date.now();
    const starts = {
      threeHoursAgo: sent - 3 * HOUR,
      sixDaysAgo: sent - 6 * DAY,
      eightDaysAgo: sent - 8 * DAY,
      aheadByAMinute: sent + 60_000,
    };
    const items = [
      ...Object.entries(starts).map(([name, at]) => traceItem({ id: randomUUID(), name, start_time: iso(at) })),
      traceItem({ id: randomUUID(), name: 'untimed' }),
    ];
    const res = await api.ingest(KEY, { traces: items });
    assert.is(res.status, 202, JSON.stringify(res.body));
    const answered = Date.now();
    const traces = new Map(((await api.get(KEY, '/api/v1/traces?limit=10')).body.data as Json[]).map((t) => [t.name, t]));
    const createdAt = (name: string) => Date.parse(traces.get(name)!.created_at);

    assert.is(createdAt('threeHoursAgo'), starts.threeHoursAgo);
    assert.is(createdAt('sixDaysAgo'), starts.sixDaysAgo);
    for (const name of ['eightDaysAgo', 'aheadByAMinute', 'untimed']) {
      assert.ok(createdAt(name) >= sent && createdAt(name) <= answered, `${name}: the arrival time, ${traces.get(name)!.created_at}`);
    }
    assert.is(traces.get('eightDaysAgo')!.start_time, iso(starts.eightDaysAgo), 'start_time is kept as sent');
    const order = [...traces.values()].map((t) => t.name);
    assert.equal(order.slice(-2), ['threeHoursAgo', 'sixDaysAgo'], 'lists sort by the call\'s time');

    // Charts put the call where it happened: the 24 h series has it three hours back, the last hour has the other three.
    const day = (await api.get(KEY, '/api/v1/stats?range=24h')).body;
    assert.is(day.requests, 4);
    const slot = day.series.find((s: Json) => Date.parse(s.time) <= starts.threeHoursAgo && starts.threeHoursAgo < Date.parse(s.time) + day.step_ms);
    assert.is(slot.requests, 1);
    assert.is((await api.get(KEY, '/api/v1/stats?range=1h')).body.requests, 3);
    assert.is((await api.get(KEY, '/api/v1/stats?range=7d')).body.requests, 5);

    // The month's usage is of the arrival: all five count now, whatever their dates.
    const projects = await api.dashboard(TOKEN, '/api/llm/projects');
    assert.is(projects.body.data.find((p: Json) => p.name === 'timed').usage.items, 5);

    // A batch sent again lands once: its dates are the same, and so is its key.
    const again = await api.ingest(KEY, { traces: items });
    assert.is(again.status, 202);
    assert.is((await api.get(KEY, '/api/v1/traces?limit=10')).body.data.length, 5);
  });

  return test;
}

const sqlite = define('sqlite');
const postgres = await postgresAvailable('llm_trace_time') ? define('postgres') : undefined;
sqlite.run();
postgres?.run();
