import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_THRESHOLDS, judge } from '../../../../plugins/llm/api/gate.js';
import type { CallStats } from '../../../../plugins/llm/api/version-stats.js';

const stats = (o: Partial<CallStats>): CallStats => ({
  requests: 100, errors: 0, error_rate: 0, avg_score: null, p50_latency_ms: 100, p95_latency_ms: 200, p99_latency_ms: 300,
  cost_usd: 1, avg_cost_usd: 0.01, input_tokens: 0, output_tokens: 0, total_tokens: 0, first_seen: 1, last_seen: 2, ...o,
});
const base = { version: 1, stats: stats({}) };

test('thresholds pass and fail on the right quantity, each check showing both sides', () => {
  const cand = { version: 2, stats: stats({ p95_latency_ms: 230, error_rate: 0.03, avg_cost_usd: 0.012, avg_score: 0.8 }) };
  const b = { version: 1, stats: stats({ avg_score: 0.9 }) };
  const v = judge('t', b, cand, { max_p95_increase_pct: 10, max_error_rate: 0.05, max_cost_increase_pct: 25, max_score_drop: 0.05, min_score: 0.7 }, 30);
  assert.is(v.pass, false);
  const by = Object.fromEntries(v.checks.map((c) => [c.metric, c]));
  assert.is(by.max_p95_increase_pct.value, 15);
  assert.is(by.max_p95_increase_pct.pass, false);
  assert.is(by.max_error_rate.pass, true);
  assert.is(by.max_cost_increase_pct.pass, true);
  assert.ok(Math.abs(by.max_score_drop.value! - 0.1) < 1e-9);
  assert.is(by.max_score_drop.pass, false);
  assert.is(by.min_score.pass, true);
  // The reason words each failed check with its unit, never an API name; the default error-rate rise is checked too.
  assert.is(v.reason, 'eval score −0.10, limit −0.05; P95 latency +15 %, limit +10 %; error rate +3 points, limit +2 points');
});

test('one threshold given keeps the defaults of the others; a value given for a default replaces it', () => {
  const cand = { version: 2, stats: stats({ p95_latency_ms: 400, avg_cost_usd: 0.0253 }) };
  const v = judge('t', base, cand, { max_cost_increase_pct: 5 }, 30);
  assert.equal(v.checks.map((c) => [c.metric, c.threshold]), [['max_p95_increase_pct', 20], ['max_error_rate_increase', 0.02], ['max_cost_increase_pct', 5]]);
  assert.is(v.pass, false);
  assert.is(v.reason, 'P95 latency +100 %, limit +20 %; cost per call +153 %, limit +5 %');
  const loosened = judge('t', base, cand, { max_cost_increase_pct: 200, max_p95_increase_pct: 150 }, 30);
  assert.equal(loosened.checks.map((c) => [c.metric, c.threshold]), [['max_p95_increase_pct', 150], ['max_error_rate_increase', 0.02], ['max_cost_increase_pct', 200]]);
  assert.is(loosened.pass, true);
});

test('each metric in words, with its unit', () => {
  const cand = { version: 2, stats: stats({ error_rate: 0.2, avg_score: 0.62 }) };
  const v = judge('t', { version: 1, stats: stats({ error_rate: 0.04, avg_score: 0.9 }) }, cand, { min_score: 0.8, max_error_rate: 0.1 }, 30);
  assert.is(v.reason, 'eval score 0.62, limit at least 0.80; error rate 20 %, limit 10 %; error rate +16 points, limit +2 points');
});

test('too few samples: pass is null and the reason says which side, whatever the checks say', () => {
  const v = judge('t', { version: 1, stats: stats({ requests: 10 }) }, { version: 2, stats: stats({ error_rate: 1 }) }, { max_error_rate: 0.1 }, 30);
  assert.is(v.pass, null);
  assert.match(v.reason, /too few samples: v1 has 10 \(min_samples 30\)/);
  assert.is(v.checks.find((c) => c.metric === 'max_error_rate')!.pass, false);
});

test('no baseline (a first version), or no values (no eval scores yet): null with the reason', () => {
  assert.is(judge('t', null, base, {}, 30).pass, null);
  const noScore = judge('t', base, { version: 2, stats: stats({}) }, { min_score: 0.5 }, 30);
  assert.is(noScore.pass, null);
  assert.match(noScore.reason, /^cannot check eval score: no eval scores yet/);
});

test('no thresholds: the default ones are checked, not nothing; a rise from zero fails a percentage limit', () => {
  const v = judge('t', base, { version: 2, stats: stats({}) }, {}, 30);
  assert.equal(v.checks.map((c) => c.metric).sort(), Object.keys(DEFAULT_THRESHOLDS).sort());
  assert.is(v.pass, true);
  const fromZero = judge('t', { version: 1, stats: stats({ avg_cost_usd: 0 }) }, { version: 2, stats: stats({ avg_cost_usd: 0.01 }) }, { max_cost_increase_pct: 1000 }, 30);
  const cost = fromZero.checks.find((c) => c.metric === 'max_cost_increase_pct')!;
  assert.equal([fromZero.pass, cost.value], [false, null]);
  assert.is(fromZero.reason, 'cost per call up from $0, limit +1000 %');
});

test.run();
