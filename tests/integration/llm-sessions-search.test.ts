// Sessions, users and full-text search over stored traces, on SQLite and PostgreSQL, through the real `vigil run`:
// sessions aggregate and replay in order, users carry their eval scores (a real custom_function evaluator), search finds
// words of an output with the trace list's filters, a value masked by the project's rules is never found, hostile
// queries are a 400 or a plain search (never a 500).
import { randomUUID } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'llm-sessions-search-token';
const KEY = 'vk_sessions_search_key_0123456789abcdef';
/** A value the project's rules mask: by JSON path (the output's `code`) and by detector (an email in the input). */
const MASKED_CODE = 'zq7securecode';
const MASKED_EMAIL = 'carol.quartz@example.org';

interface Ctx {
  work: ReturnType<typeof tempDir>;
  vigil: VigilProcess;
  api: ReturnType<typeof llmClient>;
  ids: Record<string, string>;
  drop?: () => Promise<void>;
}

const reply = (content: string, extra: Json = {}) => ({ role: 'assistant', content, ...extra });
const ask = (content: string) => [{ role: 'user', content }];
const BASE = Date.now() - 3_600_000;
const at = (n: number) => new Date(BASE + n * 1000).toISOString();

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`llm sessions, users and search (${backend})`);
  const dash = (ctx: Ctx, path: string) => ctx.api.dashboard(TOKEN, `/api/llm/projects/alpha${path}`);
  const search = async (ctx: Ctx, q: string, extra = '') => {
    const r = await dash(ctx, `/traces?q=${encodeURIComponent(q)}${extra}`);
    return { status: r.status, body: r.body, ids: r.status === 200 ? (r.body.data as Json[]).map((t) => t.id) : [] };
  };

  const expectFound = async (ctx: Ctx, q: string, ...rest: [string[]] | [string, string[]]) => {
    const [extra, expected] = rest.length === 1 ? ['', rest[0]] : rest;
    const r = await search(ctx, q, extra);
    const names = Object.fromEntries(Object.entries(ctx.ids).map(([k, v]) => [v, k]));
    assert.equal(r.ids.map((id) => names[id] ?? id), expected.map((id) => names[id] ?? id), `${q}${extra}`);
  };

  test.before(async (ctx) => {
    ctx.work = tempDir('vigil-llm-sessions-');
    let storage = '';
    if (backend === 'postgres') {
      const schema = await freshPostgresSchema('llm_sessions_search');
      ctx.drop = () => schema.drop();
      storage = `storage: { url: "${schema.url}" }\n`;
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const file = writeConfig(ctx.work.path, `data_dir: ${ctx.work.path}/data
${storage}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  persist: { backoff: 50ms }
  projects:
    - name: alpha
      key: ${KEY}
      redact: { json_fields: [$.output.code], detect: [email] }
evaluators:
  definitions:
    - id: mentions-paris
      project: alpha
      name: Mentions Paris
      type: custom_function
      settings:
        source: |
          export default (trace) => ({ score: JSON.stringify(trace.output).includes('Paris') ? 1 : 0 })
`);
    ctx.vigil = await startVigil(file, base, { cwd: ctx.work.path, timeoutMs: 60_000 });
    ctx.api = llmClient(base);
    const id = () => randomUUID();
    ctx.ids = { t1: id(), t2: id(), t3: id(), b1: id(), b2: id(), zebra: id(), masked: id(), lone: id() };
    const items: Json[] = [
      // s-alice: three turns, one an error; alice's outputs mention Paris (score 1), bob's do not (score 0).
      traceItem({ id: ctx.ids.t1, start_time: at(1), session_id: 's-alice', user_id: 'alice', cost_usd: 0.01, latency_ms: 100, input: ask('Where is the Louvre?'), output: reply('In Paris, on the Seine.') }),
      traceItem({ id: ctx.ids.t2, start_time: at(2), session_id: 's-alice', user_id: 'alice', cost_usd: 0.02, latency_ms: 200, input: ask('And its opening hours?'), output: reply('Paris museums open at nine.') }),
      traceItem({ id: ctx.ids.t3, start_time: at(3), session_id: 's-alice', user_id: 'alice', cost_usd: 0.03, latency_ms: 300, status: 'error', error: 'rate limited', input: ask('Thanks!'), output: reply('Paris says you are welcome.') }),
      traceItem({ id: ctx.ids.b1, start_time: at(4), session_id: 's-bob', user_id: 'bob', cost_usd: 0.5, latency_ms: 50, model: 'gpt-4o', input: ask('Tell me a joke'), output: reply('Why did the zebra cross the road?') }),
      traceItem({ id: ctx.ids.b2, start_time: at(5), session_id: 's-bob', user_id: 'bob', cost_usd: 0.5, latency_ms: 50, model: 'gpt-4o', input: ask('Another'), output: reply('No more jokes.') }),
      traceItem({ id: ctx.ids.zebra, start_time: at(6), output: reply('The zebra crossing on Main Street is closed.') }),
      traceItem({ id: ctx.ids.masked, start_time: at(7), input: ask(`My email is ${MASKED_EMAIL}, please reset`), output: reply('Your reset code follows.', { code: MASKED_CODE }) }),
      traceItem({ id: ctx.ids.lone, start_time: at(8), output: reply('A lone \ud800 surrogate and a nul \u0000 in the plainly searchable marmalade.') }),
    ];
    const r = await ctx.api.ingest(KEY, { traces: items });
    assert.is(r.status, 202, JSON.stringify(r.body));
    await ctx.api.waitForTraces(KEY, Object.values(ctx.ids), 60_000);
  });

  test.after(async (ctx) => {
    await ctx.vigil?.stop();
    await ctx.drop?.();
    ctx.work?.cleanup();
  });

  test('search finds a word of an output, as a phrase, as a prefix, and with the list\'s filters', async (ctx) => {
    await expectFound(ctx, 'zebra', [ctx.ids.zebra, ctx.ids.b1]);
    await expectFound(ctx, 'ZEBRA crossing', [ctx.ids.zebra]);
    await expectFound(ctx, '"zebra crossing"', [ctx.ids.zebra]);
    await expectFound(ctx, '"crossing zebra"', []);
    await expectFound(ctx, 'zeb*', [ctx.ids.zebra, ctx.ids.b1]);
    await expectFound(ctx, 'zebra', '&model=gpt-4o', [ctx.ids.b1]);
    await expectFound(ctx, 'paris', '&status=error', [ctx.ids.t3]);
    await expectFound(ctx, 'paris', `&until=${encodeURIComponent(at(2))}`, [ctx.ids.t1]);
    // Input is indexed too.
    await expectFound(ctx, 'louvre', [ctx.ids.t1]);
    // A trace whose JSON PostgreSQL's jsonb refuses (a lone surrogate, a nul) is stored and found all the same.
    await expectFound(ctx, 'marmalade', [ctx.ids.lone]);
    // The public API takes the same parameter.
    const pub = await ctx.api.get(KEY, '/api/v1/traces?q=zebra&limit=1');
    assert.is(pub.status, 200);
    assert.equal(pub.body.data.map((t: Json) => t.id), [ctx.ids.zebra]);
    assert.ok(pub.body.next, 'a second page follows');
  });

  test('a value masked by a rule is never found; the words around it are', async (ctx) => {
    const stored = (await ctx.api.get(KEY, `/api/v1/traces/${ctx.ids.masked}`)).body;
    assert.not.ok(JSON.stringify(stored).includes(MASKED_CODE), 'the code is masked in the stored trace');
    assert.not.ok(JSON.stringify(stored).includes(MASKED_EMAIL), 'the email is masked in the stored trace');
    for (const q of [MASKED_CODE, `${MASKED_CODE.slice(0, 6)}*`, MASKED_EMAIL, 'carol', 'quartz', '"carol quartz"']) {
      const r = await search(ctx, q);
      assert.is(r.status, 200, q);
      assert.equal(r.ids, [], `${q} must not be found`);
    }
    await expectFound(ctx, 'reset code', [ctx.ids.masked]);
  });

  test('hostile searches: operators are plain text, a lone quote or no word is a 400, never a 500', async (ctx) => {
    for (const q of ['NEAR(zebra crossing) AND OR NOT', 'zebra:* & !crossing | (x', '^zebra -crossing +x', 'col:zebra', 'zebra\u0000', "zebra'; DROP TABLE llm_traces; --", '{zebra}']) {
      const r = await search(ctx, q);
      assert.is(r.status, 200, `${JSON.stringify(q)}: ${JSON.stringify(r.body)}`);
    }
    await expectFound(ctx, 'zebra:* & !crossing', [ctx.ids.zebra]);
    const bad: [string, RegExp][] = [
      ['"zebra crossing', /unmatched double quote/],
      ['*** --- ()', /at least one word/],
      [Array.from({ length: 13 }, (_, i) => `w${i}`).join(' '), /at most 12 words/],
    ];
    for (const [q, message] of bad) {
      const r = await search(ctx, q);
      assert.is(r.status, 400, q);
      assert.is(r.body.error.code, 'VIGIL_ERR_LLM_SEARCH_QUERY');
      assert.match(r.body.error.message, message);
    }
    const huge = await search(ctx, 'x'.repeat(100_000).slice(0, 5000));
    assert.is(huge.status, 400, 'past the length cap');
    const still = await search(ctx, 'zebra');
    assert.is(still.ids.length, 2, 'the store answers after them');
  });

  test('sessions: per-session figures, sorted and paged, and the replay in order', async (ctx) => {
    const list = await dash(ctx, '/sessions?sort=turns&order=desc');
    assert.is(list.status, 200, JSON.stringify(list.body));
    assert.is(list.body.total, 2);
    const [alice, bob] = list.body.data as Json[];
    assert.is(alice.session_id, 's-alice');
    assert.equal([alice.user_id, alice.turns, alice.errors, alice.latency_ms, alice.avg_latency_ms], ['alice', 3, 1, 600, 200]);
    assert.ok(Math.abs(alice.cost_usd - 0.06) < 1e-9);
    assert.equal([alice.first_seen, alice.last_seen], [at(1), at(3)]);
    assert.equal([bob.session_id, bob.turns, bob.errors], ['s-bob', 2, 0]);
    assert.equal((await dash(ctx, '/sessions?sort=cost&order=desc')).body.data.map((s: Json) => s.session_id), ['s-bob', 's-alice']);
    assert.equal((await dash(ctx, '/sessions?sort=cost&order=asc&limit=1')).body.data.map((s: Json) => s.session_id), ['s-alice']);
    assert.equal((await dash(ctx, '/sessions?user_id=bob')).body.data.map((s: Json) => s.session_id), ['s-bob']);
    assert.is((await dash(ctx, '/sessions?since=1m')).body.total, 0, 'the range narrows the sessions');

    const replay = await dash(ctx, '/sessions/s-alice?limit=2');
    assert.is(replay.status, 200);
    assert.equal(replay.body.turns.map((t: Json) => t.id), [ctx.ids.t1, ctx.ids.t2]);
    assert.is(replay.body.next_offset, 2);
    assert.is(replay.body.session.turns, 3);
    const rest = await dash(ctx, '/sessions/s-alice?limit=2&offset=2');
    assert.equal(rest.body.turns.map((t: Json) => [t.id, t.cost_usd, t.latency_ms]), [[ctx.ids.t3, 0.03, 300]]);
    assert.is(rest.body.next_offset, null);
    const pub = await ctx.api.get(KEY, '/api/v1/sessions/s-bob');
    assert.equal(pub.body.turns.map((t: Json) => t.id), [ctx.ids.b1, ctx.ids.b2]);
    const missing = await dash(ctx, '/sessions/nope');
    assert.is(missing.status, 404);
    assert.is(missing.body.error.code, 'VIGIL_ERR_LLM_SESSION_NOT_FOUND');
  });

  test('users: requests, sessions, cost, errors and eval scores from the evaluators, sorted, with a user page', async (ctx) => {
    // Every trace is scored by the custom function; wait for the five of alice and bob.
    let last: unknown;
    const users = await waitFor(async () => {
      const r = await dash(ctx, '/users?sort=requests');
      const data = r.body.data as Json[] | undefined;
      last = r.body;
      return data && data.every((u) => u.eval.samples === u.requests) ? data : null;
    }, { timeoutMs: 20_000, what: 'eval scores of every user' }).catch((err) => { throw new Error(`${(err as Error).message}: ${JSON.stringify(last)}`); });
    assert.equal((users as Json[]).map((u) => [u.user_id, u.requests, u.sessions, u.errors, u.eval.avg_score, u.eval.samples]), [
      ['alice', 3, 1, 1, 1, 3],
      ['bob', 2, 1, 0, 0, 2],
    ]);
    assert.equal((await dash(ctx, '/users?sort=cost')).body.data.map((u: Json) => u.user_id), ['bob', 'alice']);
    const alice = await dash(ctx, '/users/alice');
    assert.is(alice.status, 200);
    assert.equal([alice.body.user.requests, alice.body.user.eval.avg_score], [3, 1]);
    assert.equal(alice.body.eval_by_definition.map((d: Json) => [d.eval_definition_id, d.avg_score, d.samples]), [['mentions-paris', 1, 3]]);
    const none = await dash(ctx, '/users/alice?since=1m');
    assert.is(none.status, 404);
    assert.is(none.body.error.code, 'VIGIL_ERR_LLM_USER_NOT_FOUND');
  });

  return test;
}

define('sqlite').run();
if (await postgresAvailable('llm sessions, users and search')) define('postgres').run();
