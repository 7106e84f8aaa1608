// `vigil demo`, as `npm run demo` runs it: a real process with real ports. Within seconds its traffic must fill every
// gateway page (records of several tenants, errors, usage with tokens) and the LLM project (both prompt templates in
// three versions, errors, costs) while nothing sensitive that the traffic carries is ever stored in clear: not
// through the APIs, not in the SQLite file. Ctrl+C ends it all.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CARDS, PEOPLE, cardSpellings } from '../../app/demo/demo-data.js';
import { freePort, waitFor } from '../support/net.js';
import { fromRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, spawnVigil, type VigilProcess } from '../support/vigil-process.js';

interface StoredRecord {
  id: string; time: number; path: string; status: number; labels: Record<string, string>; headers: Record<string, unknown> | null;
  request_body: unknown; response_body: unknown; tokens: number | null; matched_rules: string[];
}
interface Page<T> { data: T[] }
interface Usage { data: { tenant: string; requests: number; tokens: number; cost: number }[]; currency: string }

/** The pids of `pid`'s children, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(d)] : [];
    } catch { return []; }
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
const listening = (port: number): Promise<boolean> => new Promise((resolve) => {
  const s = connect(port, '127.0.0.1');
  s.once('connect', () => { s.destroy(); resolve(true); });
  s.once('error', () => resolve(false));
});

/** Every form in which the traffic writes a secret the demo policy masks: card numbers as digits and grouped, emails. */
const secrets = [...CARDS.flatMap((c) => cardSpellings(c.number)), ...PEOPLE.map((p) => p.email)];

const demo = suite('vigil demo');
const work = tempDir('vigil-demo-test-');
const dataDir = join(work.path, 'data');
const token = 'demo-test-token';
/** The LLM project's key: the demo takes it from VIGIL_DEMO_LLM_KEY (else it makes one it never shows). */
const llmKey = 'demo-test-llm-key-0123456789';
let vigil: VigilProcess;
let base = '';
let ports: { control: number; proxy: number; api: number };
const startedAt = Date.now();

const api = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
};

/** The LLM public API, with the project key. */
const llmApi = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${base}${path}`, { headers: { 'x-service-project-key': llmKey } });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
};

interface LlmTrace { id: string; model: string; provider: string; status: string; cost_usd: number | null; prompt_template: { name: string; version: number } | null }
interface Templates { data: { name: string; latest_version: number; versions: { version: number; requests: number; errors: number; cost_usd: number }[] }[] }

/** The newest `most` stored records (every one by default), newest first, through the records API (paged at 200). */
async function allRecords(most = Infinity): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for (let offset = 0; offset < most; offset += 200) {
    const page = await api<Page<StoredRecord>>(`/api/gateway/records?limit=200&offset=${offset}`);
    out.push(...page.data);
    if (page.data.length < 200) return out;
  }
  return out;
}

demo.before(async () => {
  const [control, proxy] = [await freePort(), await freePort()];
  base = `http://127.0.0.1:${control}`;
  vigil = spawnVigil(['demo', '--port', String(control), '--proxy-port', String(proxy), '--data-dir', dataDir, '--rate', '8'],
    { cwd: work.path, env: { VIGIL_TOKEN: token, VIGIL_DEMO_LLM_KEY: llmKey } });
  const m = await waitFor(() => /the demo API at http:\/\/127\.0\.0\.1:(\d+)/.exec(vigil.stdout()), { timeoutMs: 20_000, what: 'the demo banner' })
    .catch((e) => { throw new Error(`${(e as Error).message}\nstdout: ${vigil.stdout()}\nstderr: ${vigil.stderr()}`); });
  ports = { control, proxy, api: Number(m![1]) };
});

demo.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

demo('the banner names the dashboard, the gateway, the demo API, the data directory and a curl through the gateway', () => {
  const out = vigil.stdout();
  assert.match(out, `Dashboard: ${base}/ (sign in with the token in VIGIL_TOKEN)`);
  assert.match(out, `Gateway   http://127.0.0.1:${ports.proxy}  ->  the demo API at http://127.0.0.1:${ports.api}`);
  assert.match(out, `Data      ${dataDir}\n`);
  assert.match(out, 'LLM       traces of two prompt templates (support-reply, summarise-ticket), three versions each, to the project shop-assistant');
  assert.not.match(out, llmKey, 'the LLM key is never printed');
  assert.match(out, new RegExp(`curl -s http://127\\.0\\.0\\.1:${ports.proxy}/api/payments/charge -H 'Authorization: Bearer demo_acme_`));
  assert.match(out, 'Ctrl+C stops the demo.');
  assert.match(out, /Alerts {4}the rules of .*examples\/demo\/vigil\.yaml, notifying the demo's webhook receiver at http:\/\/127\.0\.0\.1:\d+\/notifications/);
});

demo('within seconds: a fired alert, and its notification delivered to the demo\'s own webhook receiver', async () => {
  interface AlertEvents { data: { rule_id: string; summary: string; delivery: { channel_id: string; state: string; attempts: number }[] }[] }
  const events = await waitFor(async () => {
    const page = await api<AlertEvents>('/api/alerts/events?rule_id=new-prompt-version&limit=10');
    return page.data.some((e) => e.delivery.some((d) => d.state === 'delivered')) ? page : undefined;
  }, { timeoutMs: 60_000, intervalMs: 500, what: 'a delivered alert' });
  console.log(`  an alert was delivered after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  const delivered = events!.data.find((e) => e.delivery.some((d) => d.state === 'delivered'))!;
  assert.match(delivered.summary, /has a new prompt version/);
  assert.equal(delivered.delivery.map((d) => d.channel_id), ['demo-receiver']);
  // The receiver in the demo's process got it, signed (it refuses a bad signature with 401), and says so.
  await waitFor(() => vigil.stdout().includes('Notification delivered to the demo\'s webhook receiver: [Firing] New prompt version'), { timeoutMs: 10_000, what: 'the receiver\'s line' });
  // The channel counts a delivery after it has stored its state: the event can read "delivered" a moment before.
  const deliveredCount = /vigil_channels_deliveries_total\{channel="demo-receiver",outcome="delivered"\} [1-9]/;
  const metrics = (await waitFor(async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return deliveredCount.test(text) ? text : undefined;
  }, { timeoutMs: 10_000, intervalMs: 250, what: 'the delivery counted' }))!;
  assert.match(metrics, deliveredCount);
});

demo('within seconds: records of every tenant, 4xx and 5xx, usage with tokens and cost per tenant, the overview', async () => {
  const tenants = ['acme', 'globex', 'initech', 'umbrella', 'hooli'];
  const usage = await waitFor(async () => {
    const [u, errors, clientErrors] = await Promise.all([
      api<Usage>('/api/gateway/usage?range=1h'),
      api<Page<StoredRecord>>('/api/gateway/records?status=5xx&limit=1'),
      api<Page<StoredRecord>>('/api/gateway/records?status=4xx&limit=1'),
    ]);
    const withTokens = u.data.filter((r) => tenants.includes(r.tenant) && r.tokens > 0);
    return withTokens.length === tenants.length && errors.data.length > 0 && clientErrors.data.length > 0 ? u : undefined;
  }, { timeoutMs: 60_000, intervalMs: 500, what: 'usage with tokens for five tenants, a 5xx and a 4xx' });
  console.log(`  every tenant had usage with tokens, a 5xx and a 4xx after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  for (const t of tenants) {
    const row = usage!.data.find((r) => r.tenant === t)!;
    assert.ok(row.requests > 0 && row.cost > 0, `${t}: ${JSON.stringify(row)}`);
  }
  assert.is(usage!.currency, 'EUR');
  for (const t of tenants) {
    const page = await api<Page<StoredRecord>>(`/api/gateway/records?label.tenant=${t}&limit=1`);
    assert.is(page.data[0]?.labels.tenant, t);
  }
  // The first burst's 60 requests reach the rollups as capture stores them; a loaded machine takes a moment.
  type Overview = { requests: number; errors: number; tokens: number; top_routes: { route: string }[] };
  const overview = (await waitFor(async () => {
    const o = await api<Overview>('/api/gateway/overview?range=1h');
    // Its errors, tokens and top routes come in with the same rollups: wait for them too, not only the count.
    const routes = o.top_routes.map((r) => r.route);
    return o.requests >= 50 && o.errors > 0 && o.tokens > 0 && ['/api/payments/**', '/v1/chat/completions', '/api/search'].every((r) => routes.includes(r)) ? o : undefined;
  }, { timeoutMs: 30_000, intervalMs: 500, what: 'the first burst in the last hour\'s overview, with its errors, tokens and top routes' }))!;
  assert.ok(overview.errors > 0 && overview.tokens > 0);
  const routes = overview.top_routes.map((r) => r.route);
  for (const r of ['/api/payments/**', '/v1/chat/completions', '/api/search']) assert.ok(routes.includes(r), `top routes: ${routes}`);
});

demo('a day of history: the overview over 24 h opens with bars across the day, shaped by the hour', async () => {
  const told = await waitFor(() => /History: ([\d,]+) requests of the last 24 hours captured/.exec(vigil.stdout()), { timeoutMs: 120_000, what: 'the history' });
  const fed = Number(told![1].replaceAll(',', ''));
  assert.ok(fed > 10_000, `history of ${fed} requests`);
  const overview = await waitFor(async () => {
    const o = await api<{ requests: number; volume: { time: number; requests: number }[] }>('/api/gateway/overview?range=24h');
    return o.requests >= fed ? o : undefined;
  }, { timeoutMs: 30_000, intervalMs: 500, what: 'the history stored' });
  const busy = overview!.volume.filter((p) => p.requests > 0);
  assert.ok(busy.length >= 90, `${busy.length} of ${overview!.volume.length} bars have requests`);
  assert.ok(Date.now() - busy[0].time > 23 * 3_600_000, 'the first bar is a day old');
  const counts = busy.map((p) => p.requests);
  assert.ok(Math.max(...counts) > 3 * Math.min(...counts), `a day's shape, not a flat line: ${Math.min(...counts)} to ${Math.max(...counts)}`);
  // The history is governed as live traffic is: no secret of its requests is stored in clear.
  const text = JSON.stringify(await allRecords(2_000));
  for (const s of secrets) assert.not.ok(text.includes(s), `${s} is stored in clear`);
});

demo('the burst is answered and the policy shows in the records: cards, emails, keys masked; nothing of admin; tokens metered', async () => {
  await waitFor(() => vigil.stdout().includes('First burst: 60 requests answered'), { timeoutMs: 60_000, what: 'the burst' });
  // Live records (the burst's and after) are the newest: the history's are all older than the demo's start.
  // Capture stores the burst's records after they are answered, and the admin calls among them are never stored:
  // wait until 60 live records (the burst's and the steady traffic's after it) and the ones read below are in.
  const records = (await waitFor(async () => {
    const live = (await allRecords(1_000)).filter((r) => r.time >= startedAt);
    const ready = live.length >= 60
      && live.some((r) => r.path === '/api/payments/charge' && r.request_body !== null)
      && live.some((r) => r.path === '/api/support/tickets' && /card \[REDACTED\] was charged twice/.test(JSON.stringify(r.request_body)))
      && ((c) => c !== undefined && typeof c.tokens === 'number' && c.tokens > 0)(live.find((r) => r.path === '/v1/chat/completions' && r.status === 200));
    return ready ? live : undefined;
  }, { timeoutMs: 30_000, intervalMs: 500, what: '60 live records with a charge, a ticket and a completion' }))!;
  assert.ok(records.length >= 60, `${records.length} live records`);
  const charge = records.find((r) => r.path === '/api/payments/charge' && r.request_body !== null);
  assert.ok(charge, 'a stored charge with its body');
  const body = charge!.request_body as { card: Record<string, unknown>; amount: number; customer: { email: string } };
  assert.equal([body.card.number, body.card.cvc, body.customer.email], ['[REDACTED]', '[REDACTED]', '[REDACTED]']);
  assert.type(body.amount, 'number');
  assert.is(charge!.headers?.Authorization, '[REDACTED]');

  const ticket = records.find((r) => r.path === '/api/support/tickets' && /card \[REDACTED\] was charged twice/.test(JSON.stringify(r.request_body)));
  assert.ok(ticket, 'a support ticket whose card number was masked inside its text');

  // The admin console is restricted whole: its calls went through (the traffic metrics count them), none is stored.
  // The gateway counts an exchange when it finishes, which may come after its client has the answer: wait for it.
  const adminCounted = /vigil_http_requests_total\{[^}]*route="\/admin\/\*\*"[^}]*\} [1-9]/;
  const metrics = (await waitFor(async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return adminCounted.test(text) ? text : undefined;
  }, { timeoutMs: 10_000, intervalMs: 250, what: 'the admin calls counted' }))!;
  assert.match(metrics, adminCounted);
  assert.not.ok(records.some((r) => r.path.startsWith('/admin/')), 'an admin call was stored');

  const completion = records.find((r) => r.path === '/v1/chat/completions' && r.status === 200);
  assert.ok(completion && typeof completion.tokens === 'number' && completion.tokens > 0, 'a metered completion');

  const text = JSON.stringify(records);
  assert.match(text, '[REDACTED]');
  for (const s of secrets) assert.not.ok(text.includes(s), `${s} is stored in clear`);
  for (const r of records) {
    const auth = r.headers?.Authorization;
    assert.ok(auth === undefined || auth === '[REDACTED]', `${r.path}: Authorization ${String(auth)}`);
  }
});

demo('within seconds: LLM traces of both templates in three versions each, with errors and costs, on several models', async () => {
  const templates = await waitFor(async () => {
    const t = await llmApi<Templates>('/api/v1/prompt-templates');
    const full = ['support-reply', 'summarise-ticket'].every((name) => t.data.find((d) => d.name === name)?.versions.length === 3);
    return full ? t : undefined;
  }, { timeoutMs: 30_000, intervalMs: 500, what: 'both templates with three versions' });
  console.log(`  both LLM templates had three versions after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  for (const t of templates!.data) {
    assert.equal(t.versions.map((v) => v.version), [1, 2, 3], t.name);
    for (const v of t.versions) assert.ok(v.requests > 0 && v.cost_usd > 0, `${t.name} v${v.version}: ${JSON.stringify(v)}`);
    assert.ok(t.versions.reduce((n, v) => n + v.errors, 0) > 0, `${t.name} has failed calls`);
  }
  type Stats = { requests: number; errors: number; cost_usd: number; tokens: { input: number } };
  const stats = (await waitFor(async () => {
    const s = await llmApi<Stats>('/api/v1/stats?range=24h');
    return s.requests >= 600 && s.errors > 0 && s.cost_usd > 0 && s.tokens.input > 0 ? s : undefined;
  }, { timeoutMs: 60_000, intervalMs: 500, what: '600 calls with errors, cost and tokens in the stats' }))!;
  assert.ok(stats.requests >= 600 && stats.errors > 0 && stats.cost_usd > 0 && stats.tokens.input > 0, JSON.stringify(stats));
  // Failures are drawn at random, a few a second: wait until both kinds have come, rather than hope both did.
  await waitFor(async () => {
    const failed = await llmApi<Page<LlmTrace & { error: string }>>('/api/v1/traces?status=error&limit=200');
    return failed.data.some((t) => t.error.startsWith('429 ')) && failed.data.some((t) => t.error === 'Request timed out.');
  }, { timeoutMs: 30_000, intervalMs: 500, what: 'a rate limit and a timeout among the failed calls' });
  // Models and providers are drawn at random per call: wait until the newest 200 traces hold the spread asserted.
  const recent = (await waitFor(async () => {
    const page = await llmApi<Page<LlmTrace>>('/api/v1/traces?limit=200');
    return new Set(page.data.map((t) => t.model)).size >= 4 && new Set(page.data.map((t) => t.provider)).size === 3 ? page : undefined;
  }, { timeoutMs: 30_000, intervalMs: 500, what: 'several models of three providers among the newest traces' }))!;
  assert.ok(new Set(recent.data.map((t) => t.model)).size >= 4, 'several models');
  assert.equal([...new Set(recent.data.map((t) => t.provider))].sort(), ['anthropic', 'google', 'openai']);
});

demo('a day of LLM history: the stats over 24 h have calls across the day, shaped by the hour, not all in the last minutes', async () => {
  // The history is sent before the live calls and stored after it is accepted: wait for the line, then for most of it
  // (its oldest calls leave the 24 h window while the suite runs).
  const told = await waitFor(() => /LLM history: ([\d,]+) calls of the last 24 hours/.exec(vigil.stdout()), { timeoutMs: 120_000, what: 'the LLM history' });
  const fed = Number(told![1].replaceAll(',', ''));
  type Day = { series: { time: string; requests: number }[] };
  const day = (await waitFor(async () => {
    const d = await llmApi<Day>('/api/v1/stats?range=24h');
    return d.series.reduce((n, s) => n + s.requests, 0) >= 0.9 * fed ? d : undefined;
  }, { timeoutMs: 60_000, intervalMs: 500, what: `most of the ${fed} calls of the history in the stats` }))!;
  const busy = day.series.filter((s) => s.requests > 0);
  assert.ok(busy.length > day.series.length * 0.8, `${busy.length} of ${day.series.length} quarter-hours have calls`);
  const hourAgo = Date.now() - 3_600_000;
  const older = day.series.filter((s) => Date.parse(s.time) < hourAgo).reduce((n, s) => n + s.requests, 0);
  const total = day.series.reduce((n, s) => n + s.requests, 0);
  assert.ok(older > total * 0.7, `${older} of ${total} calls are older than an hour`);
  const counts = busy.map((s) => s.requests);
  assert.ok(Math.max(...counts) >= 3 * Math.min(...counts), `quarter-hours from ${Math.min(...counts)} to ${Math.max(...counts)} calls`);
});

demo('the evals tell the versions apart, and skip the failed calls instead of scoring them', async () => {
  type Versions = { data: { name: string; versions: { version: number; avg_score: number | null; eval_samples: number }[] }[] };
  // Each version's score is a mean over sampled live calls, a few a second; v3 of summarise-ticket leaves the actions
  // out of about one answer in five, so ten samples all have them one run in ten. Wait until the scores show the
  // difference (a product that never tells the versions apart times out, naming the last scores it read).
  const scores = async (definition: string, template: string, tells: (s: number[]) => boolean): Promise<number[]> => {
    let last = 'none yet';
    const told = await waitFor(async () => {
      const t = (await llmApi<Versions>(`/api/v1/prompt-templates?eval_definition_id=${definition}`)).data.find((x) => x.name === template);
      const byVersion = [1, 2, 3].map((v) => t?.versions.find((x) => x.version === v));
      if (!byVersion.every((v) => v && v.eval_samples >= 10 && v.avg_score !== null)) return undefined;
      const s = byVersion.map((v) => v!.avg_score!);
      last = byVersion.map((v) => `v${v!.version} ${v!.avg_score!.toFixed(2)} of ${v!.eval_samples}`).join(', ');
      return tells(s) ? s : undefined;
    }, { timeoutMs: 120_000, intervalMs: 1000, what: `${definition} scores of three versions that tell them apart` })
      .catch((err: Error) => { throw new Error(`${err.message}; last read: ${last}`); });
    return told!;
  };
  const concise = await scores('concise-reply', 'support-reply', (s) => s[0] < s[1] - 0.2);
  assert.ok(concise[0] < concise[1] - 0.2, `concise-reply by version: ${concise}`);
  const handover = await scores('hands-over-payments', 'support-reply', (s) => s[2] > s[1] + 0.1);
  assert.ok(handover[2] > handover[1] + 0.1, `hands-over-payments by version: ${handover}`);
  const actions = await scores('actions-listed', 'summarise-ticket', (s) => s[0] < 0.1 && s[1] > 0.9 && s[2] < s[1]);
  assert.ok(actions[0] < 0.1 && actions[1] > 0.9 && actions[2] < actions[1], `actions-listed by version: ${actions}`);
  console.log(`  eval scores by version: concise ${concise.map((x) => x.toFixed(2))}, handover ${handover.map((x) => x.toFixed(2))}, actions ${actions.map((x) => x.toFixed(2))}`);
  // A failed call's skipped result is written by the eval queue after the call is stored: wait for one.
  const skipped = (await waitFor(async () => {
    const page = await llmApi<Page<{ status: string; score: number | null; reason: string }>>('/api/v1/eval-results?status=skipped&limit=50');
    return page.data.length > 0 && page.data.every((r) => r.score === null && r.reason === 'no output') ? page : undefined;
  }, { timeoutMs: 30_000, intervalMs: 500, what: 'skipped eval results of failed calls' }))!;
  assert.ok(skipped.data.length > 0, 'failed calls have skipped results');
  assert.ok(skipped.data.every((r) => r.score === null && r.reason === 'no output'));
});

demo('the stored LLM traces hold no email or card number in clear: the project\'s redaction masked them', async () => {
  const allTraces = async (): Promise<string> => {
    const traces: unknown[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await llmApi<Page<unknown>>(`/api/v1/traces?limit=200&offset=${offset}`);
      traces.push(...page.data);
      if (page.data.length < 200) return JSON.stringify(traces);
    }
  };
  // The customers' messages are drawn at random among the live calls, stored as they come: wait until the scan has
  // the kinds it must find.
  const text = (await waitFor(async () => {
    const t = await allTraces();
    return t.includes('was charged twice for the same order') && /My card \[REDACTED\] was charged twice/.test(t) && t.includes('"customer_email":"[REDACTED]"') ? t : undefined;
  }, { timeoutMs: 30_000, intervalMs: 1000, what: 'masked customer messages among the stored traces' }))!;
  // What the scan must find, so that finding no secret means something: customers' messages, masked where they had one.
  assert.match(text, 'was charged twice for the same order');
  assert.match(text, /My card \[REDACTED\] was charged twice/);
  assert.match(text, '"customer_email":"[REDACTED]"');
  for (const s of secrets) assert.not.ok(text.includes(s), `${s} is stored in clear in an LLM trace`);
});

demo('SIGINT stops the demo: exit 0, every port closed, no process left behind', async () => {
  const children = childrenOf(vigil.proc.pid!);
  const t0 = Date.now();
  const { code, signal } = await vigil.stop('SIGINT');
  assert.equal({ code, signal }, { code: 0, signal: null }, vigil.stderr());
  assert.ok(Date.now() - t0 < 15_000, `took ${Date.now() - t0} ms`);
  assert.match(vigil.stdout(), /Stopped after [\d,]+ requests\./);
  for (const port of Object.values(ports)) assert.is(await listening(port), false, `port ${port} still open`);
  for (const pid of children) assert.not.ok(existsSync(`/proc/${pid}`), `child ${pid} outlived the demo`);
  assert.ok(existsSync(join(dataDir, 'vigil.db')), '--data-dir is kept');
});

demo('after the stop, the SQLite files hold the records and the LLM traces, and no card number or email in clear', () => {
  // After the stop, so the write-ahead log is checkpointed into the file too: an LLM item is redacted before its batch
  // is answered, and nothing raw is ever written; the gateway's records are governed before they are stored.
  const files = readdirSync(dataDir).filter((f) => f.startsWith('vigil.db'));
  assert.ok(files.includes('vigil.db'), `files: ${files}`);
  const bytes = Buffer.concat(files.map((f) => readFileSync(join(dataDir, f))));
  // What the scan must find, so that finding nothing else means something: stored records and traces, in plain text.
  assert.ok(bytes.includes('umbrella-portal/2.7'), 'the records are in the files as text');
  assert.ok(bytes.includes('was charged twice for the same order'), 'the LLM traces are in the files as text');
  assert.ok(bytes.includes('[REDACTED]'));
  for (const s of secrets) assert.is(bytes.indexOf(s), -1, `${s} is in the SQLite files`);
});

demo.run();

const quiet = suite('vigil demo --no-traffic');

quiet('prints the dashboard link with a new token once; a request of your own goes through; the temporary data goes on exit', async () => {
  const [control, proxy] = [await freePort(), await freePort()];
  const p = spawnVigil(['demo', '--no-traffic', '--port', String(control), '--proxy-port', String(proxy)], { env: { VIGIL_TOKEN: '' } });
  let dir: string | undefined;
  try {
    const m = await waitFor(() => /Dashboard: (http:\/\/127\.0\.0\.1:\d+)\/\?token=([\w-]+)/.exec(p.stdout()), { timeoutMs: 20_000, what: 'the dashboard link' });
    const [, url, generated] = m!;
    assert.is(url, `http://127.0.0.1:${control}`);
    assert.is(p.stdout().split('?token=').length, 2, 'the token is printed once');
    dir = /Data {6}(\S+) \(removed on exit/.exec(p.stdout())?.[1];
    assert.ok(dir && existsSync(dir), `data directory: ${dir}`);
    const login = await fetch(`${url}/?token=${generated}`, { redirect: 'manual' });
    assert.is(login.status, 302);

    const key = /Bearer (demo_acme_[\w-]+)/.exec(p.stdout())![1];
    const res = await fetch(`http://127.0.0.1:${proxy}/api/payments/charge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-tenant-id': 'acme', 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1250, currency: 'EUR', card: { number: '4242 4242 4242 4242', cvc: '123' } }),
    });
    assert.is(res.status, 201);
    assert.is(((await res.json()) as { card: { last4: string } }).card.last4, '4242');
    const stored = await waitFor(async () => {
      const page = await (await fetch(`${url}/api/gateway/records`, { headers: { authorization: `Bearer ${generated}` } })).json() as Page<StoredRecord>;
      return page.data[0];
    }, { timeoutMs: 5_000, what: 'the record' });
    assert.equal((stored.request_body as { card: unknown }).card, { number: '[REDACTED]', cvc: '[REDACTED]' });
    assert.is((await fetch(`${url}/api/gateway/records?limit=200`, { headers: { authorization: `Bearer ${generated}` } }).then((r) => r.json()) as Page<unknown>).data.length, 1,
      'no traffic but ours');

    const { code } = await p.stop('SIGTERM');
    assert.is(code, 0, p.stderr());
    assert.not.ok(existsSync(dir!), 'the temporary data directory is removed');
  } finally {
    await p.stop('SIGKILL');
    // A failed assertion kills the demo before it could remove its temporary directory.
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

quiet('a port that is taken fails the start with exit 1, names it, and says how to choose another', async () => {
  const taken = createServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  try {
    const port = (taken.address() as AddressInfo).port;
    const r = await runVigil(['demo', '--no-traffic', '--port', String(port), '--proxy-port', String(await freePort())]);
    assert.is(r.code, 1);
    assert.match(r.stderr, `cannot listen on 127.0.0.1:${port}`);
    assert.match(r.stderr, 'choose another with --port or --proxy-port');
  } finally {
    taken.close();
  }
});

quiet('with 9095 taken and no --port, the demo takes another port and says so', async () => {
  // Taken here unless something (a running `npm start`) holds it already: either way the demo must move, and say it.
  const holder = createServer().listen(9095, '127.0.0.1');
  await Promise.race([once(holder, 'listening'), once(holder, 'error')]);
  const p = spawnVigil(['demo', '--no-traffic', '--proxy-port', String(await freePort())], { env: { VIGIL_TOKEN: 'demo-port-token' } });
  let dir: string | undefined;
  try {
    const m = await waitFor(() => /port 9095 is taken \(by `npm start`\?\): the dashboard is on (\d+); --port N chooses/.exec(p.stdout()),
      { timeoutMs: 20_000, what: 'the moved port' }).catch((e) => { throw new Error(`${(e as Error).message}\n${p.stdout()}\n${p.stderr()}`); });
    assert.match(p.stdout(), `Dashboard: http://127.0.0.1:${m![1]}/ (sign in with the token in VIGIL_TOKEN)`);
    dir = /Data {6}(\S+)/.exec(p.stdout())?.[1];
  } finally {
    await p.stop('SIGKILL');
    holder.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

quiet('a bad flag value is a usage error: exit 2, nothing started', async () => {
  const r = await runVigil(['demo', '--rate', 'fast']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /--rate takes requests per second from 0 to 200, got "fast"/);
  assert.match(r.stderr, /Usage: vigil demo/);
});

quiet('the demo policy passes its offline cases', async () => {
  const r = await runVigil(['test', '-config', fromRoot('examples/demo/vigil.yaml'), fromRoot('examples/demo/policy.cases.yaml')]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /passed, 0 failed/);
});

quiet.run();
