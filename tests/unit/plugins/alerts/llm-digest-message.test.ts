// The weekly LLM digest's rendering from known figures: the week's bounds, requests and cost against the week before,
// the eval score per template, the new prompt versions and the alerts fired, in the text and the (escaped) HTML.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lastWeek, type LlmDigestData } from '../../../../plugins/alerts/digest/llm-digest-data.js';
import { renderLlmDigest } from '../../../../plugins/alerts/digest/llm-digest-message.js';

const MONDAY = Date.UTC(2026, 10, 23);
const DAY = 86_400_000;

const data: LlmDigestData = {
  project: 'shop', from: MONDAY, to: MONDAY + 7 * DAY,
  requests: 1250, previous_requests: 1000, cost_usd: 9, previous_cost_usd: 12,
  scores: [{ template: 'support-reply', avg_score: 0.8125, samples: 320 }, { template: '<summary>', avg_score: 1, samples: 1 }],
  versions: [{ template: 'support-reply', version: 3, created_at: MONDAY + 2 * DAY + 3_600_000 }],
  alerts: [{ rule_name: 'Shop answers got worse', fired: 2 }, { rule_name: 'Spend & budget', fired: 1 }],
};

test('the week is the last whole UTC week, Monday to Monday, whatever the day and hour', () => {
  assert.equal(lastWeek(MONDAY + 7 * DAY), { from: MONDAY, to: MONDAY + 7 * DAY }, 'at Monday 00:00 the week just ended');
  assert.equal(lastWeek(MONDAY + 7 * DAY - 1), { from: MONDAY - 7 * DAY, to: MONDAY }, 'a millisecond before, the week before it');
  assert.equal(lastWeek(MONDAY + 10 * DAY + 5 * 3_600_000), { from: MONDAY, to: MONDAY + 7 * DAY }, 'on the Thursday after');
  assert.equal(lastWeek(MONDAY + 13 * DAY + 23 * 3_600_000), { from: MONDAY, to: MONDAY + 7 * DAY }, 'on the Sunday after');
});

test('the text says each figure, with the change on the week before', () => {
  const m = renderLlmDigest(data, 'http://127.0.0.1:9095/');
  assert.is(m.title, 'Weekly LLM digest: shop, 2026-11-23 to 2026-11-29');
  assert.is(m.severity, 'info');
  assert.is(m.url, 'http://127.0.0.1:9095/llm');
  assert.is(m.text, [
    'Project shop, the week of 2026-11-23 to 2026-11-29 (UTC).',
    'Traffic\n- Requests: 1,250 (+25.0% on the week before: 1,000)\n- Cost: $9.00 (−25.0% on the week before: $12.00)',
    'Eval score by template\n- support-reply: 0.81 over 320 results\n- <summary>: 1.00 over 1 result',
    'New prompt versions\n- support-reply v3 (2026-11-25)',
    'Alerts fired\n- Shop answers got worse: 2 times\n- Spend & budget: 1 time',
  ].join('\n\n'));
});

test('the HTML holds the same lines, escaped, and a link to the dashboard', () => {
  const html = renderLlmDigest(data, 'http://127.0.0.1:9095').html!;
  assert.match(html, '<li>Requests: 1,250 (+25.0% on the week before: 1,000)</li>');
  assert.match(html, '<li>&lt;summary&gt;: 1.00 over 1 result</li>');
  assert.match(html, '<li>Spend &amp; budget: 1 time</li>');
  assert.match(html, '<a href="http://127.0.0.1:9095/llm">');
  assert.not.match(html, '<summary>');
});

test('a quiet week says so, and a first week has nothing to compare with', () => {
  const quiet = renderLlmDigest({ ...data, requests: 0, previous_requests: 0, cost_usd: 0, previous_cost_usd: 0, scores: [], versions: [], alerts: [] }, 'http://x');
  assert.match(quiet.text, '- Requests: 0\n- Cost: $0.00\n');
  assert.match(quiet.text, 'Eval score by template\n- No eval results this week.');
  assert.match(quiet.text, 'New prompt versions\n- None.');
  assert.match(quiet.text, 'Alerts fired\n- None.');
  const first = renderLlmDigest({ ...data, previous_requests: 0, previous_cost_usd: 0 }, 'http://x');
  assert.match(first.text, '- Requests: 1,250 (none the week before)\n- Cost: $9.00 (none the week before)');
});

test.run();
