// Alerts end to end in a real `vigil run`: traces whose eval scores drop make an `lt` rule fire within one tick and a
// real SMTP server (smtp-server, messages parsed by mailparser) receives the mail; a new prompt version fires at once,
// before any tick could; a project crossing its budget fires, and ingest then samples its calls out.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { publicApi, sendTraces, SUPPORT_V1, type Item } from '../support/llm-traffic.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'alerts-run-dashboard-token';
const SHOP = 'alerts-run-shop-key-0123456789';
const CAPPED = 'alerts-run-capped-key-0123456789';
/** The tick: short, so the suite is quick, and long enough that "at once" is told apart from "at the next tick". */
const INTERVAL_MS = 4000;

const work = tempDir('vigil-alerts-run-');
const mails: ParsedMail[] = [];
const smtp = new SMTPServer({
  logger: false, authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'],
  onData(stream, _session, callback) { simpleParser(stream).then((m) => { mails.push(m); callback(); }, callback); },
});
let vigil: VigilProcess;
let base = '';

test.before(async () => {
  const smtpPort = await freePort();
  await new Promise<void>((r) => smtp.listen(smtpPort, '127.0.0.1', () => r()));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The evaluator scores from the output: 1 for an answer that thanks the customer, 0 otherwise.
  const config = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  persist: { backoff: 100ms }
  projects:
    - { name: shop, key: ${SHOP} }
    - { name: capped, key: ${CAPPED}, budget: { monthly_usd: 0.001, over_budget_sample_rate: 0 } }
evaluators:
  rate_per_minute: 6000
  definitions:
    - id: thanks
      project: shop
      name: Thanks the customer
      type: custom_function
      settings: { source: "export default (t) => JSON.stringify(t.output).includes('Thanks') ? 1 : 0" }
channels:
  backoff: 200ms
  targets:
    - { id: mail, type: email, host: 127.0.0.1, port: ${smtpPort}, security: none, from: "Vigil <alerts@example.com>", to: [ops@example.com] }
alerts:
  interval: ${INTERVAL_MS}ms
  rules:
    - { id: quality, name: Shop answers got worse, source: llm.eval_score, scope: { project: shop }, condition: { type: lt, threshold: 0.5 }, window: 10m, min_samples: 5, cooldown: 1h, channels: [mail] }
    - { id: versions, name: New shop prompt, source: llm.prompt_versions, scope: { project: shop }, condition: { type: prompt_version_change }, channels: [mail] }
    - { id: spend, name: Capped project over budget, source: llm.cost_usd, scope: { project: capped }, condition: { type: budget }, channels: [mail], severity: critical }
`);
  vigil = await startVigil(config, base, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  await new Promise<void>((r) => smtp.close(() => r()));
  work.cleanup();
});

const api = () => llmClient(base);
const events = async (ruleId: string): Promise<Json[]> => {
  const r = await api().dashboard(TOKEN, `/api/alerts/events?rule_id=${ruleId}`);
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.data as Json[];
};
const answer = (i: number, content: string): Item => ({
  id: randomUUID(), name: 'support-reply', model: 'gpt-4o-mini', latency_ms: 500 + i, tokens: { input: 40, output: 12 },
  input: [{ role: 'user', content: `Question ${i}` }], output: { role: 'assistant', content },
});
const evalResults = async (): Promise<number> => (await api().get(SHOP, '/api/v1/eval-results?limit=200')).body.data.length as number;
const mailFor = (subject: RegExp) => waitFor(async () => mails.find((m) => subject.test(m.subject ?? '')) ?? null, { what: `a mail matching ${subject}`, timeoutMs: 15_000 });

test('eval scores drop: the lt rule fires within one tick of the scores, and the mail arrives once', async () => {
  // Good answers first: the window's average is 1, nothing fires over two ticks.
  await sendTraces(base, SHOP, Array.from({ length: 6 }, (_, i) => answer(i, 'Thanks for asking! Here is what to do.')));
  await waitFor(async () => ((await evalResults()) === 6 ? true : null), { what: 'six eval results', timeoutMs: 20_000 });
  await new Promise((r) => setTimeout(r, 2 * INTERVAL_MS + 500));
  assert.equal(await events('quality'), [], 'an average of 1 is not below 0.5');

  // Then curt ones: 6 × 1 + 18 × 0 over 24 is 0.25.
  await sendTraces(base, SHOP, Array.from({ length: 18 }, (_, i) => answer(i, 'No.')));
  await waitFor(async () => ((await evalResults()) === 24 ? true : null), { what: 'the curt answers scored', timeoutMs: 20_000 });
  const scored = Date.now();
  const [fired] = (await waitFor(async () => { const list = await events('quality'); return list.length ? list : null; },
    { what: 'the quality rule fired', timeoutMs: 3 * INTERVAL_MS }))!;
  const firedWithin = Date.now() - scored;
  // The first tick that starts after the scores fires: at most a tick's wait plus that tick's own evaluation, which
  // takes seconds on a loaded machine. Two ticks' time still fails a rule that waited for a later tick.
  assert.ok(firedWithin < 2 * INTERVAL_MS, `fired ${firedWithin} ms after the scores, a tick is ${INTERVAL_MS} ms`);
  assert.equal([fired.status, fired.value, fired.threshold, fired.samples, fired.suppressed], ['firing', 0.25, 0.5, 24, null]);

  const mail = (await mailFor(/Shop answers got worse/))!;
  assert.match(mail.text ?? '', /0\.25/);
  assert.equal(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : [], ['ops@example.com']);
  const delivered = await waitFor(async () => { const [e] = await events('quality'); return e.delivery[0]?.state === 'delivered' ? e : null; },
    { what: 'the delivery recorded', timeoutMs: 10_000 });
  assert.equal(delivered!.delivery.map((d: Json) => [d.channel_id, d.state, d.attempts]), [['mail', 'delivered', 1]]);

  // Later ticks: still firing, one event, one mail (the cooldown and the firing state hold it).
  await new Promise((r) => setTimeout(r, INTERVAL_MS + 500));
  assert.is((await events('quality')).length, 1);
  assert.is(mails.filter((m) => /Shop answers got worse/.test(m.subject ?? '')).length, 1);
});

test('a new prompt version fires at once, not at the next tick, and is mailed', async () => {
  const sent = Date.now();
  await sendTraces(base, SHOP, [{
    ...answer(0, 'Thanks!'), prompt_template: { name: 'support-reply', raw: SUPPORT_V1, variables: { question: 'Where is my order?' } },
  }]);
  const [event] = (await waitFor(async () => { const list = await events('versions'); return list.length ? list : null; },
    { what: 'the version event', timeoutMs: 2 * INTERVAL_MS, intervalMs: 50 }))!;
  const after = Date.now() - sent;
  assert.ok(after < INTERVAL_MS, `the version fired ${after} ms after the trace, a tick is ${INTERVAL_MS} ms`);
  assert.match(event.summary, /template "support-reply" of shop has a new prompt version \(its first version\)/);
  assert.is(event.value, 1);
  await mailFor(/New shop prompt/);
});

test('a budget crossing fires, and ingest then samples the project\'s calls out', async () => {
  const client = api();
  // 0.0003 USD a call: the fourth passes the $0.001 cap.
  const call = () => ({ ...answer(0, 'Thanks!'), cost_usd: 0.0003 });
  const first = await client.ingest(CAPPED, { traces: Array.from({ length: 4 }, call) });
  assert.equal([first.status, first.body.accepted, first.body.sampled_out], [202, 4, 0]);
  const [event] = (await waitFor(async () => { const list = await events('spend'); return list.length ? list : null; },
    { what: 'the budget rule fired', timeoutMs: 3 * INTERVAL_MS + 5000 }))!;
  assert.equal([event.status, event.threshold, event.severity], ['firing', 0.001, 'critical']);
  assert.ok(event.value >= 0.001, `spent ${event.value}`);
  const mail = (await mailFor(/Capped project over budget/))!;
  assert.match(mail.text ?? '', /capped|budget/i);

  const later = await client.ingest(CAPPED, { traces: Array.from({ length: 10 }, call) });
  assert.equal([later.status, later.body.accepted, later.body.sampled_out], [202, 10, 10]);
  const stats = await publicApi<{ requests: number }>(base, CAPPED, '/api/v1/stats?range=1h');
  assert.is(stats.requests, 4, 'calls past the cap are counted, not stored');
});

test('the weekly digest: its preview is the rendered message, and send-now delivers it once, a double click too', async () => {
  const client = api();
  const preview = await client.dashboard(TOKEN, '/api/alerts/digests/llm/shop/preview');
  assert.is(preview.status, 200, JSON.stringify(preview.body));
  assert.match(preview.body.message.title, /^Weekly LLM digest: shop, \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d$/);
  assert.match(preview.body.message.text, /Eval score by template\n/);
  assert.is(Date.parse(preview.body.data.to) - Date.parse(preview.body.data.from), 7 * 86_400_000);
  assert.is(new Date(preview.body.data.to).getUTCDay(), 1, 'the week ends on a Monday');
  assert.equal((await client.dashboard(TOKEN, '/api/alerts/digests/llm/nowhere/preview')).body.error.code, 'VIGIL_ERR_ALERTS_DIGEST');

  const send = () => client.dashboard(TOKEN, '/api/alerts/digests/llm/shop/send', { method: 'POST' });
  const [first, second] = await Promise.all([send(), send()]);
  assert.equal([first.status, second.status], [202, 202], JSON.stringify(first.body));
  assert.is(first.body.event_id, second.body.event_id);
  assert.equal(first.body.deliveries.map((d: Json) => d.channel_id), ['mail']);
  const mail = (await mailFor(/^Weekly LLM digest: shop/))!;
  assert.ok(mail.text?.startsWith(preview.body.message.text), 'the mail says what the preview showed');
  await new Promise((r) => setTimeout(r, 1500));
  assert.is(mails.filter((m) => /^Weekly LLM digest/.test(m.subject ?? '')).length, 1, 'sent once');
});

test.run();
