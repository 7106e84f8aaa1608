import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadAt } from '../../../../app/demo/daily-load.js';
import { llmCall, TEMPLATES, type TemplateName, type TraceItem } from '../../../../app/demo/llm-calls.js';
import { HISTORY_ERAS, historyEra, liveCall, LLM_HISTORY_MS } from '../../../../app/demo/llm-traffic.js';
import { seeded } from '../../../../app/demo/random.js';
import { DEMO_CONFIG } from '../../../../app/demo/run-demo.js';
import { checkItem } from '../../../../plugins/llm/item-schema.js';
import { normaliseTemplate, templateHash } from '../../../../plugins/llm/normalise-template.js';

const names = Object.keys(TEMPLATES) as TemplateName[];

test('every call the demo makes is an item the server accepts (its own validator)', () => {
  const random = seeded(7);
  const calls = [...Array.from({ length: 400 }, () => liveCall(Date.now())),
    ...names.flatMap((t) => [1, 2, 3].flatMap((v) => [llmCall(t, v, Date.now(), random, true), llmCall(t, v, Date.now(), random, false)]))];
  calls.forEach((c, i) => {
    const r = checkItem(JSON.parse(JSON.stringify(c)), i);
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
  });
});

test('two templates, three versions each, that the server keeps apart (different normalised texts)', () => {
  assert.equal(names, ['support-reply', 'summarise-ticket']);
  for (const t of names) {
    const hashes = TEMPLATES[t].map((v) => templateHash(normaliseTemplate(v.raw)));
    assert.is(new Set(hashes).size, 3, t);
  }
});

const NOW = Date.UTC(2026, 5, 1, 12);

/** The day of history as the demo sends it: each era's calls, oldest first. */
function day(random = seeded(11)): TraceItem[] {
  return HISTORY_ERAS.flatMap(({ since, mix }, i) => historyEra(mix, NOW - since, i + 1 < HISTORY_ERAS.length ? NOW - HISTORY_ERAS[i + 1].since : NOW, undefined, random));
}

test('the history spans the day before the demo, shaped by the hour, with failures; versions come in order', () => {
  const calls = day();
  const times = calls.map((c) => Date.parse(c.start_time));
  assert.ok(calls.length > 800 && calls.length < 2000, `${calls.length} calls`);
  assert.ok(times.every((t) => t >= NOW - LLM_HISTORY_MS - 60_000 && t < NOW), 'within the day');
  // The busiest hour holds several times the quietest, as the daily curve says.
  const perHour = new Array<number>(24).fill(0);
  for (const t of times) perHour[Math.min(23, Math.floor((t - (NOW - LLM_HISTORY_MS)) / 3_600_000))]++;
  const hourLoad = perHour.map((_, h) => loadAt(NOW - LLM_HISTORY_MS + h * 3_600_000 + 1_800_000));
  const busiest = hourLoad.indexOf(Math.max(...hourLoad));
  const quietest = hourLoad.indexOf(Math.min(...hourLoad));
  assert.ok(perHour[busiest] > 3 * perHour[quietest], `busiest ${perHour[busiest]}, quietest ${perHour[quietest]}`);
  for (const t of names) {
    const versions = calls.filter((c) => c.prompt_template.name === t).map((c) => TEMPLATES[t].findIndex((v) => v.raw === c.prompt_template.raw) + 1);
    const firsts = [1, 2, 3].map((v) => versions.indexOf(v));
    assert.ok(firsts[0] === 0 && firsts[0] < firsts[1] && firsts[1] < firsts[2], `${t}: first of each version at ${firsts}`);
  }
  const failed = calls.filter((c) => c.status === 'error');
  assert.ok(failed.length >= 10);
  for (const f of failed) {
    assert.ok(f.error && !f.tokens && !f.output, JSON.stringify(f));
    assert.ok(f.error === 'Request timed out.' || /^(429|529) /.test(f.error), f.error);
  }
});

type Scorer = (trace: unknown) => { score: number; reason: string };

/** The demo config's eval functions, by id, with their template. */
async function demoEvals(): Promise<Map<string, { template: string; fn: Scorer }>> {
  const config = parse(readFileSync(DEMO_CONFIG, 'utf8')) as { evaluators: { definitions: { id: string; template: string; settings: { source: string } }[] } };
  const out = new Map<string, { template: string; fn: Scorer }>();
  for (const d of config.evaluators.definitions) {
    const module = await import(`data:text/javascript,${encodeURIComponent(d.settings.source)}`) as { default: Scorer };
    out.set(d.id, { template: d.template, fn: module.default });
  }
  return out;
}

test('the demo\'s evals tell the versions apart: each scores the version that changed what it checks differently', async () => {
  const evals = await demoEvals();
  assert.equal([...evals.keys()], ['concise-reply', 'hands-over-payments', 'actions-listed']);
  const random = seeded(5);
  const average = (id: string, version: number): number => {
    const { template, fn } = evals.get(id)!;
    const scores = Array.from({ length: 400 }, () => llmCall(template as TemplateName, version, NOW, random, false)).map((c) => fn(JSON.parse(JSON.stringify(c))).score);
    return scores.reduce((a, b) => a + b, 0) / scores.length;
  };
  const by = (id: string) => [1, 2, 3].map((v) => Math.round(average(id, v) * 100) / 100);
  const concise = by('concise-reply');
  assert.ok(concise[0] < 0.7 && concise[1] > 0.95 && concise[2] > 0.9, `concise-reply by version: ${concise}`);
  const handover = by('hands-over-payments');
  assert.ok(handover[0] < 0.85 && handover[1] < 0.85 && handover[2] > 0.9, `hands-over-payments by version: ${handover}`);
  const actions = by('actions-listed');
  assert.ok(actions[0] === 0 && actions[1] === 1 && actions[2] > 0.6 && actions[2] < 0.95, `actions-listed by version: ${actions}`);
});

test('customers write emails and card numbers: the raw calls carry them (the project redacts them)', () => {
  const random = seeded(3);
  const text = JSON.stringify(Array.from({ length: 200 }, () => llmCall('support-reply', 1, Date.now(), random, false)));
  assert.match(text, /[a-z]+\.[a-z]+@example\.com/);
  assert.match(text, /4242[ -]?4242[ -]?4242[ -]?4242|5555[ -]?5555[ -]?5555[ -]?4444/);
});

test.run();
