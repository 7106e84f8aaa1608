import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { llmCall, TEMPLATES, type TemplateName } from '../../../../app/demo/llm-calls.js';
import { historyRound, liveCall } from '../../../../app/demo/llm-traffic.js';
import { seeded } from '../../../../app/demo/random.js';
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

test('a history round holds one version of each template, with failures; a failure has no tokens and says why', () => {
  const round = historyRound(2, Date.now());
  assert.equal([...new Set(round.map((c) => c.prompt_template.name))], names);
  assert.ok(round.every((c) => c.prompt_template.raw === TEMPLATES[c.prompt_template.name as TemplateName][1].raw));
  const failed = round.filter((c) => c.status === 'error');
  assert.ok(failed.length >= 2);
  for (const f of failed) {
    assert.ok(f.error && !f.tokens && !f.output, JSON.stringify(f));
    assert.ok(f.error === 'Request timed out.' || /^(429|529) /.test(f.error), f.error);
  }
});

test('customers write emails and card numbers: the raw calls carry them (the project redacts them)', () => {
  const random = seeded(3);
  const text = JSON.stringify(Array.from({ length: 200 }, () => llmCall('support-reply', 1, Date.now(), random, false)));
  assert.match(text, /[a-z]+\.[a-z]+@example\.com/);
  assert.match(text, /4242[ -]?4242[ -]?4242[ -]?4242|5555[ -]?5555[ -]?5555[ -]?4444/);
});

test.run();
